//! How the panes tile the scene area: the one grid the panel labels and the renderer
//! draws, in whatever unit the caller measures the area (egui points or pixels).

/// Width over height a pane is best at: the shape the scene is framed for.
const PANE_ASPECT: f32 = crate::world::FRAMED_ASPECT;

/// Columns and rows of a grid of `count` equal panes filling a `width` × `height` area:
/// the number of columns that gives each pane the most room at a landscape shape.
pub fn grid_shape(count: usize, width: f32, height: f32) -> (usize, usize) {
    let count = count.max(1);
    let score = |columns: usize| {
        let rows = count.div_ceil(columns);
        let (w, h) = (width / columns as f32, height / rows as f32);
        // The largest PANE_ASPECT rectangle that fits in the cell.
        (w / PANE_ASPECT).min(h)
    };
    let columns = (1..=count)
        .max_by(|&a, &b| score(a).total_cmp(&score(b)))
        .unwrap_or(1);
    (columns, count.div_ceil(columns))
}

/// Cells `[x, y, width, height]` of the grid of `count` equal panes over the area
/// `[x, y, width, height]`, row by row (see [`grid_shape`]).
pub fn pane_grid(
    count: usize,
    [x, y, width, height]: [f32; 4],
) -> impl ExactSizeIterator<Item = [f32; 4]> {
    let (columns, rows) = grid_shape(count, width, height);
    let (w, h) = (width / columns as f32, height / rows as f32);
    (0..count).map(move |i| {
        [
            x + (i % columns) as f32 * w,
            y + (i / columns) as f32 * h,
            w,
            h,
        ]
    })
}

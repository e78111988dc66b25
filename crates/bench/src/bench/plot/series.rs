//! A per-frame series kept at a bounded size for drawing: each column of consecutive frames
//! keeps its first, lowest, highest and last point (M4 aggregation). A line through those
//! points, with a column no wider than a pixel, lights the same pixels as a line through
//! every point, so a day-long trace plots like a ten-second one in a few kilobytes.

/// One column of frames: four points, `(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Column {
    /// Which column (frame index / frames per column).
    index: u64,
    /// The column's first point.
    first: (f64, f64),
    /// Its lowest point (the first of equals).
    low: (f64, f64),
    /// Its highest point (the first of equals).
    high: (f64, f64),
    /// Its last point.
    last: (f64, f64),
}

/// A line series downsampled into columns of frames (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct Envelope {
    /// Consecutive frames that share a column, at least 1.
    frames_per_column: u64,
    /// The columns with a point, in order.
    columns: Vec<Column>,
}

impl Envelope {
    /// An empty series for frames `0..frames`, kept in at most `columns` columns.
    pub fn new(frames: u64, columns: u32) -> Self {
        let columns = u64::from(columns.max(1));
        Self {
            frames_per_column: frames.div_ceil(columns).max(1),
            columns: Vec::new(),
        }
    }

    /// Adds frame `frame`'s point. Frames come in increasing order; a frame may be
    /// missing (a frame never shown has no animation error).
    pub fn push(&mut self, frame: u64, x: f64, y: f64) {
        let index = frame / self.frames_per_column;
        let point = (x, y);
        match self.columns.last_mut() {
            Some(column) if column.index == index => {
                if y < column.low.1 {
                    column.low = point;
                }
                if y > column.high.1 {
                    column.high = point;
                }
                column.last = point;
            }
            _ => self.columns.push(Column {
                index,
                first: point,
                low: point,
                high: point,
                last: point,
            }),
        }
    }

    /// The points to draw a line through, in frame order: per column the first, the
    /// lowest and the highest in the order they came, and the last (repeats left out).
    pub fn points(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.columns.iter().flat_map(|column| {
            let (a, b) = if column.low.0 <= column.high.0 {
                (column.low, column.high)
            } else {
                (column.high, column.low)
            };
            let mut points = [Some(column.first), Some(a), Some(b), Some(column.last)];
            for i in 1..points.len() {
                if points[..i].contains(&points[i]) {
                    points[i] = None;
                }
            }
            points.into_iter().flatten()
        })
    }

    /// The lowest and highest `y`, or `None` for no points.
    pub fn y_range(&self) -> Option<(f64, f64)> {
        self.columns.iter().fold(None, |range, column| {
            let (low, high) = range.unwrap_or((column.low.1, column.high.1));
            Some((low.min(column.low.1), high.max(column.high.1)))
        })
    }

    /// The largest `x`, or `None` for no points.
    pub fn x_max(&self) -> Option<f64> {
        self.columns
            .iter()
            .map(|column| column.last.0)
            .reduce(f64::max)
    }

    /// Columns kept.
    pub fn columns(&self) -> usize {
        self.columns.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_series_keeps_every_point() {
        let mut envelope = Envelope::new(5, 100);
        for i in 0..5 {
            envelope.push(i, i as f64, (i * i) as f64);
        }
        let points: Vec<_> = envelope.points().collect();
        assert_eq!(
            points,
            [(0.0, 0.0), (1.0, 1.0), (2.0, 4.0), (3.0, 9.0), (4.0, 16.0)]
        );
    }

    #[test]
    fn a_long_series_is_bounded_and_keeps_every_extreme() {
        // A million frames of a sawtooth with one spike and one dip.
        let frames = 1_000_000u64;
        let mut envelope = Envelope::new(frames, 800);
        for i in 0..frames {
            let y = match i {
                123_457 => 1000.0,
                876_543 => -1000.0,
                _ => (i % 7) as f64,
            };
            envelope.push(i, i as f64, y);
        }
        assert!(envelope.columns() <= 800, "{}", envelope.columns());
        let points: Vec<_> = envelope.points().collect();
        assert!(points.len() <= 4 * 800);
        assert!(points.contains(&(123_457.0, 1000.0)));
        assert!(points.contains(&(876_543.0, -1000.0)));
        assert_eq!(envelope.y_range(), Some((-1000.0, 1000.0)));
        assert_eq!(envelope.x_max(), Some((frames - 1) as f64));
        // In frame order, so the line never runs backwards.
        assert!(points.windows(2).all(|pair| pair[0].0 < pair[1].0));
    }

    #[test]
    fn a_high_before_a_low_is_drawn_in_that_order() {
        let mut envelope = Envelope::new(4, 1);
        for (i, y) in [0.0, 5.0, -5.0, 1.0].into_iter().enumerate() {
            envelope.push(i as u64, i as f64, y);
        }
        let points: Vec<_> = envelope.points().collect();
        assert_eq!(points, [(0.0, 0.0), (1.0, 5.0), (2.0, -5.0), (3.0, 1.0)]);
    }

    #[test]
    fn missing_frames_and_no_frames() {
        let mut envelope = Envelope::new(10, 10);
        assert_eq!(envelope.y_range(), None);
        assert_eq!(envelope.points().count(), 0);
        envelope.push(3, 0.3, 1.0);
        envelope.push(7, 0.7, 2.0);
        assert_eq!(
            envelope.points().collect::<Vec<_>>(),
            [(0.3, 1.0), (0.7, 2.0)]
        );
    }
}

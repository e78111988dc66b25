//! Where the panes the UI laid out go on the render target, in physical pixels.

use crate::grid::pane_grid;
use crate::render::Viewport;
use crate::ui::UiOutput;

/// `count` equal panes in a grid filling `area`, row by row (see
/// [`crate::grid::pane_grid`]).
pub fn grid_viewports(count: usize, area: Viewport) -> Vec<Viewport> {
    pane_grid(count, [area.x, area.y, area.width, area.height])
        .map(|[x, y, width, height]| Viewport {
            x,
            y,
            width,
            height,
        })
        .collect()
}

/// Where each pane the UI laid out goes on a `size` target (physical pixels): its rectangle
/// scaled to pixels and kept inside the target. When the UI left no room for the scene,
/// the panes share the whole target instead (as [`scene_area`] does for the scene).
pub fn pane_viewports(output: &UiOutput, pixels_per_point: f32, size: (u32, u32)) -> Vec<Viewport> {
    match usable_pixels(output.scene, pixels_per_point, size) {
        Some(_) => output
            .pane_rects()
            .iter()
            .map(|&rect| to_pixels(rect, pixels_per_point, size))
            .collect(),
        None => grid_viewports(output.pane_count, Viewport::full(size.0, size.1)),
    }
}

/// The scene's area in physical pixels: what the panel leaves free, or the whole target.
pub fn scene_area(rect: egui::Rect, pixels_per_point: f32, size: (u32, u32)) -> Viewport {
    usable_pixels(rect, pixels_per_point, size).unwrap_or(Viewport::full(size.0, size.1))
}

/// `rect` (points) in physical pixels, kept inside a `size` target; `None` when that leaves
/// less than a pixel either way, or the rectangle is not finite.
fn usable_pixels(rect: egui::Rect, pixels_per_point: f32, size: (u32, u32)) -> Option<Viewport> {
    let viewport = to_pixels(rect, pixels_per_point, size);
    (rect.is_finite() && viewport.width >= 1.0 && viewport.height >= 1.0).then_some(viewport)
}

/// `rect` (points) in physical pixels, clamped to a `size` target (possibly empty).
fn to_pixels(rect: egui::Rect, pixels_per_point: f32, (width, height): (u32, u32)) -> Viewport {
    let (w, h) = (width as f32, height as f32);
    let x0 = (rect.min.x * pixels_per_point).clamp(0.0, w);
    let y0 = (rect.min.y * pixels_per_point).clamp(0.0, h);
    let x1 = (rect.max.x * pixels_per_point).clamp(x0, w);
    let y1 = (rect.max.y * pixels_per_point).clamp(y0, h);
    Viewport {
        x: x0,
        y: y0,
        width: x1 - x0,
        height: y1 - y0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(width: f32, height: f32) -> Viewport {
        Viewport {
            x: 10.0,
            y: 20.0,
            width,
            height,
        }
    }

    #[test]
    fn six_panes_on_a_wide_window_make_three_by_two() {
        let panes = grid_viewports(6, area(1500.0, 800.0));
        assert_eq!(panes.len(), 6);
        assert_eq!((panes[2].x, panes[2].y), (1010.0, 20.0));
        assert_eq!((panes[3].x, panes[3].y), (10.0, 420.0));
        assert!(panes.iter().all(|p| p.width == 500.0 && p.height == 400.0));
    }

    #[test]
    fn panes_tile_the_area_without_overlap() {
        for count in 1..=6 {
            for (w, h) in [(1280.0, 720.0), (600.0, 1000.0), (300.0, 300.0)] {
                let panes = grid_viewports(count, area(w, h));
                assert_eq!(panes.len(), count);
                for (i, a) in panes.iter().enumerate() {
                    assert!(a.x >= 10.0 && a.x + a.width <= 10.0 + w + 1e-3);
                    assert!(a.y >= 20.0 && a.y + a.height <= 20.0 + h + 1e-3);
                    for b in &panes[i + 1..] {
                        let apart = a.x + a.width <= b.x + 1e-3
                            || b.x + b.width <= a.x + 1e-3
                            || a.y + a.height <= b.y + 1e-3
                            || b.y + b.height <= a.y + 1e-3;
                        assert!(apart, "{count} panes overlap in {w}x{h}");
                    }
                }
            }
        }
        assert_eq!(grid_viewports(1, area(640.0, 480.0))[0].width, 640.0);
        assert!(grid_viewports(0, area(640.0, 480.0)).is_empty());
    }

    #[test]
    fn labels_and_viewports_share_one_grid() {
        let rect = egui::Rect::from_min_size(egui::pos2(330.0, 0.0), egui::vec2(950.0, 600.0));
        for count in 1..=6 {
            let viewports = grid_viewports(count, scene_area(rect, 2.0, (2560, 1600)));
            let rects: Vec<egui::Rect> = crate::ui::grid_rects(count, rect).collect();
            assert_eq!(rects.len(), count);
            for (viewport, rect) in viewports.iter().zip(&rects) {
                let close = |a: f32, b: f32| (a - b).abs() < 1e-3;
                assert!(
                    close(viewport.x, rect.min.x * 2.0),
                    "{count}: {viewport:?} {rect:?}"
                );
                assert!(
                    close(viewport.y, rect.min.y * 2.0),
                    "{count}: {viewport:?} {rect:?}"
                );
                assert!(close(viewport.width, rect.width() * 2.0));
                assert!(close(viewport.height, rect.height() * 2.0));
            }
        }
    }

    #[test]
    fn the_scene_area_is_what_the_panel_leaves() {
        let rect = egui::Rect::from_min_max(egui::pos2(330.0, 0.0), egui::pos2(640.0, 400.0));
        let area = scene_area(rect, 2.0, (1280, 800));
        assert_eq!(
            (area.x, area.y, area.width, area.height),
            (660.0, 0.0, 620.0, 800.0)
        );
        let full = scene_area(egui::Rect::NOTHING, 1.0, (100, 50));
        assert_eq!((full.width, full.height), (100.0, 50.0));
    }
}

//! Plots of the last few seconds of frames.

use egui_plot::{HLine, Line, Plot, PlotPoints};

use crate::live::History;
use crate::timestep::{Nanos, ms_from_ns};

/// Seconds of history the plots show.
pub const PLOT_SPAN_S: f64 = 5.0;

/// Buckets a series is reduced to: about one per horizontal point of a plot, so an uncapped
/// loop at thousands of frames per second costs no more to plot than one at 60.
const PLOT_BUCKETS: usize = 300;

/// Height of one plot, points.
const PLOT_HEIGHT: f32 = 64.0;

/// Frame time with the dt line, steps per frame, owed time and alpha, over the last
/// [`PLOT_SPAN_S`] seconds (x: seconds before now).
pub fn plots_ui(ui: &mut egui::Ui, history: &History, dt: Nanos) {
    let newest = history.latest().map_or(0, |s| s.wall);
    let span = (PLOT_SPAN_S * 1e9) as Nanos;
    let x = |wall: Nanos| -(newest.saturating_sub(wall) as f64 / 1e9);
    let series = |value: &dyn Fn(&crate::live::FrameSample) -> f64| -> PlotPoints<'static> {
        let points: Vec<[f64; 2]> = history
            .recent(span)
            .map(|s| [x(s.wall), value(s)])
            .collect();
        PlotPoints::new(min_max_buckets(points, PLOT_BUCKETS))
    };
    let dt_ms = ms_from_ns(dt);
    let accent = egui::Color32::from_rgb(240, 160, 60);
    let guide = egui::Color32::from_rgb(120, 200, 255);

    ui.label("frame time, ms (blue: dt)");
    small_plot("plot_frame_time")
        .include_y(2.0 * dt_ms)
        .show(ui, |plot| {
            plot.line(Line::new("frame ms", series(&|s| ms_from_ns(s.real_frame))).color(accent));
            plot.hline(HLine::new("dt", dt_ms).color(guide));
        });
    ui.label("steps per frame");
    small_plot("plot_steps").include_y(2.0).show(ui, |plot| {
        plot.line(Line::new("steps", series(&|s| f64::from(s.steps))).color(accent));
    });
    ui.label("owed time, ms (blue: dt)");
    small_plot("plot_owed")
        .include_y(2.0 * dt_ms)
        .show(ui, |plot| {
            plot.line(Line::new("owed ms", series(&|s| ms_from_ns(s.owed))).color(accent));
            plot.hline(HLine::new("dt", dt_ms).color(guide));
        });
    ui.label("alpha (accumulator / dt)");
    small_plot("plot_alpha").include_y(1.0).show(ui, |plot| {
        plot.line(Line::new("alpha", series(&|s| f64::from(s.alpha))).color(accent));
    });
}

/// A compact, non-interactive plot spanning the last [`PLOT_SPAN_S`] seconds.
fn small_plot(id: &str) -> Plot<'_> {
    Plot::new(id)
        .height(PLOT_HEIGHT)
        .include_x(-PLOT_SPAN_S)
        .include_x(0.0)
        .include_y(0.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show_x(false)
        .y_axis_min_width(28.0)
}

/// Reduces `points` (in x order) to the lowest and highest point of each of `buckets` runs,
/// in x order, so that spikes survive. Series short enough are returned whole.
fn min_max_buckets(points: Vec<[f64; 2]>, buckets: usize) -> Vec<[f64; 2]> {
    if points.len() <= 2 * buckets.max(1) {
        return points;
    }
    let per_bucket = points.len().div_ceil(buckets.max(1));
    let mut reduced = Vec::with_capacity(2 * buckets);
    for chunk in points.chunks(per_bucket) {
        let by_y = |a: &&[f64; 2], b: &&[f64; 2]| a[1].total_cmp(&b[1]);
        let (Some(low), Some(high)) = (chunk.iter().min_by(by_y), chunk.iter().max_by(by_y)) else {
            continue;
        };
        let (first, second) = if low[0] <= high[0] {
            (low, high)
        } else {
            (high, low)
        };
        reduced.push(*first);
        if second != first {
            reduced.push(*second);
        }
    }
    reduced
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_series_are_kept_whole() {
        let points: Vec<[f64; 2]> = (0..10).map(|i| [f64::from(i), 1.0]).collect();
        assert_eq!(min_max_buckets(points.clone(), 300), points);
    }

    #[test]
    fn long_series_keep_their_spikes_in_order() {
        let points: Vec<[f64; 2]> = (0..8192)
            .map(|i| [f64::from(i), if i == 5000 { 80.0 } else { 16.7 }])
            .collect();
        let reduced = min_max_buckets(points, 300);
        assert!(reduced.len() <= 600, "{} points", reduced.len());
        assert!(reduced.iter().any(|p| p[1] == 80.0), "the spike survives");
        assert!(
            reduced.windows(2).all(|w| w[0][0] <= w[1][0]),
            "x stays in order"
        );
        assert_eq!(reduced.first().map(|p| p[0]), Some(0.0));
    }
}

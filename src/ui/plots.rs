//! Plots of the last few seconds of frames.

use egui_plot::{HLine, Line, Plot, PlotPoints};

use crate::live::History;
use crate::timestep::{Nanos, ms_from_ns};

/// Seconds of history the plots show.
pub const PLOT_SPAN_S: f64 = 5.0;

/// Height of one plot, points.
const PLOT_HEIGHT: f32 = 64.0;

/// Frame time with the dt line, steps per frame, owed time and alpha, over the last
/// [`PLOT_SPAN_S`] seconds (x: seconds before now).
pub fn plots_ui(ui: &mut egui::Ui, history: &History, dt: Nanos) {
    let newest = history.latest().map_or(0, |s| s.wall);
    let span = (PLOT_SPAN_S * 1e9) as Nanos;
    let x = |wall: Nanos| -(newest.saturating_sub(wall) as f64 / 1e9);
    let series = |value: &dyn Fn(&crate::live::FrameSample) -> f64| -> PlotPoints<'static> {
        history
            .recent(span)
            .map(|s| [x(s.wall), value(s)])
            .collect()
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

//! The panel's frame statistics: the bench's trace statistics of the loop's real frame
//! times over a window the person picks (1 s, 10 s, the session), and their distribution
//! plots (a frame-time histogram and the percentile curve). The core computes the numbers
//! ([`crate::live::FrameStatsReadouts`]) and the plots' points; this only shows them. The
//! window picked stays in [`super::PanelState`].

use egui::{Color32, RichText};
use egui_plot::{Bar, BarChart, HLine, Line, Plot, PlotPoints, VLine};

use super::shared::ms;
use crate::live::{
    FrameStatsReadouts, RECENT_FRAMES, RECENT_FULL_FPS, SpanFrameStats, SpanFrames, StatsSpan,
};
use crate::metrics::{FrameBins, FrameStats, HITCH_FACTOR, percentile_curve};
use crate::timestep::{Nanos, ms_from_ns, secs_from_ns};

/// Bins the frame-time histogram aims for.
const HISTOGRAM_BINS: usize = 40;

/// The percentile curve keeps about one step per this many percent (and the longest
/// frame): at most 400 points, about one per horizontal point of the plot.
const CURVE_STEP_PERCENT: f64 = 0.5;

/// Height of a distribution plot, points: room for a few labelled ticks.
const PLOT_HEIGHT: f32 = 90.0;

/// The plots' series colour (the time plots' accent).
const ACCENT: Color32 = Color32::from_rgb(240, 160, 60);

/// The hitch threshold's colour.
const THRESHOLD: Color32 = Color32::from_rgb(220, 90, 60);

/// What the frame times are, for every hover text.
const FRAME_TIMES: &str = "The loop's real frame times: the stopwatch time from one frame's \
    start to the next, plus artificial load carried in — what a recording holds and what \
    `bench --trace` reads.";

/// What the session window is, for its hover texts.
const SESSION: &str = "Session: every frame since the start or the last reset, kept in fixed \
    memory as a histogram of 1/1024-wide buckets: the frame count, total time, average and \
    max are exact; percentiles, lows and the hitch threshold are within 0.1%.";

/// The window picker and the statistics over the window picked. Always the same rows, so
/// nothing below moves when the window or the numbers change.
pub(super) fn frame_stats_ui(
    ui: &mut egui::Ui,
    selected: &mut StatsSpan,
    readouts: &FrameStatsReadouts,
) {
    ui.horizontal(|ui| {
        ui.label("window");
        for window in StatsSpan::ALL {
            if ui
                .selectable_label(*selected == window, window.label())
                .on_hover_text(window_help(window))
                .clicked()
            {
                *selected = window;
            }
        }
    });
    let window = *selected;
    let shown = readouts.get(window);
    let stats = shown.stats;
    let session = if window == StatsSpan::Session {
        SESSION
    } else {
        ""
    };
    egui::Grid::new("frame_stats")
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            let mut row = |name: &str, value: String, help: &str| {
                let help = format!("{help}\n\n{FRAME_TIMES}\n\n{session}");
                let help = help.trim_end();
                ui.label(name).on_hover_text(help);
                ui.monospace(value).on_hover_text(help);
                ui.end_row();
            };
            row(
                "frames",
                stats.map_or_else(
                    || "-".to_owned(),
                    |s| format!("{} in {:.2} s", s.all.frames, secs_from_ns(s.all.time)),
                ),
                "Frames in the window and their total time.",
            );
            row(
                "average rate",
                fps(stats.and_then(|s| s.average_fps())),
                "Frames over their total time (the harmonic mean of the per-frame rates, as \
                 CapFrameX computes Average), not the mean of per-frame fps.",
            );
            let percentiles = "Nearest-rank percentiles: P99 is the frame time with at least \
                               99% of the frames at or below it, a frame time that occurred.";
            row(
                "P50 / P90 / P95",
                frame_times(stats, |s| [s.p50, s.p90, s.p95]),
                percentiles,
            );
            row(
                "P99 / P99.9 / max",
                frame_times(stats, |s| [s.p99, s.p99_9, s.max]),
                percentiles,
            );
            row(
                "1% / 0.1% low",
                format!(
                    "{} / {}",
                    fps(stats.and_then(|s| s.one_percent_low_fps())),
                    fps(stats.and_then(|s| s.point_one_percent_low_fps()))
                ),
                "CapFrameX's \"1% low average\": the slowest 1% (0.1%) of the frames, \
                 ceil(n / 100) of them (ceil(n / 1000)), at least one, as a rate: their \
                 count over their total time. Not the 99th percentile as a rate (P1), which \
                 cannot see anything in the slowest 1%.",
            );
            row(
                &format!("hitches > {HITCH_FACTOR}x median"),
                stats.map_or_else(|| "-".to_owned(), hitches),
                "Stutter: frames longer than twice the median frame time (the upper median), \
                 as the bench counts hitches and the timeline draws them in orange: how \
                 many, their share of the frames, and the threshold.",
            );
            row(
                "time in hitches",
                stats
                    .and_then(|s| s.hitch_time_percent())
                    .map_or_else(|| "-".to_owned(), |share| format!("{share:.2}%")),
                "The share of the window's total time spent in hitches.",
            );
        });
    ui.add(egui::Label::new(RichText::new(coverage(window, shown)).small()).truncate());
}

/// What `window` holds, for its selector's hover text.
fn window_help(window: StatsSpan) -> String {
    match window {
        StatsSpan::OneSecond => "The frames that started within the last second, exactly \
                                   (the other readouts' window)."
            .to_owned(),
        StatsSpan::TenSeconds => format!(
            "The frames that started within the last ten seconds, exactly; at over \
             {RECENT_FULL_FPS} fps, the newest {RECENT_FRAMES} frames."
        ),
        StatsSpan::Session => SESSION.to_owned(),
    }
}

/// One line on what the statistics cover.
fn coverage(window: StatsSpan, shown: &SpanFrameStats) -> String {
    match window {
        _ if shown.truncated => {
            format!("over {RECENT_FULL_FPS} fps: the newest {RECENT_FRAMES} frames only, exact")
        }
        StatsSpan::OneSecond => "the frames that started in the last second, exact".into(),
        StatsSpan::TenSeconds => "the frames that started in the last 10 s, exact".into(),
        StatsSpan::Session => "since the start or reset; percentiles and lows within 0.1%".into(),
    }
}

/// Three frame times in ms, or dashes before the first frame.
fn frame_times(stats: Option<FrameStats>, pick: impl Fn(&FrameStats) -> [Nanos; 3]) -> String {
    stats.map_or_else(
        || "- / - / - ms".to_owned(),
        |s| {
            let [a, b, c] = pick(&s).map(|frame| ms(ms_from_ns(frame)));
            format!("{a} / {b} / {c} ms")
        },
    )
}

/// A rate in fps, or a dash when the frames took no time.
fn fps(rate: Option<f64>) -> String {
    rate.map_or_else(|| "- fps".to_owned(), |rate| format!("{rate:.1} fps"))
}

/// The hitch count, its share of the frames and the threshold.
fn hitches(stats: FrameStats) -> String {
    let share = stats.hitches.frames as f64 * 100.0 / stats.all.frames.max(1) as f64;
    match stats.hitch_threshold {
        Some(threshold) => format!(
            "{} ({share:.1}%) > {} ms",
            stats.hitches.frames,
            ms(ms_from_ns(threshold))
        ),
        None => format!("{} (median 0)", stats.hitches.frames),
    }
}

/// The frame-time histogram and the percentile curve of `window`'s frames, with the hitch
/// threshold of its statistics.
pub(super) fn frame_distribution_ui(
    ui: &mut egui::Ui,
    window: StatsSpan,
    frames: &SpanFrames<'_>,
    stats: &SpanFrameStats,
) {
    let threshold_ms = stats.stats.and_then(|s| s.hitch_threshold).map(ms_from_ns);
    let approximate = if window == StatsSpan::Session {
        " The session's frames are read from its histogram: within 0.1%."
    } else {
        ""
    };
    // One line each, cut short in a narrow panel, so that picking another window never
    // moves the rows below.
    caption_ui(
        ui,
        format!(
            "frame-time histogram, {} (red: {HITCH_FACTOR}x median)",
            window.label()
        ),
        format!(
            "The share of the window's frames in each bin of frame time, ms. The red line is \
             the hitch threshold, {HITCH_FACTOR} times the median frame time.{approximate}"
        ),
    );
    let bins = FrameBins::of(frames, HISTOGRAM_BINS);
    let total = bins.frames.iter().sum::<u64>().max(1) as f64;
    let width_ms = ms_from_ns(bins.width);
    let bars: Vec<Bar> = bins
        .frames
        .iter()
        .enumerate()
        .filter(|&(_, &count)| count > 0)
        .map(|(i, &count)| {
            let start = bins.from + i as Nanos * bins.width;
            Bar::new(
                ms_from_ns(start) + width_ms / 2.0,
                count as f64 * 100.0 / total,
            )
            .width(width_ms)
            .fill(ACCENT.gamma_multiply(0.6))
            .stroke(egui::Stroke::new(1.0, ACCENT))
        })
        .collect();
    distribution_plot("plot_frame_histogram")
        .include_y(0.0)
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("frames %", bars));
            if let Some(threshold) = threshold_ms {
                plot.vline(VLine::new("hitch threshold", threshold).color(THRESHOLD));
            }
        });
    caption_ui(
        ui,
        format!("percentile curve, {}: ms at % of frames", window.label()),
        format!(
            "Each frame time, ms, at the share of the window's frames at or below it: the \
             curve at 99 is P99. The red line is the hitch threshold.{approximate}"
        ),
    );
    let curve: Vec<[f64; 2]> = percentile_curve(frames, CURVE_STEP_PERCENT)
        .into_iter()
        .map(|(percent, frame)| [percent, ms_from_ns(frame)])
        .collect();
    distribution_plot("plot_percentile_curve")
        .include_x(0.0)
        .include_x(100.0)
        .include_y(0.0)
        .show(ui, |plot| {
            // Steps share their x: drawn as a line, not merged into a band.
            plot.line(
                Line::new("frame ms", PlotPoints::new(curve))
                    .color(ACCENT)
                    .allow_band(false),
            );
            if let Some(threshold) = threshold_ms {
                plot.hline(HLine::new("hitch threshold", threshold).color(THRESHOLD));
            }
        });
}

/// A plot's caption on one line, explained on hover.
fn caption_ui(ui: &mut egui::Ui, text: String, help: String) {
    ui.add(egui::Label::new(text).truncate())
        .on_hover_text(help);
}

/// A compact, non-interactive plot.
fn distribution_plot(id: &str) -> Plot<'_> {
    Plot::new(id)
        .height(PLOT_HEIGHT)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .y_axis_min_width(28.0)
}

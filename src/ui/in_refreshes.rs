//! "At the screen, in refreshes": every pane's shown frames counted in whole refreshes of
//! the modeled screen (how long each took from its start to the screen, how far apart shown
//! frames were), the frames shown late, and how `display-time`'s forecast did. The core
//! counts them exactly as `bench` does ([`crate::metrics::RefreshHistograms`]); this only
//! shows them, as shares of each pane's shown frames.

use egui::RichText;

use super::PANE_COLORS;
use super::readouts::{screen_model, source_label};
use crate::live::{DisplayTimesBy, PaneReadout, Readouts};
use crate::metrics::{REFRESH_BUCKETS, RefreshHistograms};

/// What the latency table counts, for its hover text.
const LATENCY_HELP: &str = "Display latency in whole refreshes, rounded up: from the frame's \
    start to the refresh that first showed it. Column n holds the frames that took more than \
    n - 1 and at most n refreshes; 7+ all longer. Each row is a pane's shown frames, in \
    percent (\u{00b7}: none, <1: under half a percent; hover a cell for the count).";

/// What the gap table counts, for its hover text.
const GAPS_HELP: &str = "Gaps between shown frames in refreshes, to the nearest: 1 is a new \
    image every refresh, 2 is one repeat between two images, 0 is two images within one \
    refresh (tearing or a VRR burst). Smooth motion at the refresh rate is all 1s.";

/// What late frames are, for their hover text.
const LATE_HELP: &str = "Frames whose image was ready for a refresh but reached the screen at \
    a later one, because earlier images were still waiting in the queue (or VRR's refresh \
    was busy): the lag that buffer stuffing adds. Counted on the modeled screen since the \
    start or the last reset; every pane shares the screen.";

/// What the forecast row says, for its hover text.
const FORECAST_HELP: &str = "display-time draws each frame at the time it is forecast to \
    reach the screen. A frame shown a refresh later or earlier than forecast is drawn one \
    refresh off: that is what a wrong forecast costs. Late and early count frames off by \
    more than 0.01 ms.";

/// The section: a header line, the late frames, the two tables, and the forecast of any
/// `display-time` pane.
pub(super) fn in_refreshes_ui(ui: &mut egui::Ui, readouts: &Readouts) {
    let panes = &readouts.panes[..readouts.pane_count.min(readouts.panes.len())];
    let unit = panes
        .iter()
        .find_map(|pane| pane.refreshes)
        .map_or(0, |refreshes| refreshes.unit);
    let shown = match readouts.screen.display_times {
        DisplayTimesBy::Model => String::new(),
        DisplayTimesBy::Measurement(source) => format!(
            " Frames shown as measured ({}); late frames are the model's.",
            source_label(source)
        ),
    };
    ui.small(format!(
        "1 refresh = {:.2} ms: {}. Since the start or the last reset.{shown}",
        unit as f64 / 1e6,
        screen_model(&readouts.screen)
    ));
    let shown: u64 = panes
        .get(readouts.focus)
        .and_then(|pane| pane.refreshes)
        .map_or(0, |refreshes| refreshes.latency.iter().sum());
    ui.label(format!(
        "late frames: {} of {shown} shown",
        readouts.screen.late_frames
    ))
    .on_hover_text(LATE_HELP);
    histogram_ui(ui, "latency", "start to screen", panes, LATENCY_HELP, |r| {
        &r.latency
    });
    histogram_ui(ui, "gaps", "between shown frames", panes, GAPS_HELP, |r| {
        &r.gaps
    });
    for pane in panes {
        let (Some(strategy), Some(forecast)) = (pane.strategy, pane.forecast) else {
            continue;
        };
        ui.label(format!(
            "{} forecast: {} late, {} early of {}\nerror: mean {:.2} ms, worst {:.2} ms",
            strategy.id(),
            forecast.late,
            forecast.early,
            forecast.frames,
            forecast.mean_abs_ms(),
            forecast.worst as f64 / 1e6
        ))
        .on_hover_text(FORECAST_HELP);
    }
}

/// One histogram as a table: a header of refresh counts, a row of percentages per pane.
fn histogram_ui(
    ui: &mut egui::Ui,
    name: &str,
    what: &str,
    panes: &[PaneReadout],
    help: &str,
    buckets: impl Fn(&RefreshHistograms) -> &[u64; REFRESH_BUCKETS],
) {
    ui.label(RichText::new(format!("{name}, {what} (% of shown)")).small())
        .on_hover_text(help);
    egui::Grid::new(("in refreshes", name))
        .num_columns(REFRESH_BUCKETS + 1)
        .spacing([4.0, 1.0])
        .min_col_width(0.0)
        .show(ui, |ui| {
            ui.label("");
            for bucket in 0..REFRESH_BUCKETS {
                ui.monospace(bucket_label(bucket)).on_hover_text(help);
            }
            ui.end_row();
            for (index, pane) in panes.iter().enumerate() {
                let id = pane.strategy.map_or("", |strategy| strategy.id());
                let color = if panes.len() > 1 {
                    PANE_COLORS[index % PANE_COLORS.len()]
                } else {
                    ui.visuals().text_color()
                };
                ui.label(RichText::new(id).small().color(color));
                let counts = pane.refreshes.map(|refreshes| *buckets(&refreshes));
                let total: u64 = counts.map_or(0, |counts| counts.iter().sum());
                for bucket in 0..REFRESH_BUCKETS {
                    let count = counts.map_or(0, |counts| counts[bucket]);
                    ui.monospace(share_text(count, total))
                        .on_hover_text(format!("{count} of {total} frames"));
                }
                ui.end_row();
            }
        });
}

/// A bucket's column heading, three characters wide: `0` to `6`, then `7+`.
fn bucket_label(bucket: usize) -> String {
    if bucket + 1 == REFRESH_BUCKETS {
        format!(" {bucket}+")
    } else {
        format!("{bucket:>3}")
    }
}

/// `count` as a whole percentage of `total`, three characters wide: `·` for none, `<1`
/// under half a percent.
fn share_text(count: u64, total: u64) -> String {
    if count == 0 || total == 0 {
        return "  \u{00b7}".to_owned();
    }
    let percent = count as f64 * 100.0 / total as f64;
    if percent < 0.5 {
        " <1".to_owned()
    } else {
        format!("{:>3}", percent.round() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_whole_percent_three_wide() {
        assert_eq!(share_text(0, 10), "  \u{00b7}");
        assert_eq!(share_text(3, 0), "  \u{00b7}");
        assert_eq!(share_text(1, 1000), " <1");
        assert_eq!(share_text(1, 3), " 33");
        assert_eq!(share_text(5, 5), "100");
        assert_eq!(bucket_label(0), "  0");
        assert_eq!(bucket_label(REFRESH_BUCKETS - 1), " 7+");
    }
}

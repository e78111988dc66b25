//! The load ramp in Artificial load: the button that starts it (to a chosen maximum over a
//! chosen time), and while it runs and after it ends, every pane's simulation speed against
//! the per-step load with each pane's onset marked. The live loop runs the ramp; the panel
//! reads it from the snapshot and asks with a [`RampRequest`].

use egui::{Align2, Color32, RichText};
use egui_plot::{HLine, Line, LineStyle, Plot, PlotPoint, PlotPoints, Text, VLine};

use super::shared::ALARM;
use crate::live::{MAX_LOAD_MS, MAX_PANES, RAMP_DURATION_RANGE_S, Ramp, RampCancel, RampPhase};
use crate::live::{RampRequest, RampSettings};
use crate::run::ONSET_SPEED;

/// One colour per pane, in pane order: apart on the dark theme and from each other.
pub const PANE_COLORS: [Color32; MAX_PANES] = [
    Color32::from_rgb(240, 160, 60),
    Color32::from_rgb(110, 195, 255),
    Color32::from_rgb(120, 220, 120),
    Color32::from_rgb(235, 110, 200),
    Color32::from_rgb(250, 225, 90),
    Color32::from_rgb(170, 140, 255),
    Color32::from_rgb(90, 225, 210),
    Color32::from_rgb(255, 120, 110),
    Color32::from_rgb(200, 200, 200),
    Color32::from_rgb(205, 150, 95),
];

/// Height of the ramp's plot, points.
const RAMP_PLOT_HEIGHT: f32 = 150.0;

/// Highest speed the plot draws: `fixed` at a high frame rate runs several times real
/// time, which would squash every other curve.
const SPEED_CEILING: f64 = 2.0;

/// Smallest maximum the field offers, ms.
const MIN_RAMP_MS: f64 = 0.5;

/// The ramp's row (start it, or stop it and see where it is), then its plot and each
/// pane's onset while it runs and after it ended. `available` is false during a replay
/// (which spends no load).
pub(super) fn ramp_ui(
    ui: &mut egui::Ui,
    chosen: &mut RampSettings,
    ramp: Option<&Ramp>,
    available: bool,
    request: &mut Option<RampRequest>,
) {
    let running = ramp.filter(|ramp| ramp.running());
    ui.horizontal(|ui| match running {
        Some(ramp) => {
            if ui
                .button(RichText::new("Stop ramp").color(ALARM))
                .on_hover_text("Stop the ramp and put the per-step load back")
                .clicked()
            {
                *request = Some(RampRequest::Stop);
            }
            let settings = ramp.settings();
            let left = (settings.duration_s - ramp.elapsed_s()).max(0.0);
            ui.label(format!(
                "{:.1} of {} ms, {left:.0} s left",
                ramp.load_ms(),
                settings.max_step_cost_ms
            ));
        }
        None => {
            let button = ui
                .add_enabled(available, egui::Button::new("Ramp"))
                .on_hover_text(
                    "Raise the per-step load from 0 to the maximum over the time chosen (or \
                     until every pane has broken), drawing each pane's simulation speed \
                     against it and marking where each breaks (speed below 0.99, or a \
                     spiral); then put the load back. Pause, reset or a change of settings \
                     stops it and puts the load back; moving the per-step slider keeps your \
                     value.",
                )
                .on_disabled_hover_text("Not during a replay: a replay spends no load");
            if button.clicked() {
                *request = Some(RampRequest::Start(*chosen));
            }
            ui.label("to");
            ui.add(
                egui::DragValue::new(&mut chosen.max_step_cost_ms)
                    .range(MIN_RAMP_MS..=MAX_LOAD_MS)
                    .speed(0.5)
                    .suffix(" ms"),
            );
            ui.label("over");
            let (low, high) = RAMP_DURATION_RANGE_S;
            ui.add(
                egui::DragValue::new(&mut chosen.duration_s)
                    .range(low..=high)
                    .speed(1.0)
                    .suffix(" s"),
            );
        }
    });
    if let Some(ramp) = ramp {
        ramp_plot_ui(ui, ramp);
        ramp_status_ui(ui, ramp);
    }
}

/// Every pane's simulation speed against the per-step load, each onset a vertical line in
/// the pane's colour labelled with its load, and the 0.99 threshold dashed.
fn ramp_plot_ui(ui: &mut egui::Ui, ramp: &Ramp) {
    let max = ramp.settings().max_step_cost_ms;
    let weak = ui.visuals().weak_text_color();
    Plot::new("ramp_plot")
        .height(RAMP_PLOT_HEIGHT)
        .include_x(0.0)
        .include_x(max)
        .include_y(0.0)
        .include_y(1.1)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .x_axis_label("per-step load, ms")
        .y_axis_min_width(28.0)
        .show(ui, |plot| {
            plot.hline(
                HLine::new("onset speed", ONSET_SPEED)
                    .color(weak)
                    .style(LineStyle::dashed_loose()),
            );
            if ramp.running() {
                plot.vline(
                    VLine::new("load now", ramp.load_ms())
                        .color(weak)
                        .style(LineStyle::dotted_dense()),
                );
            }
            for (i, strategy) in ramp.strategies().iter().enumerate() {
                let color = PANE_COLORS[i % PANE_COLORS.len()];
                let name = format!("{} {}", i + 1, strategy.id());
                let points: Vec<[f64; 2]> = ramp
                    .samples()
                    .iter()
                    .map(|sample| [sample.load_ms, sample.speeds[i]])
                    .filter(|[load, speed]| load.is_finite() && speed.is_finite())
                    .map(|[load, speed]| [load, speed.clamp(0.0, SPEED_CEILING)])
                    .collect();
                plot.line(
                    Line::new(name.clone(), PlotPoints::new(points))
                        .color(color)
                        .width(1.5)
                        .id(("ramp speed", i)),
                );
                let Some(onset) = ramp.onsets()[i].filter(|onset| onset.load_ms.is_finite()) else {
                    continue;
                };
                plot.vline(
                    VLine::new(name.clone(), onset.load_ms)
                        .color(color)
                        .id(("ramp onset", i)),
                );
                // Stacked by pane, so panes breaking at one load keep readable labels.
                let y = 1.08 - 0.11 * i as f64;
                plot.text(
                    Text::new(
                        name,
                        PlotPoint::new(onset.load_ms, y),
                        RichText::new(format!(" {:.1}", onset.load_ms))
                            .color(color)
                            .size(11.0),
                    )
                    .anchor(Align2::LEFT_CENTER)
                    .id(("ramp onset label", i)),
                );
            }
        });
}

/// Where the ramp is, and each pane's onset in words.
fn ramp_status_ui(ui: &mut egui::Ui, ramp: &Ramp) {
    let base = ramp.base_step_cost_ms();
    let load = ramp.load_ms();
    let status = match ramp.phase() {
        RampPhase::Running => format!(
            "ramping; each reading covers the last {:.1} s (marks within {:.2} ms)",
            ramp.speed_window() as f64 / 1e9,
            ramp.resolution_ms()
        ),
        RampPhase::Finished => format!("reached {load:.1} ms; the load is back at {base:.1} ms"),
        RampPhase::AllBroken => {
            format!("every pane broke; stopped at {load:.1} ms, the load is back at {base:.1} ms")
        }
        RampPhase::Cancelled(RampCancel::LoadSetByHand) => {
            format!("stopped at {load:.1} ms: the load was set by hand, and stays")
        }
        RampPhase::Cancelled(why) => {
            format!(
                "{} at {load:.1} ms; the load is back at {base:.1} ms",
                why.describe()
            )
        }
    };
    ui.small(status);
    let ended = !ramp.running();
    for (i, (strategy, onset)) in ramp.strategies().iter().zip(ramp.onsets()).enumerate() {
        let color = PANE_COLORS[i % PANE_COLORS.len()];
        let verdict = match onset {
            Some(onset) if onset.spiral => format!("breaks at {:.1} ms (spiral)", onset.load_ms),
            Some(onset) => format!(
                "breaks at {:.1} ms (speed {:.3})",
                onset.load_ms, onset.speed
            ),
            None if ended => format!("keeps up to {load:.1} ms"),
            None => "keeps up so far".to_owned(),
        };
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{} {}", i + 1, strategy.id())).color(color));
            ui.label(verdict);
        });
    }
}

//! The banners at the foot of the scene: the alarm when the loop spirals or the spring
//! explodes, and the offer to a loop too slow to show the stutter; each with one-click ways
//! out. At the foot, they leave the panes' labels in sight.

use egui::{Color32, RichText};

use super::shared::{ALARM, Edits, PanelState};
use crate::live::{LiveSettings, Readouts, SLOW_LOOP_TARGET_HZ, SlowLoop};
use crate::timestep::{DEFAULT_MAX_FRAME_TIME, Strategy, ms_from_ns};

/// The banner at the foot of the scene: the alarm when the loop spirals or the spring
/// explodes, else the slow-loop offer unless it was dismissed.
pub(super) fn banner_ui(
    ui: &mut egui::Ui,
    scene: egui::Rect,
    state: &mut PanelState,
    edits: &mut Edits,
    readouts: &Readouts,
) {
    let alarm = readouts.spiral || readouts.exploded;
    let offer = readouts.slow_loop.filter(|_| !state.slow_offer_dismissed);
    if !alarm && offer.is_none() {
        return;
    }
    let width = (scene.width() - 2.0 * BANNER_MARGIN).max(0.0);
    egui::Area::new(ui.make_persistent_id("banner"))
        .order(egui::Order::Middle)
        .pivot(egui::Align2::LEFT_BOTTOM)
        .fixed_pos(scene.left_bottom() + egui::vec2(BANNER_MARGIN, -BANNER_MARGIN))
        .show(ui.ctx(), |ui| {
            if alarm {
                alarm_ui(ui, width, edits, readouts);
            } else if let Some(offer) = offer {
                slow_loop_ui(ui, width, state, edits, offer);
            }
        });
}

/// The calm colour of an offer, as the alarm's is loud.
const OFFER: Color32 = Color32::from_rgb(40, 70, 120);

/// The offer to a slow loop: show each frame as one 60 Hz frame, or leave it.
fn slow_loop_ui(
    ui: &mut egui::Ui,
    width: f32,
    state: &mut PanelState,
    edits: &mut Edits,
    offer: SlowLoop,
) {
    egui::Frame::new()
        .fill(OFFER)
        .inner_margin(BANNER_PADDING)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.set_width(text_width(width));
            ui.label(
                RichText::new(format!(
                    "Slow renderer: {:.1} fps, so each frame takes {:.1} steps and the \
                     strategies look alike.",
                    offer.fps, offer.steps_per_frame
                ))
                .strong()
                .color(Color32::WHITE),
            );
            ui.label(
                RichText::new(format!(
                    "Slowing time to {:.3}x advances the game by one {SLOW_LOOP_TARGET_HZ} \
                     Hz frame per frame: the stutter as a {SLOW_LOOP_TARGET_HZ} Hz screen \
                     shows it.",
                    offer.time_scale
                ))
                .color(Color32::WHITE),
            );
            ui.horizontal_wrapped(|ui| {
                if ui
                    .button(format!(
                        "Show each frame as one {SLOW_LOOP_TARGET_HZ} Hz frame"
                    ))
                    .clicked()
                {
                    edits.settings.time_scale = offer.time_scale;
                }
                state.slow_offer_dismissed |= ui.button("Not now").clicked();
            });
        });
}

/// Space between the banner and the scene's edges, points.
const BANNER_MARGIN: f32 = 8.0;

/// Space between the banner's edge and its text, points.
const BANNER_PADDING: f32 = 10.0;

/// The width of a banner's text in a banner `width` wide: never negative, however narrow the
/// scene (a window resized down to a sliver, the panel taking all of it).
fn text_width(width: f32) -> f32 {
    (width - 2.0 * BANNER_PADDING).max(0.0)
}

/// The alarm, `width` wide.
fn alarm_ui(ui: &mut egui::Ui, width: f32, edits: &mut Edits, readouts: &Readouts) {
    egui::Frame::new()
        .fill(ALARM)
        .inner_margin(BANNER_PADDING)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.set_width(text_width(width));
            if readouts.spiral {
                let what = if readouts.frozen {
                    "SPIRAL OF DEATH: the loop has frozen (a frame owes over a minute of steps)"
                } else {
                    "SPIRAL OF DEATH: each frame owes more steps than the last"
                };
                ui.label(
                    RichText::new(what)
                        .strong()
                        .size(18.0)
                        .color(Color32::WHITE),
                );
                ui.horizontal(|ui| {
                    if edits.settings.max_frame_time_ms == 0.0
                        && ui.button("Turn on the 250 ms frame-time guard").clicked()
                    {
                        edits.settings.max_frame_time_ms = ms_from_ns(DEFAULT_MAX_FRAME_TIME);
                    }
                    if ui.button("Remove the load").clicked() {
                        edits.settings.load.step_cost_ms = 0.0;
                    }
                    edits.actions.reset |= ui.button("Reset").clicked();
                });
            }
            if readouts.exploded {
                explosion_ui(ui, edits, readouts);
            }
        });
}

/// The explosion banner's contents: which panes, why, and the settings that fix it (each
/// applied with a reset, since an exploded spring stays exploded).
fn explosion_ui(ui: &mut egui::Ui, edits: &mut Edits, readouts: &Readouts) {
    let exploded: Vec<String> = readouts.panes[..readouts.pane_count]
        .iter()
        .enumerate()
        .filter(|(_, pane)| pane.exploded)
        .map(|(i, pane)| format!("{} {}", i + 1, pane.strategy.map_or("", |s| s.id())))
        .collect();
    let title = if readouts.pane_count > 1 {
        format!("SPRING EXPLODED in {}", exploded.join(", "))
    } else {
        "SPRING EXPLODED".to_owned()
    };
    ui.label(
        RichText::new(title)
            .strong()
            .size(18.0)
            .color(Color32::WHITE),
    );
    let settings = edits.settings;
    let remedies = readouts.remedies;
    let dt_ms = 1000.0 / settings.rate_hz;
    let why = match remedies.stable_step_ms {
        Some(limit) => format!(
            "{} keeps this {} Hz spring bounded only with steps under {limit:.2} ms (the \
             physics step is {dt_ms:.1} ms).",
            settings.integrator.id(),
            settings.spring_hz
        ),
        None => format!(
            "{} gains energy at every step size on this spring (undamped).",
            settings.integrator.id()
        ),
    };
    ui.label(RichText::new(why).color(Color32::WHITE));
    if readouts.panes[..readouts.pane_count]
        .iter()
        .any(|pane| pane.exploded && pane.strategy == Some(Strategy::Variable))
    {
        ui.label(
            RichText::new("variable steps are whole frames, whatever the physics rate")
                .color(Color32::WHITE),
        );
    }
    if readouts.panes[..readouts.pane_count]
        .iter()
        .any(|pane| pane.exploded && pane.strategy.and_then(Strategy::preset).is_some())
    {
        ui.label(
            RichText::new("engine presets keep their own step, whatever the physics rate")
                .color(Color32::WHITE),
        );
    }
    ui.horizontal_wrapped(|ui| {
        let mut fixed = None;
        if let Some(integrator) = remedies.integrator
            && ui.button(format!("Use {}", integrator.id())).clicked()
        {
            fixed = Some(LiveSettings {
                integrator,
                ..settings
            });
        }
        if let Some(rate_hz) = remedies.rate_hz
            && ui.button(format!("Physics rate {rate_hz} Hz")).clicked()
        {
            fixed = Some(LiveSettings {
                rate_hz,
                ..settings
            });
        }
        if let Some(spring_hz) = remedies.spring_hz
            && ui
                .button(format!("Softer spring: {spring_hz} Hz"))
                .clicked()
        {
            fixed = Some(LiveSettings {
                spring_hz,
                ..settings
            });
        }
        let reset = ui.button("Reset").clicked();
        if let Some(fixed) = fixed {
            edits.settings = fixed;
        }
        edits.actions.reset |= reset || fixed.is_some();
    });
}

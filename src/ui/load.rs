//! The Artificial load and Spiral guards sections: what each step and frame costs (the
//! load that makes the stutter and the spiral), and the frame-time clamp and step cap
//! that stop it.

use egui::RichText;

use super::shared::{ALARM, KEEP_GIVEN, reserved_ui};
use crate::live::LiveSettings;
use crate::timestep::{DEFAULT_MAX_FRAME_TIME, ms_from_ns};

/// The artificial load.
pub(super) fn load_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    let load = &mut settings.load;
    ui.add(
        egui::Slider::new(&mut load.step_cost_ms, 0.0..=100.0)
            .clamping(KEEP_GIVEN)
            .suffix(" ms")
            .text("per step"),
    );
    let dt_ms = 1000.0 / settings.rate_hz;
    // One line either way (cut short in a narrow panel), so the sliders below never move.
    let (note, color) = if load.step_cost_ms > dt_ms {
        (
            format!("a step costs more than dt ({dt_ms:.1} ms): without guards, the loop spirals"),
            ALARM,
        )
    } else {
        (
            format!("steps costing over dt ({dt_ms:.1} ms) make the loop spiral"),
            ui.visuals().weak_text_color(),
        )
    };
    ui.add(egui::Label::new(RichText::new(note).color(color)).truncate());
    ui.add(
        egui::Slider::new(&mut load.render_cost_ms, 0.0..=100.0)
            .clamping(KEEP_GIVEN)
            .suffix(" ms")
            .text("per frame"),
    );
    ui.add(
        egui::Slider::new(&mut load.jitter_ms, 0.0..=20.0)
            .clamping(KEEP_GIVEN)
            .suffix(" ms")
            .text("jitter (sd)"),
    );
    ui.add(
        egui::Slider::new(&mut load.hitch_ms, 0.0..=1000.0)
            .clamping(KEEP_GIVEN)
            .suffix(" ms")
            .text("hitch"),
    );
    ui.add(
        egui::Slider::new(&mut load.hitch_every_s, 0.1..=10.0)
            .clamping(KEEP_GIVEN)
            .logarithmic(true)
            .suffix(" s")
            .text("hitch every"),
    );
}

/// Max frame time and max steps.
pub(super) fn guards_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    let mut clamp_on = settings.max_frame_time_ms > 0.0;
    if ui.checkbox(&mut clamp_on, "clamp frame time").changed() {
        settings.max_frame_time_ms = if clamp_on {
            ms_from_ns(DEFAULT_MAX_FRAME_TIME)
        } else {
            0.0
        };
    }
    reserved_ui(
        ui,
        clamp_on,
        &mut settings.max_frame_time_ms,
        ms_from_ns(DEFAULT_MAX_FRAME_TIME),
        |ui, value| {
            ui.add(
                egui::Slider::new(value, 1.0..=1000.0)
                    .clamping(KEEP_GIVEN)
                    .logarithmic(true)
                    .suffix(" ms")
                    .text("max frame time"),
            );
        },
    );
    let mut cap_on = settings.max_steps > 0;
    if ui.checkbox(&mut cap_on, "cap steps per frame").changed() {
        settings.max_steps = if cap_on { 8 } else { 0 };
    }
    reserved_ui(ui, cap_on, &mut settings.max_steps, 8, |ui, value| {
        ui.add(
            egui::Slider::new(value, 1..=64)
                .clamping(KEEP_GIVEN)
                .text("max steps"),
        );
    });
}

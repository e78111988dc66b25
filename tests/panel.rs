//! The egui panel, driven like a person would: a snapshot of it after a scripted run, and
//! its buttons and keys doing what they say.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use timestep_lab::app::PresentModeId;
use timestep_lab::live::{History, LiveLoop, LiveSettings, VirtualStopwatch};
use timestep_lab::timestep::Strategy;
use timestep_lab::ui::{PanelActions, PanelModel, Readouts, lab_ui};

/// What the panel shows and edits, as one state for the harness.
struct PanelState {
    model: PanelModel,
    readouts: Readouts,
    history: History,
    actions: PanelActions,
}

/// The panel after two seconds of a 60 Hz loop under the default settings, with lavapipe's
/// present modes: the numbers are exact, so the picture is reproducible.
fn scripted_state() -> PanelState {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
        .expect("default settings are valid");
    live.frame();
    for _ in 0..120 {
        live.stopwatch_mut().advance(16_666_667);
        live.frame();
        live.record_present();
    }
    let mut model = PanelModel::new(*live.settings());
    model.adapter = "test adapter".into();
    model.present_modes = vec![
        PresentModeId::Immediate,
        PresentModeId::Mailbox,
        PresentModeId::Fifo,
        PresentModeId::FifoRelaxed,
    ];
    model.active_present_mode = Some(PresentModeId::FifoRelaxed);
    PanelState {
        model,
        readouts: Readouts::gather(&mut live),
        history: live.history().clone(),
        actions: PanelActions::default(),
    }
}

fn harness(state: PanelState) -> Harness<'static, PanelState> {
    build(Harness::builder(), state)
}

/// The whole UI in a 720 × 1100 harness made by `builder`.
fn build(
    builder: egui_kittest::HarnessBuilder<PanelState>,
    state: PanelState,
) -> Harness<'static, PanelState> {
    builder.with_size(egui::vec2(720.0, 1100.0)).build_ui_state(
        |ui, state: &mut PanelState| {
            lab_ui(
                ui,
                &mut state.model,
                &state.readouts,
                &state.history,
                &mut state.actions,
            );
        },
        state,
    )
}

#[test]
fn panel_snapshot() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let mut harness = build(Harness::builder().wgpu(), scripted_state());
    harness.run();
    // Text antialiasing may differ in a few pixels between lavapipe versions.
    harness.snapshot_options(
        "panel",
        &egui_kittest::SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(200),
    );
}

#[test]
fn readouts_show_the_scripted_run() {
    let mut harness = harness(scripted_state());
    harness.run();
    // 2 s of 60 Hz frames with 50 Hz steps under interpolation: exactly one dt of latency.
    harness.get_by_label("20.00 ms");
    harness.get_by_label("0.000 ms");
    harness.get_by_label(
        "active: fifo-relaxed · surface offers: immediate, mailbox, fifo, fifo-relaxed",
    );
}

#[test]
fn buttons_and_keys_do_what_they_say() {
    let mut harness = harness(scripted_state());
    harness.run();
    harness.get_by_label("Kick (Space)").click();
    harness.run();
    assert!(harness.state().actions.kick);
    harness.get_by_label("Reset (R)").click();
    harness.run();
    assert!(harness.state().actions.reset);
    harness.key_press(egui::Key::Num4);
    harness.run();
    assert_eq!(
        harness.state().model.settings.strategy,
        Strategy::Accumulator
    );
    harness.key_press(egui::Key::P);
    harness.run();
    assert!(harness.state().actions.toggle_pause);
    harness.key_press(egui::Key::H);
    harness.run();
    assert!(!harness.state().model.visible);
    assert!(
        harness.query_by_label("Kick (Space)").is_none(),
        "the panel is hidden"
    );
}

#[test]
fn the_spiral_banner_offers_the_guard() {
    let mut state = scripted_state();
    state.readouts.spiral = true;
    state.model.settings.max_frame_time_ms = 0.0;
    let mut harness = harness(state);
    harness.run();
    harness.get_by_label("SPIRAL OF DEATH: each frame owes more steps than the last");
    harness
        .get_by_label("Turn on the 250 ms frame-time guard")
        .click();
    harness.run();
    assert_eq!(harness.state().model.settings.max_frame_time_ms, 250.0);
}

#[test]
fn typing_into_a_value_field_is_not_a_shortcut() {
    let mut harness = harness(scripted_state());
    harness.run();
    harness
        .get_all_by_role(egui::accesskit::Role::SpinButton)
        .next()
        .expect("the time scale's value field")
        .focus();
    harness.run();
    harness.key_press(egui::Key::Num4);
    harness.key_press(egui::Key::R);
    harness.run();
    assert_eq!(
        harness.state().model.settings.strategy,
        Strategy::Interpolated
    );
    assert!(!harness.state().actions.reset);
}

#[test]
fn values_beyond_a_sliders_range_are_kept() {
    let mut state = scripted_state();
    let settings = &mut state.model.settings;
    settings.load.step_cost_ms = 500.0;
    settings.load.jitter_ms = 80.0;
    settings.spring_hz = 150.0;
    settings.max_steps = 1000;
    let given = *settings;
    let mut harness = harness(state);
    harness.run();
    assert_eq!(harness.state().model.settings, given);
}

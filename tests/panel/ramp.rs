//! The load ramp from the panel: the Ramp button starts it in the loop, the plot and the
//! onsets show, and stopping it, pausing or letting it finish puts the load back.
//!
//! Unlike the other panel tests, the harness here applies what the panel returns to the
//! loop itself, as the window does, and the loop runs frames between the panel's frames.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use timestep_lab::live::{
    LiveLoop, LiveRequest, LiveSettings, Panes, RampCancel, RampPhase, RampSettings,
    VirtualStopwatch,
};
use timestep_lab::timestep::Strategy;
use timestep_lab::ui::{PanelState, ShellStatus, lab_ui};

use super::common;

/// The loop and the panel's own state, as the window holds them.
struct Window {
    /// The loop the panel shows and drives.
    live: LiveLoop<VirtualStopwatch>,
    /// What the panel remembers.
    panel: PanelState,
}

/// One 60 Hz frame, ns.
const FRAME: u64 = 16_666_667;

/// A window comparing accumulator and variable without guards (the accumulator's steps
/// costing the load) at a per-step load of 3 ms, after a second of frames.
fn window() -> Window {
    let mut settings = LiveSettings {
        compare: true,
        panes: Panes::new(&[Strategy::Accumulator, Strategy::Variable]).expect("two panes"),
        focus: 0,
        max_frame_time_ms: 0.0,
        max_steps: 2,
        ..LiveSettings::default()
    };
    settings.load.step_cost_ms = 3.0;
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid");
    live.frame();
    run_frames(&mut live, 60);
    Window {
        live,
        panel: PanelState::default(),
    }
}

fn run_frames(live: &mut LiveLoop<VirtualStopwatch>, frames: usize) {
    for _ in 0..frames {
        live.stopwatch_mut().advance(FRAME);
        live.frame();
    }
}

/// The whole UI; what it returns is applied to the loop as the window applies it.
fn harness(window: Window) -> Harness<'static, Window> {
    build(Harness::builder(), window)
}

/// [`harness`] made by `builder`.
fn build(
    builder: egui_kittest::HarnessBuilder<Window>,
    window: Window,
) -> Harness<'static, Window> {
    builder.with_size(egui::vec2(720.0, 1100.0)).build_ui_state(
        |ui, window: &mut Window| {
            let snapshot = window.live.snapshot();
            let output = lab_ui(ui, &mut window.panel, &snapshot, &ShellStatus::default());
            if let Some(settings) = output.settings {
                window
                    .live
                    .request(LiveRequest::Settings(settings))
                    .expect("the panel's settings");
            }
            if let Some(request) = output.ramp {
                window.live.request_ramp(request).expect("a valid ramp");
            }
            if output.actions.toggle_pause {
                let paused = window.live.paused();
                window
                    .live
                    .request(LiveRequest::paused(!paused))
                    .expect("the loop takes it");
            }
            if output.actions.reset {
                window
                    .live
                    .request(LiveRequest::Reset)
                    .expect("the loop takes it");
            }
        },
        window,
    )
}

#[test]
fn the_ramp_button_starts_a_ramp_and_stopping_it_puts_the_load_back() {
    let mut harness = harness(window());
    harness.run();
    assert!(harness.query_by_label("Stop ramp").is_none());
    harness.get_by_label("Ramp").click();
    harness.run();
    let ramp = harness.state().live.ramp().expect("the ramp started");
    assert!(ramp.running());
    assert_eq!(ramp.settings(), RampSettings::default());
    assert_eq!(ramp.base_step_cost_ms(), 3.0);
    // Two seconds of frames: the load rises (1 ms a second by default) and the plot draws.
    run_frames(&mut harness.state_mut().live, 120);
    harness.run();
    let load = harness.state().live.settings().load.step_cost_ms;
    assert!((1.5..2.5).contains(&load), "the load rose to {load} ms");
    harness.get_by_label_contains("ramping; each reading covers the last 2.0 s");
    harness.get_by_label("1 accumulator");
    harness.get_by_label("2 variable");
    harness.get_by_label("Stop ramp").click();
    harness.run();
    let live = &harness.state().live;
    assert_eq!(live.settings().load.step_cost_ms, 3.0, "the load is back");
    assert_eq!(
        live.ramp().map(|ramp| ramp.phase()),
        Some(RampPhase::Cancelled(RampCancel::Stopped))
    );
    harness.run();
    // The curves stay, with the way it ended, and the button is back.
    harness.get_by_label_contains("stopped at");
    harness.get_by_label("Ramp");
}

#[test]
fn a_finished_ramp_marks_each_pane_and_puts_the_load_back() {
    let mut window = window();
    window.panel.ramp = RampSettings {
        max_step_cost_ms: 20.0,
        duration_s: 10.0,
    };
    let mut harness = harness(window);
    harness.run();
    harness.get_by_label("Ramp").click();
    harness.run();
    run_frames(&mut harness.state_mut().live, 60 * 12);
    harness.run();
    let live = &harness.state().live;
    let ramp = live.ramp().expect("the ramp");
    assert_eq!(ramp.phase(), RampPhase::Finished);
    assert_eq!(live.settings().load.step_cost_ms, 3.0, "the load is back");
    // The capped accumulator breaks; variable keeps up.
    assert!(ramp.onsets()[0].is_some());
    assert!(ramp.onsets()[1].is_none());
    harness.get_by_label_contains("reached 20.0 ms; the load is back at 3.0 ms");
    harness.get_by_label_contains("breaks at");
    harness.get_by_label("keeps up to 20.0 ms");
    // A reset clears the curves.
    harness.get_by_label("Reset (R)").click();
    harness.run();
    harness.run();
    assert!(harness.state().live.ramp().is_none());
    assert!(harness.query_by_label_contains("reached").is_none());
}

#[test]
fn pausing_or_moving_the_load_slider_ends_the_ramp() {
    let mut harness = harness(window());
    harness.run();
    harness.get_by_label("Ramp").click();
    harness.run();
    run_frames(&mut harness.state_mut().live, 60);
    harness.get_by_label("Pause (P)").click();
    harness.run();
    let live = &harness.state().live;
    assert_eq!(
        live.settings().load.step_cost_ms,
        3.0,
        "paused: the load is back"
    );
    assert_eq!(
        live.ramp().map(|ramp| ramp.phase()),
        Some(RampPhase::Cancelled(RampCancel::Paused))
    );
    harness.get_by_label("Resume (P)").click();
    harness.run();
    harness.get_by_label("Ramp").click();
    harness.run();
    run_frames(&mut harness.state_mut().live, 60);
    harness.run();
    // The settings the panel returns when the per-step slider is dragged by hand: the
    // person's value stays.
    let live = &mut harness.state_mut().live;
    let mut by_hand = *live.settings();
    by_hand.load.step_cost_ms = 12.0;
    live.request(LiveRequest::Settings(by_hand))
        .expect("valid settings");
    harness.run();
    assert_eq!(harness.state().live.settings().load.step_cost_ms, 12.0);
    harness.get_by_label_contains("the load was set by hand, and stays");
}

/// The picture of a finished ramp over the six classic strategies, the accumulator's
/// steps costing the load, no clamp and two steps at most a frame: each curve in its
/// pane's colour, each onset marked with its load.
#[test]
fn ramp_snapshot() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let settings = LiveSettings {
        compare: true,
        focus: 3,
        max_frame_time_ms: 0.0,
        max_steps: 2,
        ..LiveSettings::default()
    };
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid");
    live.frame();
    run_frames(&mut live, 60);
    let mut harness = build(
        Harness::builder().wgpu(),
        Window {
            live,
            panel: PanelState::default(),
        },
    );
    harness.run();
    harness.get_by_label("Ramp").click();
    harness.run();
    while harness
        .state()
        .live
        .ramp()
        .is_some_and(|ramp| ramp.running())
    {
        run_frames(&mut harness.state_mut().live, 60);
    }
    harness.run();
    harness.get_by_label("6 extrapolated").scroll_to_me();
    harness.run();
    harness.snapshot_options(
        "ramp",
        &egui_kittest::SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(200),
    );
}

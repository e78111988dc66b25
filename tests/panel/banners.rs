//! The banners over the scene: the spiral, the exploded spring and the slow-renderer offer.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use timestep_lab::live::{LiveSettings, Panes, SlowLoop};
use timestep_lab::timestep::Strategy;

use super::{PanelState, build_sized, harness, scripted_state, scripted_state_with};

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
fn the_explosion_banner_offers_the_fixes_and_applies_one_with_a_reset() {
    // A 50 Hz spring at 50 Hz steps: semi-implicit Euler needs steps under 6.37 ms.
    let mut harness = harness(scripted_state_with(LiveSettings {
        spring_hz: 50.0,
        ..LiveSettings::default()
    }));
    harness.run();
    harness.get_by_label("SPRING EXPLODED");
    harness.get_by_label_contains("bounded only with steps under 6.37 ms");
    harness.get_by_label("Softer spring: 12 Hz");
    harness.get_by_label("Physics rate 240 Hz").click();
    harness.run();
    assert_eq!(harness.state().model.settings.rate_hz, 240.0);
    assert!(harness.state().actions.reset, "the fix restarts the spring");
}

#[test]
fn the_explosion_banner_names_the_pane_and_leaves_the_labels_in_sight() {
    // At 240 Hz steps the accumulator keeps the 50 Hz spring; variable's 16.7 ms steps
    // (whole frames) blow it up.
    let mut harness = harness(scripted_state_with(LiveSettings {
        spring_hz: 50.0,
        rate_hz: 240.0,
        compare: true,
        panes: Panes::new(&[Strategy::Variable, Strategy::Accumulator]).expect("two panes"),
        ..LiveSettings::default()
    }));
    harness.run();
    let banner = harness.get_by_label("SPRING EXPLODED in 1 variable").rect();
    harness.get_by_label("variable steps are whole frames, whatever the physics rate");
    // No setting to offer: the physics step is stable.
    assert!(harness.query_by_label_contains("Physics rate").is_none());
    harness.get_by_label("Reset");
    for label in ["1 variable\n", "2 accumulator\n"] {
        let rect = harness.get_by_label_contains(label).rect();
        assert!(!rect.intersects(banner), "the banner covers {label:?}");
    }
}

#[test]
fn a_slow_loop_is_offered_one_60_hz_frame_per_frame_in_one_click() {
    let mut state = scripted_state();
    state.readouts.slow_loop = Some(SlowLoop {
        fps: 9.5,
        steps_per_frame: 5.3,
        time_scale: 9.5 / 60.0,
    });
    let mut harness = harness(state);
    harness.run();
    harness.get_by_label_contains("Slow renderer: 9.5 fps");
    harness
        .get_by_label("Show each frame as one 60 Hz frame")
        .click();
    harness.run();
    assert_eq!(harness.state().model.settings.time_scale, 9.5 / 60.0);
    // Turned down, it stays away.
    harness.get_by_label("Not now").click();
    harness.run();
    assert!(harness.query_by_label_contains("Slow renderer").is_none());
    // A fast loop is never offered it.
    let mut fast = harness_fast();
    fast.run();
    assert!(fast.query_by_label_contains("Slow renderer").is_none());
}

/// The scripted 60 fps run, whose readouts offer nothing.
fn harness_fast() -> Harness<'static, PanelState> {
    let state = scripted_state();
    assert_eq!(state.readouts.slow_loop, None);
    harness(state)
}

#[test]
fn the_banners_fit_a_scene_narrower_than_their_margins() {
    // A window resized down to a sliver leaves the scene no width: the offer and the alarm
    // once asked egui for a negative width there, which panics.
    for spiral in [false, true] {
        let mut state = scripted_state();
        state.readouts.slow_loop = Some(SlowLoop {
            fps: 9.5,
            steps_per_frame: 5.3,
            time_scale: 9.5 / 60.0,
        });
        state.readouts.spiral = spiral;
        let builder = Harness::builder().with_size(egui::vec2(330.0, 400.0));
        let mut harness = build_sized(builder, state);
        harness.run();
        let banner = if spiral { "SPIRAL" } else { "Slow renderer" };
        assert!(
            harness.query_by_label_contains(banner).is_some(),
            "the {banner} banner is drawn"
        );
    }
}

//! Buttons and keys: each does what it says, a value field takes typing rather than
//! shortcuts, given values are kept, the overlay opens and closes, defaults come back.

use egui_kittest::kittest::Queryable as _;
use timestep_lab::live::{LiveSettings, PresentModeId};
use timestep_lab::timestep::Strategy;

use super::{harness, scripted_state};

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
    assert!(!harness.state().model.panel.visible);
    assert!(
        harness.query_by_label("Kick (Space)").is_none(),
        "the panel is hidden"
    );
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

#[test]
fn f1_or_question_mark_opens_the_key_and_concept_overlay_and_esc_closes_it() {
    let mut harness = harness(scripted_state());
    harness.run();
    assert!(harness.query_by_label("Keys and concepts").is_none());
    for key in [egui::Key::F1, egui::Key::Questionmark] {
        harness.key_press(key);
        harness.run();
        harness.get_by_label("Keys and concepts");
        for (term, meaning) in timestep_lab::ui::CONCEPTS {
            assert!(harness.get_all_by_label(term).next().is_some(), "{term}");
            harness.get_by_label(meaning);
        }
        harness.key_press(egui::Key::Escape);
        harness.run();
        assert!(harness.query_by_label("Keys and concepts").is_none());
        assert!(
            !harness.state().actions.quit,
            "Esc closed the overlay, not the app"
        );
    }
    harness.get_by_label("? keys & concepts").click();
    harness.run();
    harness.get_by_label("Keys and concepts");
}

#[test]
fn restore_defaults_puts_every_setting_back() {
    let mut state = scripted_state();
    state.model.settings.rate_hz = 120.0;
    state.model.settings.strategy = Strategy::Fixed;
    state.model.settings.load.hitch_ms = 300.0;
    state.model.shell.display.requested = PresentModeId::Immediate;
    let mut harness = harness(state);
    harness.run();
    harness.get_by_label("Restore defaults").scroll_to_me();
    harness.run();
    harness.get_by_label("Restore defaults").click();
    harness.run();
    assert_eq!(harness.state().model.settings, LiveSettings::default());
    assert_eq!(
        harness.state().model.shell.display.requested,
        PresentModeId::default()
    );
}

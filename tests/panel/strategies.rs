//! Strategies and comparison panes: comparing, focusing, labelling, adding and removing
//! panes, the engine presets and the scene presets that stage a comparison.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use timestep_lab::live::{LiveSettings, Panes, ScenePreset};
use timestep_lab::scene::CameraDriver;
use timestep_lab::timestep::{EnginePreset, Strategy};

use super::{PanelState, harness, scripted_state, scripted_state_with};

/// The scripted run comparing `strategies`.
fn comparing(strategies: &[Strategy]) -> PanelState {
    scripted_state_with(LiveSettings {
        compare: true,
        panes: Panes::new(strategies).expect("2 to 6 panes"),
        ..LiveSettings::default()
    })
}

#[test]
fn c_compares_and_numbers_then_focus_panes() {
    let mut single = harness(scripted_state());
    single.run();
    single.key_press(egui::Key::C);
    single.run();
    assert!(single.state().model.settings.compare);
    // The comparison opens on the accumulator's pane, whose timeline shows the stutter.
    let settings = single.state().model.settings;
    assert_eq!(
        settings.pane_strategies()[settings.focus],
        Strategy::Accumulator
    );
    // Focus the extrapolated pane (as a click on it would), then leave: its strategy stays.
    single.state_mut().model.settings.focus = 5;
    single.run();
    single.key_press(egui::Key::C);
    single.run();
    let settings = single.state().model.settings;
    assert!(!settings.compare);
    assert_eq!(settings.strategy, Strategy::Extrapolated);

    let mut harness = harness(comparing(&[
        Strategy::Fixed,
        Strategy::Accumulator,
        Strategy::Interpolated,
    ]));
    harness.run();
    harness.key_press(egui::Key::Num3);
    harness.run();
    let settings = harness.state().model.settings;
    assert_eq!(settings.focus, 2, "3 focuses the third pane");
    assert_eq!(
        settings.strategy,
        Strategy::Interpolated,
        "not a strategy switch"
    );
    // There is no sixth pane to focus.
    harness.key_press(egui::Key::Num6);
    harness.run();
    assert_eq!(harness.state().model.settings.focus, 2);
}

#[test]
fn every_comparison_pane_is_labelled_with_its_numbers() {
    let mut harness = harness(comparing(&[Strategy::Accumulator, Strategy::Interpolated]));
    harness.run();
    // 2 s of 60 Hz frames on 50 Hz steps: interpolated is exactly one dt behind, evenly;
    // the accumulator takes 0 or 1 step a frame, 0.83 on average, and judders.
    harness.get_by_label_contains("2 interpolated\nlatency 20.0 ms  judder 0.00 ms");
    let accumulator = harness.get_by_label_contains("1 accumulator\nlatency");
    let text = format!("{accumulator:?}");
    assert!(
        text.contains("/frame") && !text.contains("judder 0.00"),
        "{text}"
    );
}

#[test]
fn the_pane_editor_adds_removes_and_focuses_panes() {
    let mut harness = harness(comparing(&[Strategy::Fixed, Strategy::Variable]));
    harness.run();
    harness.get_by_label("+ pane").click();
    harness.run();
    let panes = harness.state().model.settings.panes;
    assert_eq!(
        panes.as_slice(),
        [Strategy::Fixed, Strategy::Variable, Strategy::SemiFixed]
    );
    harness.get_by_label("- pane").click();
    harness.run();
    assert_eq!(harness.state().model.settings.panes.len(), 2);
    harness
        .get_all_by_label("focus")
        .nth(1)
        .expect("the second pane's focus button")
        .click();
    harness.run();
    assert_eq!(harness.state().model.settings.focus, 1);
}

#[test]
fn a_panes_picker_lists_the_engine_presets_after_the_strategies() {
    let mut harness = harness(comparing(&[Strategy::Accumulator, Strategy::Interpolated]));
    harness.run();
    harness.get_by_label("pane 2 strategy").click();
    harness.run();
    // The ten strategies first, then the presets, in the order the lab lists them.
    let top = |harness: &Harness<'static, PanelState>, label: &str| {
        harness.get_by_label(label).rect().top()
    };
    let last_strategy = top(&harness, "equal-substeps");
    let mut previous = top(&harness, "engine presets");
    assert!(previous > last_strategy);
    for preset in EnginePreset::ALL {
        let y = top(&harness, preset.id());
        assert!(y > previous, "{preset} is listed in order");
        previous = y;
    }
    harness.get_by_label("godot").click();
    harness.run();
    assert_eq!(
        harness.state().model.settings.panes.as_slice(),
        [Strategy::Accumulator, Strategy::Preset(EnginePreset::Godot)]
    );
}

#[test]
fn the_single_pane_can_run_an_engine_preset() {
    let mut harness = harness(scripted_state());
    harness.run();
    harness.get_by_label("engine preset").click();
    harness.run();
    harness.get_by_label("unity-extrapolate").click();
    harness.run();
    assert_eq!(
        harness.state().model.settings.strategy,
        Strategy::Preset(EnginePreset::UnityExtrapolate)
    );
    harness.get_by_label(EnginePreset::UnityExtrapolate.known_problem());
    // A number key goes back to a lab strategy.
    harness.key_press(egui::Key::Num8);
    harness.run();
    assert_eq!(harness.state().model.settings.strategy, Strategy::Hermite);
}

#[test]
fn the_camera_vs_sphere_preset_stages_the_unity_stutter() {
    let mut harness = harness(scripted_state());
    harness.run();
    harness.get_by_label("camera vs sphere").scroll_to_me();
    harness.run();
    harness.get_by_label("camera vs sphere").click();
    harness.run();
    let settings = harness.state().model.settings;
    assert_eq!(settings.camera, CameraDriver::PerFrame);
    assert!(settings.compare);
    assert_eq!(
        settings.panes.as_slice(),
        [Strategy::Accumulator, Strategy::Interpolated]
    );
    harness.get_by_label(ScenePreset::CameraVsSphere.advice());
}

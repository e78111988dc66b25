//! The egui panel, driven like a person would: a snapshot of it after a scripted run, and
//! its buttons and keys doing what they say.

#[path = "../common/mod.rs"]
mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use timestep_lab::live::ReplayStatus;
use timestep_lab::live::{
    LiveLoop, LiveSettings, Panes, PresentModeId, Readouts, ScenePreset, SlowLoop, StatsWindow,
    VirtualStopwatch,
};
use timestep_lab::scene::CameraDriver;
use timestep_lab::timestep::{EnginePreset, Strategy};
use timestep_lab::ui::{
    DisplayStatus, PanelActions, PanelState as UiState, SessionRequest, SessionStatus, lab_ui,
};

/// What the harness plays: the loop after a scripted run, and the window's side of the
/// panel (the settings in force with every request the panel returned applied, the
/// display it shows, the actions it asked for so far).
struct PanelState {
    /// The window's side.
    model: Model,
    /// The readouts the panel is shown (the loop's, or edited by a test).
    readouts: Readouts,
    /// The loop the panel shows.
    live: LiveLoop<VirtualStopwatch>,
    /// Every action asked for so far.
    actions: PanelActions,
    /// Every recording or replay request so far.
    requests: Vec<SessionRequest>,
}

/// The window's side of the panel, as the harness plays it.
struct Model {
    /// The settings in force: the loop's, with every change the panel asked for.
    settings: LiveSettings,
    /// The display the panel shows.
    display: DisplayStatus,
    /// What the panel remembers between frames.
    panel: UiState,
}

/// The panel after two seconds of a 60 Hz loop under the default settings, with lavapipe's
/// present modes: the numbers are exact, so the picture is reproducible.
fn scripted_state() -> PanelState {
    scripted_state_with(LiveSettings::default())
}

/// [`scripted_state`] under `settings`.
fn scripted_state_with(settings: LiveSettings) -> PanelState {
    let mut live =
        LiveLoop::new(VirtualStopwatch::default(), settings).expect("the settings are valid");
    live.frame();
    for _ in 0..120 {
        live.stopwatch_mut().advance(16_666_667);
        live.frame();
        live.record_present(0);
    }
    state_of(live)
}

/// The panel showing `live` after its run, with lavapipe's present modes.
fn state_of(live: LiveLoop<VirtualStopwatch>) -> PanelState {
    let display = DisplayStatus {
        adapter: "test adapter".into(),
        offered: vec![
            PresentModeId::Immediate,
            PresentModeId::Mailbox,
            PresentModeId::Fifo,
            PresentModeId::FifoRelaxed,
        ],
        requested: PresentModeId::default(),
        active: Some(PresentModeId::FifoRelaxed),
        session: Default::default(),
    };
    PanelState {
        model: Model {
            settings: *live.settings(),
            display,
            panel: UiState::default(),
        },
        readouts: live.snapshot().readouts,
        live,
        actions: PanelActions::default(),
        requests: Vec::new(),
    }
}

fn harness(state: PanelState) -> Harness<'static, PanelState> {
    build(Harness::builder(), state)
}

/// The whole UI in a 720 × 1100 harness made by `builder`. Each frame the panel is shown
/// the settings in force and the readouts, and what it returns is applied as the window
/// would.
fn build(
    builder: egui_kittest::HarnessBuilder<PanelState>,
    state: PanelState,
) -> Harness<'static, PanelState> {
    build_sized(builder.with_size(egui::vec2(720.0, 1100.0)), state)
}

/// [`build`] at the size `builder` says.
fn build_sized(
    builder: egui_kittest::HarnessBuilder<PanelState>,
    state: PanelState,
) -> Harness<'static, PanelState> {
    builder.build_ui_state(
        |ui, state: &mut PanelState| {
            let mut snapshot = state.live.snapshot();
            snapshot.settings = state.model.settings;
            snapshot.readouts = state.readouts;
            let model = &mut state.model;
            let output = lab_ui(ui, &mut model.panel, &snapshot, &model.display);
            state.actions |= output.actions;
            state.requests.extend(output.session);
            if let Some(settings) = output.settings {
                model.settings = settings;
            }
            if let Some(mode) = output.present_mode {
                model.display.requested = mode;
            }
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
    // No judder on the CPU's clock, and none at the modeled 60 Hz screen either.
    assert_eq!(harness.get_all_by_label("0.000 ms").count(), 2);
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
    assert!(!harness.state().model.panel.visible);
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
    // The nine strategies first, then the presets, in the order the lab lists them.
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
fn choosing_any_strategy_or_preset_never_moves_the_rows_below() {
    let mut harness = harness(scripted_state());
    harness.run();
    let below = |harness: &Harness<'static, PanelState>| {
        harness.get_by_label("compare panes (C)").rect().top()
    };
    let start = below(&harness);
    for strategy in Strategy::CHOICES {
        harness.state_mut().model.settings.strategy = strategy;
        harness.run();
        assert_eq!(
            below(&harness),
            start,
            "choosing {strategy} moved the rows below"
        );
    }
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

#[test]
fn the_display_section_sets_the_filter_and_the_refresh_rate_and_says_the_screen_is_modeled() {
    let mut harness = harness(scripted_state());
    harness.run();
    // Two seconds of 60 Hz frames on the assumed 60 Hz FIFO screen: one new image per
    // refresh, nothing repeated.
    harness.get_by_label("60.0 / 0 per s");
    harness.get_by_label_contains("at the screen, modeled: FIFO 60 Hz, 2 in flight");
    harness.get_by_label_contains("The screen is modeled");
    harness.get_by_label("snap").scroll_to_me();
    harness.run();
    harness.get_by_label("snap").click();
    harness.run();
    assert_eq!(
        harness.state().model.settings.filter,
        timestep_lab::timestep::FilterSpec::Snap { tolerance: None }
    );
    harness.get_by_label("average").scroll_to_me();
    harness.run();
    harness.get_by_label("average").click();
    harness.run();
    assert_eq!(
        harness.state().model.settings.filter,
        timestep_lab::timestep::FilterSpec::Average(4)
    );
    harness.get_by_label("set the refresh rate").scroll_to_me();
    harness.run();
    harness.get_by_label("set the refresh rate").click();
    harness.run();
    assert_eq!(harness.state().model.settings.refresh_override_hz, 60.0);
    harness.get_by_label("none").scroll_to_me();
    harness.run();
    harness.get_by_label("none").click();
    harness.run();
    assert_eq!(
        harness.state().model.settings.filter,
        timestep_lab::timestep::FilterSpec::None
    );
}

#[test]
fn every_readout_explains_itself_and_auto_present_modes_stay_offered() {
    let mut harness = harness(scripted_state());
    harness.run();
    harness.get_by_label("sim speed").hover();
    harness.run();
    harness.get_by_label_contains("Simulated time advanced over real time");
    let speed = harness.state().readouts.window.sim_speed;
    assert!(
        (0.95..=1.05).contains(&speed),
        "a 60 Hz run keeps up: {speed}"
    );
    harness.get_by_label(&format!("{speed:.3}x"));
    harness.get_by_label("screen judder*").hover();
    harness.run();
    harness.get_by_label_contains("PresentMon's MsAnimationError");
    // The present mode list: the surface's modes and both auto modes, each explained.
    harness.get_by_label("present mode").scroll_to_me();
    harness.run();
    harness.get_by_label("present mode").click();
    harness.run();
    for mode in [
        "auto-vsync",
        "auto-no-vsync",
        "immediate",
        "mailbox",
        "fifo",
    ] {
        harness.get_by_label(mode);
    }
    harness.get_by_label("auto-no-vsync").hover();
    harness.run();
    harness.get_by_label_contains("No vsync with the best mode offered");
}

#[test]
fn at_1280_by_800_the_strategy_load_and_guards_are_in_sight_without_scrolling() {
    let mut harness = build_sized(
        Harness::builder().with_size(egui::vec2(1280.0, 800.0)),
        scripted_state(),
    );
    harness.run();
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    for label in [
        "1 fixed",
        "6 extrapolated",
        "per step",
        "per frame",
        "hitch every",
        "clamp frame time",
        "cap steps per frame",
    ] {
        let node = harness
            .get_all_by_label_contains(label)
            .next()
            .unwrap_or_else(|| panic!("no {label}"));
        let rect = node.rect();
        assert!(
            window.contains_rect(rect),
            "{label} at {rect:?} lies outside the 1280x800 window"
        );
    }
}

#[test]
fn switching_an_option_on_or_off_never_moves_the_rows_below_it() {
    // Tall enough that nothing scrolls: every move would be a row appearing or vanishing.
    let mut harness = build_sized(
        Harness::builder().with_size(egui::vec2(720.0, 2600.0)),
        scripted_state(),
    );
    harness.run();
    let keys_y = |harness: &Harness<'static, PanelState>| harness.get_by_label("Keys").rect().top();
    let start = keys_y(&harness);
    for toggle in [
        "clamp frame time",
        "cap steps per frame",
        "frame cap (applies without vsync)",
        "set the refresh rate",
        "average",
        "snap",
        "10 s",
        "session",
        "1 s",
    ] {
        harness.get_by_label(toggle).click();
        harness.run();
        assert_eq!(
            keys_y(&harness),
            start,
            "clicking {toggle:?} moved the rows below"
        );
    }
    // A step cost above dt turns the note above the load sliders into a warning, in place.
    let per_frame = harness
        .get_all_by_label_contains("jitter (sd)")
        .next()
        .expect("the jitter slider")
        .rect()
        .top();
    harness.state_mut().model.settings.load.step_cost_ms = 40.0;
    harness.run();
    harness.get_by_label_contains("a step costs more than dt");
    assert_eq!(
        harness
            .get_all_by_label_contains("jitter (sd)")
            .next()
            .expect("the jitter slider")
            .rect()
            .top(),
        per_frame
    );
    assert_eq!(keys_y(&harness), start);
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
    state.model.display.requested = PresentModeId::Immediate;
    let mut harness = harness(state);
    harness.run();
    harness.get_by_label("Restore defaults").scroll_to_me();
    harness.run();
    harness.get_by_label("Restore defaults").click();
    harness.run();
    assert_eq!(harness.state().model.settings, LiveSettings::default());
    assert_eq!(
        harness.state().model.display.requested,
        PresentModeId::default()
    );
}

/// 10 s of 60 Hz frames, then 1 s of 30 Hz frames: each frame-statistics window reads
/// differently.
fn sixty_then_thirty_hz() -> PanelState {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
        .expect("the default settings are valid");
    live.frame();
    for frame in std::iter::repeat_n(16_666_667, 600).chain(std::iter::repeat_n(33_333_333, 30)) {
        live.stopwatch_mut().advance(frame);
        live.frame();
        live.record_present(0);
    }
    state_of(live)
}

#[test]
fn frame_statistics_show_the_window_picked() {
    let mut harness = harness(sixty_then_thirty_hz());
    harness.run();
    // The last second: the last 60 Hz frame and the 30 Hz ones, 31 frames in 1.0167 s.
    harness.get_by_label("31 in 1.02 s");
    harness.get_by_label("30.5 fps");
    // P50 / P90 / P95 and P99 / P99.9 / max: every frame of the window but one is 30 Hz.
    assert_eq!(
        harness.get_all_by_label("33.33 / 33.33 / 33.33 ms").count(),
        2
    );
    harness.get_by_label("30.0 fps / 30.0 fps");
    harness.get_by_label("0 (0.0%) > 66.67 ms");
    harness.get_by_label("10 s").scroll_to_me();
    harness.run();
    harness.get_by_label("10 s").click();
    harness.run();
    assert_eq!(
        harness.state().model.panel.stats_window,
        StatsWindow::TenSeconds
    );
    // The last ten seconds: 540 frames at 60 Hz and the 30 at 30 Hz; P95 is a 30 Hz frame,
    // the slowest 1% (6 frames) too.
    assert!(harness.query_by_label("31 in 1.02 s").is_none());
    harness.get_by_label("570 in 10.00 s");
    harness.get_by_label("57.0 fps");
    harness.get_by_label("16.67 / 16.67 / 33.33 ms");
    harness.get_by_label("0 (0.0%) > 33.33 ms");
    harness.get_by_label("session").scroll_to_me();
    harness.run();
    harness.get_by_label("session").click();
    harness.run();
    // The session: the first frame (no time), 600 at 60 Hz, 30 at 30 Hz; its 0 ms frame is
    // the shortest.
    harness.get_by_label("631 in 11.00 s");
    harness.get_by_label("57.4 fps");
    harness.get_by_label_contains("percentiles and lows within 0.1%");
}

#[test]
fn frame_statistics_say_which_definitions_they_use() {
    let mut harness = harness(sixty_then_thirty_hz());
    harness.run();
    harness.get_by_label("time in hitches").scroll_to_me();
    harness.run();
    harness.get_by_label("1% / 0.1% low").hover();
    harness.run();
    harness.get_by_label_contains("CapFrameX's \"1% low average\": the slowest 1%");
    harness.get_by_label("hitches > 2x median").hover();
    harness.run();
    harness.get_by_label_contains("frames longer than twice the median frame time");
    harness.get_by_label("session").scroll_to_me();
    harness.run();
    harness.get_by_label("session").click();
    harness.run();
    harness.get_by_label("average rate").hover();
    harness.run();
    harness.get_by_label_contains("percentiles, lows and the hitch threshold are within 0.1%");
}

#[test]
fn frame_time_distribution_snapshot() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let mut harness = build(Harness::builder().wgpu(), sixty_then_thirty_hz());
    harness.run();
    harness.get_by_label("10 s").scroll_to_me();
    harness.run();
    harness.get_by_label("10 s").click();
    harness.run();
    harness
        .get_by_label_contains("percentile curve, 10 s")
        .scroll_to_me();
    harness.run();
    harness.get_by_label_contains("frame-time histogram, 10 s");
    harness.snapshot_options(
        "frame_time_distribution",
        &egui_kittest::SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(200),
    );
}

#[test]
fn the_session_row_records_and_controls_a_replay() {
    let mut harness = harness(scripted_state());
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    assert_eq!(harness.state().requests, [SessionRequest::StartRecording]);
    harness.state_mut().model.display.session = SessionStatus {
        recording: Some(("rec.csv".into(), 42)),
        ..SessionStatus::default()
    };
    harness.run();
    harness.get_by_label_contains("42 frames to rec.csv");
    harness.get_by_label("Stop recording").click();
    harness.run();
    assert_eq!(
        harness.state().requests[1..],
        [SessionRequest::StopRecording]
    );
    // A replay: progress, pause, loop, stop.
    let replay = ReplayStatus {
        frame: 10,
        frames: 100,
        position_s: 0.5,
        duration_s: 5.0,
        speed: 1.0,
        looping: false,
        playing: true,
        finished: false,
    };
    harness.state_mut().requests.clear();
    harness.state_mut().model.display.session = SessionStatus {
        replay: Some(("capture.csv".into(), replay)),
        ..SessionStatus::default()
    };
    harness.run();
    harness.get_by_label("Replaying capture.csv");
    assert!(harness.query_by_label("Record").is_none());
    harness.get_by_label("Pause").click();
    harness.run();
    harness.get_by_label("loop").click();
    harness.run();
    harness.get_by_label("Stop replay").click();
    harness.run();
    assert_eq!(
        harness.state().requests,
        [
            SessionRequest::Play(false),
            SessionRequest::Loop(true),
            SessionRequest::StopReplay
        ]
    );
    // At the end, one click replays it from the start.
    harness.state_mut().requests.clear();
    harness.state_mut().model.display.session.replay = Some((
        "capture.csv".into(),
        ReplayStatus {
            frame: 100,
            playing: false,
            finished: true,
            ..replay
        },
    ));
    harness.run();
    harness.get_by_label("Replay again").click();
    harness.run();
    assert_eq!(harness.state().requests, [SessionRequest::Seek(0)]);
}

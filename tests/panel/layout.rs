//! Layout: what is in sight at 1280 x 800, and rows that never move when an option or a
//! strategy changes.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use timestep_lab::render::DrawQuality;
use timestep_lab::timestep::Strategy;

use super::{PanelState, build_sized, harness, scripted_state};

/// On a CPU rasterizer (the panel says it draws with its defaults, one line more) as on a
/// GPU.
#[test]
fn at_1280_by_800_the_strategy_load_and_guards_are_in_sight_without_scrolling() {
    let mut state = scripted_state();
    let cpu = DrawQuality::for_adapter(wgpu::DeviceType::Cpu, None);
    state.model.shell.display.drawing = (cpu.describe(), cpu.why());
    let mut harness = build_sized(
        Harness::builder().with_size(egui::vec2(1280.0, 800.0)),
        state,
    );
    harness.run();
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
    for label in [
        "drawn with 1x MSAA, plain panel edges: CPU defaults",
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

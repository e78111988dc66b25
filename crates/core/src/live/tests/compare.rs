//! A comparison: every pane fed the same frames, paused, stepped, kicked and reset
//! together, the load spent once, and the panes the scene presets set up.

use super::*;
use crate::timestep::{EnginePreset, MIN_TIME_SCALE, Strategy};

/// A loop comparing `strategies` side by side.
fn comparing(strategies: &[Strategy]) -> LiveLoop<VirtualStopwatch> {
    live(LiveSettings {
        compare: true,
        panes: Panes::new(strategies).expect("2 to 6 panes"),
        ..LiveSettings::default()
    })
}

#[test]
fn pause_and_single_step_keep_every_pane_on_the_same_frame() {
    let mut lab = comparing(&Strategy::ALL);
    for _ in 0..20 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    let latest = |lab: &LiveLoop<VirtualStopwatch>| -> Vec<FrameSample> {
        lab.panes()
            .iter()
            .map(|pane| *pane.history().latest().expect("a frame ran"))
            .collect()
    };
    lab.set_paused(true);
    let before: Vec<Nanos> = lab
        .panes()
        .iter()
        .map(|pane| pane.sim().engine().presented_time())
        .collect();
    let recent = latest(&lab);
    let lengths: Vec<usize> = lab.panes().iter().map(|p| p.history().len()).collect();
    for _ in 0..5 {
        frame_after(&mut lab, FRAME_60HZ);
        // Paused frames deliver no time and leave the recent frames as they were.
        // (Their screen outcomes may settle meanwhile: compare what the loop recorded.)
        let key = |samples: Vec<FrameSample>| -> Vec<(Nanos, Nanos, u32)> {
            samples.iter().map(|s| (s.wall, s.fed, s.steps)).collect()
        };
        assert_eq!(key(latest(&lab)), key(recent.clone()));
        assert!(
            lab.last()
                .is_some_and(|f| f.report.frame_time == 0 && f.report.steps.is_empty())
        );
    }
    let still: Vec<usize> = lab.panes().iter().map(|p| p.history().len()).collect();
    assert_eq!(still, lengths);
    let paused: Vec<Nanos> = lab
        .panes()
        .iter()
        .map(|pane| pane.sim().engine().presented_time())
        .collect();
    assert_eq!(paused, before, "pause freezes every pane on the same frame");
    for _ in 0..4 {
        lab.single_step();
        frame_after(&mut lab, 300 * MS);
        let samples = latest(&lab);
        assert!(
            samples
                .iter()
                .all(|s| s.fed == crate::timestep::DEFAULT_SINGLE_STEP_FRAME),
            "every pane advances exactly one single-step frame: {samples:?}"
        );
        let frames: Vec<usize> = lab.panes().iter().map(|l| l.history().len()).collect();
        assert!(frames.windows(2).all(|w| w[0] == w[1]), "{frames:?}");
    }
    let after: Vec<Nanos> = lab
        .panes()
        .iter()
        .map(|pane| pane.sim().engine().presented_time())
        .collect();
    for (a, b) in after.iter().zip(&before) {
        assert_eq!(a - b, 4 * crate::timestep::DEFAULT_SINGLE_STEP_FRAME);
    }
}

#[test]
fn reset_gives_every_pane_the_same_initial_state() {
    let mut lab = comparing(&Strategy::ALL);
    for i in 0..90 {
        if i == 30 {
            lab.kick();
        }
        frame_after(&mut lab, FRAME_60HZ + (i % 4) * MS);
    }
    let states: Vec<_> = lab
        .panes()
        .iter()
        .map(|l| l.sim().scene().current())
        .collect();
    assert!(
        states.windows(2).any(|w| w[0] != w[1]),
        "the strategies have diverged before the reset"
    );
    lab.reset();
    let initial = crate::scene::SceneState::initial(lab.panes()[0].sim().scene().config());
    for pane in lab.panes() {
        let scene = pane.sim().scene();
        assert_eq!(scene.current(), initial, "{}", pane.strategy());
        assert_eq!(
            scene.previous(),
            scene.current(),
            "no smear across the reset"
        );
        assert_eq!(pane.sim().engine().presented_time(), 0);
        assert!(pane.history().is_empty() && pane.pane_view().is_none());
    }
}

#[test]
fn a_kick_reaches_every_pane() {
    let mut lab = comparing(&Strategy::ALL);
    for _ in 0..10 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    lab.kick();
    for _ in 0..3 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    for pane in lab.panes() {
        assert_eq!(
            pane.sim().scene().pending_kick_mps(),
            0.0,
            "{}",
            pane.strategy()
        );
    }
    // The same kick in a loop of one pane moves the spring the same way.
    let mut single = live(LiveSettings {
        strategy: Strategy::Accumulator,
        ..LiveSettings::default()
    });
    for _ in 0..10 {
        frame_after(&mut single, FRAME_60HZ);
    }
    single.kick();
    for _ in 0..3 {
        frame_after(&mut single, FRAME_60HZ);
    }
    let accumulator = &lab.panes()[3];
    assert_eq!(accumulator.strategy(), Strategy::Accumulator);
    assert_eq!(
        accumulator.sim().scene().current(),
        single.sim().scene().current()
    );
}

#[test]
fn turning_the_comparison_on_restarts_all_panes_together() {
    let mut lab = live(LiveSettings::default());
    for _ in 0..30 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    assert_eq!(lab.panes().len(), 1);
    let settings = LiveSettings {
        compare: true,
        ..*lab.settings()
    };
    lab.apply(settings).expect("valid");
    assert_eq!(lab.panes().len(), 6);
    for _ in 0..10 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    for pane in lab.panes() {
        assert_eq!(pane.history().len(), 10, "{}", pane.strategy());
        assert_eq!(pane.sim().engine().presented_time(), 10 * FRAME_60HZ);
    }
    // Changing a pane's strategy, or adding a pane, restarts them all together.
    let mut settings = *lab.settings();
    settings.panes = Panes::new(&[Strategy::Fixed, Strategy::Variable]).expect("valid");
    lab.apply(settings).expect("valid");
    for _ in 0..30 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    let restarted = |lab: &LiveLoop<VirtualStopwatch>| {
        lab.panes()
            .iter()
            .all(|pane| pane.history().is_empty() && pane.sim().engine().presented_time() == 0)
    };
    settings.panes.set(0, Strategy::Accumulator);
    lab.apply(settings).expect("valid");
    assert!(restarted(&lab), "a pane's new strategy restarts every pane");
    assert_eq!(lab.panes()[0].strategy(), Strategy::Accumulator);
    frame_after(&mut lab, FRAME_60HZ);
    assert!(settings.panes.add());
    lab.apply(settings).expect("valid");
    assert_eq!(lab.panes().len(), 3);
    assert!(restarted(&lab), "a new pane restarts every pane");
    frame_after(&mut lab, FRAME_60HZ);
    let times: Vec<Nanos> = lab
        .panes()
        .iter()
        .map(|pane| pane.sim().engine().presented_time())
        .collect();
    assert_eq!(times, [FRAME_60HZ; 3]);
    // Back to one pane: the single pane's strategy, which the comparison left alone.
    lab.apply(LiveSettings {
        compare: false,
        ..settings
    })
    .expect("valid");
    assert_eq!(lab.panes().len(), 1);
    assert_eq!(lab.sim().engine().strategy(), settings.strategy);
}

#[test]
fn the_load_is_spent_once_for_the_focused_pane() {
    let mut settings = LiveSettings {
        compare: true,
        panes: Panes::new(&[Strategy::Fixed, Strategy::Accumulator]).expect("valid"),
        ..LiveSettings::default()
    };
    settings.load.step_cost_ms = 5.0;
    settings.load.render_cost_ms = 1.0;
    for focus in 0..2 {
        let mut lab = live(LiveSettings { focus, ..settings });
        for _ in 0..60 {
            let frame = frame_after(&mut lab, FRAME_60HZ);
            let focused_steps = lab.panes()[focus].history().latest().expect("ran").steps;
            assert_eq!(frame.report.strategy, settings.panes.as_slice()[focus]);
            assert_eq!(
                frame.load.total,
                u64::from(focused_steps) * 5 * MS + MS,
                "one load: the focused pane's steps and one frame's cost"
            );
        }
    }
}

#[test]
fn a_comparison_needs_two_to_ten_panes() {
    let error = Panes::new(&[Strategy::Fixed]).expect_err("one pane");
    assert_eq!(
        error.to_string(),
        "comparison panes 1 (fixed) is out of range (allowed 2 to 10 strategies)"
    );
    let mut panes = Panes::new(&[Strategy::Fixed, Strategy::Variable]).expect("valid");
    assert!(!panes.remove_last());
    assert!(panes.add());
    assert_eq!(
        panes.as_slice()[2],
        Strategy::SemiFixed,
        "the first unused strategy"
    );
    while panes.add() {}
    assert_eq!(panes.len(), MAX_PANES);
    assert_eq!(panes, Panes::new(&Strategy::ALL).expect("every strategy"));
    assert_eq!(Panes::default().as_slice(), Strategy::CLASSIC);
}

/// Per-frame change of the sphere's bearing as the camera sees it (the angle between the
/// camera's view of the pivot and of the sphere, about the vertical), radians.
fn relative_bearing_steps(lab: &mut LiveLoop<VirtualStopwatch>, pane: usize) -> Vec<f64> {
    let mut bearings = Vec::new();
    for _ in 0..120 {
        frame_after(lab, FRAME_60HZ);
        let shown = lab.panes()[pane].last().expect("a frame ran").shown;
        let to_target = shown.camera_target - shown.camera_eye;
        let to_sphere = shown.sphere_position - shown.camera_eye;
        let bearing = to_sphere.z.atan2(to_sphere.x) - to_target.z.atan2(to_target.x);
        bearings.push(bearing);
    }
    let tau = std::f64::consts::TAU;
    // The first frames start the motion (no step yet, then the first): skip them.
    bearings
        .windows(2)
        .skip(10)
        .map(|w| (w[1] - w[0] + tau / 2.0).rem_euclid(tau) - tau / 2.0)
        .collect()
}

#[test]
fn camera_vs_sphere_makes_the_sphere_jump_against_the_camera_unless_interpolated() {
    let mut settings = LiveSettings::default();
    let per_frame_alone = LiveSettings {
        camera: crate::scene::CameraDriver::PerFrame,
        ..settings
    };
    assert!(
        !ScenePreset::CameraVsSphere.matches(&per_frame_alone),
        "the advice needs both panes it compares"
    );
    ScenePreset::CameraVsSphere.apply(&mut settings);
    assert!(ScenePreset::CameraVsSphere.matches(&settings));
    assert_eq!(
        settings.pane_strategies(),
        [Strategy::Accumulator, Strategy::Interpolated]
    );
    let spread = |steps: &[f64]| {
        let (low, high) = steps
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), &s| (lo.min(s), hi.max(s)));
        high - low
    };
    let mut lab = live(settings);
    let accumulator = spread(&relative_bearing_steps(&mut lab, 0));
    let mut lab = live(settings);
    let interpolated = spread(&relative_bearing_steps(&mut lab, 1));
    // Interpolated: the sphere's bearing moves by the same angle every frame; the
    // accumulator's moves by 0 or a whole step's worth against the per-frame camera.
    assert!(interpolated < 2e-4, "interpolated spread {interpolated}");
    assert!(accumulator > 3e-3, "accumulator spread {accumulator}");
    // With the camera in the simulation too, the accumulator view judders as a whole
    // instead: sphere and camera jump together, and the bearing stays even.
    ScenePreset::Together.apply(&mut settings);
    let mut lab = live(settings);
    let together = spread(&relative_bearing_steps(&mut lab, 0));
    assert!(together < 2e-4, "together spread {together}");
}

#[test]
fn slow_motion_slows_every_pane_alike() {
    let mut lab = live(LiveSettings {
        compare: true,
        time_scale: MIN_TIME_SCALE,
        ..LiveSettings::default()
    });
    lab.frame();
    for _ in 0..600 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    let scaled = (FRAME_60HZ as f64 * MIN_TIME_SCALE).round() as Nanos;
    for pane in lab.panes() {
        let fed: Vec<Nanos> = pane.history().iter().skip(1).map(|s| s.fed).collect();
        assert_eq!(fed.len(), 600);
        // The clock carries the rounding, so the scaled frames differ by at most 1 ns and
        // add up exactly.
        assert!(
            fed.iter().all(|&f| f.abs_diff(scaled) <= 1),
            "{}",
            pane.strategy()
        );
        let total: Nanos = fed.iter().sum();
        assert_eq!(
            total,
            (600.0 * FRAME_60HZ as f64 * MIN_TIME_SCALE).round() as Nanos,
            "{}",
            pane.strategy()
        );
    }
    let first: Vec<Nanos> = lab.panes()[0].history().iter().map(|s| s.fed).collect();
    for pane in &lab.panes()[1..] {
        let fed: Vec<Nanos> = pane.history().iter().map(|s| s.fed).collect();
        assert_eq!(fed, first, "{}", pane.strategy());
    }
}

#[test]
fn compare_focuses_the_accumulator_and_leaving_it_keeps_the_focused_strategy() {
    let mut settings = LiveSettings::default();
    assert_eq!(settings.strategy, Strategy::Interpolated);
    settings.set_compare(true);
    assert!(settings.compare);
    assert_eq!(
        settings.pane_strategies()[settings.focus],
        Strategy::Accumulator
    );
    settings.focus = 5;
    settings.set_compare(false);
    assert!(!settings.compare);
    assert_eq!(
        settings.strategy,
        Strategy::Extrapolated,
        "the focused pane's strategy"
    );
    // Without an accumulator pane, the first pane.
    settings.panes = Panes::new(&[Strategy::Fixed, Strategy::Variable]).unwrap();
    settings.set_compare(true);
    assert_eq!(settings.focus, 0);
    // Setting what is already set changes nothing.
    settings.focus = 1;
    settings.set_compare(true);
    assert_eq!(settings.focus, 1);
}

#[test]
fn a_preset_pane_shows_its_own_step() {
    let mut lab = comparing(&[Strategy::Accumulator, Strategy::Preset(EnginePreset::Bevy)]);
    frame_after(&mut lab, FRAME_60HZ);
    let steps: Vec<Nanos> = lab.snapshot().panes().map(|pane| pane.dt).collect();
    assert_eq!(steps, [20 * MS, 15_625_000]);
}

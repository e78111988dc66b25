use super::*;
use crate::timestep::{EnginePreset, MIN_TIME_SCALE, Nanos, Strategy};

const MS: Nanos = 1_000_000;
/// One 60 Hz display period, rounded to the nanosecond.
const FRAME_60HZ: Nanos = 16_666_667;

fn live(settings: LiveSettings) -> LiveLoop<VirtualStopwatch> {
    LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings")
}

/// Runs one frame after `render` of real time passes (rendering / waiting for the display).
fn frame_after(lab: &mut LiveLoop<VirtualStopwatch>, render: Nanos) -> LiveFrame {
    lab.stopwatch_mut().advance(render);
    lab.frame()
}

/// Runs 60 Hz frames until the loop reports a spiral; returns the real time that took, or
/// `None` if 2000 frames pass without one.
fn spiral_reported_after(lab: &mut LiveLoop<VirtualStopwatch>) -> Option<Nanos> {
    let start = lab.stopwatch().now();
    for _ in 0..2_000 {
        frame_after(lab, FRAME_60HZ);
        if lab.spiralling() {
            return Some(lab.stopwatch().now() - start);
        }
    }
    None
}

#[test]
fn a_step_cost_above_dt_without_guards_spirals_within_two_seconds() {
    let mut settings = LiveSettings {
        strategy: Strategy::Accumulator,
        max_frame_time_ms: 0.0,
        ..LiveSettings::default()
    };
    settings.load.step_cost_ms = 25.0;
    let mut lab = live(settings);
    let reported_at = spiral_reported_after(&mut lab).expect("the spiral is reported");
    assert!(
        reported_at <= 2_000 * MS,
        "reported after {} ms of load",
        reported_at / MS
    );
    // Spend a little longer in the spiral, then turn the default guard back on.
    for _ in 0..30 {
        frame_after(&mut lab, FRAME_60HZ);
        // The window stays responsive: a frame never busy-waits beyond the cap.
        assert!(lab.last().expect("a frame ran").load.waited <= MAX_BUSY_WAIT_PER_FRAME);
    }
    assert!(lab.spiralling());
    lab.apply(LiveSettings {
        max_frame_time_ms: 250.0,
        ..settings
    })
    .expect("valid settings");
    let mut cleared_after = None;
    for frame in 0..600 {
        frame_after(&mut lab, FRAME_60HZ);
        if !lab.spiralling() && cleared_after.is_none() {
            cleared_after = Some(frame);
        }
    }
    assert!(!lab.spiralling(), "the guard clears the spiral");
    assert!(cleared_after.expect("cleared") < 60);
    let stats = lab.window_stats();
    assert!(stats.dropped > 0, "the guard drops time");
    // The game runs slower than real time instead of freezing: 12-13 steps per frame.
    assert!((10.0..=14.0).contains(&stats.steps_mean), "{stats:?}");
}

#[test]
fn a_loop_that_keeps_up_is_never_called_a_spiral() {
    let mut settings = LiveSettings::default();
    settings.load.step_cost_ms = 15.0;
    settings.load.jitter_ms = 3.0;
    settings.load.hitch_ms = 150.0;
    settings.load.hitch_every_s = 1.0;
    let mut lab = live(settings);
    for _ in 0..1_000 {
        frame_after(&mut lab, FRAME_60HZ);
        assert!(!lab.spiralling());
    }
}

#[test]
fn maximum_load_keeps_every_frame_within_the_busy_wait_cap() {
    let settings = LiveSettings {
        max_frame_time_ms: 0.0,
        load: LoadSettings {
            step_cost_ms: MAX_LOAD_MS,
            render_cost_ms: MAX_LOAD_MS,
            jitter_ms: MAX_JITTER_MS,
            hitch_ms: MAX_LOAD_MS,
            hitch_every_s: HITCH_PERIOD_RANGE_S.0,
        },
        ..LiveSettings::default()
    };
    let mut lab = live(settings);
    for _ in 0..200 {
        let before = lab.stopwatch().now();
        let frame = frame_after(&mut lab, FRAME_60HZ);
        let spent = lab.stopwatch().now() - before;
        assert!(spent <= FRAME_60HZ + MAX_BUSY_WAIT_PER_FRAME);
        assert!(frame.load.waited <= MAX_BUSY_WAIT_PER_FRAME);
        assert!(frame.shown.sphere_position.is_finite());
    }
    assert!(lab.spiralling() && lab.frozen());
    lab.reset();
    assert!(!lab.spiralling() && !lab.frozen());
}

#[test]
fn a_kick_on_a_paused_frame_waits_for_the_next_step() {
    let mut lab = live(LiveSettings::default());
    for _ in 0..10 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    lab.set_paused(true);
    frame_after(&mut lab, FRAME_60HZ);
    let velocity_before = lab.sim().scene().current().spring.v;
    lab.kick();
    let paused = frame_after(&mut lab, FRAME_60HZ);
    assert!(paused.report.steps.is_empty());
    assert_eq!(lab.sim().scene().current().spring.v, velocity_before);
    assert!(lab.sim().scene().pending_kick_mps() > 0.0);
    // Single-stepping delivers one 60 Hz frame: with dt = 20 ms that may take no step, and
    // the kick waits; it lands on the first step.
    let mut stepped = false;
    for _ in 0..3 {
        lab.single_step();
        let frame = frame_after(&mut lab, 500 * MS);
        assert_eq!(
            frame.report.frame_time,
            crate::timestep::DEFAULT_SINGLE_STEP_FRAME
        );
        if !frame.report.steps.is_empty() {
            stepped = true;
            break;
        }
    }
    assert!(stepped);
    assert_eq!(lab.sim().scene().pending_kick_mps(), 0.0);
    assert_ne!(lab.sim().scene().current().spring.v, velocity_before);
    assert!(lab.paused());
}

#[test]
fn a_bad_setting_is_named_and_changes_nothing() {
    let mut lab = live(LiveSettings::default());
    let before = *lab.settings();
    let error = lab
        .apply(LiveSettings {
            rate_hz: 5000.0,
            strategy: Strategy::Variable,
            ..before
        })
        .expect_err("out of range");
    assert_eq!(
        error.to_string(),
        "physics rate 5000 Hz is out of range (allowed 1 to 1000 Hz)"
    );
    assert_eq!(*lab.settings(), before);
    assert_eq!(lab.sim().engine().strategy(), before.strategy);
    let mut bad_load = before;
    bad_load.load.step_cost_ms = f64::NAN;
    assert!(lab.apply(bad_load).is_err());
    let error = LiveSettings {
        frame_cap_hz: 1.0,
        ..before
    }
    .validate()
    .expect_err("too low");
    assert_eq!(
        error.to_string(),
        "frame cap 1 fps is out of range (allowed 0 (off) or 5 to 1000 fps)"
    );
}

#[test]
fn switching_strategy_live_accounts_for_every_nanosecond() {
    let mut lab = live(LiveSettings::default());
    let mut total = 0;
    for (i, strategy) in Strategy::ALL.iter().cycle().take(60).enumerate() {
        if i % 7 == 0 {
            let settings = LiveSettings {
                strategy: *strategy,
                ..*lab.settings()
            };
            lab.apply(settings).expect("valid");
        }
        let frame = frame_after(&mut lab, FRAME_60HZ + i as Nanos * 1000);
        total += frame.report.frame_time;
    }
    // Time is never lost or invented, but for the resyncs on leaving `fixed`, which are
    // counted.
    let engine = lab.sim().engine();
    assert_ne!(engine.rebased(), 0, "fixed ran ahead and was left");
    assert_eq!(
        i128::from(engine.latest_time()) + i128::from(engine.accumulator()),
        i128::from(total) - i128::from(engine.dropped())
            + i128::from(engine.rebased())
            + i128::from(engine.lead())
    );
}

#[test]
fn reset_forgets_trail_history_and_previous_state() {
    let mut lab = live(LiveSettings::default());
    for _ in 0..30 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    assert!(lab.pane_view().is_some_and(|view| view.trail.len() > 1));
    lab.reset();
    assert!(lab.pane_view().is_none());
    assert!(lab.history().is_empty());
    let scene = lab.sim().scene();
    assert_eq!(scene.previous(), scene.current());
    lab.stopwatch_mut().advance(FRAME_60HZ);
    let frame = lab.frame();
    assert_eq!(
        frame.report.frame_time, FRAME_60HZ,
        "real time keeps running"
    );
    assert_eq!(
        frame.report.presented_time, FRAME_60HZ,
        "the scene restarts at zero"
    );
    assert_eq!(lab.pane_view().map(|view| view.trail.len()), Some(1));
}

#[test]
fn the_present_rate_is_measured_from_presents() {
    let mut lab = live(LiveSettings::default());
    assert_eq!(lab.present_rate_hz(), 0.0);
    for _ in 0..200 {
        lab.stopwatch_mut().advance(10 * MS);
        lab.record_present(0);
    }
    assert!((lab.present_rate_hz() - 100.0).abs() < 1e-6);
}

#[test]
fn the_frame_cap_paces_frames() {
    let mut lab = live(LiveSettings {
        frame_cap_hz: 100.0,
        ..LiveSettings::default()
    });
    lab.frame();
    lab.stopwatch_mut().advance(3 * MS);
    lab.pace();
    assert_eq!(lab.stopwatch().now(), 10 * MS);
    lab.frame();
    lab.stopwatch_mut().advance(30 * MS);
    lab.pace();
    assert_eq!(
        lab.stopwatch().now(),
        40 * MS,
        "a late frame is not delayed further"
    );
}

#[test]
fn a_time_scale_that_makes_the_steps_too_expensive_is_a_spiral() {
    // 12 ms per 20 ms step is fine at 1x, but at 2x each real frame owes twice its length
    // in simulated time: 1.2 real seconds of step work per real second.
    let mut settings = LiveSettings {
        strategy: Strategy::Interpolated,
        max_frame_time_ms: 0.0,
        time_scale: 2.0,
        ..LiveSettings::default()
    };
    settings.load.step_cost_ms = 12.0;
    let mut lab = live(settings);
    let reported_at = spiral_reported_after(&mut lab).expect("the spiral is reported");
    assert!(reported_at <= 2_000 * MS, "after {} ms", reported_at / MS);
    assert!(!lab.frozen(), "reported before the loop froze");

    let mut calm = live(LiveSettings {
        time_scale: 1.0,
        ..settings
    });
    for _ in 0..600 {
        frame_after(&mut calm, FRAME_60HZ);
        assert!(!calm.spiralling());
    }
}

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
        .map(|l| *l.sim().scene().current())
        .collect();
    assert!(
        states.windows(2).any(|w| w[0] != w[1]),
        "the strategies have diverged before the reset"
    );
    lab.reset();
    let initial = crate::scene::SceneState::initial(lab.panes()[0].sim().scene().config());
    for pane in lab.panes() {
        let scene = pane.sim().scene();
        assert_eq!(*scene.current(), initial, "{}", pane.strategy());
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
fn a_comparison_needs_two_to_nine_panes() {
    let error = Panes::new(&[Strategy::Fixed]).expect_err("one pane");
    assert_eq!(
        error.to_string(),
        "comparison panes 1 (fixed) is out of range (allowed 2 to 9 strategies)"
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

/// A loop on a screen of `mode` at `hz`, fed `frames` of real time (after a first frame).
fn on_screen(
    settings: LiveSettings,
    mode: PresentModeId,
    hz: f64,
    frames: impl IntoIterator<Item = Nanos>,
) -> LiveLoop<VirtualStopwatch> {
    let mut lab = live(settings);
    lab.set_screen(ScreenFacts {
        present_mode: Some(mode),
        monitor_hz: Some(hz),
    });
    lab.frame();
    for frame in frames {
        frame_after(&mut lab, frame);
    }
    lab
}

#[test]
fn snapping_in_the_window_removes_the_vsync_wobble_at_the_modeled_screen() {
    let wobble = || (0..240).map(|i| if i % 2 == 0 { 15 * MS } else { 18_333_000 });
    let plain = on_screen(LiveSettings::default(), PresentModeId::Fifo, 60.0, wobble());
    let snapped = on_screen(
        LiveSettings {
            filter: crate::timestep::FilterSpec::Snap { tolerance: None },
            ..LiveSettings::default()
        },
        PresentModeId::Fifo,
        60.0,
        wobble(),
    );
    let (plain, snapped) = (plain.window_stats(), snapped.window_stats());
    assert!(plain.display_judder_ms > 1.0, "{plain:?}");
    assert!(snapped.display_judder_ms < 1e-3, "{snapped:?}");
    // The CPU-side judder sees neither: it measures against the frame times fed.
    assert!(plain.judder_ms < 1e-6 && snapped.judder_ms < 1e-6);
}

#[test]
fn the_screen_model_follows_the_present_mode_monitor_and_override() {
    let mut lab = live(LiveSettings::default());
    let readouts = |lab: &LiveLoop<VirtualStopwatch>| lab.snapshot().readouts.screen;
    assert_eq!(lab.screen().spec().to_string(), "fifo:60:2");
    assert_eq!(readouts(&lab).refresh_source, RefreshSource::Assumed);
    lab.set_screen(ScreenFacts {
        present_mode: Some(PresentModeId::Mailbox),
        monitor_hz: Some(144.0),
    });
    assert_eq!(lab.screen().spec().to_string(), "mailbox:144");
    assert_eq!(readouts(&lab).refresh_source, RefreshSource::Monitor);
    let settings = LiveSettings {
        refresh_override_hz: 75.0,
        ..*lab.settings()
    };
    lab.apply(settings).unwrap();
    assert_eq!(lab.screen().spec().to_string(), "mailbox:75");
    assert_eq!(readouts(&lab).refresh_source, RefreshSource::Override);
    let bad = LiveSettings {
        refresh_override_hz: 5000.0,
        ..*lab.settings()
    };
    let error = lab.apply(bad).unwrap_err();
    assert_eq!(
        error.to_string(),
        "refresh rate 5000 Hz is out of range (allowed 0 (the monitor's) or 1 to 1000 Hz)"
    );
    assert_eq!(lab.screen().spec().to_string(), "mailbox:75");
}

#[test]
fn a_mailbox_drops_frames_the_refreshes_cannot_show_and_the_history_marks_them() {
    let frame = 1_000_000_000 / 144;
    let lab = on_screen(
        LiveSettings::default(),
        PresentModeId::Mailbox,
        60.0,
        std::iter::repeat_n(frame, 432),
    );
    let stats = lab.window_stats();
    assert!((80..=88).contains(&stats.dropped_frames), "{stats:?}");
    let screen = lab.snapshot().readouts.screen;
    assert!((screen.shown_fps - 60.0).abs() < 1.0, "{screen:?}");
    let dropped = lab
        .history()
        .iter()
        .filter(|sample| sample.screen == OnScreen::Dropped)
        .count();
    let shown = lab
        .history()
        .iter()
        .filter(|sample| matches!(sample.screen, OnScreen::Shown { .. }))
        .count();
    // All settled but the newest two: one waits in the mailbox for a refresh, the other
    // has not been presented yet.
    assert_eq!(dropped + shown + 2, lab.history().len());
}

#[test]
fn slow_frames_on_fifo_repeat_refreshes_on_the_refresh_row() {
    let lab = on_screen(
        LiveSettings::default(),
        PresentModeId::Fifo,
        60.0,
        std::iter::repeat_n(33_333_333, 120),
    );
    let marks = lab.snapshot().refreshes;
    let repeats = marks
        .iter()
        .filter(|mark| mark.kind == RefreshKind::Repeat)
        .count();
    let new = marks
        .iter()
        .filter(|mark| mark.kind == RefreshKind::New)
        .count();
    assert_eq!(new, 120);
    assert_eq!(repeats, 119);
    // Each repeat shows the frame before it again.
    let mut on_screen = None;
    for mark in marks.iter() {
        match mark.kind {
            RefreshKind::New => on_screen = Some(mark.frame),
            RefreshKind::Repeat => assert_eq!(Some(mark.frame), on_screen),
            RefreshKind::Torn => unreachable!("FIFO never tears"),
        }
    }
    let screen = lab.snapshot().readouts.screen;
    assert!((screen.repeated_per_s - 30.0).abs() <= 1.0, "{screen:?}");
}

#[test]
fn the_window_present_time_and_acquire_wait_are_measured() {
    let mut lab = live(LiveSettings::default());
    lab.frame();
    for _ in 0..60 {
        lab.stopwatch_mut().advance(10 * MS);
        lab.record_present(4 * MS);
        lab.stopwatch_mut().advance(6 * MS);
        lab.frame();
    }
    let screen = lab.snapshot().readouts.screen;
    assert_eq!(screen.measured_presents, 60);
    assert!((screen.acquire_wait_ms - 4.0).abs() < 1e-9);
    // Frames were presented 10 ms into each 16 ms frame, not at the next frame's start:
    // with 16 ms frames on a 60 Hz grid, the shown frames keep their order and spacing.
    let shown: Vec<Nanos> = lab
        .history()
        .iter()
        .filter_map(|sample| match sample.screen {
            OnScreen::Shown { at, .. } => Some(at),
            _ => None,
        })
        .collect();
    assert!(shown.len() >= 58);
    assert!(shown.windows(2).all(|pair| pair[1] > pair[0]));
}

#[test]
fn paused_time_does_not_scroll_the_history_away_and_single_steps_append() {
    let mut lab = live(LiveSettings::default());
    lab.frame();
    for _ in 0..60 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    let before: Vec<FrameSample> = lab.history().iter().copied().collect();
    let stats = lab.window_stats();
    lab.set_paused(true);
    // Ten seconds paused at 60 fps.
    for _ in 0..600 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    let after: Vec<FrameSample> = lab.history().iter().copied().collect();
    assert_eq!(after.len(), before.len());
    // The frames are the same; only their screen outcomes may have settled meanwhile.
    for (a, b) in after.iter().zip(&before) {
        assert_eq!((a.wall, a.fed, a.steps), (b.wall, b.fed, b.steps));
    }
    assert_eq!(
        lab.window_stats().fps,
        stats.fps,
        "the readouts describe the last run"
    );
    for _ in 0..3 {
        lab.single_step();
        frame_after(&mut lab, FRAME_60HZ);
    }
    assert_eq!(lab.history().len(), before.len() + 3);
    let stepped: Vec<Nanos> = lab.history().iter().rev().take(3).map(|s| s.fed).collect();
    assert_eq!(stepped, [crate::timestep::DEFAULT_SINGLE_STEP_FRAME; 3]);
    // The frames before the pause are still there behind the single steps.
    assert_eq!(
        lab.history().iter().nth(60).map(|s| s.wall),
        before.get(60).map(|s| s.wall)
    );
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
fn sim_speed_reads_how_fast_the_game_runs_against_real_time() {
    // 50 Hz steps at 30 fps with at most one step a frame: the game runs at 0.6x.
    let capped = LiveSettings {
        strategy: Strategy::Accumulator,
        max_steps: 1,
        ..LiveSettings::default()
    };
    let lab = on_screen(
        capped,
        PresentModeId::Fifo,
        60.0,
        std::iter::repeat_n(33_333_333, 90),
    );
    let speed = lab.window_stats().sim_speed;
    assert!((speed - 0.6).abs() < 0.02, "{speed}");
    // Uncapped it keeps up; slowed down by the time scale it runs at the scale.
    let free = on_screen(
        LiveSettings::default(),
        PresentModeId::Fifo,
        60.0,
        std::iter::repeat_n(FRAME_60HZ, 120),
    );
    assert!((free.window_stats().sim_speed - 1.0).abs() < 0.03);
    let slow = on_screen(
        LiveSettings {
            time_scale: 0.25,
            ..LiveSettings::default()
        },
        PresentModeId::Fifo,
        60.0,
        std::iter::repeat_n(FRAME_60HZ, 240),
    );
    assert!((slow.window_stats().sim_speed - 0.25).abs() < 0.03);
}

#[test]
fn leaving_fixed_does_not_leave_its_lag_behind() {
    // Fixed on a 10 fps loop simulates one 60 Hz step per 100 ms frame: after 10 s the
    // picture is over 7 s behind real time (8.3 s at the end, 7.6 s on average over the
    // last second).
    let mut lab = live(LiveSettings {
        strategy: Strategy::Fixed,
        ..LiveSettings::default()
    });
    lab.frame();
    for _ in 0..100 {
        frame_after(&mut lab, 100 * MS);
    }
    let lag = lab.window_stats().latency_ms;
    assert!(lag > 7_000.0, "fixed fell behind: {lag} ms");
    let dt_ms = 1_000.0 / lab.settings().rate_hz;
    lab.apply(LiveSettings {
        strategy: Strategy::Interpolated,
        ..*lab.settings()
    })
    .expect("valid settings");
    // The first frames after the switch do not count the resync as judder.
    frame_after(&mut lab, 100 * MS);
    frame_after(&mut lab, 100 * MS);
    let newest: Vec<_> = lab
        .focus()
        .history()
        .iter()
        .rev()
        .take(2)
        .copied()
        .collect();
    let (after, before) = (newest[0], newest[1]);
    assert!(before.rebase < -7_000 * MS as i64, "{}", before.rebase);
    assert_eq!(after.rebase, 0);
    for _ in 0..20 {
        frame_after(&mut lab, 100 * MS);
    }
    // Readouts describe interpolation now: one dt behind, perfectly even.
    let stats = lab.window_stats();
    assert!((stats.latency_ms - dt_ms).abs() < 1e-6, "{stats:?}");
    assert_eq!(stats.judder_ms, 0.0, "{stats:?}");
    let engine = lab.focus().sim().engine();
    assert_eq!(engine.lead(), 0);
    assert_eq!(i128::from(engine.rebased()), i128::from(before.rebase));
}

#[test]
fn each_remedy_the_explosion_banner_offers_keeps_the_spring_bounded() {
    let explodes_within = |lab: &mut LiveLoop<VirtualStopwatch>, frames: usize| {
        (0..frames).any(|_| {
            frame_after(lab, FRAME_60HZ);
            lab.exploded()
        })
    };
    // A 50 Hz spring at the default 50 Hz steps (semi-implicit Euler needs 157 Hz), and
    // explicit Euler on an undamped 5 Hz spring (it gains 18 % amplitude a step).
    let stiff = LiveSettings {
        spring_hz: 50.0,
        ..LiveSettings::default()
    };
    let euler = LiveSettings {
        integrator: crate::scene::Integrator::ExplicitEuler,
        spring_hz: 5.0,
        ..LiveSettings::default()
    };
    let mut cases = Vec::new();
    let remedies = Remedies::for_settings(&stiff);
    if let Some(rate_hz) = remedies.rate_hz {
        cases.push((stiff, LiveSettings { rate_hz, ..stiff }));
    }
    if let Some(spring_hz) = remedies.spring_hz {
        cases.push((stiff, LiveSettings { spring_hz, ..stiff }));
    }
    if let Some(integrator) = Remedies::for_settings(&euler).integrator {
        cases.push((
            euler,
            LiveSettings {
                integrator,
                ..euler
            },
        ));
    }
    assert_eq!(cases.len(), 3, "{remedies:?}");
    for (broken, fix) in cases {
        let mut lab = live(broken);
        lab.frame();
        assert!(
            explodes_within(&mut lab, 60),
            "{broken:?} explodes within a second"
        );
        // Reset alone brings it straight back.
        lab.reset();
        assert!(explodes_within(&mut lab, 60), "reset alone re-explodes");
        lab.apply(fix).expect("valid settings");
        lab.reset();
        assert!(
            !explodes_within(&mut lab, 600),
            "still explodes after {fix:?}"
        );
    }
}

#[test]
fn a_slow_loop_is_offered_the_time_scale_that_shows_each_frame_as_a_60_hz_one() {
    // 10 frames a second: each takes five 50 Hz steps, and the strategies look alike.
    let mut lab = live(LiveSettings::default());
    lab.frame();
    for _ in 0..30 {
        frame_after(&mut lab, 100 * MS);
    }
    let offer = SlowLoop::detect(&lab).expect("a 10 fps loop is slow");
    assert!((offer.fps - 10.0).abs() < 1e-9, "{offer:?}");
    assert!((offer.steps_per_frame - 5.0).abs() < 1e-9, "{offer:?}");
    assert!((offer.time_scale - 10.0 / 60.0).abs() < 1e-12, "{offer:?}");
    lab.apply(LiveSettings {
        time_scale: offer.time_scale,
        ..*lab.settings()
    })
    .expect("valid settings");
    for _ in 0..20 {
        frame_after(&mut lab, 100 * MS);
    }
    // Each frame now advances the game by one 60 Hz frame: 0.83 steps of 20 ms, the
    // accumulator's 50-on-60 stutter back in sight; and the offer is taken.
    let stats = lab.window_stats();
    assert!((stats.steps_mean - 50.0 / 60.0).abs() < 0.1, "{stats:?}");
    assert_eq!(SlowLoop::detect(&lab), None);
}

#[test]
fn a_fast_loop_or_a_per_step_load_is_not_offered_a_slower_time() {
    let mut fast = live(LiveSettings::default());
    fast.frame();
    for _ in 0..300 {
        frame_after(&mut fast, FRAME_60HZ);
    }
    assert_eq!(SlowLoop::detect(&fast), None, "60 fps is not slow");
    // Slow, but because each step costs 30 ms: that is the load being studied.
    let mut settings = LiveSettings::default();
    settings.load.step_cost_ms = 30.0;
    let mut loaded = live(settings);
    loaded.frame();
    for _ in 0..30 {
        frame_after(&mut loaded, 100 * MS);
    }
    assert_eq!(SlowLoop::detect(&loaded), None);
    // Too early to judge: the first two seconds are slow everywhere.
    let mut starting = live(LiveSettings::default());
    starting.frame();
    for _ in 0..10 {
        frame_after(&mut starting, 100 * MS);
    }
    assert_eq!(SlowLoop::detect(&starting), None);
}

#[test]
fn a_preset_pane_shows_its_own_step() {
    let mut lab = comparing(&[Strategy::Accumulator, Strategy::Preset(EnginePreset::Bevy)]);
    frame_after(&mut lab, FRAME_60HZ);
    let steps: Vec<Nanos> = lab.snapshot().panes().map(|pane| pane.dt).collect();
    assert_eq!(steps, [20 * MS, 15_625_000]);
}

//! What a person does to a running loop: pause and single steps, kicks, resets, bad
//! settings, a strategy switched live, the frame cap, and how fast the game then runs.

use super::*;
use crate::timestep::Strategy;

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

/// Collects what a recording is given, frame by frame.
struct Collected(std::sync::Arc<std::sync::Mutex<Vec<LiveRequest>>>);

impl RecordingSink for Collected {
    fn frame(&mut self, _row: &RecordedFrame, events: &[LiveRequest]) -> std::io::Result<()> {
        self.0
            .lock()
            .expect("not poisoned")
            .extend_from_slice(events);
        Ok(())
    }

    fn frames(&self) -> u64 {
        0
    }

    fn finish(self: Box<Self>) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn every_request_the_loop_takes_is_recorded_as_the_value_it_came_as_and_a_refused_one_not() {
    let mut lab = live(LiveSettings::default());
    let written = std::sync::Arc::default();
    let sink = Collected(std::sync::Arc::clone(&written));
    lab.start_recording("test", |_| Ok(Box::new(sink)))
        .expect("a sink in memory opens");
    frame_after(&mut lab, FRAME_60HZ);
    let slower = LiveSettings {
        time_scale: 0.5,
        ..LiveSettings::default()
    };
    let refused = LiveSettings {
        time_scale: -1.0,
        ..LiveSettings::default()
    };
    let at = lab.now();
    let taken = [
        LiveRequest::Kick,
        LiveRequest::Pause,
        LiveRequest::SingleStep,
        LiveRequest::Resume,
        LiveRequest::Settings(slower),
        LiveRequest::Input(crate::input::InputEvent {
            at,
            kind: crate::input::InputKind::Look {
                yaw_rad: 0.1,
                pitch_rad: 0.0,
            },
        }),
        LiveRequest::Reset,
    ];
    for request in taken {
        lab.request(request).expect("a request the loop takes");
    }
    assert!(lab.request(LiveRequest::Settings(refused)).is_err());
    assert_eq!(lab.settings().time_scale, 0.5, "the settings in force stay");
    frame_after(&mut lab, FRAME_60HZ);
    frame_after(&mut lab, FRAME_60HZ);
    lab.stop_recording().expect("the sink finishes");
    assert_eq!(*written.lock().expect("not poisoned"), taken);
}

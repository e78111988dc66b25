//! The load ramp on the virtual clock: onsets where the closed loop the bench runs puts
//! them, and the load always put back, whichever way the ramp ends.

use super::*;
use crate::run::ONSET_SPEED;
use crate::timestep::Strategy;

/// 50 Hz physics: the default step.
const DT_MS: f64 = 20.0;
/// A steady 60 Hz frame, ms.
const FRAME_MS: f64 = 1000.0 / 60.0;

/// Settings comparing `panes` (the first focused, its steps costing the load) with no
/// guards but `max_steps`, at the default 50 Hz.
fn unguarded(panes: &[Strategy], max_steps: u32) -> LiveSettings {
    LiveSettings {
        compare: panes.len() > 1,
        strategy: panes[0],
        panes: if panes.len() > 1 {
            Panes::new(panes).expect("valid panes")
        } else {
            Panes::default()
        },
        focus: 0,
        max_frame_time_ms: 0.0,
        max_steps,
        ..LiveSettings::default()
    }
}

/// Runs steady 60 Hz frames (each 16.67 ms of render plus the load the loop busy-waits, as
/// the bench's closed loop makes them) until the ramp ends; panics past `limit` frames.
fn ramp_to_the_end(lab: &mut LiveLoop<VirtualStopwatch>, limit: usize) {
    for _ in 0..limit {
        frame_after(lab, FRAME_60HZ);
        if !lab.ramp().expect("a ramp").running() {
            return;
        }
    }
    panic!("the ramp did not end within {limit} frames");
}

/// A loop under `settings` after a second of frames, its ramp started.
fn ramping(settings: LiveSettings, ramp: RampSettings) -> LiveLoop<VirtualStopwatch> {
    let mut lab = live(settings);
    lab.frame();
    for _ in 0..60 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    lab.start_ramp(ramp).expect("a valid ramp");
    lab
}

fn onset_ms(lab: &LiveLoop<VirtualStopwatch>, pane: usize) -> Option<f64> {
    lab.ramp().expect("a ramp").onsets()[pane].map(|onset| onset.load_ms)
}

/// The unguarded accumulator keeps up (speed 1: it drops nothing) until a step costs
/// `dt`, where the closed loop's owed time diverges: sweep, holding each level for a whole
/// trace, finds its onset between 20.0 and 20.2 ms. Only the spiral detector can say it
/// broke. Below `dt` a rising load makes it fire too (frames `f/(1 − c/dt)` long climb
/// faster than the loop settles), so the ramp believes it only where the steps cost at
/// least the time they simulate over the speed window, and only once that has lasted a
/// whole window; the mark is the load where it started: from `dt` to half a window's climb
/// above it. Interpolated takes the same steps and breaks with it; variable takes one step
/// a frame whatever its length and never breaks.
#[test]
fn unguarded_accumulator_breaks_where_a_step_costs_dt_and_variable_never_does() {
    let ramp = RampSettings {
        max_step_cost_ms: 30.0,
        duration_s: 60.0,
    };
    let panes = [
        Strategy::Accumulator,
        Strategy::Interpolated,
        Strategy::Variable,
    ];
    let mut lab = ramping(unguarded(&panes, 0), ramp);
    ramp_to_the_end(&mut lab, 100_000);
    let ended = lab.ramp().expect("a ramp");
    let accumulator = ended.onsets()[0].expect("the accumulator breaks");
    let resolution = ended.resolution_ms();
    assert_eq!(resolution, 0.5);
    assert!(
        accumulator.load_ms >= DT_MS && accumulator.load_ms <= DT_MS + resolution,
        "accumulator onset {} ms, closed loop {DT_MS} ms + {resolution}",
        accumulator.load_ms
    );
    assert!(accumulator.spiral, "the spiral detector said so");
    assert!(accumulator.speed >= ONSET_SPEED, "it kept up until then");
    assert_eq!(
        onset_ms(&lab, 1),
        Some(accumulator.load_ms),
        "interpolated takes the same steps"
    );
    assert_eq!(onset_ms(&lab, 2), None, "variable never breaks");
    assert_eq!(ended.phase(), RampPhase::Finished);
    assert_eq!(lab.settings().load.step_cost_ms, 0.0, "the load is back");
}

/// With a cap of 2 steps a frame the accumulator runs at `min(1, 2·dt/(f + 2c))` of real
/// time on frames of `f` whose steps cost `c`: the onset is where that falls below 0.99,
/// `c = (2·dt/0.99 − f)/2` = 11.87 ms; every point of the curve reads the formula.
#[test]
fn a_two_step_cap_slows_the_accumulator_as_the_closed_loop_says() {
    let ramp = RampSettings {
        max_step_cost_ms: 20.0,
        duration_s: 40.0,
    };
    let mut lab = ramping(unguarded(&[Strategy::Accumulator], 2), ramp);
    ramp_to_the_end(&mut lab, 100_000);
    let ended = lab.ramp().expect("a ramp");
    let expected = (2.0 * DT_MS / ONSET_SPEED - FRAME_MS) / 2.0;
    let onset = ended.onsets()[0].expect("the capped accumulator breaks");
    // A reading covers the last 2 s (100 steps) and is placed at its frames' mean load:
    // within half the 1 ms the ramp climbs meanwhile.
    let resolution = ended.resolution_ms();
    assert_eq!(resolution, 0.5);
    assert!(
        (onset.load_ms - expected).abs() <= resolution,
        "onset {} ms, closed loop {expected} ms ± {resolution}",
        onset.load_ms
    );
    assert!(!onset.spiral, "a cap slows the game, it never spirals");
    // Every point reads the formula over the loads its window spans, give or take one
    // step dropped in the window (time is dropped in whole steps: 1 in 100).
    let formula = |c: f64| (2.0 * DT_MS / (FRAME_MS + 2.0 * c)).min(1.0);
    let quantum = 1.0 / RAMP_WINDOW_STEPS as f64;
    assert!(
        ended.samples().len() > 50,
        "{} points",
        ended.samples().len()
    );
    for sample in ended.samples() {
        let (low, high) = (
            formula(sample.load_ms + resolution) - quantum,
            formula((sample.load_ms - resolution).max(0.0)) + quantum,
        );
        let speed = sample.speeds[0];
        assert!(
            (low..=high).contains(&speed),
            "at {} ms: speed {speed}, formula {low}..{high}",
            sample.load_ms
        );
    }
    // Its one pane broke, so the ramp ended before the top.
    assert_eq!(ended.phase(), RampPhase::AllBroken);
    assert!(ended.load_ms() < ramp.max_step_cost_ms);
    assert_eq!(lab.settings().load.step_cost_ms, 0.0, "the load is back");
}

/// Under the default 250 ms clamp the accumulator slows but never spirals: frames reach
/// the clamp where `f/(1 − c/dt)` = 250 ms (`c` = 18.67 ms) and from there each frame drops
/// what it owes beyond it, running at `250/(f + 12.5·c)` of real time, below 0.99 from
/// 18.87 ms (sweep's closed loop puts it between 18.80 and 18.85 ms). Near `dt` the loop
/// takes `dt/(dt − c)` frames to settle (18 frames of 250 ms here, over 4 s), so a rising
/// load is read late by what it climbs meanwhile (19.4 ms at 0.5 ms a second, 18.95 at
/// 0.1); the mark must lie between the clamp's first drop and `dt`.
#[test]
fn the_clamp_slows_the_accumulator_without_a_spiral() {
    let ramp = RampSettings {
        max_step_cost_ms: 30.0,
        duration_s: 60.0,
    };
    let settings = LiveSettings {
        max_frame_time_ms: 250.0,
        ..unguarded(&[Strategy::Accumulator], 0)
    };
    let mut lab = ramping(settings, ramp);
    ramp_to_the_end(&mut lab, 100_000);
    let onset = lab.ramp().expect("a ramp").onsets()[0].expect("it slows");
    let first_drop = DT_MS * (1.0 - FRAME_MS / 250.0);
    assert!(
        (first_drop..DT_MS).contains(&onset.load_ms),
        "onset {} ms, expected from {first_drop} to {DT_MS} ms",
        onset.load_ms
    );
    assert!(!onset.spiral, "the clamp keeps it from spiralling");
    assert!(onset.speed < ONSET_SPEED);
}

/// Each comparison pane gets its own mark, on the same frames: the capped panes at the
/// cap's onset, the ones that keep up with no mark.
#[test]
fn comparison_panes_each_get_their_mark() {
    let ramp = RampSettings {
        max_step_cost_ms: 16.0,
        duration_s: 16.0,
    };
    let panes = [
        Strategy::Accumulator,
        Strategy::Interpolated,
        Strategy::Variable,
        Strategy::SemiFixed,
    ];
    let mut lab = ramping(unguarded(&panes, 2), ramp);
    ramp_to_the_end(&mut lab, 100_000);
    let expected = (2.0 * DT_MS / ONSET_SPEED - FRAME_MS) / 2.0;
    let resolution = lab.ramp().expect("a ramp").resolution_ms();
    for pane in [0, 1] {
        let onset = onset_ms(&lab, pane).expect("capped panes break");
        assert!(
            (onset - expected).abs() <= resolution,
            "pane {pane}: {onset} ms, closed loop {expected} ms ± {resolution}"
        );
    }
    assert_eq!(onset_ms(&lab, 2), None, "variable keeps up");
    let ramp_state = lab.ramp().expect("a ramp");
    assert_eq!(ramp_state.strategies(), &panes);
    assert_eq!(ramp_state.phase(), RampPhase::Finished);
}

/// The load the ramp started from comes back however it ends, and a load set by hand
/// during it stays.
#[test]
fn every_way_a_ramp_ends_puts_the_load_back() {
    let mut settings = LiveSettings::default();
    settings.load.step_cost_ms = 3.0;
    let ramp = RampSettings {
        max_step_cost_ms: 40.0,
        duration_s: 10.0,
    };
    type End = fn(&mut LiveLoop<VirtualStopwatch>);
    let ends: [(&str, End, RampCancel); 5] = [
        ("stop", |lab| lab.stop_ramp(), RampCancel::Stopped),
        ("pause", |lab| lab.set_paused(true), RampCancel::Paused),
        ("single step", |lab| lab.single_step(), RampCancel::Paused),
        (
            "a setting",
            |lab| {
                let mut changed = *lab.settings();
                changed.time_scale = 0.5;
                lab.apply(changed).expect("valid settings");
            },
            RampCancel::SettingsChanged,
        ),
        (
            "a new ramp",
            |lab| lab.start_ramp(RampSettings::default()).expect("valid"),
            RampCancel::Stopped,
        ),
    ];
    for (name, end, why) in ends {
        let mut lab = ramping(settings, ramp);
        for _ in 0..120 {
            frame_after(&mut lab, FRAME_60HZ);
        }
        assert!(lab.settings().load.step_cost_ms > 3.0, "{name}: ramping");
        assert_eq!(lab.resting_settings().load.step_cost_ms, 3.0, "{name}");
        end(&mut lab);
        assert_eq!(lab.settings().load.step_cost_ms, 3.0, "{name}: load back");
        let last = lab.ramp().expect("the curves stay");
        if name == "a new ramp" {
            assert!(last.running(), "the new one runs");
            assert_eq!(last.base_step_cost_ms(), 3.0, "from the load at rest");
        } else {
            assert_eq!(last.phase(), RampPhase::Cancelled(why), "{name}");
            assert!(!last.samples().is_empty(), "{name}: its points stay");
        }
        // The next frames run at the load at rest.
        frame_after(&mut lab, FRAME_60HZ);
        if name != "a new ramp" {
            assert_eq!(lab.settings().load.step_cost_ms, 3.0, "{name}: stays back");
        }
    }

    // A reset ends it and clears its curves.
    let mut lab = ramping(settings, ramp);
    frame_after(&mut lab, FRAME_60HZ);
    frame_after(&mut lab, FRAME_60HZ);
    lab.reset();
    assert!(lab.ramp().is_none());
    assert_eq!(lab.settings().load.step_cost_ms, 3.0);

    // A load set by hand during the ramp is the person's: it stays.
    let mut lab = ramping(settings, ramp);
    for _ in 0..60 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    let mut by_hand = *lab.settings();
    by_hand.load.step_cost_ms = 7.5;
    lab.apply(by_hand).expect("valid settings");
    assert_eq!(lab.settings().load.step_cost_ms, 7.5);
    assert_eq!(
        lab.ramp().map(Ramp::phase),
        Some(RampPhase::Cancelled(RampCancel::LoadSetByHand))
    );
    frame_after(&mut lab, FRAME_60HZ);
    assert_eq!(lab.settings().load.step_cost_ms, 7.5);
}

/// The ramp climbs over real time on the stopwatch, whatever the frame rate: at the 20 fps
/// of a software renderer it reaches the top in its duration and ends there.
#[test]
fn a_slow_loop_ramps_over_the_same_real_time() {
    let ramp = RampSettings {
        max_step_cost_ms: 5.0,
        duration_s: 4.0,
    };
    let mut lab = ramping(LiveSettings::default(), ramp);
    let mut frames = 0;
    while lab.ramp().is_some_and(Ramp::running) {
        frame_after(&mut lab, 50 * MS);
        frames += 1;
        assert!(frames < 1000, "the ramp ends");
    }
    let ended = lab.ramp().expect("a ramp");
    assert_eq!(ended.phase(), RampPhase::Finished);
    assert!(
        (4.0..4.5).contains(&ended.elapsed_s()),
        "{} s",
        ended.elapsed_s()
    );
    assert_eq!(ended.load_ms(), 5.0);
    assert!(ended.onsets().iter().all(Option::is_none), "nothing broke");
    assert!(
        ended.samples().len() >= 60,
        "{} points",
        ended.samples().len()
    );
    assert_eq!(lab.settings().load.step_cost_ms, 0.0);
}

/// Bad ramp settings are named and change nothing.
#[test]
fn bad_ramp_settings_are_refused() {
    let mut lab = live(LiveSettings::default());
    lab.frame();
    for (max, duration) in [
        (0.0, 10.0),
        (1e-300, 10.0),
        (-1.0, 10.0),
        (f64::NAN, 10.0),
        (f64::INFINITY, 10.0),
        (MAX_LOAD_MS + 1.0, 10.0),
        (10.0, 0.0),
        (10.0, f64::NAN),
        (10.0, 601.0),
    ] {
        let error = lab
            .start_ramp(RampSettings {
                max_step_cost_ms: max,
                duration_s: duration,
            })
            .expect_err("refused");
        assert!(error.to_string().contains("ramp"), "{error}");
        assert!(lab.ramp().is_none());
    }
}

/// A ramp keeps a bounded number of points, and once ended leaves later frames alone.
#[test]
fn an_ended_ramp_leaves_later_frames_alone() {
    let ramp = RampSettings {
        max_step_cost_ms: 10.0,
        duration_s: 1.0,
    };
    let mut lab = ramping(LiveSettings::default(), ramp);
    ramp_to_the_end(&mut lab, 1000);
    let ended = lab.ramp().expect("a ramp").samples().len();
    assert!(ended <= RAMP_POINTS + MAX_PANES + 2);
    // An ended ramp does nothing to later frames.
    for _ in 0..60 {
        frame_after(&mut lab, FRAME_60HZ);
    }
    assert_eq!(lab.ramp().expect("a ramp").samples().len(), ended);
    assert_eq!(lab.settings().load.step_cost_ms, 0.0);
}

//! Spirals and what ends them: the frame-time guard, the busy-wait cap per frame, and the
//! remedies and the slower time the window offers.

use super::*;
use crate::timestep::Strategy;

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
    let offer = lab.slow_loop().expect("a 10 fps loop is slow");
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
    assert_eq!(lab.slow_loop(), None);
}

#[test]
fn a_fast_loop_or_a_per_step_load_is_not_offered_a_slower_time() {
    let mut fast = live(LiveSettings::default());
    fast.frame();
    for _ in 0..300 {
        frame_after(&mut fast, FRAME_60HZ);
    }
    assert_eq!(fast.slow_loop(), None, "60 fps is not slow");
    // Slow, but because each step costs 30 ms: that is the load being studied.
    let mut settings = LiveSettings::default();
    settings.load.step_cost_ms = 30.0;
    let mut loaded = live(settings);
    loaded.frame();
    for _ in 0..30 {
        frame_after(&mut loaded, 100 * MS);
    }
    assert_eq!(loaded.slow_loop(), None);
    // Too early to judge: the first two seconds are slow everywhere.
    let mut starting = live(LiveSettings::default());
    starting.frame();
    for _ in 0..10 {
        frame_after(&mut starting, 100 * MS);
    }
    assert_eq!(starting.slow_loop(), None);
}

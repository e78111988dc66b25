//! The input policies on the virtual clock: what each does with a key pressed in a frame
//! without a step, a turn in a frame of several steps, and a key held 500 ms.

use super::*;
use crate::input::{InputKind, InputPolicy, MoveKey};
use crate::scene::{DEFAULT_PLAYER_SPEED_MPS, PlayerState};
use crate::timestep::{Nanos, Strategy, secs_from_ns};

const MS: Nanos = 1_000_000;
/// 50 Hz physics.
const DT: Nanos = 20 * MS;

/// A single accumulator pane at 50 Hz whose player the inputs drive by `policy`, after
/// its first frame (at stopwatch time 0, which delivers no time).
fn lab(policy: InputPolicy) -> LiveLoop<VirtualStopwatch> {
    let mut lab = LiveLoop::new(
        VirtualStopwatch::default(),
        LiveSettings {
            strategy: Strategy::Accumulator,
            rate_hz: 50.0,
            input_policy: policy,
            ..LiveSettings::default()
        },
    )
    .expect("valid settings");
    lab.frame();
    lab
}

/// Runs the frame that starts `after` from now; returns the steps it took.
fn frame_after(lab: &mut LiveLoop<VirtualStopwatch>, after: Nanos) -> u64 {
    lab.stopwatch_mut().advance(after);
    lab.frame().report.steps.len()
}

/// The focused pane's player.
fn player(lab: &LiveLoop<VirtualStopwatch>) -> PlayerState {
    lab.sim().scene().current().player
}

/// How far the player is from where it started, metres.
fn travelled(lab: &LiveLoop<VirtualStopwatch>) -> f64 {
    let start = lab.sim().scene().config().player.start_eye;
    player(lab).eye.distance(start)
}

#[test]
fn a_key_pressed_in_a_frame_without_a_step_is_lost_only_under_first_step_only() {
    for policy in InputPolicy::ALL {
        let mut lab = lab(policy);
        lab.stopwatch_mut().advance(5 * MS);
        lab.request(lab.input_now(InputKind::Press(MoveKey::Forward)))
            .expect("the loop takes it");
        // 10 ms of a 20 ms step: the frame that reads the press takes no step.
        assert_eq!(frame_after(&mut lab, 5 * MS), 0);
        for _ in 0..20 {
            frame_after(&mut lab, 10 * MS);
        }
        let stats = lab.focus().input_stats();
        // Every policy is measured in every pane, whichever drives the player.
        let lost = InputPolicy::ALL.map(|p| stats.get(p).lost);
        assert_eq!(lost, [0, 1, 0, 0], "lost per policy, driving by {policy}");
        let applied = InputPolicy::ALL.map(|p| stats.get(p).applied);
        assert_eq!(
            applied,
            [1, 0, 1, 1],
            "applied per policy, driving by {policy}"
        );
        if policy == InputPolicy::FirstStep {
            assert_eq!(travelled(&lab), 0.0, "the press never reached a step");
            assert!(player(&lab).held.is_empty());
        } else {
            // Held from a step that started by 10 ms to the last at 200 ms.
            assert!(
                travelled(&lab) >= 0.19 * DEFAULT_PLAYER_SPEED_MPS - 1e-9,
                "{policy}"
            );
            assert!(player(&lab).held.contains(MoveKey::Forward));
        }
    }
}

#[test]
fn every_step_applies_a_turn_to_each_step_of_a_frame() {
    for policy in InputPolicy::ALL {
        let mut lab = lab(policy);
        let start = player(&lab).look;
        lab.stopwatch_mut().advance(30 * MS);
        lab.request(lab.input_now(InputKind::Look {
            yaw_rad: 0.1,
            pitch_rad: 0.02,
        }))
        .expect("the loop takes it");
        // 60 ms at 50 Hz: three steps.
        assert_eq!(frame_after(&mut lab, 30 * MS), 3);
        let stats = lab.focus().input_stats();
        let duplicated = InputPolicy::ALL.map(|p| stats.get(p).duplicated);
        assert_eq!(duplicated, [2, 0, 0, 0], "driving by {policy}");
        let turns = if policy == InputPolicy::EveryStep {
            3.0
        } else {
            1.0
        };
        let look = player(&lab).look;
        assert!(
            (look.yaw - start.yaw - 0.1 * turns).abs() < 1e-12,
            "{policy}"
        );
        assert!(
            (look.pitch - start.pitch - 0.02 * turns).abs() < 1e-12,
            "{policy}"
        );
        // The per-frame look takes the turn once, whatever the policy.
        let seen = lab.focus().sim().input().look();
        assert!((seen.yaw - start.yaw - 0.1).abs() < 1e-12);
    }
}

/// Uneven frame times (ms), repeated: some frames take no step, some several.
const UNEVEN_MS: [Nanos; 6] = [7, 23, 16, 31, 4, 21];

/// Where a step first applies an event received at `at`, on frames starting at `starts`
/// (the first at 0) under the accumulator at `DT`: `None` if it is lost. Worked out from
/// the definitions, not from the router: the frame that reads it is the first to start at
/// or after it; the frame's steps begin at the simulated time the frame before left.
fn expected_application(starts: &[Nanos], at: Nanos, policy: InputPolicy) -> Option<Nanos> {
    let latest = |k: usize| starts[k] / DT * DT;
    let read = starts.iter().position(|&start| start >= at)?;
    match policy {
        // The event's own instant (no frame here is clamped, so the strategy's clock is
        // the stopwatch, and the steps before it were taken by earlier frames).
        InputPolicy::Timestamped => Some(at),
        InputPolicy::FirstStep => (latest(read) > latest(read - 1)).then(|| latest(read - 1)),
        InputPolicy::EveryStep | InputPolicy::Buffered => (read..starts.len())
            .find(|&k| latest(k) > latest(k - 1))
            .map(|k| latest(k - 1)),
    }
}

#[test]
fn a_key_held_500_ms_walks_500_ms_under_timestamped_and_the_expected_error_under_the_others() {
    let press = 110_500_000;
    let release = press + 500 * MS;
    let mut errors = Vec::new();
    for policy in InputPolicy::ALL {
        let mut lab = lab(policy);
        let mut starts = vec![0];
        let mut events = [
            (press, InputKind::Press(MoveKey::Forward)),
            (release, InputKind::Release(MoveKey::Forward)),
        ]
        .into_iter()
        .peekable();
        for frame in UNEVEN_MS.iter().cycle().take(60) {
            let next = lab.stopwatch().now() + frame * MS;
            while let Some(&(at, kind)) = events.peek()
                && at <= next
            {
                let now = lab.stopwatch().now();
                lab.stopwatch_mut().advance(at - now);
                lab.request(lab.input_now(kind)).expect("the loop takes it");
                events.next();
            }
            let now = lab.stopwatch().now();
            frame_after(&mut lab, next - now);
            starts.push(next);
        }
        let speed = DEFAULT_PLAYER_SPEED_MPS;
        let stats = *lab.focus().input_stats().get(policy);
        let travel = travelled(&lab);
        match (
            expected_application(&starts, press, policy),
            expected_application(&starts, release, policy),
        ) {
            (Some(a), Some(b)) => {
                let held = b - a;
                let error = held as i64 - (500 * MS) as i64;
                assert!(
                    (travel - speed * secs_from_ns(held)).abs() < 1e-9,
                    "{policy}: walked {travel} m, expected {} m",
                    speed * secs_from_ns(held)
                );
                assert_eq!(stats.holds, 1, "{policy}");
                assert_eq!(stats.hold_error_worst_ns(), error, "{policy}");
                errors.push((policy, error));
            }
            expected => panic!("{policy}: this schedule loses nothing, got {expected:?}"),
        }
        if policy == InputPolicy::Timestamped {
            // Within one step's travel, as promised; in fact exact to rounding.
            assert!((travel - speed * 0.5).abs() < speed * secs_from_ns(DT));
            assert!((travel - speed * 0.5).abs() < 1e-9);
        }
    }
    // The schedule is uneven enough that the frame-bound policies are off.
    let off: Vec<_> = errors.iter().filter(|(_, error)| *error != 0).collect();
    assert_eq!(off.len(), 3, "{errors:?}");
}

//! Input latency over a scripted run, against values worked out from the definitions.

use super::*;
use crate::input::{InputEvent, InputPolicy};

/// 60 Hz, rounded to the nanosecond.
const FRAME: Nanos = 16_666_667;
/// 50 Hz physics.
const DT: Nanos = 20_000_000;
/// Frames run: 100 s.
const FRAMES: usize = 6000;

/// Presses every 97.345679 ms, held 31.415927 ms: a period incommensurate with the
/// frames and the steps, so the events fall everywhere in both.
fn script() -> InputScript {
    InputScript {
        period: 97_345_679,
        hold: 31_415_927,
    }
}

/// The frames' starts on the stopwatch, which is also their `T` (nothing is dropped).
fn starts() -> Vec<Nanos> {
    (1..=FRAMES as u64).map(|k| k * FRAME).collect()
}

/// Every scripted event received before the last frame started.
fn events() -> Vec<InputEvent> {
    let last = *starts().last().expect("frames");
    script()
        .events()
        .take_while(|event| event.at <= last)
        .collect()
}

/// Per event: from its time to the start (`T`, which the `cpu` display shows it at) of
/// the first frame whose shown simulated time reaches the end of the first step that took
/// it, under `policy` (buffered or timestamped); `None` past the run's end. Worked out
/// from the definitions of the strategies and policies, not the engine.
fn expected_latencies(strategy: Strategy, policy: InputPolicy) -> Vec<Option<Nanos>> {
    let t = starts();
    let latest = |k: usize| t[k] / DT * DT;
    let latest_before = |k: usize| if k == 0 { 0 } else { latest(k - 1) };
    events()
        .iter()
        .map(|event| {
            // The frame that reads it: the first to start at or after it.
            let read = t.iter().position(|&start| start >= event.at)?;
            let shown_at = match strategy {
                // Its one step runs from the last frame's T to this one's, shown at once.
                Strategy::Variable => read,
                _ => {
                    let end = if policy == InputPolicy::Timestamped {
                        // The step whose interval holds its time (simulated time is T).
                        (event.at / DT + 1) * DT
                    } else {
                        // The first frame from `read` on that takes a step takes it in its
                        // first step, which ends one dt after where the last frame left.
                        let taking = (read..FRAMES).find(|&k| latest(k) > latest_before(k))?;
                        latest_before(taking) + DT
                    };
                    let taking = read;
                    let behind = if strategy == Strategy::Interpolated {
                        DT
                    } else {
                        0
                    };
                    // Shown simulated time: latest (accumulator), T - dt (interpolated).
                    (taking..FRAMES).find(|&k| t[k] - behind >= end && latest(k) >= end)?
                }
            };
            Some(t[shown_at] - event.at)
        })
        .collect()
}

fn run(strategy: Strategy, policy: InputPolicy) -> crate::input::PolicyStats {
    let settings = BenchSettings {
        input: Some(script()),
        timestep: TimestepConfig::default().with_rate_hz(50.0).expect("50 Hz"),
        ..BenchSettings::default()
    };
    let frames = vec![FRAME; FRAMES];
    *run_strategy(&frames, strategy, &settings).input.get(policy)
}

/// The mean latency per strategy (variable, accumulator, interpolated) under `policy`,
/// after checking every figure against the expected values.
fn checked_means(policy: InputPolicy) -> [f64; 3] {
    [
        Strategy::Variable,
        Strategy::Accumulator,
        Strategy::Interpolated,
    ]
    .map(|strategy| {
        let stats = run(strategy, policy);
        let expected: Vec<Nanos> = expected_latencies(strategy, policy)
            .into_iter()
            .flatten()
            .collect();
        assert!(
            expected.len() > 2000,
            "{strategy}: {} events",
            expected.len()
        );
        assert_eq!(stats.inputs, events().len() as u64, "{strategy}");
        assert_eq!(stats.lost + stats.duplicated, 0, "{strategy}");
        assert_eq!(stats.measured, expected.len() as u64, "{strategy}");
        let sum: i128 = expected.iter().map(|&ns| i128::from(ns)).sum();
        assert_eq!(stats.latency_sum_ns(), sum, "{strategy} {policy}");
        let worst = *expected.iter().max().expect("events");
        assert_eq!(
            stats.latency_worst_ms(),
            Some(worst as f64 / 1e6),
            "{strategy}"
        );
        sum as f64 / expected.len() as f64
    })
}

#[test]
fn input_latency_at_60_hz_with_50_hz_physics_is_what_the_definitions_give() {
    let [variable, accumulator, interpolated] = checked_means(InputPolicy::Buffered);
    assert!(variable <= accumulator, "{variable} > {accumulator}");
    // Each event's difference is one frame or two. Timestamped, the step that takes an
    // event is the one holding its time, so the steps' phases against the frames are
    // taken evenly and the mean difference is one dt. Buffered, the step taken by the
    // frame after the 60-on-50 cycle's stepless frame collects two frames of inputs:
    // the five phases weigh 2:1:1:1:1, and the mean difference is
    // (2·f + f + f + f + 2·f) / 6 = 7f/6 = 35/36 dt, 0.56 ms short of one dt.
    let buffered = interpolated - accumulator;
    let seven_sixths = 7.0 * FRAME as f64 / 6.0;
    assert!(
        (buffered - seven_sixths).abs() < 100_000.0,
        "buffered: interpolated - accumulator = {} ms",
        buffered / 1e6
    );
    let [variable, accumulator, interpolated] = checked_means(InputPolicy::Timestamped);
    assert!(variable <= accumulator, "{variable} > {accumulator}");
    let timestamped = interpolated - accumulator;
    assert!(
        (timestamped - DT as f64).abs() < 100_000.0,
        "timestamped: interpolated - accumulator = {} ms",
        timestamped / 1e6
    );
}

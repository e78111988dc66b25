//! The sweep against the closed-loop arithmetic, worked by hand.

use super::*;
use crate::bench::{Progress, run_strategy};
use crate::live::LoadSettings;
use crate::run::ONSET_SPEED;
use crate::trace::generate;

/// 10 s of steady 60 Hz frames.
fn steady_60() -> Vec<Nanos> {
    generate("steady:60", 10.0).unwrap().frame_times_ns
}

/// 50 Hz physics (dt 20 ms) with the guards given (`None`: off).
fn settings_50hz(max_frame_time_ms: f64, max_steps: u32) -> BenchSettings {
    let mut settings = BenchSettings::default();
    settings.timestep = settings
        .timestep
        .with_rate_hz(50.0)
        .and_then(|t| t.with_max_frame_time_ms(max_frame_time_ms))
        .and_then(|t| t.with_max_steps(max_steps))
        .unwrap();
    settings
}

fn progress_for(frames: &[Nanos], runs: u64) -> SharedProgress {
    SharedProgress::new(Progress::new(
        frames.len() as u64,
        runs,
        false,
        std::time::Duration::ZERO,
    ))
}

/// A strategy's sweep with every level it handed on.
struct Swept {
    sweep: StrategySweep,
    levels: Vec<Level>,
}

fn run(
    frames: &[Nanos],
    strategies: &[Strategy],
    settings: &BenchSettings,
    spec: &str,
) -> Vec<Swept> {
    let load = LoadSweep::parse(spec).unwrap();
    let runs = strategies.len() as u64 * u64::from(load.levels);
    let mut levels: Vec<Vec<Level>> = vec![Vec::new(); strategies.len()];
    let mut order = Vec::new();
    let sweeps = sweep(
        frames,
        None,
        strategies,
        settings,
        &load,
        &progress_for(frames, runs),
        |which, index, level| {
            order.push((which, index));
            levels[which].push(*level);
        },
    );
    // Handed on strategy by strategy, each from the lowest load.
    let expected: Vec<(usize, usize)> = (0..strategies.len())
        .flat_map(|which| (0..load.levels as usize).map(move |index| (which, index)))
        .collect();
    assert_eq!(order, expected);
    sweeps
        .into_iter()
        .zip(levels)
        .map(|(sweep, levels)| {
            assert_eq!(sweep.levels, levels.len());
            assert_eq!(sweep.top, levels.last().copied());
            Swept { sweep, levels }
        })
        .collect()
}

#[test]
fn an_unguarded_accumulator_breaks_where_a_step_costs_dt() {
    let frames = steady_60();
    let sweeps = run(
        &frames,
        &[Strategy::Accumulator],
        &settings_50hz(0.0, 0),
        "step-cost:0..30:50",
    );
    let load = LoadSweep::parse("step-cost:0..30:50").unwrap();
    let onset = sweeps[0].sweep.onset.expect("it breaks");
    // 20 ms is between levels 32 (19.59 ms) and 33 (20.20 ms).
    let at = load.level(onset as u32);
    assert!((at - 20.0).abs() <= load.spacing(), "onset at {at} ms");
    // It breaks by spiralling, and the model agrees to the level.
    assert_eq!(sweeps[0].sweep.breaking_point, Some(onset));
    assert_eq!(sweeps[0].sweep.predicted_onset, Some(33));
    assert!(!sweeps[0].sweep.disagrees());
    // Below the onset it keeps real time.
    for level in &sweeps[0].levels[..onset] {
        assert!(level.result.sim_speed() >= ONSET_SPEED, "{level:?}");
    }
}

#[test]
fn a_cap_of_two_steps_runs_at_the_closed_loop_speed() {
    let frames = steady_60();
    let sweeps = run(
        &frames,
        &[Strategy::Accumulator],
        &settings_50hz(0.0, 2),
        "step-cost:0..30:31",
    );
    let (f, dt) = (1000.0 / 60.0, 20.0);
    for level in &sweeps[0].levels {
        let c = level.load_ms;
        let expected = (2.0 * dt / (f + 2.0 * c)).min(1.0);
        let measured = level.result.sim_speed();
        // The run starts from rest and ends with a part step carried: within 1%.
        assert!(
            (measured - expected).abs() < 0.01,
            "{c} ms: measured {measured}, min(1, 2·dt/(f + 2c)) = {expected}"
        );
        assert!(!level.result.spiral, "{c} ms: a cap cannot spiral");
        let predicted = level.predicted.unwrap().sim_speed;
        assert!(
            (predicted - expected).abs() < 1e-6,
            "{c} ms: model {predicted}"
        );
    }
}

#[test]
fn the_250_ms_clamp_slows_the_loop_but_never_spirals() {
    let frames = steady_60();
    let sweeps = run(
        &frames,
        &[Strategy::Accumulator, Strategy::Interpolated],
        &settings_50hz(250.0, 0),
        "step-cost:0..40:41",
    );
    for Swept { sweep, levels } in &sweeps {
        assert_eq!(sweep.breaking_point, None, "{:?}", sweep.strategy);
        let top = levels.last().unwrap().result;
        assert!(top.sim_speed() < 0.7, "slowed: {}", top.sim_speed());
        assert!(top.dropped > 0);
        // It starts to slow where the clamp binds: c > dt·(1 − f/M) = 18.67 ms, and falls
        // below 0.99 a little after (18.87 ms by the model).
        let onset = levels[sweep.onset.unwrap()].load_ms;
        assert!((18.0..=20.0).contains(&onset), "onset {onset} ms");
        assert!(!sweep.disagrees(), "{:?}", sweep.predicted_onset);
    }
}

#[test]
fn variable_never_spirals() {
    let frames = steady_60();
    for settings in [settings_50hz(0.0, 0), settings_50hz(250.0, 0)] {
        let sweeps = run(
            &frames,
            &[Strategy::Variable],
            &settings,
            "step-cost:0..1000:11",
        );
        for level in &sweeps[0].levels {
            assert!(!level.result.spiral, "{level:?}");
        }
        assert_eq!(sweeps[0].sweep.breaking_point, None);
    }
}

#[test]
fn levels_run_side_by_side_give_what_they_give_one_after_the_other() {
    let frames = generate("jitter:60:3:9", 4.0).unwrap().frame_times_ns;
    let settings = settings_50hz(250.0, 0);
    let strategies = [Strategy::Fixed, Strategy::SemiFixed, Strategy::Interpolated];
    for spec in [
        "step-cost:0..30:7",
        "render-cost:0..40:5",
        "jitter:0..20:4",
        "hitch:0..400:4",
    ] {
        let load = LoadSweep::parse(spec).unwrap();
        let parallel = run(&frames, &strategies, &settings, spec);
        for (swept, &strategy) in parallel.iter().zip(&strategies) {
            assert_eq!(swept.sweep.strategy, strategy);
            for (index, level) in swept.levels.iter().enumerate() {
                let serial = BenchSettings {
                    load: load.kind.set(settings.load, load.level(index as u32)),
                    ..settings
                };
                let expected = run_strategy(&frames, strategy, &serial);
                assert_eq!(
                    format!("{:?}", level.result),
                    format!("{expected:?}"),
                    "{spec} level {index}"
                );
            }
        }
    }
}

#[test]
fn each_load_reaches_the_model_it_names() {
    let base = LoadSettings::default();
    for (kind, read) in [
        (LoadKind::StepCost, base.step_cost_ms),
        (LoadKind::RenderCost, base.render_cost_ms),
        (LoadKind::Jitter, base.jitter_ms),
        (LoadKind::Hitch, base.hitch_ms),
    ] {
        assert_eq!(read, 0.0);
        let set = kind.set(base, 7.5);
        assert_eq!(kind.value(&set), 7.5);
        let others: Vec<f64> = LoadKind::ALL
            .into_iter()
            .filter(|other| *other != kind)
            .map(|other| other.value(&set))
            .collect();
        assert_eq!(others, [0.0; 3], "{kind:?}");
    }
}

#[test]
fn specs_are_read_and_bad_ones_named() {
    let spec = LoadSweep::parse("step-cost:0..30:50").unwrap();
    assert_eq!(
        (spec.kind, spec.from_ms, spec.to_ms, spec.levels),
        (LoadKind::StepCost, 0.0, 30.0, 50)
    );
    assert_eq!(spec.level(0), 0.0);
    assert_eq!(spec.level(49), 30.0);
    // 30/49 ms, to the nanosecond.
    assert_eq!(spec.level(1), 0.612245);
    assert_eq!(
        LoadSweep::parse("render-cost:0..3:31").unwrap().level(1),
        0.1
    );
    assert_eq!(
        LoadSweep::parse(" hitch : 10 .. 500 ").unwrap().levels,
        DEFAULT_LEVELS
    );
    for (spec, expected) in [
        (
            "wobble:0..1",
            "unknown load \"wobble\" (allowed: step-cost, render-cost, jitter, hitch)",
        ),
        ("step-cost", "has no range"),
        ("step-cost:0-30", "is not FROM..TO"),
        ("step-cost:0...5", "the range \"0...5\" is not FROM..TO"),
        (
            "step-cost:30..0",
            "the range is reversed (FROM 30 ms is above TO 0 ms)",
        ),
        ("step-cost:5..5", "the range is empty"),
        (
            "step-cost:0..30:0",
            "LEVELS \"0\" is out of range (allowed a whole number from 2 to 10000",
        ),
        ("step-cost:0..30:1", "LEVELS \"1\" is out of range"),
        ("step-cost:0..30:10001", "LEVELS \"10001\""),
        ("step-cost:0..30:2.5", "LEVELS \"2.5\""),
        (
            "step-cost:0..NaN",
            "TO NaN ms is out of range (allowed 0 to 1000 ms for step-cost)",
        ),
        ("step-cost:0..inf", "TO inf ms is out of range"),
        ("step-cost:-1..3", "FROM -1 ms is out of range"),
        (
            "jitter:0..150",
            "TO 150 ms is out of range (allowed 0 to 100 ms for jitter)",
        ),
        ("render-cost:a..3", "FROM \"a\" is not a number of ms"),
        ("step-cost:0..3:4:5", "too many fields"),
        ("step\u{1b}[31m:0..1", "step\\u{1b}[31m"),
    ] {
        let error = LoadSweep::parse(spec).unwrap_err();
        assert!(error.contains(expected), "{spec}: {error}");
        assert!(!error.contains('\u{1b}'), "{spec}: raw escape in {error:?}");
    }
}

#[test]
fn levels_beyond_one_chunk_come_in_order_and_match_their_own_runs() {
    let frames = generate("jitter:60:2:3", 1.0).unwrap().frame_times_ns;
    let settings = settings_50hz(250.0, 4);
    let strategies = [Strategy::Accumulator, Strategy::Hermite];
    let spec = "step-cost:0..40:300";
    // 600 runs: three chunks, the second one across the two strategies.
    let swept = run(&frames, &strategies, &settings, spec);
    let load = LoadSweep::parse(spec).unwrap();
    for (swept, &strategy) in swept.iter().zip(&strategies) {
        for index in [0, 1, 255, 256, 299] {
            let level = &swept.levels[index];
            assert_eq!(level.load_ms, load.level(index as u32));
            let own = BenchSettings {
                load: load.kind.set(settings.load, level.load_ms),
                ..settings
            };
            let expected = run_strategy(&frames, strategy, &own);
            assert_eq!(format!("{:?}", level.result), format!("{expected:?}"));
        }
    }
}

#[test]
fn a_loop_that_keeps_up_has_not_broken_however_short_the_trace() {
    // At 7 Hz, 70 steps of round(1e9/7) ns end just past 10 s: the 70th is carried, not
    // taken, and simulated time alone reads 0.986 of real time.
    let frames = steady_60();
    let mut settings = BenchSettings::default();
    settings.timestep = settings.timestep.with_rate_hz(7.0).unwrap();
    let swept = run(
        &frames,
        &[Strategy::Accumulator],
        &settings,
        "render-cost:0..10:3",
    );
    let first = &swept[0].levels[0].result;
    assert!(first.sim_speed() < ONSET_SPEED, "{}", first.sim_speed());
    assert!(
        (first.kept_speed() - 1.0).abs() < 1e-9,
        "{}",
        first.kept_speed()
    );
    assert_eq!(swept[0].sweep.onset, None);
    assert!(!swept[0].sweep.disagrees());
    // And a 9-frame trace.
    let short = &frames[..9];
    let swept = run(
        short,
        &[Strategy::Interpolated],
        &settings_50hz(250.0, 0),
        "render-cost:0..6:4",
    );
    assert_eq!(
        swept[0].sweep.onset, None,
        "{:?}",
        swept[0].levels[0].result
    );
}

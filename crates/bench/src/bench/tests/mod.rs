//! The bench under the closed-loop load model, and the shape of its report.

use std::num::{NonZeroU32, NonZeroU64};

use super::*;
use crate::metrics::{FrameStats, SpiralDetector};
use crate::timestep::NANOS_PER_SECOND;
use timestep_lab_core::sim::Simulation;

const MS: Nanos = 1_000_000;

fn frames_60hz(seconds: u64) -> Vec<Nanos> {
    crate::trace::generate("steady:60", seconds as f64)
        .unwrap()
        .frame_times_ns
}

/// The default settings on a display.
fn on(display: &str) -> BenchSettings {
    BenchSettings {
        display: DisplaySpec::parse(display).unwrap(),
        ..BenchSettings::default()
    }
}

/// CPU frame times alternating 15 and 18.333 ms: a game's frame starts wobbling around a
/// 60 Hz display (the shipped `wobble60.txt`).
fn wobble(frames: usize) -> Vec<Nanos> {
    (0..frames)
        .map(|i| if i % 2 == 0 { 15_000_000 } else { 18_333_000 })
        .collect()
}

fn unguarded(step_cost: Nanos) -> BenchSettings {
    let mut settings = BenchSettings::default()
        .with_costs_ms(ms_from_ns(step_cost), 0.0)
        .unwrap();
    settings.timestep.max_frame_time = None;
    settings.timestep.max_steps = None;
    settings
}

#[test]
fn step_cost_above_dt_without_guards_spirals_the_stepping_strategies() {
    let trace = frames_60hz(10);
    let settings = unguarded(25 * MS);
    for result in run(&trace, None, &Strategy::ALL, &settings) {
        let stepping = !matches!(result.strategy, Strategy::Fixed | Strategy::Variable);
        assert_eq!(result.spiral, stepping, "{}", result.strategy);
        if stepping {
            assert!(result.frozen, "{} froze", result.strategy);
            assert!((result.metrics.frames as usize) < trace.len());
        }
    }
}

#[test]
fn a_step_cost_just_above_dt_is_caught_as_growth_before_anything_freezes() {
    let settings = unguarded(21 * MS);
    let result = run_strategy(&frames_60hz(1), Strategy::Accumulator, &settings);
    assert!(result.spiral);
    assert!(
        !result.frozen,
        "detected by the trend, not the freeze limit"
    );
}

#[test]
fn the_spiral_is_reported_within_two_seconds_of_load() {
    for step_cost_ms in [21, 25, 40, 100] {
        let settings = unguarded(step_cost_ms * MS);
        let mut sim = Simulation::new(Strategy::Accumulator, settings.timestep, settings.scene);
        let mut detector = SpiralDetector::new(settings.timestep.dt_ns());
        let (mut wall, mut previous_steps) = (0, 0);
        let detected_at = frames_60hz(60).into_iter().find_map(|trace_frame| {
            let frame = trace_frame + previous_steps * settings.step_cost();
            wall += frame;
            let report = sim.frame(frame).0;
            previous_steps = report.steps.len();
            detector.record(
                report.owed,
                previous_steps * settings.step_cost(),
                report.used,
            );
            detector.spiralling().then_some(wall)
        });
        let detected_at = detected_at.expect("detected");
        assert!(
            detected_at < 2 * NANOS_PER_SECOND,
            "{step_cost_ms} ms: after {detected_at} ns"
        );
    }
}

#[test]
fn each_guard_stops_the_spiral_and_the_game_slows_down_instead() {
    let trace = frames_60hz(10);
    let mut clamp = unguarded(25 * MS);
    clamp.timestep.max_frame_time = NonZeroU64::new(250 * MS);
    let mut cap = unguarded(25 * MS);
    cap.timestep.max_steps = NonZeroU32::new(8);
    for settings in [clamp, cap] {
        for strategy in [
            Strategy::SemiFixed,
            Strategy::Accumulator,
            Strategy::Interpolated,
        ] {
            let result = run_strategy(&trace, strategy, &settings);
            assert!(!result.spiral, "{strategy} under {:?}", settings.timestep);
            assert!(!result.frozen);
            assert_eq!(result.metrics.frames as usize, trace.len());
            assert!(
                result.sim_speed() < 1.0,
                "{strategy}: {}",
                result.sim_speed()
            );
            assert!(result.dropped > 0);
        }
    }
}

#[test]
fn a_cheap_step_settles_without_a_spiral() {
    let result = run_strategy(&frames_60hz(10), Strategy::Accumulator, &unguarded(15 * MS));
    assert!(!result.spiral);
    assert!(
        (result.sim_speed() - 1.0).abs() < 0.01,
        "keeps up: {}",
        result.sim_speed()
    );
}

#[test]
fn wall_time_is_the_trace_plus_the_load() {
    let trace = frames_60hz(3);
    let mut settings = unguarded(2 * MS);
    settings.load.render_cost_ms = 3.0;
    let result = run_strategy(&trace, Strategy::Accumulator, &settings);
    // Every step's cost lands in the following frame, except the last frame's steps.
    let mut sim = Simulation::new(Strategy::Accumulator, settings.timestep, settings.scene);
    let mut expected = 0;
    let mut previous_steps = 0;
    for &frame in &trace {
        let frame = frame + 3 * MS + previous_steps * 2 * MS;
        expected += frame;
        previous_steps = sim.frame(frame).0.steps.len();
    }
    assert_eq!(result.wall_time, expected);
    assert!(result.wall_time > trace.iter().sum::<Nanos>() + 180 * 3 * MS);
}

#[test]
fn hitches_and_jitter_lengthen_the_frames_as_the_windows_load_does() {
    let trace = frames_60hz(10);
    let with = |load: LoadSettings| {
        let settings = BenchSettings::default().with_load(load).unwrap();
        run_strategy(&trace, Strategy::Variable, &settings).wall_time
    };
    let plain = with(LoadSettings::default());
    assert_eq!(plain, trace.iter().sum::<Nanos>());
    // A 100 ms hitch on the first frame starting at or after each second of the run's own
    // time: the run lasts 10 s plus its hitches, which push the later ones along.
    let hitched = with(LoadSettings {
        hitch_ms: 100.0,
        hitch_every_s: 1.0,
        ..LoadSettings::default()
    });
    let hitches = (hitched - plain) / (100 * MS);
    assert_eq!((hitched - plain) % (100 * MS), 0);
    // The run's own time reaches 10 s (9.98 s of trace plus nine hitches) before its last
    // frame: ten hitches.
    assert_eq!(hitches, 10);
    // Half-normal jitter of 2 ms adds 2·sqrt(2/π) ≈ 1.6 ms a frame on average.
    let jittered = with(LoadSettings {
        jitter_ms: 2.0,
        ..LoadSettings::default()
    });
    let mean_ms = (jittered - plain) as f64 / trace.len() as f64 / 1e6;
    assert!((1.45..1.75).contains(&mean_ms), "{mean_ms} ms a frame");
    // The same seed every run: the same frames.
    assert_eq!(
        jittered,
        with(LoadSettings {
            jitter_ms: 2.0,
            ..LoadSettings::default()
        })
    );
}

#[test]
fn dropped_time_is_reported_and_excluded_from_simulation() {
    let mut trace = frames_60hz(1);
    trace[30] = 1_000 * MS;
    let settings = BenchSettings::default();
    let result = run_strategy(&trace, Strategy::Accumulator, &settings);
    assert_eq!(result.dropped, 750 * MS);
    let total: Nanos = trace.iter().sum();
    assert!(result.metrics.sim_time_s * 1e9 <= (total - 750 * MS) as f64);
}

/// The report of every strategy over one second of a steady 60 Hz display.
fn report_of_one_second(settings: &BenchSettings) -> BenchReport {
    let trace = frames_60hz(1);
    let results = run(&trace, None, &Strategy::ALL, settings);
    let source = TraceJson {
        source: "steady:60".into(),
        frames: trace.len(),
        wall_time_s: 1.0,
        stats: FrameStats::from_frame_times(trace.iter().copied(), &mut Vec::new())
            .as_ref()
            .map(FrameStatsJson::from),
    };
    BenchReport::new(source, settings, &results)
}

#[test]
fn json_has_exactly_the_documented_fields() {
    let report = report_of_one_second(&BenchSettings::default());
    let value: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let keys = |v: &serde_json::Value| {
        let mut keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    assert_eq!(keys(&value), ["results", "settings", "trace", "version"]);
    assert_eq!(value["version"], 1);
    assert_eq!(
        keys(&value["trace"]),
        ["frames", "source", "stats", "wall_time_s"]
    );
    assert_eq!(
        keys(&value["trace"]["stats"]),
        [
            "average_fps",
            "frame_time_max_ms",
            "frame_time_p50_ms",
            "frame_time_p90_ms",
            "frame_time_p95_ms",
            "frame_time_p99_9_ms",
            "frame_time_p99_ms",
            "hitch_threshold_ms",
            "hitch_time_percent",
            "hitches",
            "one_percent_low_fps",
            "point_one_percent_low_fps",
        ]
    );
    // 60 frames in exactly 1 s.
    assert_eq!(value["trace"]["stats"]["average_fps"], 60.0);
    assert_eq!(value["trace"]["stats"]["frame_time_max_ms"], 16.666667);
    assert_eq!(
        keys(&value["settings"]),
        [
            "display",
            "dt_ms",
            "filter",
            "gpu_cost_ms",
            "hitch_every_s",
            "hitch_ms",
            "integrator",
            "jitter_ms",
            "max_frame_time_ms",
            "max_steps",
            "render_cost_ms",
            "step_cost_ms"
        ]
    );
    assert_eq!(value["settings"]["display"], "cpu");
    assert_eq!(value["settings"]["filter"], "none");
    assert_eq!(value["settings"]["max_frame_time_ms"], 250.0);
    assert!(value["settings"]["max_steps"].is_null(), "off is null");
    let results = value["results"].as_array().unwrap();
    assert_eq!(results.len(), Strategy::ALL.len());
    let mut expected = vec![
        "display_judder_ms",
        "display_judder_worst_ms",
        "dt_ms",
        "display_latency_ms",
        "display_latency_worst_ms",
        "frame_time_max_ms",
        "frame_time_p99_ms",
        "judder_worst_ms",
        "latency_worst_ms",
        "dropped_frames",
        "presented",
        "present_blocked_s",
        "repeated_refreshes",
        "repeated_by_cause",
        "late_frames",
        "refresh_histograms",
        "display_forecast",
        "shown",
        "shown_fps",
        "torn_refreshes",
        "dropped_time_s",
        "energy_drift",
        "exploded",
        "frames",
        "input",
        "judder_ms",
        "latency_ms",
        "position_error_max",
        "sim_speed",
        "sim_time_s",
        "spiral",
        "state_hash",
        "steps",
        "steps_per_frame_max",
        "steps_per_frame_mean",
        "strategy",
        "wall_time_s",
    ];
    expected.sort_unstable();
    for result in results {
        assert_eq!(keys(result), expected);
        let hash = result["state_hash"].as_str().unwrap();
        assert_eq!(hash.len(), 16);
        assert!(hash.chars().all(|c| c.is_ascii_hexdigit()));
    }
    assert_eq!(results[4]["strategy"], "interpolated");
    assert_eq!(results[4]["latency_ms"], 20.0);
    // On the cpu display the screen is the CPU timeline: the same numbers, every frame
    // shown, no refresh grid to count repeats on.
    assert_eq!(results[4]["display_latency_ms"], 20.0);
    assert_eq!(results[3]["display_judder_ms"], results[3]["judder_ms"]);
    assert_eq!(results[4]["shown"], 60);
    assert!(results[4]["repeated_refreshes"].is_null());
    assert_eq!(results[4]["latency_worst_ms"], 20.0);
    assert_eq!(results[4]["frame_time_p99_ms"], 16.666667);
}

#[test]
fn each_strategy_reports_the_frame_times_it_ran() {
    // 100 frames of 10 ms, one of them 1 s. `variable` takes one step a frame, and each
    // step's 2 ms lands in the next frame, with 1 ms of render cost on every frame:
    // 11 ms for the first frame, 13 ms after it, 1003 ms for the hitch.
    let mut trace = vec![10 * MS; 100];
    trace[40] = 1000 * MS;
    let settings = BenchSettings::default().with_costs_ms(2.0, 1.0).unwrap();
    let result = run_strategy(&trace, Strategy::Variable, &settings);
    // Sorted: 11, 13 (98 times), 1003 ms; the nearest-rank P99 of 100 is the 99th.
    assert_eq!(result.frame_time_p99, Some(13 * MS));
    assert_eq!(result.frame_time_max, Some(1003 * MS));
    let empty = run_strategy(&[], Strategy::Variable, &settings);
    assert_eq!((empty.frame_time_p99, empty.frame_time_max), (None, None));
}

#[test]
fn a_run_that_froze_reports_the_frames_before_it_froze() {
    let settings = unguarded(25 * MS);
    let trace = frames_60hz(10);
    let result = run_strategy(&trace, Strategy::Accumulator, &settings);
    assert!(result.frozen);
    // The frames it ran, replayed under the same load model.
    let mut sim = Simulation::new(Strategy::Accumulator, settings.timestep, settings.scene);
    let mut ran = Vec::new();
    let mut previous_steps = 0;
    for &frame in &trace[..result.metrics.frames as usize] {
        let frame = frame + previous_steps * settings.step_cost();
        ran.push(frame);
        previous_steps = sim.frame(frame).0.steps.len();
    }
    let stats = FrameStats::from_frame_times(ran, &mut Vec::new()).unwrap();
    assert_eq!(result.frame_time_p99, Some(stats.p99));
    assert_eq!(result.frame_time_max, Some(stats.max));
}

/// The report of `results` over `frames`, as the CLI assembles it.
fn report_over(frames: &[Nanos], results: &[BenchResult]) -> BenchReport {
    let source = TraceJson {
        source: "test".into(),
        frames: frames.len(),
        wall_time_s: frames.iter().sum::<Nanos>() as f64 / 1e9,
        stats: FrameStats::from_frame_times(frames.iter().copied(), &mut Vec::new())
            .as_ref()
            .map(FrameStatsJson::from),
    };
    BenchReport::new(source, &BenchSettings::default(), results)
}

#[test]
fn no_frames_say_so_instead_of_nan() {
    let results = run(&[], None, &Strategy::ALL, &BenchSettings::default());
    let report = report_over(&[], &results);
    let table = report.table();
    assert!(
        table.contains("\ntrace frame times: none (no frames)\n"),
        "{table}"
    );
    assert!(!table.contains("NaN") && !table.contains("inf"), "{table}");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert!(json["trace"]["stats"].is_null());
    assert!(json["results"][0]["frame_time_p99_ms"].is_null());
}

#[test]
fn frames_of_no_time_have_no_rates() {
    let frames = [0; 3];
    let results = run(
        &frames,
        None,
        &[Strategy::Accumulator],
        &BenchSettings::default(),
    );
    let report = report_over(&frames, &results);
    let table = report.table();
    assert!(
        table.contains(
            "\ntrace fps: average - | 1% low - | 0.1% low - | hitches none (median frame time 0)\n"
        ),
        "{table}"
    );
    assert!(!table.contains("NaN") && !table.contains("inf"), "{table}");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let stats = &json["trace"]["stats"];
    assert!(stats["average_fps"].is_null());
    assert!(stats["one_percent_low_fps"].is_null());
    assert!(stats["hitch_time_percent"].is_null());
    assert_eq!(stats["frame_time_max_ms"], 0.0);
    assert_eq!(json["results"][0]["frame_time_p99_ms"], 0.0);
}

#[test]
fn the_trace_block_states_the_statistics() {
    // 99 frames of 10 ms and one of 1 s (see `FrameStats`' tests for the arithmetic).
    let mut frames = vec![10 * MS; 99];
    frames.push(1000 * MS);
    let table = report_over(&frames, &[]).table();
    assert!(
        table.contains(
            "\ntrace frame times ms: p50 10.000 | p90 10.000 | p95 10.000 | p99 10.000 | \
             p99.9 1000.000 | max 1000.000\n\
             trace fps: average 50.25 | 1% low 1.00 | 0.1% low 1.00 | \
             hitches (> 2x median, 20.000 ms) 1, 50.25% of the time\n"
        ),
        "{table}"
    );
}

#[test]
fn table_has_a_row_per_strategy_with_aligned_columns() {
    let report = report_of_one_second(&unguarded(25 * MS));
    let table = report.table();
    let lines: Vec<&str> = table.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("strategy"))
        .unwrap();
    let column = lines[header].find("latency ms").unwrap() + "latency ms".len();
    for (line, strategy) in lines[header + 1..header + 7].iter().zip(Strategy::ALL) {
        assert!(line.starts_with(strategy.id()), "{line}");
        // Numbers are right-aligned under their header.
        let cell_end = line[..column].len();
        assert!(line.as_bytes()[cell_end - 1].is_ascii_digit(), "{line}");
    }
    assert!(table.contains("max frame time off"));
    assert!(table.contains("SPIRAL"));
    assert!(table.contains("FROZE"));
    assert!(table.contains(
        "\nframe p99 = 99th-percentile frame time the loop ran (load included), latency = "
    ));
    assert!(table.contains("a game in this state shows one frame a minute"));
}

#[test]
fn costs_out_of_range_are_rejected() {
    let error = BenchSettings::default()
        .with_costs_ms(-1.0, 0.0)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "step cost -1 ms is out of range (allowed 0 to 1000 ms)"
    );
    assert!(
        BenchSettings::default()
            .with_costs_ms(0.0, f64::NAN)
            .is_err()
    );
    let settings = BenchSettings::default().with_costs_ms(2.5, 1.0).unwrap();
    assert_eq!(
        (settings.load.step_cost_ms, settings.load.render_cost_ms),
        (2.5, 1.0)
    );
}

mod display;
mod display_time;
mod input;
mod parity;
mod reports;
mod runner;
mod together;

/// Five seconds of jittered 60 Hz frames under a step cost, jitter and hitches, shown on a
/// 60 Hz FIFO screen: a run where the strategies' frame times part.
fn loaded_on_fifo() -> (Vec<Nanos>, BenchSettings) {
    let trace = crate::trace::generate("jitter:60:3:5", 5.0)
        .unwrap()
        .frame_times_ns;
    let mut settings = BenchSettings::default()
        .with_load(LoadSettings {
            step_cost_ms: 4.0,
            jitter_ms: 1.5,
            hitch_ms: 80.0,
            hitch_every_s: 1.0,
            ..LoadSettings::default()
        })
        .unwrap();
    settings.display = DisplaySpec::parse("fifo:60").unwrap();
    (trace, settings)
}

#[test]
fn strategies_run_side_by_side_give_what_they_give_one_after_the_other() {
    let (trace, settings) = loaded_on_fifo();
    let strategies = Strategy::CHOICES;
    let serial = run(&trace, None, &strategies, &settings);
    let progress = SharedProgress::new(Progress::new(
        trace.len() as u64,
        strategies.len() as u64,
        false,
        std::time::Duration::ZERO,
    ));
    let parallel = run_parallel(&trace, None, &strategies, &settings, &progress);
    // Debug, not ==: a NaN (an exploded spring's error) is equal to itself in its text.
    assert_eq!(format!("{serial:?}"), format!("{parallel:?}"));
    assert_eq!(
        progress.into_inner().done(),
        trace.len() as u64 * strategies.len() as u64
    );
}

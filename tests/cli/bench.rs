//! What `bench` reports: the strategies, the presets, spirals, explosions, the trace's
//! statistics, the screen columns, scripted inputs and the state hash.

use serde_json::Value;

use super::{asset, bench_json, lab, result, stderr, stdout};

#[test]
fn bench_default_is_steady_60_over_all_strategies() {
    let report = bench_json(&[]);
    assert_eq!(
        report["trace"]["source"]
            .as_str()
            .unwrap()
            .split(' ')
            .next(),
        Some("steady:60")
    );
    assert_eq!(report["trace"]["frames"], 600);
    assert_eq!(report["settings"]["dt_ms"], 20.0);
    let ids: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["strategy"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "fixed",
            "variable",
            "semi-fixed",
            "accumulator",
            "interpolated",
            "extrapolated",
            "velocity-extrapolated",
            "hermite",
            "equal-substeps",
            "display-time"
        ]
    );
    assert_eq!(result(&report, "interpolated")["latency_ms"], 20.0);
    assert_eq!(result(&report, "interpolated")["judder_ms"], 0.0);
    assert!(
        result(&report, "accumulator")["judder_ms"]
            .as_f64()
            .unwrap()
            > 5.0
    );
    assert!((result(&report, "fixed")["sim_speed"].as_f64().unwrap() - 1.2).abs() < 1e-3);
}

#[test]
fn bench_table_names_every_strategy_and_the_trace() {
    let output = lab(&[
        "bench",
        "--generate",
        "jitter:144:1.5:3",
        "--duration",
        "2",
        "--strategy",
        "accumulator,interpolated",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = stdout(&output);
    assert!(table.starts_with("trace: jitter:144:1.5:3"), "{table}");
    assert!(table.lines().any(|l| l.starts_with("accumulator ")));
    assert!(table.lines().any(|l| l.starts_with("interpolated ")));
    assert!(!table.contains("variable"));
}

#[test]
fn spiral_appears_without_guards_and_the_guards_stop_it() {
    let unguarded = bench_json(&[
        "--step-cost",
        "25",
        "--max-frame-time",
        "0",
        "--strategy",
        "accumulator",
    ]);
    assert_eq!(result(&unguarded, "accumulator")["spiral"], true);
    assert_eq!(unguarded["settings"]["max_frame_time_ms"], Value::Null);
    let clamped = bench_json(&["--step-cost", "25", "--strategy", "accumulator"]);
    let accumulator = result(&clamped, "accumulator");
    assert_eq!(accumulator["spiral"], false);
    assert!(accumulator["sim_speed"].as_f64().unwrap() < 1.0);
    let capped = bench_json(&[
        "--step-cost",
        "25",
        "--max-frame-time",
        "0",
        "--max-steps",
        "4",
        "--strategy",
        "accumulator",
    ]);
    assert_eq!(result(&capped, "accumulator")["spiral"], false);
    assert_eq!(capped["settings"]["max_steps"], 4);
}

#[test]
fn trace_statistics_count_the_generated_hitches() {
    // A 120 ms frame every 2 s of 60 Hz for 20 s: at 2, 4, ..., 18 s, nine of them.
    let report = bench_json(&[
        "--generate",
        "hitch:60:120:2",
        "--duration",
        "20",
        "--strategy",
        "variable",
    ]);
    let stats = &report["trace"]["stats"];
    assert_eq!(stats["hitches"], 9, "{stats}");
    assert_eq!(stats["frame_time_max_ms"], 120.0);
    assert_eq!(stats["frame_time_p50_ms"], 16.666667);
    // Twice the median, and 1145 frames' slowest 0.1% is two of the 120 ms frames.
    assert_eq!(stats["hitch_threshold_ms"], 33.333334);
    assert_eq!(stats["point_one_percent_low_fps"], 1000.0 / 120.0);
    // With no load the strategy runs the trace's own frames.
    assert_eq!(result(&report, "variable")["frame_time_max_ms"], 120.0);
}

#[test]
fn explicit_euler_with_a_stiff_spring_is_reported_exploded() {
    let report = bench_json(&[
        "--integrator",
        "explicit-euler",
        "--spring-hz",
        "5",
        "--strategy",
        "variable,accumulator",
    ]);
    assert_eq!(result(&report, "variable")["exploded"], true);
    assert_eq!(report["settings"]["integrator"], "explicit-euler");
    for r in report["results"].as_array().unwrap() {
        assert!(r["position_error_max"].is_f64(), "finite numbers only: {r}");
    }
}

#[test]
fn a_preset_runs_as_its_own_row_beside_the_strategies() {
    let report = bench_json(&["--preset", "godot", "--strategy", "accumulator"]);
    let ids: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["strategy"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["accumulator", "godot"]);
    // Godot keeps its own 60 Hz tick: one a frame on a 60 Hz trace, whatever --hz says.
    let godot = result(&report, "godot");
    assert_eq!(godot["steps_per_frame_max"], 1);
    assert!((godot["sim_speed"].as_f64().unwrap() - 1.0).abs() < 0.01);
    assert!((godot["dt_ms"].as_f64().unwrap() - 16.666667).abs() < 1e-9);
    assert_eq!(result(&report, "accumulator")["dt_ms"], 20.0);
    // --preset alone runs the presets only; repeated, each is a row, labelled by its id.
    let report = bench_json(&["--preset", "bevy", "--preset", "matterjs-0.19"]);
    let ids: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["strategy"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["bevy", "matterjs-0.19"]);
    // The table has the two rows and says the presets ignore the lab's step and guards.
    let output = lab(&["bench", "--preset", "godot", "--strategy", "accumulator"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = stdout(&output);
    let rows: Vec<&str> = table
        .lines()
        .filter(|line| line.starts_with("accumulator ") || line.starts_with("godot "))
        .collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert!(table.contains("engine presets run their engine's own step and guards"));
    assert!(table.contains("godot 16.666667 ms"), "{table}");
    // --help says which parts of the closed engines are documented and which are the model.
    let help = stdout(&lab(&["bench", "--help"]));
    for needle in [
        "Unity, documented:",
        "Unreal, documented:",
        "the lab's model",
    ] {
        assert!(help.contains(needle), "--help lacks {needle:?}");
    }
}

#[test]
fn same_inputs_give_the_same_state_hash() {
    let a = bench_json(&["--generate", "jitter:60:2:9", "--duration", "3"]);
    let b = bench_json(&["--generate", "jitter:60:2:9", "--duration", "3"]);
    let c = bench_json(&["--generate", "jitter:60:2:10", "--duration", "3"]);
    assert_eq!(a, b);
    // Variable steps follow the frame times, so other frame times give another state...
    assert_ne!(
        result(&a, "variable")["state_hash"],
        result(&c, "variable")["state_hash"]
    );
    // ...while the accumulator's state depends only on how many steps it took.
    let (acc_a, acc_c) = (result(&a, "accumulator"), result(&c, "accumulator"));
    assert_eq!(
        acc_a["steps"] == acc_c["steps"],
        acc_a["state_hash"] == acc_c["state_hash"]
    );
}

#[test]
fn the_screen_columns_appear_with_a_display_and_the_json_has_them() {
    let output = lab(&[
        "bench",
        "--display",
        "mailbox:60",
        "--generate",
        "steady:144",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = stdout(&output);
    for column in [
        "screen lat ms",
        "screen judder ms",
        "shown",
        "dropped",
        "repeats",
    ] {
        assert!(table.contains(column), "{table}");
    }
    assert!(
        table.contains("display mailbox:60 | filter none"),
        "{table}"
    );
    let plain = stdout(&lab(&["bench"]));
    assert!(!plain.contains("screen judder"), "{plain}");
    let report = bench_json(&[
        "--display",
        "fifo:60",
        "--filter",
        "snap",
        "--trace",
        &asset("wobble60.txt"),
    ]);
    assert_eq!(report["settings"]["display"], "fifo:60:2");
    assert_eq!(report["settings"]["filter"], "snap");
    let interpolated = result(&report, "interpolated");
    assert!(interpolated["display_judder_ms"].as_f64().unwrap() < 1e-6);
    assert_eq!(interpolated["shown"], 599);
    assert_eq!(interpolated["repeated_refreshes"], 0);
    let report = bench_json(&[
        "--display",
        "trace",
        "--trace",
        &asset("presentmon2-display.csv"),
    ]);
    let variable = result(&report, "variable");
    assert_eq!(
        (
            variable["shown"].as_u64(),
            variable["dropped_frames"].as_u64()
        ),
        (Some(8), Some(1))
    );
    assert!(variable["repeated_refreshes"].is_null());
}

#[test]
fn scripted_inputs_are_measured_under_every_policy() {
    let report = bench_json(&[
        "--strategy",
        "accumulator,variable",
        "--hz",
        "50",
        "--input",
        "every:0.2371:87",
        "--input-policy",
        "first-step",
        "--duration",
        "5",
    ]);
    let input = &result(&report, "accumulator")["input"];
    assert_eq!(input["policy"], "first-step");
    let policies = input["policies"].as_array().expect("policies");
    let ids: Vec<&str> = policies
        .iter()
        .map(|p| p["policy"].as_str().expect("an id"))
        .collect();
    assert_eq!(ids, ["every-step", "first-step", "buffered", "timestamped"]);
    // 21 presses (0.2371 s to 4.9791 s) and 20 releases by the last frame (at 5 s).
    for policy in policies {
        assert_eq!(policy["inputs"], 41, "{policy}");
        assert!(policy["latency_ms"].as_f64().expect("a latency") > 0.0);
    }
    // 60 Hz frames and 50 Hz steps: a sixth of the frames take no step, and first-step
    // loses what they read; timestamped holds are exact.
    assert!(policies[1]["lost"].as_u64().expect("lost") > 0);
    assert_eq!(policies[2]["lost"], 0);
    assert_eq!(policies[3]["hold_error_worst_mm"], 0.0);
    // Without inputs the object is null.
    let plain = bench_json(&["--strategy", "accumulator", "--duration", "1"]);
    assert!(result(&plain, "accumulator")["input"].is_null());
    // The table shows them.
    let table = stdout(&lab(&[
        "bench",
        "--strategy",
        "accumulator",
        "--input",
        "every:0.5",
        "--duration",
        "2",
    ]));
    assert!(table.contains("input policy"), "{table}");
    assert!(table.contains("timestamped"), "{table}");
}

#[test]
fn hitches_and_jitter_are_the_windows_load_on_the_command_line() {
    let plain = bench_json(&["--strategy", "variable"]);
    let hitched = bench_json(&[
        "--hitch",
        "100",
        "--hitch-every",
        "1",
        "--strategy",
        "variable",
    ]);
    assert_eq!(hitched["settings"]["hitch_ms"], 100.0);
    assert_eq!(hitched["settings"]["hitch_every_s"], 1.0);
    let wall = |report: &Value| result(report, "variable")["wall_time_s"].as_f64().unwrap();
    // Ten 100 ms hitches over a run that reaches 10 s of its own time before its last frame.
    assert!((wall(&hitched) - wall(&plain) - 1.0).abs() < 1e-9);
    let jittered = bench_json(&["--jitter", "2", "--strategy", "variable"]);
    assert_eq!(jittered["settings"]["jitter_ms"], 2.0);
    assert!(wall(&jittered) > wall(&plain) + 0.5);
    let table = lab(&["bench", "--jitter", "2", "--hitch", "30"]);
    assert!(
        stdout(&table).contains("jitter 2 ms | hitch 30 ms every 2 s"),
        "{}",
        stdout(&table)
    );
}

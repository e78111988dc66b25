//! `timestep-lab sweep`: the load ramped over a range, its reports and its errors.

use serde_json::Value;

use super::{fails_with, lab, result, stderr, stdout};

/// The six classic strategies.
const CLASSIC: &str = "fixed,variable,semi-fixed,accumulator,interpolated,extrapolated";

fn sweep_json(args: &[&str]) -> Value {
    super::command_json("sweep", args)
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("timestep-lab-sweep-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

#[test]
fn an_unguarded_accumulator_breaks_where_a_step_costs_dt_and_the_guards_hold() {
    let unguarded = sweep_json(&[
        "--load",
        "step-cost:0..30:50",
        "--hz",
        "50",
        "--max-frame-time",
        "0",
        "--strategy",
        CLASSIC,
    ]);
    assert_eq!(unguarded["load"]["name"], "step-cost");
    assert_eq!(unguarded["load"]["levels"], 50);
    let spacing = unguarded["load"]["spacing_ms"].as_f64().unwrap();
    let accumulator = result(&unguarded, "accumulator");
    let onset = accumulator["onset_ms"].as_f64().unwrap();
    assert!((onset - 20.0).abs() <= spacing, "onset {onset} ms");
    assert_eq!(accumulator["breaking_point_ms"], accumulator["onset_ms"]);
    assert_eq!(accumulator["disagrees"], false);
    assert_eq!(accumulator["levels"].as_array().unwrap().len(), 50);
    let variable = result(&unguarded, "variable");
    assert_eq!(variable["breaking_point_ms"], Value::Null);
    for level in variable["levels"].as_array().unwrap() {
        assert_eq!(level["spiral"], false);
    }
    // The 250 ms clamp (the default): slower, never a spiral.
    let clamped = sweep_json(&[
        "--load",
        "step-cost:0..30:50",
        "--hz",
        "50",
        "--strategy",
        "accumulator",
    ]);
    let accumulator = result(&clamped, "accumulator");
    assert_eq!(accumulator["breaking_point_ms"], Value::Null);
    assert!(accumulator["speed_at_top"].as_f64().unwrap() < 0.8);
}

#[test]
fn a_hitch_sweep_whose_hitches_never_land_says_so() {
    let output = lab(&[
        "sweep",
        "--load",
        "hitch:0..300:3",
        "--hitch-every",
        "20",
        "--strategy",
        "accumulator",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--hitch-every 20 s is no shorter than the trace (10.000 s)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_table_has_a_row_per_strategy_and_the_csv_a_row_per_level() {
    let dir = scratch("csv");
    let csv = dir.join("levels.csv");
    let output = lab(&[
        "sweep",
        "--load",
        "render-cost:0..40:9",
        "--strategy",
        "fixed,interpolated",
        "--preset",
        "godot",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = stdout(&output);
    assert!(table.contains("sweep: render-cost from 0 to 40 ms, 9 levels 5 ms apart"));
    for id in ["fixed ", "interpolated ", "godot "] {
        assert!(
            table.lines().any(|line| line.starts_with(id)),
            "{id}: {table}"
        );
    }
    assert!(table.contains("no-model"), "godot has no model: {table}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("strategy,load_ms,sim_speed,kept_speed,spiral,")
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 27, "3 strategies x 9 levels");
    assert!(rows[0].starts_with("fixed,0,"), "{}", rows[0]);
    assert!(rows[26].starts_with("godot,40,"), "{}", rows[26]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_plot_is_a_png_of_the_size_asked() {
    let dir = scratch("plot");
    let png = dir.join("sweep.png");
    let output = lab(&[
        "sweep",
        "--load",
        "hitch:0..300:6",
        "--strategy",
        "accumulator,variable",
        "--plot",
        png.to_str().unwrap(),
        "--plot-size",
        "1200x900",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, big-endian, after the signature, length and type.
    assert_eq!(&bytes[16..24], &[0, 0, 4, 176, 0, 0, 3, 132]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_sweeps_are_refused_naming_the_flag_and_the_value() {
    for (spec, expected) in [
        (
            "step-cost:30..0",
            "the range is reversed (FROM 30 ms is above TO 0 ms)",
        ),
        ("step-cost:5..5", "the range is empty"),
        ("step-cost:0..30:0", "LEVELS \"0\" is out of range"),
        (
            "step-cost:0..30:10001",
            "allowed a whole number from 2 to 10000",
        ),
        ("step-cost:0..NaN", "TO NaN ms is out of range"),
        ("step-cost:0..inf:4", "TO inf ms is out of range"),
        ("wobble:0..3", "unknown load \"wobble\""),
    ] {
        fails_with(&["sweep", "--load", spec], &["--load", spec, expected]);
    }
    fails_with(&["sweep"], &["--load"]);
    fails_with(
        &["sweep", "--load", "step-cost:1e-10..2e-10"],
        &["less than a nanosecond apart"],
    );
    fails_with(
        &["sweep", "--load", "jitter:0..3", "--input", "every:1"],
        &["unexpected argument '--input'"],
    );
    fails_with(
        &["sweep", "--load", "step-cost:0..30", "--step-cost", "5"],
        &["--step-cost 5 and --load step-cost:... both set the cost per physics step"],
    );
    fails_with(
        &["sweep", "--load", "jitter:0..3", "--hz", "0"],
        &["--hz: physics rate 0 Hz"],
    );
    let dir = scratch("bad");
    // `./same.png` and `same.png` are one file, though neither exists yet.
    let same = dir.join("same.png");
    let dotted = dir.join(".").join("same.png");
    fails_with(
        &[
            "sweep",
            "--load",
            "jitter:0..3",
            "--csv",
            dotted.to_str().unwrap(),
            "--plot",
            same.to_str().unwrap(),
        ],
        &["--csv and --plot both name"],
    );
    fails_with(
        &[
            "sweep",
            "--load",
            "jitter:0..3",
            "--plot",
            dir.to_str().unwrap(),
        ],
        &["--plot", "is a directory"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// Linux only: /dev/full.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_a_write_error_naming_the_file() {
    let dir = scratch("full");
    // A PNG name for the plot, on the full disk.
    let png = dir.join("full.png");
    std::os::unix::fs::symlink("/dev/full", &png).unwrap();
    for (option, path) in [("--csv", "/dev/full"), ("--plot", png.to_str().unwrap())] {
        let output = lab(&["sweep", "--load", "step-cost:0..10:3", option, path]);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{option}: {}",
            stderr(&output)
        );
        let message = stderr(&output);
        assert!(message.contains(&format!("{option} {path}")), "{message}");
        assert!(message.contains("No space left on device"), "{message}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_recorded_session_is_swept_only_as_a_trace() {
    let recording = super::asset("lab-session.csv");
    fails_with(
        &["sweep", "--load", "step-cost:0..10", "--trace", &recording],
        &["is a recorded session", "--as-trace"],
    );
    let report = sweep_json(&[
        "--load",
        "step-cost:0..10:3",
        "--trace",
        &recording,
        "--as-trace",
        "--strategy",
        "accumulator",
    ]);
    assert_eq!(
        result(&report, "accumulator")["levels"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

/// A long sweep: 86,400 frames a run, two strategies at three levels.
#[cfg(target_os = "linux")]
const LONG_SWEEP: [&str; 10] = [
    "sweep",
    "--json",
    "--load",
    "step-cost:0..4:3",
    "--generate",
    "steady:144",
    "--duration",
    "600",
    "--strategy",
    "accumulator,variable",
];

/// On a terminal the bench's bar counts the frames of every run of the sweep, then is
/// cleared; on a pipe nothing of it is written; stdout has the report alone either way.
// Linux only: util-linux's `script`.
#[cfg(target_os = "linux")]
#[test]
fn a_long_sweep_shows_its_progress_on_a_terminal_only() {
    use super::terminal::{OnTerminal, run_on_terminal};
    let dir = scratch("progress");
    let report = dir.join("report.json");
    let piped = std::process::Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .env("TIMESTEP_LAB_PROGRESS_AFTER_MS", "0")
        .args(LONG_SWEEP)
        .output()
        .expect("the binary runs");
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert_eq!(stderr(&piped), "", "stderr is a pipe: no progress");
    let Some(OnTerminal { success, screen }) = run_on_terminal(&LONG_SWEEP, &report) else {
        return;
    };
    assert!(success, "{screen}");
    assert!(screen.contains("/518,400 frames, ETA"), "{screen}");
    assert!(screen.contains("step-cost"), "{screen}");
    assert!(
        screen.ends_with("\r\x1b[2K"),
        "cleared at the end: {screen:?}"
    );
    let written = std::fs::read(&report).expect("the report was written");
    assert_eq!(written, piped.stdout, "stdout has the report only");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An output that is the trace under another name (a hard link) is refused before the
/// sweep reads anything, and the trace is kept (the CSV was once written over it).
#[test]
fn a_csv_that_is_the_trace_under_another_name_is_refused_and_the_trace_kept() {
    let dir = scratch("hard-link");
    let trace = dir.join("t.txt");
    let text = "16.7\n".repeat(120);
    std::fs::write(&trace, &text).unwrap();
    let link = dir.join("h.csv");
    std::fs::hard_link(&trace, &link).unwrap();
    let output = lab(&[
        "sweep",
        "--load",
        "step-cost:0..10:2",
        "--strategy",
        "accumulator",
        "--trace",
        trace.to_str().unwrap(),
        "--csv",
        link.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!(
            "--csv {} is the trace being read; name another file",
            link.display()
        )),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&trace).unwrap(), text);
    std::fs::remove_dir_all(&dir).unwrap();
}

//! The real binary, as a user runs it: `timestep-lab bench` over generated and shipped
//! traces, its JSON, and its errors on bad input.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs the binary with `args`, its settings directory in a private temporary one (the
/// window's remembered settings must not leak between tests or into the user's).
fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join(format!("timestep-lab-cli-config-{}", std::process::id())),
        )
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn bench_json(args: &[&str]) -> Value {
    let mut all = vec!["bench", "--json"];
    all.extend_from_slice(args);
    let output = lab(&all);
    assert!(
        output.status.success(),
        "{all:?} failed: {}",
        stderr(&output)
    );
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 1, "exactly one JSON object: {text}");
    serde_json::from_str(&text).expect("valid JSON")
}

fn result<'a>(report: &'a Value, strategy: &str) -> &'a Value {
    report["results"]
        .as_array()
        .expect("results is an array")
        .iter()
        .find(|r| r["strategy"] == strategy)
        .unwrap_or_else(|| panic!("no {strategy} in {report}"))
}

fn asset(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "assets", "traces", name]
        .iter()
        .collect();
    path.to_string_lossy().into_owned()
}

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
            "equal-substeps"
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
fn an_unknown_preset_is_refused_with_the_valid_ids() {
    fails_with(
        &["bench", "--preset", "frostbite"],
        &[
            "--preset",
            "unknown engine preset \"frostbite\"",
            "godot, godot-interpolated, bevy, bevy-interpolated, unity, unity-interpolate, \
             unity-extrapolate, unreal-substep, unreal, unreal-async, fiedler, glaiel, matterjs, \
             matterjs-0.19",
        ],
    );
    fails_with(
        &["bench", "--strategy", "godot,warp"],
        &[
            "--strategy",
            "unknown strategy \"warp\"",
            "hermite",
            "matterjs",
        ],
    );
}

#[test]
fn shipped_traces_all_run() {
    for name in [
        "vsync60-presentmon.csv",
        "jitter144-mangohud.csv",
        "hitches30.txt",
    ] {
        let report = bench_json(&["--trace", &asset(name)]);
        assert!(report["trace"]["frames"].as_u64().unwrap() > 200, "{name}");
        assert_eq!(report["results"].as_array().unwrap().len(), 9);
    }
}

#[test]
fn presentmon_names_the_chosen_process_on_stderr() {
    let output = lab(&[
        "bench",
        "--json",
        "--trace",
        &asset("vsync60-presentmon.csv"),
    ]);
    assert!(output.status.success());
    assert!(stderr(&output).contains("note:"), "{}", stderr(&output));
}

#[test]
fn presentmon_swap_chain_is_chosen_by_address() {
    let report = bench_json(&[
        "--trace",
        &asset("presentmon2-display.csv"),
        "--swap-chain",
        "1d2a3b4c5d0",
    ]);
    assert_eq!(report["trace"]["frames"], 9);
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

fn fails_with(args: &[&str], needles: &[&str]) {
    let output = lab(args);
    assert_eq!(output.status.code(), Some(2), "{args:?} should fail");
    let message = stderr(&output);
    for needle in needles {
        assert!(
            message.contains(needle),
            "{args:?}: {message:?} lacks {needle:?}"
        );
    }
    assert!(!message.contains("panicked"), "{message}");
}

#[test]
fn a_comparison_needs_two_to_nine_known_strategies() {
    fails_with(
        &["--compare", "fixed", "--frames", "1"],
        &[
            "--compare",
            "comparison panes 1 (fixed) is out of range (allowed 2 to 9 strategies)",
        ],
    );
    fails_with(
        &["--compare", "fixed,warp", "--frames", "1"],
        &["--compare", "unknown strategy \"warp\"", "semi-fixed"],
    );
    fails_with(
        &["render", "--compare", "fixed", "--out", "x.png"],
        &["comparison panes 1"],
    );
    fails_with(
        &["--preset", "tilt"],
        &["unknown scene preset \"tilt\"", "camera-vs-sphere"],
    );
}

#[test]
fn bad_values_get_errors_that_name_them_and_their_range() {
    fails_with(
        &["bench", "--hz", "5000"],
        &["physics rate 5000 Hz", "1 to 1000 Hz"],
    );
    fails_with(
        &["bench", "--strategy", "smooth"],
        &["smooth", "semi-fixed"],
    );
    fails_with(
        &["bench", "--step-cost", "-3"],
        &["step cost -3 ms", "0 to 1000 ms"],
    );
    fails_with(&["bench", "--spring-hz", "0"], &["spring frequency 0 Hz"]);
    fails_with(&["bench", "--max-steps", "999999"], &["max steps 999999"]);
    fails_with(&["bench", "--generate", "wobble:60"], &["wobble"]);
    fails_with(
        &["bench", "--generate", "steady:60", "--duration", "0"],
        &["duration", "0"],
    );
    fails_with(
        &["bench", "--trace", "x.csv", "--duration", "5"],
        &["--duration", "--trace"],
    );
    fails_with(&["bench", "--process", "game"], &["--trace"]);
    fails_with(&["bench", "--swap-chain", "0x1"], &["--trace"]);
    fails_with(
        &[
            "bench",
            "--trace",
            &asset("presentmon2-display.csv"),
            "--swap-chain",
            "0x1",
        ],
        &["swap chain \"0x1\"", "0x000001D2A3B4C5D0 (10 rows)"],
    );
    fails_with(
        &["bench", "--trace", "/nonexistent/trace.csv"],
        &["cannot read trace file /nonexistent/trace.csv: No such file"],
    );
}

#[test]
fn a_malformed_trace_names_the_file_line_and_value() {
    let dir = std::env::temp_dir().join(format!("timestep-lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    std::fs::write(&path, "# frame times\n16.7\n16.6\nfast\n").unwrap();
    let shown = path.to_string_lossy().into_owned();
    fails_with(&["bench", "--trace", &shown], &[&shown, "4", "fast"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_lists_the_window_options_and_every_command() {
    let output = lab(&["--help"]);
    assert!(output.status.success());
    let help = stdout(&output);
    for expected in [
        "bench",
        "render",
        "bench-render",
        "--strategy",
        "--present-mode",
        "--step-cost",
        "--frames",
        "--screenshot",
    ] {
        assert!(help.contains(expected), "{expected} missing from:\n{help}");
    }
}

/// Built without the `window` feature, the binary is the bench: every drawing command says
/// this build has no window, after checking its options as a full build would.
#[cfg(not(feature = "window"))]
#[test]
fn a_build_without_the_window_says_so_and_still_checks_options() {
    let out = std::env::temp_dir().join("timestep-lab-no-window.png");
    let out = out.to_string_lossy().into_owned();
    for args in [
        vec!["--frames", "1"],
        vec!["render", "--out", out.as_str()],
        vec!["bench-render", "--frames", "1"],
    ] {
        let output = lab(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&output).contains("this build has no window"),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(stdout(&output).is_empty(), "{args:?}");
    }
    let output = lab(&["--time-scale", "9"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("time scale"),
        "{}",
        stderr(&output)
    );
    let output = lab(&["bench", "--duration", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn bad_display_specs_and_filters_exit_2_naming_the_problem() {
    fails_with(
        &["bench", "--display", "fifo:0"],
        &[
            "display \"fifo:0\"",
            "refresh rate 0 Hz is out of range (allowed 1 to 1000 Hz)",
        ],
    );
    fails_with(
        &["bench", "--display", "vrr:144-48"],
        &["the minimum refresh 144 Hz must be below the maximum 48 Hz"],
    );
    fails_with(
        &["bench", "--display", "mailbox:abc"],
        &["refresh rate \"abc\" is not a number"],
    );
    fails_with(
        &[
            "bench",
            "--display",
            "trace",
            "--trace",
            &asset("hitches30.txt"),
        ],
        &[
            "--display trace needs a capture with display times",
            "hitches30.txt",
        ],
    );
    fails_with(
        &["bench", "--display", "trace"],
        &[
            "--display trace needs a capture with display times",
            "steady:60",
        ],
    );
    fails_with(
        &["bench", "--gpu-cost", "5"],
        &["--gpu-cost needs a modeled display"],
    );
    fails_with(
        &["bench", "--display", "fifo:60", "--gpu-cost", "2000"],
        &["--gpu-cost 2000 ms is out of range (allowed 0 to 1000 ms)"],
    );
    fails_with(&["bench", "--filter", "smooth"], &["unknown filter"]);
    fails_with(
        &["--refresh", "5000"],
        &["refresh rate 5000 Hz is out of range"],
    );
    fails_with(
        &["--filter", "average:99"],
        &["frames \"99\" is not a whole number from 2 to 32"],
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

/// A trace file of a test's own in the temporary folder, removed when dropped.
struct TempTrace(PathBuf);

impl TempTrace {
    /// Writes `bytes` to the file `name`.
    fn new(name: &str, bytes: &[u8]) -> TempTrace {
        let dir = std::env::temp_dir().join(format!("timestep-lab-traces-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("the temporary folder is writable");
        TempTrace(path)
    }

    /// The path as the command line takes it.
    fn arg(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }
}

impl Drop for TempTrace {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn presentmon_2_2_is_read_as_presentmon_and_its_process_option_honoured() {
    // PresentMon 2.0-2.2's FrameTime column is MangoHud's frametime, ignoring case; the file
    // used to be read as MangoHud, every application's rows mixed and --process ignored.
    let trace = TempTrace::new(
        "pm2.csv",
        b"Application,ProcessID,CPUStartTime,FrameTime,CPUBusy\n\
          Game.exe,1,0,16.7,5\n\
          dwm.exe,2,0,1000,1\n\
          Game.exe,1,16.7,16.7,5\n",
    );
    let shown = trace.arg();
    fails_with(
        &["bench", "--trace", &shown, "--process", "nosuch.exe"],
        &[
            "no PresentMon rows for application \"nosuch.exe\"",
            "Game.exe (2 rows), dwm.exe (1 row)",
        ],
    );
    let output = lab(&["bench", "--json", "--trace", &shown]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("\"Game.exe\""),
        "{}",
        stderr(&output)
    );
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["trace"]["frames"], 1);
}

#[test]
fn control_characters_in_a_trace_never_reach_the_terminal() {
    // Lone CR line ends (which used to hide the file:line prefix) and an escape sequence.
    let trace = TempTrace::new("escape.txt", b"16.7\r\x1b[2J\x1b[31mfast\r");
    let shown = trace.arg();
    let output = lab(&["bench", "--trace", &shown]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        !message.contains('\x1b') && !message.contains('\r'),
        "{message:?}"
    );
    assert!(
        message.contains(&format!("{shown}:2: frame time \"\\u{{1b}}[2J")),
        "{message:?}"
    );
}

#[test]
fn trace_input_that_cannot_be_run_is_refused_with_what_is_wrong() {
    let zeros = TempTrace::new("zeros.txt", b"0\n0\n0\n");
    fails_with(
        &["bench", "--trace", &zeros.arg()],
        &["all 3 frame times are 0 ms, so no time passes"],
    );
    let plain = TempTrace::new("plain.txt", b"16.7\n16.6\n");
    fails_with(
        &["bench", "--trace", &plain.arg(), "--process", "game"],
        &["--process applies to PresentMon captures only"],
    );
    fails_with(
        &[
            "bench",
            "--trace",
            &asset("jitter144-mangohud.csv"),
            "--swap-chain",
            "0x1",
        ],
        &[
            "--swap-chain applies to PresentMon captures only",
            "a MangoHud CSV",
        ],
    );
    let semicolons = TempTrace::new("excel.csv", b"frame_time_ms;note\n16,7;ok\n");
    fails_with(
        &["bench", "--trace", &semicolons.arg()],
        &["looks like a ';'-separated frame_time_ms CSV with decimal commas"],
    );
    let twice = TempTrace::new("twice.csv", b"fps,frametime,frametime\n60,16,17\n");
    fails_with(
        &["bench", "--trace", &twice.arg()],
        &["two \"frametime\" columns (2 and 3)"],
    );
    let long = TempTrace::new("long.txt", &vec![b'1'; 70_000]);
    fails_with(
        &["bench", "--trace", &long.arg()],
        &[":1: line is longer than 65536 bytes"],
    );
}

#[cfg(unix)]
#[test]
fn dev_zero_is_refused_at_once() {
    let started = std::time::Instant::now();
    fails_with(
        &["bench", "--trace", "/dev/zero"],
        &["/dev/zero: not a text trace: it starts with NUL bytes"],
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

/// A named pipe whose writer comes late: the bench says it is waiting, then reads the trace.
#[cfg(unix)]
#[test]
fn a_pipe_without_a_writer_says_it_is_waiting() {
    use std::io::{BufRead as _, Read as _, Write as _};
    use std::process::Stdio;
    use std::time::Duration;

    let dir = std::env::temp_dir().join(format!("timestep-lab-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("trace.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(["bench", "--json", "--trace"])
        .arg(&fifo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Its stderr, line by line, as it comes.
    let (lines, received) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let _ = lines.send(line);
        }
    });
    // The writer comes only once the notice is out (or after a long while, to end the test).
    let mut message = Vec::new();
    while let Ok(line) = received.recv_timeout(Duration::from_secs(30)) {
        let waiting = line.contains("waiting for data on");
        message.push(line);
        if waiting {
            break;
        }
    }
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    writer.write_all("16.7\n".repeat(100).as_bytes()).unwrap();
    drop(writer);
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let status = child.wait().unwrap();
    reader.join().unwrap();
    message.extend(received.try_iter());
    let message = message.join("\n");
    assert!(status.success(), "{message}");
    assert_eq!(
        message.lines().next(),
        Some(format!("note: waiting for data on {} …", fifo.display()).as_str()),
        "{message}"
    );
    assert!(stdout.contains("\"frames\":100"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs the binary with its standard output on a full disk (`/dev/full`).
fn lab_to_full_disk(args: &[&str]) -> Output {
    let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
    Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(args)
        .stdout(Stdio::from(full))
        .output()
        .expect("the binary runs")
}

#[test]
fn output_that_cannot_be_written_fails_the_command() {
    for args in [&["bench", "--json"][..], &["bench"]] {
        let output = lab_to_full_disk(args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&output)
        );
        let message = stderr(&output);
        assert!(
            message.contains(
                "error: cannot write to standard output: No space left on device (os error 28)"
            ),
            "{args:?}: {message}"
        );
        assert!(!message.contains("panicked"), "{message}");
    }
}

#[test]
fn a_reader_that_goes_away_is_no_error() {
    // `bench | head -c 0`: the pipe is closed before the table is written.
    let mut child = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(["bench", "--duration", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("the binary ends");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
}

#[test]
fn an_output_path_that_is_a_directory_is_refused_before_the_work() {
    let dir = std::env::temp_dir().join(format!("timestep-lab-cli-dir-{}", std::process::id()));
    let png_dir = dir.join("frames.png");
    std::fs::create_dir_all(&png_dir).unwrap();
    let dir_text = dir.to_string_lossy().into_owned();
    let png_dir_text = png_dir.to_string_lossy().into_owned();
    let slash = format!("{}/missing.png/", dir.display());
    for (args, path) in [
        (vec!["render", "--out", &dir_text], &dir_text),
        (vec!["render", "--out", &png_dir_text], &png_dir_text),
        (vec!["render", "--out", &slash], &slash),
        (vec!["--frames", "1", "--screenshot", &dir_text], &dir_text),
        (
            vec!["--frames", "1", "--screenshot", &png_dir_text],
            &png_dir_text,
        ),
    ] {
        fails_with(
            &args,
            &[&format!(
                "{path}: names a directory, not the image file to write"
            )],
        );
    }
    let file = dir.join("file.png");
    std::fs::write(&file, b"").unwrap();
    let inside_file = format!("{}/shot.png", file.display());
    fails_with(
        &["render", "--out", &inside_file],
        &[&format!(
            "{}: {} is not a directory",
            inside_file,
            file.display()
        )],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn option_errors_name_the_flag_and_a_clamp_that_rounds_to_nothing_is_refused() {
    fails_with(
        &["bench", "--hz", "0"],
        &["--hz: physics rate 0 Hz is out of range (allowed 1 to 1000 Hz)"],
    );
    fails_with(
        &["bench", "--duration", "-1"],
        &["--duration -1 s is out of range"],
    );
    fails_with(
        &["bench", "--spring-hz", "1e9"],
        &["--spring-hz: spring frequency"],
    );
    fails_with(
        &["bench", "--step-cost", "-1"],
        &["--step-cost: step cost -1 ms"],
    );
    // 0.1 ns rounds to 0, which would silently turn the clamp off.
    fails_with(
        &["bench", "--max-frame-time", "0.0000001"],
        &[
            "--max-frame-time: max frame time 0.0000001 ms",
            "rounds to 0 ns",
        ],
    );
    fails_with(
        &["--hz", "5000", "--no-config"],
        &["--hz: physics rate 5000 Hz"],
    );
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("timestep-lab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temporary directory is writable");
    dir
}

#[test]
fn bench_writes_the_per_frame_csv_and_the_plot() {
    let dir = scratch("reports");
    let csv_path = dir.join("frames.csv");
    let plot_path = dir.join("bench.png");
    let output = lab(&[
        "bench",
        "--trace",
        &asset("wobble60.txt"),
        "--display",
        "fifo:60",
        "--csv",
        csv_path.to_str().unwrap(),
        "--plot",
        plot_path.to_str().unwrap(),
        "--plot-size",
        "1000x800",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    // The table still goes to stdout.
    assert!(stdout(&output).starts_with("trace: "));

    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "frame",
            "strategy",
            "frame_time_ns",
            "steps",
            "alpha",
            "presented_ns",
            "shown_ns",
            "display_ns",
            "animation_error_ns",
            "spring_shown_m",
            "spring_true_m"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 600 * 9, "600 frames, nine strategies");
    // wobble60 is 15 and 18.333 ms alternating, and interpolated lags one 20 ms step.
    let interpolated: Vec<&csv::StringRecord> =
        rows.iter().filter(|r| &r[1] == "interpolated").collect();
    assert_eq!(&interpolated[0][2], "15000000");
    assert_eq!(&interpolated[1][2], "18333000");
    for row in &interpolated[1..] {
        let t: u64 = row[5].parse().unwrap();
        let s: u64 = row[6].parse().unwrap();
        assert_eq!(t - s, 20_000_000);
    }

    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&plot_path).unwrap(),
    ));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (1000, 800));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn report_paths_are_checked_before_the_run() {
    let dir = scratch("report-paths");
    let shown = dir.to_string_lossy().into_owned();
    fails_with(
        &["bench", "--csv", &shown],
        &["--csv", &shown, "is a directory"],
    );
    fails_with(
        &["bench", "--plot", &shown],
        &["--plot", &shown, "is a directory"],
    );
    let missing = dir.join("no/such/dir/frames.csv");
    fails_with(
        &["bench", "--csv", missing.to_str().unwrap()],
        &["--csv", "does not exist"],
    );
    let jpeg = dir.join("plot.jpg");
    fails_with(
        &["bench", "--plot", jpeg.to_str().unwrap()],
        &["--plot", "must end in .png"],
    );
    let same = dir.join("both.png");
    fails_with(
        &[
            "bench",
            "--csv",
            same.to_str().unwrap(),
            "--plot",
            same.to_str().unwrap(),
        ],
        &["--csv and --plot both name"],
    );
    fails_with(&["bench", "--plot-size", "1000x800"], &["--plot"]);
    fails_with(
        &["bench", "--plot", "x.png", "--plot-size", "100x100"],
        &["100x100", "960x720 to 8192x8192"],
    );
    // Nothing was written.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_report_written_over_its_own_trace_is_refused() {
    let dir = scratch("over-trace");
    let trace = dir.join("trace.txt");
    std::fs::copy(asset("wobble60.txt"), &trace).unwrap();
    let shown = trace.to_string_lossy().into_owned();
    fails_with(
        &["bench", "--trace", &shown, "--csv", &shown],
        &["--csv", "is the trace being read"],
    );
    assert_eq!(
        std::fs::read(&trace).unwrap(),
        std::fs::read(asset("wobble60.txt")).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_report_that_cannot_be_written_fails_naming_the_file_and_the_cause() {
    let output = lab(&["bench", "--csv", "/dev/full"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("--csv /dev/full: No space left on device"),
        "{message}"
    );
}

#[test]
fn a_missing_font_names_the_file_and_the_package() {
    let dir = scratch("no-font");
    let plot = dir.join("bench.png");
    let output = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(["bench", "--plot", plot.to_str().unwrap()])
        .env("TIMESTEP_LAB_FONT", dir.join("missing.ttf"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("missing.ttf") && message.contains("fonts-dejavu-core"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shipped_recording_replays_in_bench_to_the_recorded_state() {
    // The window that recorded it printed bb115a5414da01b2 for its one pane; the hash has
    // covered the player since it joined the scene (assets/traces/README.md).
    let report = bench_json(&[
        "--trace",
        &asset("lab-session.csv"),
        "--strategy",
        "accumulator,variable",
    ]);
    assert_eq!(
        result(&report, "accumulator")["state_hash"],
        "5c2f606a79e09a51"
    );
    // Variable steps are other steps: another state.
    assert_ne!(
        result(&report, "variable")["state_hash"],
        "5c2f606a79e09a51"
    );
    assert_eq!(report["trace"]["frames"], 240);
    let output = lab(&["bench", "--trace", &asset("lab-session.csv")]);
    assert!(output.status.success());
    assert!(
        stderr(&output).contains("a recorded session (0.1.0 on llvmpipe"),
        "{}",
        stderr(&output)
    );
    // As a plain trace of its frame times, under the bench's own model and options.
    let plain = bench_json(&[
        "--trace",
        &asset("lab-session.csv"),
        "--as-trace",
        "--hz",
        "60",
    ]);
    assert_eq!(plain["trace"]["frames"], 240);
    assert_eq!(
        plain["settings"]["dt_ms"].as_f64().map(|ms| ms.round()),
        Some(17.0)
    );
}

#[test]
fn a_recording_refuses_the_bench_model_options_and_names_the_way_out() {
    for extra in [
        &["--hz", "60"][..],
        &["--display", "fifo:60"],
        &["--csv", "x.csv"],
    ] {
        let mut args = vec!["bench", "--trace"];
        let path = asset("lab-session.csv");
        args.push(&path);
        args.extend(extra);
        let output = lab(&args);
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(
            stderr(&output).contains("--as-trace"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn record_and_replay_refuse_bad_paths_and_files_before_the_window_opens() {
    let dir = std::env::temp_dir().join(format!("timestep-lab-rr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, "").unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(
        &bad,
        "# timestep-lab session recording\n# settings: {rate_hz = 50.0}\n\
         frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n\
         0,0,16,0,0,,,warp 9\n",
    )
    .unwrap();
    let existing = asset("hitches30.txt");
    let before = std::fs::read(&existing).unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["--record", dir.to_str().unwrap()],
            "is a directory; name a file",
        ),
        (
            &["--record", &existing],
            "the file exists and is not overwritten",
        ),
        (
            &["--record", "/no/such/dir/rec.csv"],
            "the directory /no/such/dir does not exist",
        ),
        (
            &["--replay", empty.to_str().unwrap()],
            "the trace has no frame times",
        ),
        (
            &["--replay", bad.to_str().unwrap()],
            "bad.csv:4: unknown event \"warp 9\"",
        ),
        (
            &["--replay", "/no/such/trace.csv"],
            "cannot read trace file",
        ),
    ];
    for (args, message) in cases {
        let output = lab(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    assert_eq!(std::fs::read(&existing).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bench run long enough for several progress updates, with the bar allowed at once
/// (`TIMESTEP_LAB_PROGRESS_AFTER_MS=0`) instead of after a second.
const PROGRESS_RUN: [&str; 6] = [
    "bench",
    "--json",
    "--generate",
    "steady:144",
    "--duration",
    "600",
];

#[test]
fn progress_never_reaches_a_pipe() {
    let output = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .env("TIMESTEP_LAB_PROGRESS_AFTER_MS", "0")
        .env("TERM", "xterm")
        .args(PROGRESS_RUN)
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "", "stderr is a pipe: no progress");
    // And the report is the one a run without the bar prints.
    assert_eq!(output.stdout, lab(&PROGRESS_RUN).stdout);
}

/// On a terminal (a pseudo-terminal from util-linux's `script`) the bar is drawn on stderr,
/// then cleared; stdout, sent to a file, gets the report alone.
#[cfg(unix)]
#[test]
fn progress_shows_on_a_terminal_and_stays_off_stdout() {
    if !Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
    {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    }
    let dir = scratch("progress");
    let report = dir.join("report.json");
    let quoted = |text: &str| format!("'{}'", text.replace('\'', r"'\''"));
    let command = format!(
        "{} {} > {}",
        quoted(env!("CARGO_BIN_EXE_timestep-lab")),
        PROGRESS_RUN.join(" "),
        quoted(&report.to_string_lossy())
    );
    let terminal = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TIMESTEP_LAB_PROGRESS_AFTER_MS", "0")
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let screen = String::from_utf8_lossy(&terminal.stdout).into_owned();
    assert!(terminal.status.success(), "{screen}");
    // 86,400 frames a strategy, nine strategies: the bar counts all of them.
    assert!(screen.contains("/777,600 frames, ETA"), "{screen}");
    for strategy in ["fixed", "accumulator", "extrapolated"] {
        assert!(screen.contains(strategy), "{strategy} in {screen}");
    }
    assert!(
        screen.ends_with("\r\x1b[2K"),
        "cleared at the end: {screen:?}"
    );
    let written = std::fs::read(&report).expect("the report was written");
    assert_eq!(
        written,
        lab(&PROGRESS_RUN).stdout,
        "stdout has the report only"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn what_an_error_quotes_from_the_command_line_reaches_the_terminal_escaped() {
    // Found by the options fuzz target's review: clap's errors and the lab's path errors
    // repeated what was typed, escape sequences included.
    let cases: [&[&str]; 3] = [
        &["bench", "--hz", "\u{1b}[31mred"],
        &["bench", "--nosuch\u{1b}]0;title\u{7}"],
        &["--record", "/no/such/\u{1b}[2J/rec.csv"],
    ];
    for args in cases {
        let output = lab(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let errors = stderr(&output);
        assert!(!errors.contains('\u{1b}'), "{args:?}: {errors:?}");
        assert!(!errors.contains('\u{7}'), "{args:?}: {errors:?}");
    }
    // The lab's own message names the path, escaped.
    let output = lab(cases[2]);
    assert!(
        stderr(&output).contains("/no/such/\\u{1b}[2J"),
        "{}",
        stderr(&output)
    );
    // Help still goes to stdout, as clap writes it.
    let help = lab(&["bench", "--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).contains("--trace"));
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
fn a_bad_input_script_is_refused_naming_the_flag_and_the_range() {
    fails_with(
        &["bench", "--input", "every:0"],
        &["--input", "S 0 s is out of range", "0.001 to 3600"],
    );
    fails_with(
        &["bench", "--input", "every:1:1000"],
        &["--input", "HOLD_MS 1000 ms", "less than the period"],
    );
    fails_with(
        &["bench", "--input", "often"],
        &["--input", "every:S[:HOLD_MS]"],
    );
    fails_with(
        &["bench", "--input-policy", "sometimes"],
        &[
            "--input-policy",
            "every-step, first-step, buffered, timestamped",
        ],
    );
    fails_with(
        &[
            "bench",
            "--trace",
            &asset("lab-session.csv"),
            "--input",
            "every:1",
        ],
        &["recorded session", "--input", "--as-trace"],
    );
}

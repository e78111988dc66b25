//! The command line: help, and options refused with what is wrong, in which flag, and
//! what is allowed.

use super::{asset, fails_with, lab, stderr, stdout};

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
    // An empty list is no list of strategies: refused, not an empty table.
    for empty in ["", " "] {
        fails_with(
            &["bench", "--strategy", empty],
            &[
                "--strategy",
                "unknown strategy \"\"",
                "allowed: fixed, variable",
            ],
        );
    }
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
fn a_comparison_needs_two_to_ten_known_strategies() {
    fails_with(
        &["--compare", "fixed", "--frames", "1"],
        &[
            "--compare",
            "comparison panes 1 (fixed) is out of range (allowed 2 to 10 strategies)",
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
    fails_with(
        &["bench", "--jitter", "101"],
        &["--jitter: jitter 101 ms", "0 to 100 ms"],
    );
    fails_with(
        &["bench", "--hitch", "NaN"],
        &["--hitch: hitch length NaN ms", "0 to 1000 ms"],
    );
    fails_with(
        &["bench", "--hitch-every", "0"],
        &["--hitch-every: hitch period 0 s", "0.1 to 60 s"],
    );
    // Not three hundred digits.
    fails_with(
        &["bench", "--hitch-every", "1e300"],
        &["--hitch-every: hitch period 1e300 s is out of range"],
    );
    fails_with(
        &["bench", "--max-steps", "999999"],
        &[
            "--max-steps",
            "999999 is not a whole number from 0 (off) to 100000",
        ],
    );
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
        "--ramp <MAX_MS:SECONDS>",
        // Where the settings live, on each platform, and the lab's own override.
        "%APPDATA%\\timestep-lab\\config on Windows",
        "~/Library/Application Support/timestep-lab on macOS",
        "$XDG_CONFIG_HOME/timestep-lab (~/.config/timestep-lab) on Linux",
        "TIMESTEP_LAB_CONFIG_DIR",
        // And where the panel's recordings go where the current directory takes none.
        "%APPDATA%\\timestep-lab\\data\\recordings on Windows",
        "~/Library/Application Support/timestep-lab/recordings on macOS",
        "$XDG_DATA_HOME/timestep-lab/recordings",
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
        &["--display trace needs display times", "hitches30.txt"],
    );
    // A recording made where the screen was modeled has no display times either.
    fails_with(
        &[
            "bench",
            "--display",
            "trace",
            "--trace",
            &asset("lab-session.csv"),
        ],
        &[
            "--display trace needs display times",
            "a recording made where the window measured the screen",
            "lab-session.csv has none",
        ],
    );
    fails_with(
        &["bench", "--display", "trace"],
        &["--display trace needs display times", "steady:60"],
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

#[test]
fn help_lists_every_strategy_and_the_comparison_bounds_from_the_tables() {
    use timestep_lab::live::{MAX_PANES, MIN_COMPARE_PANES};
    use timestep_lab::timestep::{EnginePreset, Strategy};
    let line_of = |help: &str, flag: &str| -> String {
        help.lines()
            .find(|line| line.trim_start().starts_with(flag))
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("{flag} missing from:\n{help}"))
    };
    for command in [&["--help"][..], &["render", "--help"]] {
        let help = stdout(&lab(command));
        let strategy = line_of(&help, "--strategy <ID>");
        for id in Strategy::ALL
            .map(|s| s.id())
            .into_iter()
            .chain(EnginePreset::ALL.map(|p| p.id()))
        {
            assert!(
                strategy.contains(id),
                "{command:?}: {id} missing from {strategy}"
            );
        }
        let compare = line_of(&help, "--compare <LIST>");
        let bounds = format!("{MIN_COMPARE_PANES} to {MAX_PANES} comma-separated");
        assert!(compare.contains(&bounds), "{command:?}: {compare}");
    }
    let bench = stdout(&lab(&["bench", "--help"]));
    let at = bench.find("--strategy <LIST>").expect("bench --strategy");
    let text = &bench[at..at + 400];
    for id in Strategy::ALL.map(|s| s.id()) {
        assert!(text.contains(id), "bench --help: {id} missing from {text}");
    }
}

/// Options that cannot act together are refused or named, never dropped in silence: a scene
/// preset sets the camera, so `--camera` beside it is refused; `--as-trace` reads a recording
/// file, so it needs `--trace`; `--hz`, `--max-frame-time` and `--max-steps` with only engine
/// presets running change nothing, and a note says so.
#[test]
fn options_that_cannot_act_together_are_refused_or_named() {
    fails_with(
        &["--preset", "camera-vs-sphere", "--camera", "per-step"],
        &["--preset", "--camera"],
    );
    fails_with(
        &[
            "render",
            "--preset",
            "together",
            "--camera",
            "per-frame",
            "--out",
            "x.png",
        ],
        &["--preset", "--camera"],
    );
    // Alone, or beside an option that rules --trace out (clap then skips its requirement),
    // --as-trace without a trace to read is refused, by bench and sweep alike.
    for args in [
        &["bench", "--as-trace", "--generate", "steady:60"][..],
        &["bench", "--as-trace"],
        &["bench", "--as-trace", "--duration", "5"],
        &["sweep", "--as-trace", "--duration", "5"],
        &["sweep", "--as-trace"],
    ] {
        fails_with(args, &["--as-trace", "--trace"]);
    }
    let only_presets = lab(&[
        "bench",
        "--preset",
        "godot",
        "--hz",
        "120",
        "--max-steps",
        "3",
        "--duration",
        "1",
    ]);
    assert!(only_presets.status.success());
    let notes = stderr(&only_presets);
    for option in ["--hz 120 does not apply", "--max-steps 3 does not apply"] {
        assert!(notes.contains(option), "{notes}");
    }
    assert!(!notes.contains("--max-frame-time"), "{notes}");
    // With a strategy of the lab's beside the preset, --hz applies to it: no note.
    let mixed = lab(&[
        "bench",
        "--strategy",
        "fixed",
        "--preset",
        "godot",
        "--hz",
        "120",
        "--duration",
        "1",
    ]);
    assert!(mixed.status.success());
    assert!(
        !stderr(&mixed).contains("does not apply"),
        "{}",
        stderr(&mixed)
    );
}

#[test]
fn a_bad_ramp_is_refused_naming_the_flag_and_the_range() {
    for (ramp, needles) in [
        (
            "0:10",
            [
                "--ramp",
                "ramp's maximum step cost 0 ms",
                "0.000001 (1 ns) to 1000 ms",
            ],
        ),
        (
            "nan:10",
            [
                "--ramp",
                "ramp's maximum step cost NaN ms",
                "0.000001 (1 ns) to 1000 ms",
            ],
        ),
        (
            "1001:10",
            [
                "--ramp",
                "maximum step cost 1001 ms",
                "0.000001 (1 ns) to 1000 ms",
            ],
        ),
        (
            // Below a nanosecond the ramp would round to no load at all.
            "1e-300:10",
            [
                "--ramp",
                "ramp's maximum step cost 1e-300 ms",
                "0.000001 (1 ns) to 1000 ms",
            ],
        ),
        ("10:0.5", ["--ramp", "ramp's duration 0.5 s", "1 to 600 s"]),
        ("10:inf", ["--ramp", "ramp's duration inf s", "1 to 600 s"]),
        ("10", ["--ramp", "is not MAX_MS:SECONDS", "30:30"]),
        (
            "10:\u{1b}[2J",
            ["--ramp", "is not MAX_MS:SECONDS", "\\u{1b}"],
        ),
    ] {
        fails_with(&["--no-config", "--ramp", ramp], &needles);
        assert!(
            !stderr(&lab(&["--no-config", "--ramp", ramp])).contains('\u{1b}'),
            "--ramp {ramp:?} echoed a raw escape"
        );
    }
    // A ramp needs running time and load: not from a paused start, nor in a replay.
    fails_with(
        &["--no-config", "--ramp", "10:10", "--paused"],
        &["--paused"],
    );
    fails_with(
        &[
            "--no-config",
            "--ramp",
            "10:10",
            "--replay",
            &asset("lab-session.csv"),
        ],
        &["--replay"],
    );
}

/// A tiny or huge value is quoted as short as it was typed (`1e-300`), never with the
/// three hundred digits `{}` gives an f64; all of these used to.
#[test]
fn tiny_values_are_quoted_short() {
    for (args, quoted) in [
        (
            &["bench", "--display", "fifo:60", "--gpu-cost", "1e300"][..],
            "--gpu-cost 1e300 ms is out of range",
        ),
        (
            &["bench", "--duration", "1e300"],
            "--duration 1e300 s is out of range",
        ),
        (
            &["bench", "--filter", "snap:1e300"],
            "tolerance 1e300 ms is out of range",
        ),
        (
            &["bench", "--input", "every:1e-300"],
            "S 1e-300 s is out of range",
        ),
        (
            &["bench", "--input", "every:1:1e300"],
            "HOLD_MS 1e300 ms is out of range",
        ),
        (
            &["render", "--time", "1e300", "--out", "x.png"],
            "--time 1e300 s is out of range",
        ),
        (
            &["render", "--display-hz", "1e-300", "--out", "x.png"],
            "--display-hz 1e-300 Hz is out of range",
        ),
        (
            &["sweep", "--load", "step-cost:1e-300..1e-301"],
            "FROM 1e-300 ms is above TO 1e-301 ms",
        ),
        (
            &["sweep", "--load", "step-cost:1e-300..1e-300"],
            "FROM and TO are both 1e-300 ms",
        ),
        (
            &["bench", "--display", "fifo:1e-300"][..],
            "refresh rate 1e-300 Hz is out of range",
        ),
        (
            &["sweep", "--load", "step-cost:0..1e-300:5"],
            "5 levels from 0 to 1e-300 ms would be less than a nanosecond apart",
        ),
        (
            &["--replay-speed", "1e-300", "--replay", "x.csv"],
            "--replay-speed 1e-300 is out of range",
        ),
    ] {
        fails_with(args, &[quoted]);
        let message = stderr(&lab(args));
        assert!(message.len() < 400, "{args:?}: {message}");
    }
}

//! Recorded sessions: replayed by `bench`, and bad paths and files refused by `--record`
//! and `--replay` before the window opens.

use super::{asset, bench_json, fails_with, lab, result, stderr};

#[test]
fn a_shipped_recording_replays_in_bench_to_the_recorded_state() {
    // The window that recorded it printed bb115a5414da01b2 for its one pane; the hash has
    // covered the player since it joined the scene, and its sin, cos and exp have been the
    // libm crate's, the same on every platform, since (assets/traces/README.md).
    let report = bench_json(&[
        "--trace",
        &asset("lab-session.csv"),
        "--strategy",
        "accumulator,variable",
    ]);
    assert_eq!(
        result(&report, "accumulator")["state_hash"],
        "bae0334ecef1e8d6"
    );
    // Variable steps are other steps: another state.
    assert_ne!(
        result(&report, "variable")["state_hash"],
        "bae0334ecef1e8d6"
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

/// A recording saved with a UTF-8 byte-order mark, or as UTF-16, is still a recording: it
/// used to run as a plain trace, its settings, requests and presents dropped.
#[test]
fn a_recording_in_another_encoding_replays_as_recorded() {
    let text = std::fs::read_to_string(asset("lab-session.csv")).unwrap();
    let dir = std::env::temp_dir().join(format!("timestep-lab-enc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(text.as_bytes());
    let mut utf16 = vec![0xFE, 0xFF];
    utf16.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    for (name, bytes) in [("bom.csv", bom), ("utf16.csv", utf16)] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let report = bench_json(&[
            "--trace",
            path.to_str().unwrap(),
            "--strategy",
            "accumulator",
        ]);
        assert_eq!(
            result(&report, "accumulator")["state_hash"],
            "bae0334ecef1e8d6",
            "{name}"
        );
        assert_eq!(report["trace"]["frames"], 240, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
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

/// A recording cut short by a full disk (its last row without a line end) replays in bench
/// to its last whole row, with a note naming the line; it used to be refused whole.
#[test]
fn a_recording_cut_short_runs_in_bench_to_its_last_whole_row() {
    let text = std::fs::read_to_string(asset("lab-session.csv")).unwrap();
    let dir = std::env::temp_dir().join(format!("timestep-lab-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cut.csv");
    std::fs::write(&path, &text[..text.len() - 10]).unwrap();
    let output = lab(&["bench", "--json", "--trace", path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let notes = stderr(&output);
    assert!(
        notes.contains("cut.csv:247: the last row has no line end"),
        "{notes}"
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["trace"]["frames"], 239);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An answer line no window can record (here for a frame whose row comes later) is refused
/// with its line by all three readers of a recording, the window's `--replay` before the
/// window opens; before, only `--display trace` refused it.
#[test]
fn a_misplaced_answer_is_refused_by_every_reader() {
    let dir = std::env::temp_dir().join(format!("timestep-lab-answer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("answered.csv");
    std::fs::write(
        &path,
        "# timestep-lab session recording\n# settings: {}\n\
         frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n\
         0,0,16.666667,0,0,,,\n\
         1,16.666667,16.666667,0,0,,,shown 5 at 20\n\
         2,33.333334,16.666667,0,0,,,\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let message = "answered.csv:5: \"shown 5 at 20.000000\" answers for frame 5, whose row is not written yet";
    for args in [
        &["bench", "--trace", file][..],
        &["bench", "--trace", file, "--display", "trace"],
        &["--replay", file, "--frames", "2"],
    ] {
        fails_with(args, &[message]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recording whose header says X11 Present measured the screen but that holds no answer
/// (the window gave up: a software rasterizer puts images up without it) is reported as
/// modeled, with when and why the window gave up; before, bench said its frames were
/// settled by the answers X11 Present recorded.
#[test]
fn bench_calls_a_recording_without_answers_modeled_and_says_why() {
    let dir = std::env::temp_dir().join(format!("timestep-lab-gaveup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("silent.csv");
    let rows = |gave_up: &str| {
        format!(
            "# timestep-lab session recording\n# measured: x11-present\n# settings: {{}}\n\
             frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n\
             0,0,16.666667,0,0,,,\n\
             1,16.666667,16.666667,0,0,,,\n\
             2,33.333334,16.666667,0,0,,,{gave_up}\n\
             3,50,16.666667,0,0,,,\n"
        )
    };
    for (gave_up, said) in [
        (
            "measured - silent",
            "its frames settled by the model: X11 Present recorded no answer (the window \
             gave up at frame 2: X11 Present never answered)",
        ),
        (
            "",
            "its frames settled by the model: X11 Present recorded no answer;",
        ),
    ] {
        std::fs::write(&path, rows(gave_up)).unwrap();
        let output = lab(&["bench", "--trace", path.to_str().unwrap()]);
        assert!(output.status.success(), "{}", stderr(&output));
        let notes = stderr(&output);
        assert!(notes.contains(said), "{notes}");
        assert!(!notes.contains("by the answers"), "{notes}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where every frame was discarded, no frame reached the screen: the display latency and
/// animation error have no value (`-` in the table, `null` in JSON), where they read 0.
#[test]
fn no_frame_shown_means_no_display_latency() {
    let dir = std::env::temp_dir().join(format!("timestep-lab-discarded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("discarded.csv");
    let mut text = "# timestep-lab session recording\n# measured: x11-present\n# settings: {}\n\
                    frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n"
        .to_owned();
    for i in 0..8u32 {
        let answer = i
            .checked_sub(1)
            .map_or_else(String::new, |f| format!("discarded {f}"));
        text.push_str(&format!("{i},{}.5,16.666667,0,0,,,{answer}\n", i * 17));
    }
    std::fs::write(&path, text).unwrap();
    let file = path.to_str().unwrap();
    for args in [
        &["--trace", file, "--strategy", "interpolated"][..],
        &[
            "--trace",
            file,
            "--strategy",
            "interpolated",
            "--display",
            "trace",
        ],
    ] {
        let report = bench_json(args);
        let row = result(&report, "interpolated");
        for key in [
            "display_latency_ms",
            "display_latency_worst_ms",
            "display_judder_ms",
            "display_judder_worst_ms",
        ] {
            assert!(row[key].is_null(), "{args:?} {key}: {}", row[key]);
        }
        let mut table = vec!["bench"];
        table.extend_from_slice(args);
        let output = lab(&table);
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        let row = text
            .lines()
            .find(|line| line.starts_with("interpolated"))
            .unwrap_or_else(|| panic!("{text}"));
        let cells: Vec<&str> = row.split_whitespace().collect();
        // strategy, steps/frame, max, p99, latency, worst, judder, worst, then the screen's.
        assert_eq!(&cells[8..10], ["-", "-"], "{row}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

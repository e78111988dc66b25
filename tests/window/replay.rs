//! A session recorded in the window, replayed in the window and in `bench` to the same
//! state.

use std::process::Command;

use super::{assert_success, lab, shared, summary_value, virtual_display};

#[test]
fn a_recorded_session_replays_in_the_window_and_in_bench_to_the_same_state() {
    let Some(display) = virtual_display() else {
        return;
    };
    let file =
        std::env::temp_dir().join(format!("timestep-lab-{}-session.csv", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let path = file.to_str().expect("a UTF-8 temp path");
    // Two panes and a per-step load, so the frames carry load and the panes differ.
    let small = ["--width", "240", "--height", "180", "--no-panel"];
    let mut args = small.to_vec();
    args.extend([
        "--frames",
        "40",
        "--compare",
        "accumulator,interpolated",
        "--step-cost",
        "2",
        "--record",
        path,
    ]);
    let recorded = lab(&display, &args);
    assert_success(&recorded);
    let frames: u64 = summary_value(&recorded, "recorded")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a frame count");
    assert!(frames >= 39, "{frames}");
    let hashes = summary_value(&recorded, "state hashes");
    // Recording again to the same file is refused before the window opens: nothing is
    // overwritten.
    let again = lab(&display, &["--record", path, "--frames", "1"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("exists and is not overwritten"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    // The window replays it, paced (here 8x) until its last frame, to the same state.
    let mut args = small.to_vec();
    args.extend([
        "--replay",
        path,
        "--replay-speed",
        "8",
        "--quit-after-replay",
        "--frames",
        "100000",
    ]);
    let replayed = lab(&display, &args);
    assert_success(&replayed);
    assert_eq!(
        summary_value(&replayed, "replayed"),
        format!("{frames} of {frames} frames")
    );
    assert_eq!(summary_value(&replayed, "state hashes"), hashes);
    // Saved again as UTF-16 with a byte-order mark (as an editor on Windows may), it is still
    // a recording: it used to replay as a plain trace, its settings and requests dropped.
    let text = std::fs::read_to_string(&file).expect("the recording reads back");
    let utf16 = file.with_extension("utf16.csv");
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    std::fs::write(&utf16, bytes).expect("the temporary folder is writable");
    let at = args
        .iter()
        .position(|arg| *arg == path)
        .expect("the replay path");
    args[at] = utf16.to_str().expect("a UTF-8 temp path");
    let again = lab(&display, &args);
    assert_success(&again);
    assert_eq!(summary_value(&again, "state hashes"), hashes);
    let _ = std::fs::remove_file(&utf16);
    // bench replays it per strategy: the accumulator's row ends in the first pane's state.
    let shared = shared();
    let bench = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args([
            "bench",
            "--trace",
            path,
            "--strategy",
            "accumulator",
            "--json",
        ])
        .output()
        .expect("bench runs");
    drop(shared);
    assert!(bench.status.success(), "{bench:?}");
    let json: serde_json::Value = serde_json::from_slice(&bench.stdout).expect("JSON");
    let hash = json["results"][0]["state_hash"]
        .as_str()
        .expect("a state hash");
    assert_eq!(hashes.split(',').next(), Some(hash));
    let _ = std::fs::remove_file(&file);
}

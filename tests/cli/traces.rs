//! Trace files read by `bench`: the shipped ones, PresentMon's processes and swap chains,
//! and files and pipes that cannot be run.

use std::path::PathBuf;
#[cfg(unix)]
use std::process::Command;

use serde_json::Value;

#[cfg(unix)]
use super::config_dir;
use super::{asset, bench_json, fails_with, lab, stderr, stdout};

#[test]
fn shipped_traces_all_run() {
    for name in [
        "vsync60-presentmon.csv",
        "jitter144-mangohud.csv",
        "hitches30.txt",
    ] {
        let report = bench_json(&["--trace", &asset(name)]);
        assert!(report["trace"]["frames"].as_u64().unwrap() > 200, "{name}");
        assert_eq!(report["results"].as_array().unwrap().len(), 10);
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
fn a_malformed_trace_names_the_file_line_and_value() {
    let dir = std::env::temp_dir().join(format!("timestep-lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    std::fs::write(&path, "# frame times\n16.7\n16.6\nfast\n").unwrap();
    let shown = path.to_string_lossy().into_owned();
    fails_with(&["bench", "--trace", &shown], &[&shown, "4", "fast"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A NUL byte inside a trace is refused with its line and column: it used to be deleted
/// (`1<NUL>6` read as 16 ms, `99<NUL>999` as 99999 ms), or the whole file called binary for a
/// NUL in its first bytes.
#[test]
fn a_nul_byte_in_a_trace_is_refused_with_its_line() {
    let mut late = "16.7\n".repeat(13).into_bytes();
    late.extend(b"1\x006\n16.7\n");
    let cases: [(&str, Vec<u8>, &str); 3] = [
        ("late.txt", late, ":14: a NUL byte (0x00) at column 2"),
        (
            "early.txt",
            b"16.7\n16\x00.6\n".to_vec(),
            ":2: a NUL byte (0x00) at column 3",
        ),
        (
            "alone.txt",
            b"16.7\n\x00\n16.7\n".to_vec(),
            ":2: a NUL byte (0x00) at column 1",
        ),
    ];
    for (name, bytes, message) in cases {
        let trace = TempTrace::new(name, &bytes);
        fails_with(
            &["bench", "--trace", &trace.arg()],
            &[&format!("{}{message}", trace.arg())],
        );
    }
}

/// The window's `--replay` takes `--process` and `--swap-chain`, as the note about a
/// PresentMon capture with several applications advises (it had neither).
#[test]
fn replay_chooses_a_presentmon_application_as_bench_does() {
    let trace = TempTrace::new(
        "pm-replay.csv",
        b"Application,ProcessID,CPUStartTime,FrameTime,CPUBusy\n\
          Game.exe,1,0,16.7,5\n\
          dwm.exe,2,0,1000,1\n",
    );
    fails_with(
        &["--replay", &trace.arg(), "--process", "nosuch.exe"],
        &[
            "--replay",
            "no PresentMon rows for application \"nosuch.exe\"",
        ],
    );
    fails_with(
        &["--replay", &trace.arg(), "--swap-chain", "0x1"],
        &["--replay", "0x1"],
    );
    fails_with(&["--process", "game"], &["--replay"]);
    // A recording has no applications to choose from: refused, not ignored.
    fails_with(
        &["--replay", &asset("lab-session.csv"), "--swap-chain", "0x1"],
        &[
            "--swap-chain applies to PresentMon captures only",
            "lab-session.csv is a recorded session",
        ],
    );
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

// Unix only: /dev/zero, a file that never ends.
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

/// What became of a run on a named pipe whose writer came only once the run said it was
/// waiting: its exit status, stderr and stdout. `None` where `mkfifo` is missing.
#[cfg(unix)]
fn run_on_a_late_pipe(
    name: &str,
    args: &[&str],
    written: &str,
) -> Option<(std::process::ExitStatus, String, String, PathBuf)> {
    use std::io::{BufRead as _, Read as _, Write as _};
    use std::process::Stdio;
    use std::time::Duration;

    let dir = std::env::temp_dir().join(format!("timestep-lab-fifo-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
    let fifo = dir.join("trace.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("skipped: mkfifo is not available");
        return None;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .env("TIMESTEP_LAB_CONFIG_DIR", config_dir())
        .args(args)
        .arg(&fifo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Its stderr, line by line, as it comes.
    let (lines, received) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().expect("stderr is piped");
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
    let mut writer = std::fs::OpenOptions::new()
        .write(true)
        .open(&fifo)
        .expect("the pipe opens for writing");
    writer
        .write_all(written.as_bytes())
        .expect("the run reads what is written");
    drop(writer);
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout is piped")
        .read_to_string(&mut stdout)
        .expect("stdout reads");
    let status = child.wait().expect("the run ends");
    reader.join().expect("the stderr reader ends");
    message.extend(received.try_iter());
    std::fs::remove_dir_all(&dir).expect("the temporary folder is removed");
    Some((status, message.join("\n"), stdout, fifo))
}

/// A named pipe whose writer comes late: the bench says it is waiting, then reads the trace.
#[cfg(unix)]
#[test]
fn a_pipe_without_a_writer_says_it_is_waiting() {
    let Some((status, message, stdout, fifo)) = run_on_a_late_pipe(
        "bench",
        &["bench", "--json", "--trace"],
        &"16.7\n".repeat(100),
    ) else {
        return;
    };
    assert!(status.success(), "{message}");
    assert_eq!(
        message.lines().next(),
        Some(format!("note: waiting for data on {} …", fifo.display()).as_str()),
        "{message}"
    );
    assert!(stdout.contains("\"frames\":100"), "{stdout}");
}

/// The window's `--replay` of a pipe says it waits as the bench does (it read on in silence
/// for ever), and reads what then comes before any window opens: here a bad value, so the
/// run ends with the trace's error and needs no display.
#[cfg(unix)]
#[test]
fn replay_of_a_pipe_without_a_writer_says_it_is_waiting() {
    let Some((status, message, _, fifo)) =
        run_on_a_late_pipe("replay", &["--replay"], "16.7\nfast\n")
    else {
        return;
    };
    assert_eq!(status.code(), Some(2), "{message}");
    let shown = fifo.display();
    assert_eq!(
        message.lines().next(),
        Some(format!("note: waiting for data on {shown} …").as_str()),
        "{message}"
    );
    assert!(
        message.contains(&format!("{shown}:2: frame time \"fast\" is not a number")),
        "{message}"
    );
}

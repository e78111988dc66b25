//! Where the output goes: standard output that cannot be written or is closed, image and
//! report paths checked before the work, the per-frame CSV and the plot, and the progress
//! bar, which only a terminal sees.

use std::path::PathBuf;
use std::process::{Command, Stdio};

#[cfg(target_os = "linux")]
use super::terminal::{OnTerminal, run_on_terminal};
use super::{asset, fails_with, lab, stderr, stdout};

/// Runs the binary with its standard output on a full disk (`/dev/full`).
#[cfg(target_os = "linux")]
fn lab_to_full_disk(args: &[&str]) -> std::process::Output {
    let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
    Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(args)
        .stdout(Stdio::from(full))
        .output()
        .expect("the binary runs")
}

// Linux only: /dev/full.
#[cfg(target_os = "linux")]
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
    assert_eq!(rows.len(), 600 * 10, "600 frames, ten strategies");
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

// Linux only: /dev/full, a file every write to fails with "no space left".
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
fn a_missing_font_names_the_file_and_the_variable() {
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
        message.contains("missing.ttf") && message.contains("TIMESTEP_LAB_FONT"),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
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
// Linux only: util-linux's `script`.
#[cfg(target_os = "linux")]
#[test]
fn progress_shows_on_a_terminal_and_stays_off_stdout() {
    let dir = scratch("progress");
    let report = dir.join("report.json");
    let Some(OnTerminal { success, screen }) = run_on_terminal(&PROGRESS_RUN, &report) else {
        return;
    };
    assert!(success, "{screen}");
    // 86,400 frames a strategy, ten strategies side by side: the bar counts all of them.
    assert!(screen.contains("/864,000 frames, ETA"), "{screen}");
    assert!(screen.contains("strategies"), "{screen}");
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

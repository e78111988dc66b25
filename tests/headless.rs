//! `timestep-lab render` and `bench-render`, and the window's argument checks, through the
//! real binary.

mod common;
// Linux only: util-linux's `script` makes the terminal.
#[cfg(target_os = "linux")]
#[path = "support/terminal.rs"]
mod terminal;

use std::process::{Command, Output};

/// The settings folder every run of the window's command here is given (the lab's own
/// variable), so no test reads or writes a real user's settings.
fn config_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("timestep-lab-headless-{}", std::process::id()))
}

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(args)
        // The window's checks read the remembered settings: never a real user's.
        .env("TIMESTEP_LAB_CONFIG_DIR", config_dir())
        // No display: a bad value must be reported before any window is tried.
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn render_writes_the_requested_frame() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let path = std::env::temp_dir().join(format!("timestep-lab-{}-render.png", std::process::id()));
    let output = lab(&[
        "render",
        "--out",
        path.to_str().expect("utf-8 path"),
        "--width",
        "400",
        "--height",
        "300",
        "--strategy",
        "accumulator",
        "--time",
        "1.5",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let image = image::open(&path).expect("a PNG").to_rgba8();
    let _ = std::fs::remove_file(&path);
    assert_eq!(image.dimensions(), (400, 300));
    let sphere = image
        .pixels()
        .filter(|p| p.0[0] > 150 && p.0[0] > p.0[1] && p.0[1] > p.0[2] && p.0[0] - p.0[2] > 90)
        .count();
    assert!(sphere > 500, "{sphere} sphere pixels");
}

#[test]
fn render_prints_a_file_name_with_an_escape_sequence_escaped() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    // The name typed on the command line holds ESC [31m: the report line shows it escaped.
    let name = format!("timestep-lab-{}-\u{1b}[31m.png", std::process::id());
    let path = std::env::temp_dir().join(&name);
    let output = lab(&[
        "render",
        "--out",
        path.to_str().expect("utf-8 path"),
        "--width",
        "64",
        "--height",
        "64",
    ]);
    let written = path.exists();
    let _ = std::fs::remove_file(&path);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(written, "the file is written under the name given");
    let report = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(!report.contains('\u{1b}'), "raw ESC in {report:?}");
    assert!(report.contains("\\u{1b}[31m.png: 64x64"), "{report}");
}

#[test]
fn render_compare_draws_the_grid_of_panes() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let path = std::env::temp_dir().join(format!(
        "timestep-lab-{}-render-grid.png",
        std::process::id()
    ));
    let output = lab(&[
        "render",
        "--out",
        path.to_str().expect("utf-8 path"),
        "--width",
        "640",
        "--height",
        "240",
        "--compare",
        "fixed,interpolated",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("640x240 fixed,interpolated"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let image = image::open(&path).expect("a PNG").to_rgba8();
    let _ = std::fs::remove_file(&path);
    // Two panes side by side: a sphere in each half.
    for half in 0..2 {
        let sphere = image
            .enumerate_pixels()
            .filter(|(x, _, p)| {
                *x / 320 == half
                    && p.0[0] > 150
                    && p.0[0] > p.0[1]
                    && p.0[1] > p.0[2]
                    && p.0[0] - p.0[2] > 90
            })
            .count();
        assert!(sphere > 300, "half {half}: {sphere} sphere pixels");
    }
}

/// `bench-render` of `frames` frames on a small 320×200 target, with `more` options.
fn small_bench_render(frames: &str, more: &[&str]) -> std::process::Output {
    let mut args = vec![
        "bench-render",
        "--frames",
        frames,
        "--width",
        "320",
        "--height",
        "200",
    ];
    args.extend_from_slice(more);
    lab(&args)
}

#[test]
fn bench_render_reports_every_stage_as_json() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let output = small_bench_render("5", &["--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.lines().count(), 1, "one JSON object: {text}");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(json["frames"], 5);
    assert_eq!(json["width"], 320);
    assert_eq!(json["height"], 200);
    assert_eq!(json["panes"], 1);
    assert!(json["adapter"].as_str().is_some_and(|a| !a.is_empty()));
    for key in [
        "main_thread_ms_median",
        "engine_us_median",
        "ui_ms_median",
        "encode_submit_ms_median",
        "wait_ms_median",
        "clear_only_ms_median",
    ] {
        let value = json[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} missing: {text}"));
        assert!(value > 0.0 && value.is_finite(), "{key} = {value}");
    }
    let main = json["main_thread_ms_median"].as_f64().unwrap_or_default();
    let parts = json["engine_us_median"].as_f64().unwrap_or_default() / 1000.0
        + json["ui_ms_median"].as_f64().unwrap_or_default()
        + json["encode_submit_ms_median"].as_f64().unwrap_or_default();
    // Medians of a sum are not sums of medians, but they cannot be far apart.
    assert!(
        main <= parts * 2.0 && main >= parts * 0.5,
        "{main} vs {parts}"
    );
}

/// `--without` names what the frame left out, in the report and its JSON; the floor is in
/// the same run, and the frame is read in floors.
#[test]
fn bench_render_leaves_out_the_parts_it_is_asked_to_and_reads_the_frame_in_floors() {
    let bad = lab(&["bench-render", "--without", "grid,gost\u{1b}[31m"]);
    assert_eq!(bad.status.code(), Some(2));
    let message = stderr(&bad);
    assert!(
        message.contains("--without")
            && message.contains("unknown part of the frame")
            && message.contains("grid, sphere, ghost, trail, props, coil, panel, timeline, ui"),
        "{message}"
    );
    assert!(!message.contains('\u{1b}'), "{message:?}");
    // A doubled comma names the empty part it left.
    let empty = lab(&["bench-render", "--without", "grid,,ui"]);
    assert_eq!(empty.status.code(), Some(2));
    assert!(
        stderr(&empty).contains("unknown part of the frame \"\""),
        "{}",
        stderr(&empty)
    );
    if common::gpu_or_skip().is_none() {
        return;
    }
    let output = small_bench_render(
        "3",
        &["--without", "ui,grid", "--without", "trail", "--json"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    assert_eq!(json["without"], serde_json::json!(["grid", "trail", "ui"]));
    let frame = json["frame_ms_median"].as_f64().unwrap_or_default();
    let floor = json["clear_only_ms_median"].as_f64().unwrap_or_default();
    let over = json["frame_over_floor"].as_f64().unwrap_or_default();
    assert!(
        floor > 0.0 && (over - frame / floor).abs() < 1e-9 * over.max(1.0),
        "{over} vs {frame} / {floor}"
    );
    let table = small_bench_render("2", &["--without", "panel,timeline"]);
    assert!(table.status.success(), "{}", stderr(&table));
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("without: panel, timeline"), "{text}");
    assert!(text.contains("x the clear-only frame"), "{text}");
}

/// bench-render measures as many panes as the window shows (it once stopped at 6 of 9).
#[test]
fn bench_render_takes_every_pane_count_the_window_shows() {
    let too_many = lab(&["bench-render", "--panes", "11"]);
    assert_eq!(too_many.status.code(), Some(2));
    assert!(
        stderr(&too_many).contains("--panes"),
        "{}",
        stderr(&too_many)
    );
    if common::gpu_or_skip().is_none() {
        return;
    }
    let ten = small_bench_render("2", &["--panes", "10", "--json"]);
    assert!(ten.status.success(), "{}", stderr(&ten));
    let json: serde_json::Value = serde_json::from_slice(&ten.stdout).expect("valid JSON");
    assert_eq!(json["panes"], 10);
}

#[test]
fn bad_window_values_are_named_and_nothing_opens() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["--hz", "5000"],
            "physics rate 5000 Hz is out of range (allowed 1 to 1000 Hz)",
        ),
        (
            &["--time-scale", "3"],
            "time scale 3 is out of range (allowed 0.05 to 2)",
        ),
        (
            &["--step-cost", "-1"],
            "step cost -1 ms is out of range (allowed 0 to 1000 ms)",
        ),
        (
            &["--frame-cap", "2"],
            "frame cap 2 fps is out of range (allowed 0 (off) or 5 to 1000 fps)",
        ),
        (
            &["--screenshot", "shot.jpg"],
            "shot.jpg: the image file must end in .png",
        ),
        (
            &["--screenshot", "/no/such/dir/shot.png"],
            "the directory /no/such/dir does not exist",
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
    let output = lab(&["--strategy", "smooth"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unknown strategy \"smooth\""),
        "{}",
        stderr(&output)
    );
    let output = lab(&["--present-mode", "vsync"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unknown present mode \"vsync\""),
        "{}",
        stderr(&output)
    );
}

/// A command that opens no window never touches Wayland: where no Wayland session exists
/// (no `XDG_RUNTIME_DIR`), `render` and `bench-render` printed libwayland's "error:
/// XDG_RUNTIME_DIR is invalid or not set" twice, from Mesa's Vulkan device-selection layer.
#[cfg(target_os = "linux")]
#[test]
fn headless_commands_say_nothing_about_wayland() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let path = std::env::temp_dir().join(format!("timestep-lab-{}-quiet.png", std::process::id()));
    let out = path.to_str().expect("utf-8 path");
    for args in [
        &["render", "--out", out, "--width", "64", "--height", "64"][..],
        &[
            "bench-render",
            "--frames",
            "2",
            "--width",
            "64",
            "--height",
            "64",
        ],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
            .args(args)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("XDG_RUNTIME_DIR")
            .env_remove("NODEVICE_SELECT")
            .env_remove("DRI_PRIME")
            .env_remove("MESA_VK_DEVICE_SELECT")
            .output()
            .expect("the binary runs");
        let message = stderr(&output);
        assert!(output.status.success(), "{args:?}: {message}");
        assert!(!message.contains("XDG_RUNTIME_DIR"), "{args:?}: {message}");
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn without_a_display_the_window_fails_with_a_clear_message() {
    let output = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(["--frames", "1"])
        .env("TIMESTEP_LAB_CONFIG_DIR", config_dir())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let message = stderr(&output);
    for needle in [
        "cannot open a window: no display was found",
        "Xvfb :99",
        "DISPLAY=:99",
    ] {
        assert!(message.contains(needle), "{needle:?} missing: {message}");
    }
    // Not winit's source location, a path into the dependency registry.
    for needle in ["os error at", ".cargo", "registry", ".rs:", "panicked"] {
        assert!(!message.contains(needle), "{needle:?} in: {message}");
    }
}

#[test]
fn render_rejects_bad_values() {
    let output = lab(&["render", "--out", "x.png", "--time", "-2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--time -2 s is out of range (allowed 0 to 3600 s)"));
    let output = lab(&["render", "--out", "x.png", "--hz", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("physics rate 0 Hz is out of range"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_adapter_that_is_not_there_is_a_clear_error() {
    let output = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(["render", "--out", "never-written.png"])
        .env("WGPU_ADAPTER_NAME", "no-such-gpu-anywhere")
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains("no GPU adapter matches WGPU_ADAPTER_NAME=\"no-such-gpu-anywhere\""),
        "{message}"
    );
    assert!(!message.contains("panicked"), "{message}");
    assert!(!std::path::Path::new("never-written.png").exists());
}

/// A temporary directory for one test, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("timestep-lab-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&path).expect("a temporary directory");
        Self(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// Linux only: /dev/full.
#[cfg(target_os = "linux")]
#[test]
fn a_png_that_cannot_be_written_fails_render_naming_the_file() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    // A file on a full disk: every write to it fails with ENOSPC.
    let dir = TempDir::new("render-full");
    let path = dir.0.join("full.png");
    std::os::unix::fs::symlink("/dev/full", &path).expect("a symlink");
    let shown = path.to_str().expect("utf-8 path");
    let output = lab(&["render", "--out", shown, "--width", "64", "--height", "64"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains(&format!(
            "error: cannot write {shown}: No space left on device (os error 28)"
        )),
        "{message}"
    );
    assert!(output.stdout.is_empty(), "nothing reported as written");
}

// Linux only: /dev/full.
#[cfg(target_os = "linux")]
#[test]
fn render_fails_when_its_report_cannot_be_printed() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let dir = TempDir::new("render-stdout-full");
    let path = dir.0.join("frame.png");
    let output = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(["render", "--width", "64", "--height", "64", "--out"])
        .arg(&path)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdout(std::process::Stdio::from(
            std::fs::File::create("/dev/full").expect("/dev/full"),
        ))
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("error: cannot write to standard output: No space left"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bench_render_fails_on_a_gpu_error_instead_of_reporting_numbers() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    // 8 GiB of address space cannot hold a 16384x16384 frame with 4x MSAA (4 GiB of
    // colour samples and as many of depth): lavapipe runs out of memory. An adapter without
    // 4x MSAA may draw it: then it must have drawn it without an error.
    let spawned = Command::new("prlimit")
        .arg("--as=8589934592")
        .arg(env!("CARGO_BIN_EXE_timestep-lab"))
        .args([
            "bench-render",
            "--frames",
            "1",
            "--width",
            "16384",
            "--height",
            "16384",
        ])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output();
    let output = match spawned {
        Ok(output) => output,
        Err(error) => {
            eprintln!("skipping: prlimit (util-linux) cannot run: {error}");
            return;
        }
    };
    let message = stderr(&output);
    if output.status.success() {
        // A GPU with memory to spare drew the frames: no error may have been skipped.
        assert!(!message.contains("wgpu error"), "{message}");
        return;
    }
    assert_eq!(output.status.code(), Some(1), "{message}");
    // The sample count is the adapter's to offer (4x where it can, fewer where not): the
    // message names the one chosen.
    let failed = message
        .split_once("error: creating the 16384x16384 render targets (")
        .and_then(|(_, rest)| rest.split_once("x MSAA) failed on the GPU: out of GPU memory"));
    assert!(
        failed.is_some_and(|(samples, _)| matches!(samples, "1" | "2" | "4" | "8")),
        "{message}"
    );
    assert!(
        !message.contains("wgpu error"),
        "reported once, as the error: {message}"
    );
    assert!(
        output.stdout.is_empty(),
        "no table: {}",
        String::from_utf8_lossy(&output.stdout)
    );
}

/// A `render` to `path` long enough for many progress updates (36,000 frames at 60 Hz).
/// The tests allow the bar at once (`TIMESTEP_LAB_PROGRESS_AFTER_MS=0`) instead of after a
/// second.
fn render_progress_run(path: &std::path::Path) -> Vec<String> {
    let args = [
        "render", "--time", "600", "--width", "64", "--height", "64", "--out",
    ];
    let mut args: Vec<String> = args.map(str::to_owned).to_vec();
    args.push(path.to_string_lossy().into_owned());
    args
}

#[test]
fn render_progress_never_reaches_a_pipe() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let dir = TempDir::new("render-progress-pipe");
    let output = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(render_progress_run(&dir.0.join("frame.png")))
        .env("TIMESTEP_LAB_PROGRESS_AFTER_MS", "0")
        .env("TERM", "xterm")
        .output()
        .expect("the binary runs");
    let message = stderr(&output);
    assert!(output.status.success(), "{message}");
    assert!(
        !message.contains("frames") && !message.contains("simulating"),
        "stderr is a pipe: no progress in {message:?}"
    );
}

/// On a terminal (a pseudo-terminal from util-linux's `script`) the bar is drawn on stderr
/// while the loop runs, then cleared; stdout, sent to a file, gets the report line alone.
// Linux only: util-linux's `script`.
#[cfg(target_os = "linux")]
#[test]
fn render_progress_shows_on_a_terminal_and_stays_off_stdout() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let dir = TempDir::new("render-progress-terminal");
    let report = dir.0.join("report.txt");
    let run = render_progress_run(&dir.0.join("frame.png"));
    let Some(terminal::OnTerminal { success, screen }) = terminal::run_on_terminal(&run, &report)
    else {
        return;
    };
    assert!(success, "{screen}");
    // 600 s at 60 Hz: the bar counts the loop's 36,000 frames, and is cleared after them.
    let bar = screen.find("simulating").expect("the bar was drawn");
    assert!(screen[bar..].contains("/36,000 frames, ETA"), "{screen}");
    assert!(screen[bar..].contains("\r\x1b[2K"), "cleared: {screen:?}");
    let written = std::fs::read_to_string(&report).expect("the report was written");
    assert_eq!(
        written.lines().count(),
        1,
        "the report line only: {written:?}"
    );
    assert!(
        written.contains("frame.png: 64x64 interpolated at 600.000 s on "),
        "{written:?}"
    );
}

/// A backend this machine lacks is refused before anything is drawn, naming every adapter
/// it has (Metal exists only on Apple's systems).
#[cfg(not(target_os = "macos"))]
#[test]
fn a_backend_the_machine_lacks_is_refused_naming_what_it_has() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let dir = TempDir::new("render-metal");
    let path = dir.0.join("frame.png");
    let output = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args([
            "render",
            "--backend",
            "metal",
            "--width",
            "64",
            "--height",
            "64",
            "--out",
        ])
        .arg(&path)
        .output()
        .expect("the binary runs");
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{errors}");
    assert!(
        errors.contains("--backend metal: this machine has no Metal adapter; it has "),
        "{errors}"
    );
    // What it has: every adapter, each with its backend.
    assert!(
        errors.contains("(Vulkan, ") || errors.contains("(Gl, "),
        "{errors}"
    );
    assert!(!path.exists(), "nothing was drawn");
    let output = lab(&["render", "--backend", "glide", "--out", "x.png"]);
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{errors}");
    assert!(
        errors.contains("unknown graphics backend \"glide\" (allowed: vulkan, dx12, metal, gl)"),
        "{errors}"
    );
}

/// On GL, a downlevel backend with no view formats, `render` draws the scene (it once wrote
/// a blank image after seven validation errors) and `bench-render` measures, saying that
/// the panel went through the sRGB target.
#[test]
fn render_and_bench_render_draw_on_gl() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let dir = TempDir::new("render-gl");
    let path = dir.0.join("gl.png");
    let shown = path.to_str().expect("utf-8 path");
    let output = lab(&[
        "render",
        "--backend",
        "gl",
        "--width",
        "320",
        "--height",
        "200",
        "--out",
        shown,
    ]);
    if stderr(&output).contains("no OpenGL adapter")
        && std::env::var("TIMESTEP_LAB_REQUIRE_GPU").as_deref() != Ok("1")
    {
        eprintln!("skipping: no OpenGL adapter here ({})", stderr(&output));
        return;
    }
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("(Gl, "),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let image = image::open(&path).expect("a PNG").to_rgba8();
    let orange = image
        .pixels()
        .filter(|p| {
            let [r, g, b, _] = p.0;
            r > g && g > b && r > 150
        })
        .count();
    assert!(orange > 100, "{orange} sphere pixels drawn on GL");
    let output = small_bench_render("3", &["--backend", "gl", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("valid JSON");
    assert_eq!(
        json["panel_through_srgb"],
        serde_json::json!(true),
        "{json}"
    );
    assert!(
        json["adapter"]
            .as_str()
            .is_some_and(|a| a.contains("(Gl, ")),
        "{json}"
    );
    assert!(stderr(&output).is_empty() || !stderr(&output).contains("wgpu error"));
}

//! A Wayland window under a private headless Weston compositor.

use std::io::BufReader;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use super::{assert_success, common, is_sphere_colour, run, shared, summary_value, temp_png};

/// A private headless Weston compositor, stopped (and its runtime directory removed) when
/// dropped.
struct WaylandCompositor {
    /// The compositor.
    server: Child,
    /// Its `XDG_RUNTIME_DIR`, where its socket lives.
    runtime_dir: PathBuf,
    /// The socket's name, for `WAYLAND_DISPLAY`.
    socket: String,
}

impl Drop for WaylandCompositor {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
        let _ = std::fs::remove_dir_all(&self.runtime_dir);
    }
}

/// Longest Weston may take to open its socket.
const COMPOSITOR_START: std::time::Duration = std::time::Duration::from_secs(20);

/// Starts Weston with its headless backend, or returns `None` (with a note) when it is not
/// installed and `TIMESTEP_LAB_REQUIRE_GPU` is not `1`.
fn wayland_compositor() -> Option<WaylandCompositor> {
    use std::os::unix::fs::PermissionsExt as _;
    common::gpu_or_skip()?;
    let required = std::env::var("TIMESTEP_LAB_REQUIRE_GPU").as_deref() == Ok("1");
    // One directory per compositor: the tests run in parallel, and one test removing a
    // directory another's Weston is starting in made that Weston exit.
    static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let nth = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let runtime_dir =
        std::env::temp_dir().join(format!("timestep-lab-{}-wayland-{nth}", std::process::id()));
    let _ = std::fs::remove_dir_all(&runtime_dir);
    std::fs::create_dir_all(&runtime_dir).expect("a runtime directory");
    // libwayland wants the runtime directory private.
    std::fs::set_permissions(&runtime_dir, std::fs::Permissions::from_mode(0o700))
        .expect("a private runtime directory");
    let socket = "timestep-lab-wayland".to_owned();
    let spawned = Command::new("weston")
        .args([
            "--backend=headless-backend.so",
            "--no-config",
            &format!("--socket={socket}"),
            // Weston's default idle timeout (300 s) puts the output to sleep, after which
            // no frame callback comes and the window waits for ever for its next frame.
            "--idle-time=0",
        ])
        .env("XDG_RUNTIME_DIR", &runtime_dir)
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("DISPLAY")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut server = match spawned {
        Ok(server) => server,
        Err(error) => {
            let _ = std::fs::remove_dir_all(&runtime_dir);
            if required {
                panic!("TIMESTEP_LAB_REQUIRE_GPU=1 but weston cannot start: {error}");
            }
            eprintln!("skipping: Weston is not available ({error}); apt-get install weston");
            return None;
        }
    };
    let stderr = server.stderr.take().expect("piped stderr");
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(stderr), &mut text);
        text
    });
    let start = std::time::Instant::now();
    while !runtime_dir.join(&socket).exists() {
        if let Some(status) = server.try_wait().expect("waiting for weston") {
            let _ = std::fs::remove_dir_all(&runtime_dir);
            let log = log.join().unwrap_or_default();
            panic!("weston exited ({status}) before opening its socket:\n{log}");
        }
        assert!(
            start.elapsed() < COMPOSITOR_START,
            "weston opened no socket within {COMPOSITOR_START:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Some(WaylandCompositor {
        server,
        runtime_dir,
        socket,
    })
}

#[test]
fn a_wayland_window_draws_and_exits_cleanly() {
    let Some(compositor) = wayland_compositor() else {
        return;
    };
    let path = temp_png("wayland");
    let mut command = Command::new(env!("CARGO_BIN_EXE_timestep-lab"));
    command
        .env("WAYLAND_DISPLAY", &compositor.socket)
        .env("XDG_RUNTIME_DIR", &compositor.runtime_dir)
        .env_remove("DISPLAY");
    let output = run(
        command,
        &[
            "--frames",
            "30",
            "--width",
            "480",
            "--height",
            "320",
            "--no-panel",
            "--no-config",
            "--screenshot",
            path.to_str().expect("utf-8 path"),
        ],
    );
    // The window state (egui-winit's Wayland clipboard) once outlived the display
    // connection and crashed the process at exit, after the last frame.
    assert_success(&output);
    // Every frame was acquired from the Wayland surface and presented (under Weston's
    // frame pacing: fifo waits for the compositor).
    assert_eq!(summary_value(&output, "frames"), "30");
    assert_eq!(summary_value(&output, "configure errors"), "0");
    let image = image::open(&path)
        .expect("the screenshot is a PNG")
        .to_rgba8();
    let _ = std::fs::remove_file(&path);
    assert_eq!(image.dimensions(), (480, 320));
    let sphere = image.pixels().filter(|p| is_sphere_colour(p)).count();
    assert!(sphere > 200, "{sphere} sphere-coloured pixels");
}

/// 120 frames of a small window without the panel under FIFO on `compositor`, with `more`
/// arguments.
fn small_fifo_run(compositor: &WaylandCompositor, more: &[&str]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_timestep-lab"));
    command
        .env("WAYLAND_DISPLAY", &compositor.socket)
        .env("XDG_RUNTIME_DIR", &compositor.runtime_dir)
        .env_remove("DISPLAY");
    let mut args = vec![
        "--frames",
        "120",
        "--width",
        "320",
        "--height",
        "240",
        "--no-panel",
        "--no-config",
        "--present-mode",
        "fifo",
    ];
    args.extend_from_slice(more);
    run(command, &args)
}

#[test]
fn under_weston_the_screen_is_measured_by_presentation_time() {
    let Some(compositor) = wayland_compositor() else {
        return;
    };
    let output = small_fifo_run(&compositor, &[]);
    assert_success(&output);
    // `measured (Wayland presentation-time), K of N frames (...)`: nearly every present
    // answered (the last few may still be on their way at exit).
    let times = summary_value(&output, "display times");
    let counts = times
        .strip_prefix("measured (Wayland presentation-time), ")
        .unwrap_or_else(|| panic!("not measured: {times}"));
    let mut numbers = counts
        .split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty())
        .map(|n| n.parse::<u64>().expect("a count"));
    let (answered, presents) = (numbers.next().expect("K"), numbers.next().expect("N"));
    assert_eq!(presents, 120, "{times}");
    assert!(answered >= 110, "{times}");
    // Weston's headless output refreshes at 60 Hz: the refresh counter and the times it
    // reports say so.
    assert_eq!(summary_value(&output, "measured refresh"), "60.00 Hz");
    let error = summary_value(&output, "model error");
    assert!(error.starts_with("mean "), "{error}");
    // The model took the measured refresh; Weston stamps images by a timer, not on a grid
    // of refreshes, so no vblank phase.
    assert_eq!(
        summary_value(&output, "model refresh"),
        "60.000 Hz (the measured refresh; no vblank phase: the images land on no refresh grid)"
    );
    // What watching cost is counted every frame the source was read: one per frame drawn
    // (the first may come before the first present).
    let cost = summary_value(&output, "presentation feedback cost");
    let counted = cost
        .rsplit_once(" (")
        .and_then(|(_, frames)| frames.strip_suffix(" frames)"))
        .and_then(|frames| frames.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no frame count: {cost}"));
    assert!((119..=121).contains(&counted), "{cost}");
}

/// `shown FRAME at MS` events of a recording's text: frame and display time, ns.
fn recorded_display_times(text: &str) -> std::collections::BTreeMap<u64, u64> {
    let mut shown = std::collections::BTreeMap::new();
    for piece in text.split([';', ',', '\n']) {
        let Some(rest) = piece.trim().strip_prefix("shown ") else {
            continue;
        };
        let (frame, at) = rest.split_once(" at ").expect("shown FRAME at MS");
        let at: f64 = at.trim().parse().expect("a time in ms");
        shown.insert(frame.parse().expect("a frame"), (at * 1e6).round() as u64);
    }
    shown
}

#[test]
fn a_recording_under_weston_carries_its_display_times_and_bench_reads_them_frame_for_frame() {
    let Some(compositor) = wayland_compositor() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("timestep-lab-{}-wl-rec", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a directory");
    let recording = dir.join("session.csv");
    let csv = dir.join("frames.csv");
    let output = small_fifo_run(
        &compositor,
        &["--record", recording.to_str().expect("utf-8 path")],
    );
    assert_success(&output);
    let text = std::fs::read_to_string(&recording).expect("the recording");
    let shown = recorded_display_times(&text);
    assert!(shown.len() >= 100, "{} shown events", shown.len());
    // The images reached the screen in order. Weston's headless output has no vblank: it
    // finishes each repaint on a 16 ms timer and stamps the image with the clock when that
    // fires (libweston/backend-headless/headless.c), so images are at least 16 ms apart,
    // not on a grid of 60 Hz refreshes.
    let times: Vec<u64> = shown.values().copied().collect();
    assert!(
        times.windows(2).all(|pair| pair[1] >= pair[0] + 15_900_000),
        "{times:?}"
    );
    let shared = shared();
    let bench = Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(["bench", "--trace"])
        .arg(&recording)
        .args(["--display", "trace", "--strategy", "variable", "--csv"])
        .arg(&csv)
        .output()
        .expect("bench runs");
    drop(shared);
    assert!(
        bench.status.success(),
        "{}",
        String::from_utf8_lossy(&bench.stderr)
    );
    assert!(
        String::from_utf8_lossy(&bench.stderr).contains("display times measured as recorded"),
        "{}",
        String::from_utf8_lossy(&bench.stderr)
    );
    // Frame for frame: the frames bench shows are the recorded ones, and the time between
    // two shown frames at the screen is the time between their recorded display times.
    let mut reader = csv::Reader::from_path(&csv).expect("the per-frame CSV");
    let headers = reader.headers().expect("a header").clone();
    let column = |name: &str| headers.iter().position(|h| h == name).expect(name);
    let (frame, display) = (column("frame"), column("display_ns"));
    let mut bench_shown = std::collections::BTreeMap::new();
    for row in reader.records() {
        let row = row.expect("a row");
        if !row[display].is_empty() {
            bench_shown.insert(
                row[frame].parse::<u64>().expect("a frame"),
                row[display].parse::<u64>().expect("a time"),
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        bench_shown.keys().collect::<Vec<_>>(),
        shown.keys().collect::<Vec<_>>()
    );
    let (first, first_bench) = (times[0], *bench_shown.values().next().expect("one"));
    for ((&frame, &at), &d) in shown.iter().zip(bench_shown.values()) {
        let recorded = at - first;
        let benched = d - first_bench;
        assert!(
            recorded.abs_diff(benched) <= 1_000,
            "frame {frame}: {recorded} ns after the first recorded, {benched} ns in bench"
        );
    }
}

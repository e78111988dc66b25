//! The real binary in a real window: a virtual X server (Xvfb), Mesa lavapipe, 120 frames,
//! its own screenshot checked; present modes switched live; the spiral and its guard; and
//! a Wayland window under a headless Weston compositor.

#[path = "../common/mod.rs"]
mod common;

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// A private Xvfb server, stopped when dropped.
struct VirtualDisplay {
    /// The server.
    server: Child,
    /// `:N`.
    name: String,
}

impl Drop for VirtualDisplay {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// Starts Xvfb on a free display, or returns `None` (with a note) when it is not installed
/// and `TIMESTEP_LAB_REQUIRE_GPU` is not `1`.
fn virtual_display() -> Option<VirtualDisplay> {
    common::gpu_or_skip()?;
    // -displayfd makes the server pick a free display and print its number.
    let spawned = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1600x1000x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut server = match spawned {
        Ok(server) => server,
        Err(error) => {
            if std::env::var("TIMESTEP_LAB_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("TIMESTEP_LAB_REQUIRE_GPU=1 but Xvfb cannot start: {error}");
            }
            eprintln!("skipping: Xvfb is not available ({error}); apt-get install xvfb");
            return None;
        }
    };
    let stdout = server.stdout.take().expect("piped stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("Xvfb prints its display number");
    let number: u32 = line.trim().parse().expect("a display number");
    Some(VirtualDisplay {
        server,
        name: format!(":{number}"),
    })
}

/// Longest a window run may take before the test calls it hung (the longest run here takes
/// a few seconds; a debug build on a loaded machine, several times that).
const RUN_DEADLINE: std::time::Duration = std::time::Duration::from_secs(180);

/// Runs the binary on `display` with `args` (see [`run`]).
fn lab(display: &VirtualDisplay, args: &[&str]) -> Output {
    lab_without(display, args, &[])
}

/// [`lab`] with the environment variables `removed` unset. Each run gets a config
/// directory of its own, so no run restores what another saved.
fn lab_without(display: &VirtualDisplay, args: &[&str], removed: &[&str]) -> Output {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let config_home = std::env::temp_dir().join(format!(
        "timestep-lab-window-config-{}-{run}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&config_home);
    lab_configured(display, args, removed, &config_home)
}

/// [`lab_without`] with its settings in `config_home` (as `XDG_CONFIG_HOME`).
fn lab_configured(
    display: &VirtualDisplay,
    args: &[&str],
    removed: &[&str],
    config_home: &std::path::Path,
) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_timestep-lab"));
    command.env("XDG_CONFIG_HOME", config_home);
    for name in removed {
        command.env_remove(name);
    }
    command
        .env("DISPLAY", &display.name)
        .env_remove("WAYLAND_DISPLAY");
    run(command, args)
}

/// Runs `command` (the binary, its display chosen) with `args`; kills it and fails if it
/// runs past [`RUN_DEADLINE`].
fn run(mut command: Command, args: &[&str]) -> Output {
    let mut child = command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Read the pipes on threads so a chatty child never blocks on a full pipe.
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut bytes);
        bytes
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the window") {
            break status;
        }
        if start.elapsed() > RUN_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} hung: still running after {RUN_DEADLINE:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_success(output: &Output) {
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(
        !errors.contains("wgpu error") && !errors.contains("panicked"),
        "GPU errors or a panic:\n{errors}"
    );
    assert!(
        output.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        stdout(output),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The value after `key: ` on a line of the exit summary.
fn summary_value(output: &Output, key: &str) -> String {
    stdout(output)
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{key}: ")).map(str::to_owned))
        .unwrap_or_else(|| panic!("no {key:?} in:\n{}", stdout(output)))
}

fn temp_png(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("timestep-lab-{}-{name}.png", std::process::id()))
}

/// Whether a pixel has one of the orbiting sphere's two colours: its orange, or its cream
/// stripes (not the trail's yellow, whose green is close to its red and whose blue is low).
/// Both count because the sphere spins: how much of each faces the camera depends on the
/// real time the window ran, but together they always cover the sphere.
fn is_sphere_colour(p: &image::Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0.map(u32::from);
    let orange = r > 150 && g * 5 < r * 4 && g > b && r - b > 90;
    let cream = r > 150 && g * 10 > r * 7 && b * 10 > g * 7 && r > b + 40;
    orange || cream
}

#[test]
fn a_real_window_runs_120_frames_and_screenshots_itself() {
    let Some(display) = virtual_display() else {
        return;
    };
    let path = temp_png("window");
    let output = lab(
        &display,
        &[
            "--frames",
            "120",
            "--width",
            "1024",
            "--height",
            "640",
            "--screenshot",
            path.to_str().expect("utf-8 path"),
        ],
    );
    assert_success(&output);
    assert_eq!(summary_value(&output, "frames"), "120");
    let image = image::open(&path)
        .expect("the screenshot is a PNG")
        .to_rgba8();
    let _ = std::fs::remove_file(&path);
    assert_eq!(image.dimensions(), (1024, 640), "the window's size");

    // Not blank: many distinct colours.
    let mut colours: Vec<[u8; 4]> = image.pixels().step_by(7).map(|p| p.0).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 200, "only {} colours", colours.len());

    // The panel: the left strip is egui's dark panel with light text on it.
    let panel_width = timestep_lab::ui::PANEL_WIDTH as u32;
    let panel_dark = (0..640)
        .step_by(4)
        .filter(|&y| {
            let [r, g, b, _] = image.get_pixel(panel_width / 2 + 60, y).0;
            r < 45 && g < 45 && b < 45
        })
        .count();
    assert!(
        panel_dark > 80,
        "panel background on {panel_dark} of 160 rows"
    );
    let panel_text = image
        .enumerate_pixels()
        .filter(|(x, _, p)| *x < panel_width && p.0[0] > 170 && p.0[1] > 170 && p.0[2] > 170)
        .count();
    assert!(
        panel_text > 500,
        "{panel_text} light text pixels in the panel"
    );

    // The sphere: a blob of its colour in the scene area, none of it in the panel.
    let sphere = image
        .enumerate_pixels()
        .filter(|(x, _, p)| *x > panel_width && is_sphere_colour(p))
        .count();
    assert!(
        sphere > 1500,
        "{sphere} sphere-coloured pixels in the scene"
    );
}

#[test]
fn every_present_mode_the_surface_offers_can_be_switched_to_live() {
    let Some(display) = virtual_display() else {
        return;
    };
    let output = lab(
        &display,
        &[
            "--frames",
            "48",
            "--width",
            "320",
            "--height",
            "240",
            "--no-panel",
            "--cycle-present-modes",
            "6",
        ],
    );
    assert_success(&output);
    let offered = summary_value(&output, "present modes offered");
    let configured = summary_value(&output, "present modes configured");
    assert_eq!(summary_value(&output, "configure errors"), "0");
    let offered: Vec<&str> = offered.split(',').collect();
    assert!(
        offered.contains(&"fifo"),
        "fifo is always offered: {offered:?}"
    );
    // Xvfb with lavapipe offers all four.
    for mode in ["immediate", "mailbox", "fifo", "fifo-relaxed"] {
        assert!(offered.contains(&mode), "{mode} not offered: {offered:?}");
    }
    let configured: Vec<&str> = configured.split(',').collect();
    for mode in &offered {
        assert!(
            configured.contains(mode),
            "{mode} was never configured: {configured:?}"
        );
    }
    assert!(
        configured.len() > offered.len(),
        "switched back and forth: {configured:?}"
    );
}

#[test]
fn each_explicit_present_mode_starts() {
    let Some(display) = virtual_display() else {
        return;
    };
    for mode in [
        "fifo",
        "fifo-relaxed",
        "mailbox",
        "immediate",
        "auto-no-vsync",
    ] {
        let output = lab(
            &display,
            &[
                "--frames",
                "5",
                "--width",
                "200",
                "--height",
                "150",
                "--present-mode",
                mode,
            ],
        );
        assert_success(&output);
        let expected = if mode == "auto-no-vsync" {
            "immediate"
        } else {
            mode
        };
        assert_eq!(summary_value(&output, "present modes configured"), expected);
    }
}

#[test]
fn the_window_reports_the_spiral_and_the_guard_prevents_it() {
    let Some(display) = virtual_display() else {
        return;
    };
    let small = [
        "--width",
        "240",
        "--height",
        "180",
        "--no-panel",
        "--frames",
        "24",
    ];
    let mut args = small.to_vec();
    args.extend(["--step-cost", "25", "--max-frame-time", "0"]);
    let spiralling = lab(&display, &args);
    assert_success(&spiralling);
    assert_eq!(summary_value(&spiralling, "spiral"), "yes");

    let mut args = small.to_vec();
    args.extend(["--step-cost", "25"]);
    let guarded = lab(&display, &args);
    assert_success(&guarded);
    assert_eq!(summary_value(&guarded, "spiral"), "no");
}

#[test]
fn maximum_load_with_no_guards_neither_hangs_nor_crashes() {
    let Some(display) = virtual_display() else {
        return;
    };
    // Unpaid, this load would owe thousands of seconds of busy work within a few frames;
    // the window waits at most 250 ms per frame and carries the rest as frame time.
    let start = std::time::Instant::now();
    let output = lab(
        &display,
        &[
            "--frames",
            "12",
            "--width",
            "240",
            "--height",
            "180",
            "--no-panel",
            "--max-frame-time",
            "0",
            "--step-cost",
            "1000",
            "--render-cost",
            "1000",
            "--jitter",
            "100",
            "--hitch",
            "1000",
            "--hitch-every",
            "0.1",
        ],
    );
    assert_success(&output);
    assert_eq!(summary_value(&output, "spiral"), "yes");
    let elapsed = start.elapsed();
    assert!(elapsed.as_secs() < 60, "12 frames took {elapsed:?}");
}

#[test]
fn a_resized_window_rebuilds_its_targets() {
    let Some(display) = virtual_display() else {
        return;
    };
    let path = temp_png("resized");
    let output = lab(
        &display,
        &[
            "--frames",
            "40",
            "--width",
            "800",
            "--height",
            "500",
            "--no-panel",
            "--no-timeline",
            "--resize-at",
            "10:480x360",
            "--screenshot",
            path.to_str().expect("utf-8 path"),
        ],
    );
    assert_success(&output);
    let image = image::open(&path)
        .expect("the screenshot is a PNG")
        .to_rgba8();
    let _ = std::fs::remove_file(&path);
    assert_eq!(image.dimensions(), (480, 360), "the new size");
    assert_eq!(summary_value(&output, "configure errors"), "0");
    // The scene fills the new size: the sphere is drawn, and the four corners show the
    // background above the horizon (a stale target would fail validation or leave black).
    let sphere = image.pixels().filter(|p| is_sphere_colour(p)).count();
    assert!(sphere > 300, "{sphere} sphere pixels");
    let background = image.get_pixel(2, 2).0;
    for (x, y) in [(477, 2), (240, 2)] {
        let corner = image.get_pixel(x, y).0;
        let close = corner
            .iter()
            .zip(background)
            .all(|(a, b)| a.abs_diff(b) <= 12);
        assert!(
            close,
            "corner {x},{y} is {corner:?}, background {background:?}"
        );
    }
    assert!(
        background[2] > 40,
        "the background colour, not black: {background:?}"
    );
}

#[test]
fn compare_starts_the_named_panes_and_the_screenshot_holds_the_whole_grid() {
    let Some(display) = virtual_display() else {
        return;
    };
    let path = temp_png("compare");
    let (width, height) = (960u32, 600u32);
    let output = lab(
        &display,
        &[
            "--compare",
            "fixed,accumulator,interpolated",
            "--frames",
            "40",
            "--width",
            &width.to_string(),
            "--height",
            &height.to_string(),
            "--no-panel",
            "--no-timeline",
            "--msaa",
            "1",
            "--screenshot",
            path.to_str().expect("utf-8 path"),
        ],
    );
    assert_success(&output);
    assert_eq!(
        summary_value(&output, "panes"),
        "fixed,accumulator,interpolated"
    );
    let image = image::open(&path)
        .expect("the screenshot is a PNG")
        .to_rgba8();
    let _ = std::fs::remove_file(&path);
    assert_eq!(image.dimensions(), (width, height));
    // With the panel and the timeline hidden the panes share the whole window, and each
    // draws its own sphere in its own cell of the grid.
    let full = timestep_lab::render::Viewport::full(width, height);
    let cells = timestep_lab::app::grid_viewports(3, full);
    for (i, cell) in cells.iter().enumerate() {
        let sphere = image
            .enumerate_pixels()
            .filter(|(x, y, p)| {
                let (x, y) = (*x as f32, *y as f32);
                x >= cell.x
                    && x < cell.x + cell.width
                    && y >= cell.y
                    && y < cell.y + cell.height
                    && is_sphere_colour(p)
            })
            .count();
        assert!(sphere > 300, "pane {i}: {sphere} sphere-coloured pixels");
    }
}

#[test]
fn an_unset_xdg_runtime_dir_is_explained_before_the_wayland_library_complains() {
    let Some(display) = virtual_display() else {
        return;
    };
    let output = lab_without(&display, &["--frames", "3"], &["XDG_RUNTIME_DIR"]);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let note = stderr
        .find("note: XDG_RUNTIME_DIR is not set")
        .unwrap_or_else(|| panic!("no explanation: {stderr}"));
    assert!(stderr[note..].contains("It is harmless"), "{stderr}");
    if let Some(complaint) = stderr.find("error: XDG_RUNTIME_DIR") {
        assert!(note < complaint, "the note comes first: {stderr}");
    }
    // With a usable runtime directory there is nothing to explain.
    let output = lab(&display, &["--frames", "3"]);
    if std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|dir| std::path::Path::new(&dir).is_dir()) {
        assert!(!String::from_utf8_lossy(&output.stderr).contains("note: XDG_RUNTIME_DIR"));
    }
}

#[test]
fn a_slow_renderer_is_offered_one_60_hz_frame_per_frame() {
    let Some(display) = virtual_display() else {
        return;
    };
    // A renderer costing 100 ms a frame: about 9 fps, each frame five or six steps.
    let small = ["--width", "240", "--height", "180", "--no-panel"];
    let mut args = small.to_vec();
    args.extend(["--frames", "30", "--render-cost", "100"]);
    let slow = lab(&display, &args);
    assert_success(&slow);
    let offer = summary_value(&slow, "slow renderer offer");
    let fps: f64 = offer
        .split(" fps")
        .next()
        .and_then(|fps| fps.parse().ok())
        .unwrap_or_else(|| panic!("no offer: {offer:?}"));
    assert!((5.0..=10.5).contains(&fps), "{offer}");
    let scale: f64 = offer
        .rsplit("time scale ")
        .next()
        .and_then(|scale| scale.parse().ok())
        .expect("a time scale");
    assert!((scale - fps / 60.0).abs() < 0.002, "{offer}");
    // A fast loop is never offered it: `live::tests` checks that on the virtual clock, as
    // a loaded CI machine cannot promise lavapipe's speed here.
}

#[test]
fn settings_are_remembered_between_runs_and_a_bad_file_is_kept_and_explained() {
    let Some(display) = virtual_display() else {
        return;
    };
    let config_home =
        std::env::temp_dir().join(format!("timestep-lab-remember-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&config_home);
    let file = config_home.join("timestep-lab").join("settings.toml");
    let small = ["--width", "240", "--height", "180", "--frames", "3"];
    let run = |extra: &[&str]| {
        let mut args = small.to_vec();
        args.extend(extra);
        let output = lab_configured(&display, &args, &[], &config_home);
        assert_success(&output);
        output
    };
    let first = run(&["--strategy", "fixed", "--hz", "120"]);
    assert_eq!(
        summary_value(&first, "settings saved"),
        file.display().to_string()
    );
    let saved = std::fs::read_to_string(&file).expect("saved on closing");
    assert!(saved.contains("strategy = \"fixed\"") && saved.contains("rate_hz = 120.0"));
    // Restored the next time; an option given overrides it.
    let second = run(&[]);
    assert_eq!(summary_value(&second, "panes"), "fixed");
    let third = run(&["--strategy", "accumulator"]);
    assert_eq!(summary_value(&third, "panes"), "accumulator");
    // --no-config neither reads nor writes the file.
    let before = std::fs::read_to_string(&file).expect("still there");
    let ignored = run(&["--no-config"]);
    assert_eq!(summary_value(&ignored, "panes"), "interpolated");
    assert_eq!(std::fs::read_to_string(&file).expect("untouched"), before);
    // A corrupt value: the app runs, names the setting, keeps the file as it was.
    let broken = before.replace("rate_hz = 120.0", "rate_hz = \"fast\"");
    std::fs::write(&file, &broken).expect("written");
    let recovered = run(&[]);
    let stderr = String::from_utf8_lossy(&recovered.stderr);
    assert!(
        stderr.contains("`rate_hz` = \"fast\": not a number"),
        "{stderr}"
    );
    let backup = file.with_file_name("settings.toml.bak");
    assert_eq!(std::fs::read_to_string(&backup).expect("kept"), broken);
    assert_eq!(summary_value(&recovered, "panes"), "accumulator");
    let _ = std::fs::remove_dir_all(&config_home);
}

#[test]
fn a_screenshot_that_cannot_be_written_fails_the_run_naming_the_file() {
    let Some(display) = virtual_display() else {
        return;
    };
    // A file on a full disk: every write to it fails with ENOSPC.
    let path = temp_png("full");
    let _ = std::fs::remove_file(&path);
    std::os::unix::fs::symlink("/dev/full", &path).expect("a symlink");
    let shown = path.to_str().expect("utf-8 path").to_owned();
    let output = lab(
        &display,
        &[
            "--frames",
            "2",
            "--width",
            "160",
            "--height",
            "120",
            "--no-panel",
            "--screenshot",
            &shown,
        ],
    );
    let _ = std::fs::remove_file(&path);
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{errors}");
    assert!(
        errors.contains(&format!(
            "error: cannot write {shown}: No space left on device (os error 28)"
        )),
        "{errors}"
    );
    assert!(!errors.contains("panicked"), "{errors}");
    assert!(
        !stdout(&output).contains("screenshot:"),
        "{}",
        stdout(&output)
    );
}

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
    let runtime_dir =
        std::env::temp_dir().join(format!("timestep-lab-{}-wayland", std::process::id()));
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
    // bench replays it per strategy: the accumulator's row ends in the first pane's state.
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
    assert!(bench.status.success(), "{bench:?}");
    let json: serde_json::Value = serde_json::from_slice(&bench.stdout).expect("JSON");
    let hash = json["results"][0]["state_hash"]
        .as_str()
        .expect("a state hash");
    assert_eq!(hashes.split(',').next(), Some(hash));
    let _ = std::fs::remove_file(&file);
}

/// Runs `xdotool` on `display` with `args`; `None` when it is not installed (and
/// `TIMESTEP_LAB_REQUIRE_GPU` is not `1`).
fn xdotool(display: &str, args: &[&str]) -> Option<Output> {
    match Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .output()
    {
        Ok(output) => Some(output),
        Err(error) => {
            if std::env::var("TIMESTEP_LAB_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("TIMESTEP_LAB_REQUIRE_GPU=1 but xdotool cannot run: {error}");
            }
            eprintln!("skipping: xdotool is not available ({error}); apt-get install xdotool");
            None
        }
    }
}

/// Pixels of the orbiting sphere's colours in a screenshot.
fn sphere_pixels(path: &std::path::Path) -> usize {
    image::open(path)
        .expect("a screenshot")
        .to_rgba8()
        .pixels()
        .filter(|p| is_sphere_colour(p))
        .count()
}

#[test]
fn dragging_the_mouse_turns_the_first_person_view_and_keys_walk() {
    let Some(display) = virtual_display() else {
        return;
    };
    if xdotool(&display.name, &["version"]).is_none() {
        return;
    }
    let still = temp_png("look-still");
    let turned = temp_png("look-turned");
    // At least ten seconds of frames (60 fps at most): the drag takes well under one.
    let frames = "600";
    let args = |shot: &std::path::Path| {
        [
            "--frame-cap",
            "60",
            "--present-mode",
            "immediate",
            "--width",
            "480",
            "--height",
            "360",
            "--no-panel",
            "--no-timeline",
            "--view",
            "player",
            "--frames",
            frames,
            "--screenshot",
            shot.to_str().expect("a UTF-8 temp path"),
        ]
        .map(str::to_owned)
    };
    // Untouched, the player looks at the pivot: the sphere orbits in view.
    let untouched = lab(&display, &args(&still).each_ref().map(String::as_str));
    assert_success(&untouched);
    assert_eq!(
        summary_value(&untouched, "inputs"),
        "0 key presses and releases, 0 mouse turns"
    );
    assert!(summary_value(&untouched, "player").starts_with("yaw 135.0 deg, pitch 0.0 deg"));
    assert!(sphere_pixels(&still) > 200, "{}", sphere_pixels(&still));

    // Now drag 400 pixels to the right (turning 400 x 0.004 rad = 91.7 degrees) and walk.
    let mut command = Command::new(env!("CARGO_BIN_EXE_timestep-lab"));
    command
        .env("DISPLAY", &display.name)
        .env_remove("WAYLAND_DISPLAY")
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join(format!("timestep-lab-look-{}", std::process::id())),
        );
    let hands = {
        let name = display.name.clone();
        std::thread::spawn(move || {
            let found = xdotool(
                &name,
                &[
                    "search",
                    "--sync",
                    "--onlyvisible",
                    "--name",
                    "^timestep-lab$",
                ],
            )
            .expect("xdotool runs");
            let window = String::from_utf8_lossy(&found.stdout)
                .lines()
                .next()
                .expect("the window")
                .to_owned();
            let run = |args: &[&str]| {
                let output = xdotool(&name, args).expect("xdotool runs");
                assert!(output.status.success(), "xdotool {args:?}: {output:?}");
            };
            run(&["windowfocus", "--sync", &window]);
            run(&["mousemove", "--window", &window, "100", "180"]);
            run(&["mousedown", "1"]);
            for step in 1..=20 {
                let x = (100 + step * 20).to_string();
                run(&["mousemove", "--window", &window, &x, "180"]);
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            run(&["mouseup", "1"]);
            run(&["keydown", "w"]);
            std::thread::sleep(std::time::Duration::from_millis(300));
            run(&["keyup", "w"]);
        })
    };
    let touched = run(command, &args(&turned).each_ref().map(String::as_str));
    hands.join().expect("the drag and the keys");
    assert_success(&touched);
    // Each motion event of the drag is a turn of 20 px x 0.004 rad; the X server may fold
    // the first into the press, so at least 19 of the 20 arrive, and the yaw is theirs.
    let inputs = summary_value(&touched, "inputs");
    let turns: u32 = inputs
        .strip_prefix("2 key presses and releases, ")
        .and_then(|rest| rest.strip_suffix(" mouse turns"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{inputs}"));
    assert!((19..=20).contains(&turns), "{inputs}");
    let yaw = 135.0 + (f64::from(turns) * 20.0 * 0.004).to_degrees();
    let player = summary_value(&touched, "player");
    assert!(
        player.starts_with(&format!("yaw {yaw:.1} deg, pitch 0.0 deg")),
        "{player}, expected yaw {yaw:.1}"
    );
    // Walking forward moved it off its start (x 6.364, z -6.364).
    assert!(!player.ends_with("at x 6.364 z -6.364 m"), "{player}");
    // The pivot, the orbit and the sphere are now off to the left, out of the picture.
    assert_eq!(sphere_pixels(&turned), 0, "the view did not turn");
    let _ = std::fs::remove_file(&still);
    let _ = std::fs::remove_file(&turned);
}

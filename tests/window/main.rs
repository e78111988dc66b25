//! The real binary in a real window: a virtual X server (Xvfb), Mesa lavapipe, 120 frames,
//! its own screenshot checked; present modes switched live; the spiral and its guard; a
//! load ramp run to its end and closed mid-way; and a Wayland window under a headless
//! Weston compositor.
//!
//! This file starts the servers and runs the binary; the tests are in the modules below,
//! one topic each.
//!
//! Linux only: they need Xvfb, xdotool and Weston, X11's Present extension and Wayland's
//! presentation-time. Elsewhere this target is empty (the window's own code is
//! type-checked for Windows and macOS by `scripts/check-targets`).
#![cfg(target_os = "linux")]

#[path = "../common/mod.rs"]
mod common;

mod drawing;
mod hands;
mod load;
mod platform;
mod present_modes;
mod ramp;
mod replay;
mod startup;
mod tour;
mod wayland;
mod x11_present;

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
    lab_configured(display, args, removed, &fresh_config_home())
}

/// A config home no run has used yet (emptied).
fn fresh_config_home() -> PathBuf {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let config_home = std::env::temp_dir().join(format!(
        "timestep-lab-window-config-{}-{run}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&config_home);
    config_home
}

/// [`lab`] with the environment variables `set` added, its settings in `config_home`'s
/// `timestep-lab`.
fn lab_with(
    display: &VirtualDisplay,
    args: &[&str],
    set: &[(&str, &str)],
    config_home: &std::path::Path,
) -> Output {
    let mut command = lab_command(display, config_home);
    command.envs(set.iter().copied());
    run(command, args)
}

/// The binary on `display` (X11 alone), its settings in `config_home`'s `timestep-lab` (the
/// lab's own `TIMESTEP_LAB_CONFIG_DIR`, so no test reads or writes a real user's settings).
fn lab_command(display: &VirtualDisplay, config_home: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_timestep-lab"));
    command
        .env("TIMESTEP_LAB_CONFIG_DIR", config_home.join("timestep-lab"))
        .env("DISPLAY", &display.name)
        .env_remove("WAYLAND_DISPLAY");
    command
}

/// [`lab_without`] with its settings in `config_home`'s `timestep-lab` ([`lab_command`]).
fn lab_configured(
    display: &VirtualDisplay,
    args: &[&str],
    removed: &[&str],
    config_home: &std::path::Path,
) -> Output {
    let mut command = lab_command(display, config_home);
    for name in removed {
        command.env_remove(name);
    }
    run(command, args)
}

/// The machine the runs share: a run that measures it (the tour's claims, judged on this
/// machine's frame rate) holds it alone, as a writer; every other run shares it.
static MACHINE: std::sync::RwLock<()> = std::sync::RwLock::new(());

thread_local! {
    /// Whether this thread holds the machine alone (its runs take no shared hold then).
    static ALONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The machine held alone until dropped: no other test's window runs meanwhile.
struct Alone {
    _held: std::sync::RwLockWriteGuard<'static, ()>,
}

impl Drop for Alone {
    fn drop(&mut self) {
        ALONE.set(false);
    }
}

/// Waits for the runs under way to end and holds the machine alone.
fn alone() -> Alone {
    let held = MACHINE
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    ALONE.set(true);
    Alone { _held: held }
}

/// A share of the machine for a run (none on the thread holding it [`alone`]): held
/// while the run goes, it keeps a run that measures the machine waiting.
fn shared() -> Option<std::sync::RwLockReadGuard<'static, ()>> {
    (!ALONE.get()).then(|| {
        MACHINE
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    })
}

/// Runs `command` (the binary, its display chosen) with `args`; kills it and fails if it
/// runs past [`RUN_DEADLINE`]. Shares the machine with other runs unless this thread holds
/// it [`alone`].
fn run(mut command: Command, args: &[&str]) -> Output {
    let _shared = shared();
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

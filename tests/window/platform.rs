//! The window on each platform's terms, played on Linux: sized in points at a scale factor,
//! a scale factor it cannot take refused, what GL lacks said, and the end of a run (the
//! settings, the recording, the summary) however it comes: here Esc and the terminal's or
//! the system's signals, through winit's `exiting`, the path macOS's Quit takes too; and
//! settings that cannot be saved losing nothing else.

use super::hands::{lab_window, xdotool};
use super::{
    assert_success, fresh_config_home, is_sphere_colour, lab, lab_configured, lab_with, stdout,
    summary_value, temp_png, virtual_display,
};

#[test]
fn a_window_sized_in_points_has_twice_the_pixels_at_scale_factor_two() {
    let Some(display) = virtual_display() else {
        return;
    };
    let path = temp_png("scale-two");
    let shot = path.to_str().expect("utf-8 path");
    let args = [
        "--frames",
        "30",
        "--width",
        "640",
        "--height",
        "400",
        "--screenshot",
        shot,
    ];
    let config_home = fresh_config_home();
    let output = lab_with(
        &display,
        &args,
        &[("WINIT_X11_SCALE_FACTOR", "2")],
        &config_home,
    );
    let _ = std::fs::remove_dir_all(&config_home);
    assert_success(&output);
    assert!(
        summary_value(&output, "screenshot")
            .ends_with("(1280x800 physical pixels, scale factor 2)"),
        "{}",
        stdout(&output)
    );
    let image = image::open(&path).expect("a screenshot").to_rgba8();
    let _ = std::fs::remove_file(&path);
    assert_eq!(image.dimensions(), (1280, 800), "640x400 points at 2x");
    // The panel is PANEL_WIDTH points wide: at 2x its dark background reaches past
    // PANEL_WIDTH pixels, where at 1x the scene's lighter background begins.
    let x = timestep_lab::ui::PANEL_WIDTH as u32 + 120;
    let dark = (0..800)
        .step_by(4)
        .filter(|&y| {
            let [r, g, b, _] = image.get_pixel(x, y).0;
            r < 45 && g < 45 && b < 45
        })
        .count();
    assert!(
        dark > 100,
        "panel background on {dark} of 200 rows at x {x}"
    );
    let sphere = image
        .enumerate_pixels()
        .filter(|(x, _, p)| *x > 2 * timestep_lab::ui::PANEL_WIDTH as u32 && is_sphere_colour(p))
        .count();
    assert!(sphere > 1500, "{sphere} sphere pixels in the scene");
}

#[test]
fn a_scale_factor_the_window_cannot_take_is_refused_before_it_opens() {
    let Some(display) = virtual_display() else {
        return;
    };
    for value in ["0", "NaN", "-1"] {
        let config_home = fresh_config_home();
        let output = lab_with(
            &display,
            &["--frames", "5"],
            &[("WINIT_X11_SCALE_FACTOR", value)],
            &config_home,
        );
        let errors = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{value}: {errors}");
        assert!(
            errors.contains(&format!(
                "WINIT_X11_SCALE_FACTOR={value}: not a scale factor the window can take \
                 (allowed: a number from 0.1 to 16"
            )),
            "{value}: {errors}"
        );
        assert!(!errors.contains("panicked"), "{errors}");
        assert!(
            !config_home.exists(),
            "nothing is written before the window opens"
        );
    }
}

#[test]
fn on_gl_the_panel_is_drawn_through_the_srgb_target_and_the_summary_says_why() {
    let Some(display) = virtual_display() else {
        return;
    };
    let path = temp_png("gl");
    let output = lab(
        &display,
        &[
            "--backend",
            "gl",
            "--frames",
            "20",
            "--width",
            "640",
            "--height",
            "400",
            "--screenshot",
            path.to_str().expect("utf-8 path"),
        ],
    );
    assert_success(&output);
    assert!(
        summary_value(&output, "adapter").contains("(Gl, "),
        "{}",
        stdout(&output)
    );
    let drawing = summary_value(&output, "drawing");
    assert!(
        drawing.contains("panel through the sRGB target. This adapter cannot view a texture"),
        "{drawing}"
    );
    assert_eq!(summary_value(&output, "present modes offered"), "fifo");
    let image = image::open(&path).expect("a screenshot").to_rgba8();
    let _ = std::fs::remove_file(&path);
    let sphere = image.pixels().filter(|p| is_sphere_colour(p)).count();
    assert!(sphere > 500, "{sphere} sphere pixels drawn on GL");
}

#[test]
fn esc_ends_the_run_with_the_recording_flushed_the_settings_saved_and_the_summary() {
    let Some(display) = virtual_display() else {
        return;
    };
    if xdotool(&display.name, &["version"]).is_none() {
        return;
    }
    ended_from_outside(&display, "Esc", |name, window| {
        std::thread::sleep(std::time::Duration::from_millis(1500));
        for args in [
            &["windowfocus", "--sync", window][..],
            &["key", "--window", window, "Escape"],
        ] {
            let output = xdotool(name, args).expect("xdotool runs");
            assert!(output.status.success(), "xdotool {args:?}: {output:?}");
        }
    });
}

/// Runs the window on `display` recording to a file while `end` (given the display's name
/// and the lab's window) ends it from outside, and checks that it ended well: exit 0, the
/// summary with its frames, the recording named there and finished (bench reads every
/// frame of it), the settings saved. `what` names the ending in failures.
fn ended_from_outside(
    display: &super::VirtualDisplay,
    what: &str,
    end: impl FnOnce(&str, &str) + Send + 'static,
) {
    let config_home = fresh_config_home();
    let recording = std::env::temp_dir().join(format!(
        "timestep-lab-ended-{}-{}.csv",
        what.replace(' ', "-"),
        std::process::id()
    ));
    let _ = std::fs::remove_file(&recording);
    let hands = {
        let name = display.name.clone();
        std::thread::spawn(move || {
            let window = lab_window(&name);
            end(&name, &window);
        })
    };
    let output = lab_with(
        display,
        &[
            "--width",
            "320",
            "--height",
            "240",
            "--record",
            recording.to_str().expect("utf-8 path"),
        ],
        &[],
        &config_home,
    );
    hands.join().expect("the run was ended");
    assert_success(&output);
    let frames: u64 = summary_value(&output, "frames")
        .parse()
        .expect("a frame count");
    assert!(frames > 0, "{what}: {}", stdout(&output));
    assert!(stdout(&output).contains("state hashes:"), "{what}");
    let recorded = summary_value(&output, "recorded");
    assert!(
        recorded.starts_with(&format!("{frames} frames to ")),
        "{what}: {recorded}"
    );
    let saved = config_home.join("timestep-lab").join("settings.toml");
    assert!(saved.is_file(), "{what}: the settings were not saved");
    assert_eq!(
        summary_value(&output, "settings saved"),
        saved.to_string_lossy()
    );
    let settings = std::fs::read_to_string(&saved).expect("the settings were saved");
    assert!(settings.contains("strategy"), "{what}: {settings}");
    // The recording was finished: bench reads every frame of it.
    let bench = std::process::Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .args(["bench", "--json", "--trace"])
        .arg(&recording)
        .output()
        .expect("bench runs");
    let _ = std::fs::remove_file(&recording);
    let _ = std::fs::remove_dir_all(&config_home);
    assert!(bench.status.success(), "{what}: {bench:?}");
    let report: serde_json::Value =
        serde_json::from_slice(&bench.stdout).expect("bench's JSON report");
    assert_eq!(report["trace"]["frames"].as_u64(), Some(frames), "{what}");
}

/// Settings whose folder cannot be created (under `/proc`, where even root cannot make one,
/// and where reading finds no file, so the run means to save): the run still prints its
/// summary, state hashes and all, then the error naming the folder, and exits 1; it used to
/// print the error alone, and the run's hashes were lost.
#[test]
fn settings_that_cannot_be_saved_lose_nothing_else() {
    let Some(display) = virtual_display() else {
        return;
    };
    let config_home =
        std::path::PathBuf::from(format!("/proc/timestep-lab-nowhere-{}", std::process::id()));
    let output = lab_configured(
        &display,
        &["--frames", "20", "--width", "320", "--height", "240"],
        &[],
        &config_home,
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(summary_value(&output, "frames"), "20");
    assert!(stdout(&output).contains("state hashes:"), "{output:?}");
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("cannot create the settings directory")
            && message.contains(&config_home.join("timestep-lab").to_string_lossy()[..]),
        "{message}"
    );
}

/// Ended from outside, by Ctrl+C in its terminal (SIGINT) or by `kill` and the session's
/// end (SIGTERM), the window ends as when it is closed: the recording finished, the settings
/// saved, the summary printed, exit 0. Before, the signal killed the process and all three
/// were lost.
#[test]
fn a_signal_ends_the_run_as_closing_the_window_does() {
    let Some(display) = virtual_display() else {
        return;
    };
    if xdotool(&display.name, &["version"]).is_none() {
        return;
    }
    for signal in ["INT", "TERM"] {
        ended_from_outside(&display, &format!("SIG{signal}"), move |name, window| {
            std::thread::sleep(std::time::Duration::from_millis(1000));
            let found = xdotool(name, &["getwindowpid", window]).expect("xdotool runs");
            let pid = String::from_utf8_lossy(&found.stdout).trim().to_owned();
            let sent = std::process::Command::new("kill")
                .args([format!("-{signal}"), pid.clone()])
                .status()
                .expect("kill runs");
            assert!(sent.success(), "kill -{signal} {pid}");
        });
    }
}

//! The person's hands, played by xdotool: dragging the mouse turns the first-person view
//! and a key walks.

use std::process::{Command, Output};

use super::{assert_success, is_sphere_colour, lab, run, summary_value, temp_png, virtual_display};

/// Runs `xdotool` on `display` with `args`; `None` when it is not installed (and
/// `TIMESTEP_LAB_REQUIRE_GPU` is not `1`).
pub(super) fn xdotool(display: &str, args: &[&str]) -> Option<Output> {
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

/// The lab's window on `display`, once it shows (its X window id, for xdotool).
pub(super) fn lab_window(display: &str) -> String {
    let found = xdotool(
        display,
        &[
            "search",
            "--sync",
            "--onlyvisible",
            "--name",
            "^timestep-lab$",
        ],
    )
    .expect("xdotool runs");
    String::from_utf8_lossy(&found.stdout)
        .lines()
        .next()
        .expect("the window")
        .to_owned()
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
            "TIMESTEP_LAB_CONFIG_DIR",
            std::env::temp_dir().join(format!("timestep-lab-look-{}", std::process::id())),
        );
    let hands = {
        let name = display.name.clone();
        std::thread::spawn(move || {
            let window = lab_window(&name);
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

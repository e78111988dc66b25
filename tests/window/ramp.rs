//! The load ramp in the real window: `--ramp` runs one to its end at a software renderer's
//! frame rate, and closing the window mid-ramp puts the load back before the settings are
//! saved.

use super::{assert_success, lab, lab_configured, summary_value, virtual_display};

#[test]
fn a_ramp_runs_to_its_end_and_puts_the_load_back() {
    let Some(display) = virtual_display() else {
        return;
    };
    // 20 ms of render a frame keeps the 120 frames over 2.4 s however fast the machine:
    // past the ramp's second. The guards are off and the steps capped at two, so the
    // accumulator slows (from 10 ms: `2·dt/(f + 2c)` falls under 0.99 where the frame
    // passes 40 ms) and variable keeps up.
    let output = lab(
        &display,
        &[
            "--width",
            "320",
            "--height",
            "200",
            "--no-panel",
            "--frames",
            "120",
            "--render-cost",
            "20",
            "--compare",
            "accumulator,variable",
            "--max-frame-time",
            "0",
            "--max-steps",
            "2",
            "--step-cost",
            "4",
            "--ramp",
            "10:1",
        ],
    );
    assert_success(&output);
    let ramp = summary_value(&output, "ramp");
    assert!(
        ramp.starts_with("finished at 10.0 ms, load back to 4.0 ms; onsets: accumulator "),
        "{ramp}"
    );
    assert!(ramp.ends_with(", variable none"), "{ramp}");
}

#[test]
fn closing_mid_ramp_saves_the_load_it_started_from() {
    let Some(display) = virtual_display() else {
        return;
    };
    let config_home =
        std::env::temp_dir().join(format!("timestep-lab-ramp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&config_home);
    let args = [
        "--width",
        "240",
        "--height",
        "180",
        "--no-panel",
        "--frames",
        "40",
        "--render-cost",
        "20",
        "--step-cost",
        "3",
        "--ramp",
        "40:600",
    ];
    let output = lab_configured(&display, &args, &[], &config_home);
    assert_success(&output);
    let ramp = summary_value(&output, "ramp");
    assert!(ramp.starts_with("stopped at "), "{ramp}");
    assert!(ramp.contains("load back to 3.0 ms"), "{ramp}");
    let file = config_home.join("timestep-lab").join("settings.toml");
    let saved = std::fs::read_to_string(&file).expect("saved on closing");
    assert!(saved.contains("step_cost_ms = 3.0"), "{saved}");
    let _ = std::fs::remove_dir_all(&config_home);
}

//! Present modes: each one the surface offers switched to live, and each explicit one at
//! start.

use super::{assert_success, lab, summary_value, virtual_display};

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

//! Present modes: each one the surface offers switched to live, and each explicit one at
//! start.

use timestep_lab::live::PresentModeId;

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
    // Vulkan (lavapipe under Xvfb) offers all four; GL offers FIFO alone. What the
    // adapter leaves out is said, never failed on.
    for mode in ["immediate", "mailbox", "fifo", "fifo-relaxed"] {
        if !offered.contains(&mode) {
            eprintln!("left out: {mode} (this adapter's surface does not offer it)");
        }
    }
    let configured: Vec<&str> = configured.split(',').collect();
    for mode in &offered {
        assert!(
            configured.contains(mode),
            "{mode} was never configured: {configured:?}"
        );
    }
    if offered.len() > 1 {
        assert!(
            configured.len() > offered.len(),
            "switched back and forth: {configured:?}"
        );
    }
}

#[test]
fn each_explicit_present_mode_starts() {
    let Some(display) = virtual_display() else {
        return;
    };
    let mut offered = None;
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
        let offered = offered
            .get_or_insert_with(|| summary_value(&output, "present modes offered").to_owned());
        let modes: Vec<PresentModeId> = offered
            .split(',')
            .map(|id| id.parse().expect("a present mode id"))
            .collect();
        // A mode the surface does not offer falls back (auto-no-vsync: immediate, then
        // mailbox, then fifo; any other: fifo), as the window's help says.
        let asked: PresentModeId = mode.parse().expect("a present mode id");
        let expected = asked.resolve(&modes);
        if expected != asked && mode != "auto-no-vsync" {
            eprintln!("left out: {mode} (not offered: {offered}; fell back to {expected})");
        }
        assert_eq!(
            summary_value(&output, "present modes configured"),
            expected.id()
        );
    }
}

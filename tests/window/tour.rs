//! The guided tour in the real binary on lavapipe: every chapter's claim, checked live on
//! the machine running the test, holds; on a slow renderer too, where the stutter chapters
//! slow time as the slow-renderer offer does; and the chapter the reader was on is
//! remembered while the settings saved are the reader's own.

use super::*;
use std::io::Write;
use timestep_lab::tour::CHAPTERS;

/// Runs chapter `chapter` (1-based) as [`chapter_run`] does and returns its `tour:` line;
/// once more if its check did not pass, noting the first line in `retried`. The claims
/// are measured live on a shared machine, whose frame rate another program can move for
/// seconds at a time (the chapter fits its setup again, and its claim waits to settle
/// anew). A chapter whose check fails twice fails the test, as do more than two retries.
fn chapter_passes(
    display: &VirtualDisplay,
    chapter: usize,
    frames: &str,
    more: &[&str],
    retried: &mut Vec<String>,
) -> String {
    let line = chapter_run(display, chapter, frames, more);
    if line.contains(": check passed (") {
        return line;
    }
    // Past the harness's capture, so a retry that passes still shows in the log.
    let note = format!("chapter {chapter} {more:?} ran again after: {line}");
    let _ = writeln!(std::io::stderr(), "{note}");
    retried.push(note);
    assert!(
        retried.len() <= 2,
        "too many chapters retried: {retried:#?}"
    );
    chapter_run(display, chapter, frames, more)
}

/// Runs chapter `chapter` (1-based) for `frames` frames with `more` arguments; returns the
/// summary's `tour:` line.
fn chapter_run(display: &VirtualDisplay, chapter: usize, frames: &str, more: &[&str]) -> String {
    let number = chapter.to_string();
    let mut args = vec![
        "--no-config",
        "--width",
        "800",
        "--height",
        "560",
        "--tour",
        &number,
        "--frames",
        frames,
    ];
    args.extend(more);
    let output = lab(display, &args);
    assert_success(&output);
    summary_value(&output, "tour")
}

#[test]
fn every_chapters_claim_holds_live_on_this_machine_and_on_a_slow_renderer() {
    let Some(display) = virtual_display() else {
        return;
    };
    // The claims are judged on this machine's frame rate: no other test's window shares
    // the cores meanwhile.
    let _alone = alone();
    let mut retried = Vec::new();
    for (i, chapter) in CHAPTERS.iter().enumerate() {
        // The spiral's frames busy-wait a quarter of a second each, the guard's nearly a
        // third: fewer of them cover the seconds the claim needs.
        let frames = match chapter.id {
            "spiral" | "guards" => "40",
            _ => "300",
        };
        let line = chapter_passes(&display, i + 1, frames, &[], &mut retried);
        let expected = format!(
            "chapter {}/{} {}: check passed (",
            i + 1,
            CHAPTERS.len(),
            chapter.title
        );
        assert!(line.starts_with(&expected), "{line}");
    }
    // The stutter chapters again on a slow renderer, where they slow time.
    for (i, chapter) in CHAPTERS.iter().enumerate() {
        if chapter.slows_for_slow_renderers.is_none() {
            continue;
        }
        // A frame costing 60 ms: about 12.5 fps, each frame four or five 50 Hz steps.
        let line = chapter_passes(
            &display,
            i + 1,
            "160",
            &["--render-cost", "60"],
            &mut retried,
        );
        assert!(line.contains(": check passed ("), "{line}");
    }
}

#[test]
fn the_chapter_is_remembered_and_the_readers_settings_are_saved() {
    let Some(display) = virtual_display() else {
        return;
    };
    let config =
        std::env::temp_dir().join(format!("timestep-lab-tour-config-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&config);
    let small = ["--width", "320", "--height", "240", "--frames", "5"];
    let mut args = small.to_vec();
    args.extend(["--tour", "interpolation", "--hz", "75"]);
    let first = lab_configured(&display, &args, &[], &config);
    assert_success(&first);
    let saved = std::fs::read_to_string(config.join("timestep-lab/settings.toml"))
        .expect("the settings were saved");
    assert!(
        saved.contains("tour_chapter = \"interpolation\""),
        "{saved}"
    );
    assert!(
        saved.contains("rate_hz = 75.0"),
        "the reader's own rate: {saved}"
    );
    assert!(
        !saved.contains("compare = true"),
        "not the chapter's panes: {saved}"
    );
    // `--tour` without a number starts where the reader left off.
    let mut args = small.to_vec();
    args.push("--tour");
    let second = lab_configured(&display, &args, &[], &config);
    assert_success(&second);
    assert!(
        summary_value(&second, "tour").starts_with("chapter 7/"),
        "{}",
        stdout(&second)
    );
    let _ = std::fs::remove_dir_all(&config);
}

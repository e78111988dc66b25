//! Pictures of the panel: the whole UI after the scripted run, and the frame-time
//! distribution.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use super::{build, common, scripted_state, sixty_then_thirty_hz};

#[test]
fn panel_snapshot() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let mut harness = build(Harness::builder().wgpu(), scripted_state());
    harness.run();
    // Text antialiasing may differ in a few pixels between lavapipe versions.
    harness.snapshot_options(
        "panel",
        &egui_kittest::SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(200),
    );
}

#[test]
fn frame_time_distribution_snapshot() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let mut harness = build(Harness::builder().wgpu(), sixty_then_thirty_hz());
    harness.run();
    harness.get_by_label("10 s").scroll_to_me();
    harness.run();
    harness.get_by_label("10 s").click();
    harness.run();
    harness
        .get_by_label_contains("percentile curve, 10 s")
        .scroll_to_me();
    harness.run();
    harness.get_by_label_contains("frame-time histogram, 10 s");
    harness.snapshot_options(
        "frame_time_distribution",
        &egui_kittest::SnapshotOptions::new()
            .threshold(2.0)
            .max_failed_pixels(200),
    );
}

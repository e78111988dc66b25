//! Load in the window: the spiral and its guard, the heaviest load without guards, and
//! the slow-renderer offer.

use super::{assert_success, lab, summary_value, virtual_display};

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

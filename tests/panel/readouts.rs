//! The readouts, the Display section and the frame statistics: the scripted run's numbers,
//! each explained, and the windows they are over.

use egui_kittest::kittest::Queryable as _;
use timestep_lab::live::StatsSpan;

use super::{harness, scripted_state, sixty_then_thirty_hz};

#[test]
fn readouts_show_the_scripted_run() {
    let mut harness = harness(scripted_state());
    harness.run();
    // 2 s of 60 Hz frames with 50 Hz steps under interpolation: exactly one dt of latency.
    harness.get_by_label("20.00 ms");
    // No judder on the CPU's clock, and none at the modeled 60 Hz screen either.
    assert_eq!(harness.get_all_by_label("0.000 ms").count(), 2);
    harness.get_by_label(
        "active: fifo-relaxed · surface offers: immediate, mailbox, fifo, fifo-relaxed",
    );
}

#[test]
fn every_readout_explains_itself_and_auto_present_modes_stay_offered() {
    let mut harness = harness(scripted_state());
    harness.run();
    harness.get_by_label("sim speed").hover();
    harness.run();
    harness.get_by_label_contains("Simulated time advanced over real time");
    let speed = harness.state().readouts.window.sim_speed;
    assert!(
        (0.95..=1.05).contains(&speed),
        "a 60 Hz run keeps up: {speed}"
    );
    harness.get_by_label(&format!("{speed:.3}x"));
    harness.get_by_label("screen judder*").hover();
    harness.run();
    harness.get_by_label_contains("PresentMon's MsAnimationError");
    // The present mode list: the surface's modes and both auto modes, each explained.
    harness.get_by_label("present mode").scroll_to_me();
    harness.run();
    harness.get_by_label("present mode").click();
    harness.run();
    for mode in [
        "auto-vsync",
        "auto-no-vsync",
        "immediate",
        "mailbox",
        "fifo",
    ] {
        harness.get_by_label(mode);
    }
    harness.get_by_label("auto-no-vsync").hover();
    harness.run();
    harness.get_by_label_contains("No vsync with the best mode offered");
}

#[test]
fn the_display_section_sets_the_filter_and_the_refresh_rate_and_says_the_screen_is_modeled() {
    let mut harness = harness(scripted_state());
    harness.run();
    // Two seconds of 60 Hz frames on the assumed 60 Hz FIFO screen: one new image per
    // refresh, nothing repeated.
    harness.get_by_label("60.0 / 0 per s");
    harness.get_by_label_contains("at the screen, modeled: FIFO 60 Hz, 2 in flight");
    harness.get_by_label_contains("The screen is modeled");
    harness.get_by_label("snap").scroll_to_me();
    harness.run();
    harness.get_by_label("snap").click();
    harness.run();
    assert_eq!(
        harness.state().model.settings.filter,
        timestep_lab::timestep::FilterSpec::Snap { tolerance: None }
    );
    harness.get_by_label("average").scroll_to_me();
    harness.run();
    harness.get_by_label("average").click();
    harness.run();
    assert_eq!(
        harness.state().model.settings.filter,
        timestep_lab::timestep::FilterSpec::Average(4)
    );
    harness.get_by_label("set the refresh rate").scroll_to_me();
    harness.run();
    harness.get_by_label("set the refresh rate").click();
    harness.run();
    assert_eq!(harness.state().model.settings.refresh_override_hz, 60.0);
    harness.get_by_label("none").scroll_to_me();
    harness.run();
    harness.get_by_label("none").click();
    harness.run();
    assert_eq!(
        harness.state().model.settings.filter,
        timestep_lab::timestep::FilterSpec::None
    );
}

#[test]
fn frame_statistics_show_the_window_picked() {
    let mut harness = harness(sixty_then_thirty_hz());
    harness.run();
    // The last second: the last 60 Hz frame and the 30 Hz ones, 31 frames in 1.0167 s.
    harness.get_by_label("31 in 1.02 s");
    harness.get_by_label("30.5 fps");
    // P50 / P90 / P95 and P99 / P99.9 / max: every frame of the window but one is 30 Hz.
    assert_eq!(
        harness.get_all_by_label("33.33 / 33.33 / 33.33 ms").count(),
        2
    );
    harness.get_by_label("30.0 fps / 30.0 fps");
    harness.get_by_label("0 (0.0%) > 66.67 ms");
    harness.get_by_label("10 s").scroll_to_me();
    harness.run();
    harness.get_by_label("10 s").click();
    harness.run();
    assert_eq!(
        harness.state().model.panel.stats_window,
        StatsSpan::TenSeconds
    );
    // The last ten seconds: 540 frames at 60 Hz and the 30 at 30 Hz; P95 is a 30 Hz frame,
    // the slowest 1% (6 frames) too.
    assert!(harness.query_by_label("31 in 1.02 s").is_none());
    harness.get_by_label("570 in 10.00 s");
    harness.get_by_label("57.0 fps");
    harness.get_by_label("16.67 / 16.67 / 33.33 ms");
    harness.get_by_label("0 (0.0%) > 33.33 ms");
    harness.get_by_label("session").scroll_to_me();
    harness.run();
    harness.get_by_label("session").click();
    harness.run();
    // The session: the first frame (no time), 600 at 60 Hz, 30 at 30 Hz; its 0 ms frame is
    // the shortest.
    harness.get_by_label("631 in 11.00 s");
    harness.get_by_label("57.4 fps");
    harness.get_by_label_contains("percentiles and lows within 0.1%");
}

#[test]
fn frame_statistics_say_which_definitions_they_use() {
    let mut harness = harness(sixty_then_thirty_hz());
    harness.run();
    harness.get_by_label("time in hitches").scroll_to_me();
    harness.run();
    harness.get_by_label("1% / 0.1% low").hover();
    harness.run();
    harness.get_by_label_contains("CapFrameX's \"1% low average\": the slowest 1%");
    harness.get_by_label("hitches > 2x median").hover();
    harness.run();
    harness.get_by_label_contains("frames longer than twice the median frame time");
    harness.get_by_label("session").scroll_to_me();
    harness.run();
    harness.get_by_label("session").click();
    harness.run();
    harness.get_by_label("average rate").hover();
    harness.run();
    harness.get_by_label_contains("percentiles, lows and the hitch threshold are within 0.1%");
}

#[test]
fn the_screen_in_refreshes_counts_every_shown_frame_as_bench_does() {
    let mut harness = harness(sixty_then_thirty_hz());
    harness.run();
    let header = "At the screen, in refreshes*";
    harness.get_by_label(header).scroll_to_me();
    harness.run();
    harness.get_by_label(header).click();
    harness.run();
    let refreshes = harness.state().readouts.panes[0]
        .refreshes
        .expect("counted on the modeled screen");
    let shown: u64 = refreshes.latency.iter().sum();
    // Every frame but the pending last two reached the screen; at 60 Hz each made the
    // next refresh (gap 1), at 30 Hz every other one (gap 2).
    assert!((628..=630).contains(&shown), "{refreshes:?}");
    assert_eq!(refreshes.gaps[1], 600, "{refreshes:?}");
    assert_eq!(refreshes.gaps[2], shown - 601, "{refreshes:?}");
    harness.get_by_label_contains("1 refresh = 16.67 ms: FIFO 60 Hz, 2 in flight");
    // The first frame's present was not recorded: it is presented when the second starts,
    // together with the second, which then waits a refresh behind it: one late frame.
    assert_eq!(harness.state().readouts.screen.late_frames, 1);
    harness.get_by_label(&format!("late frames: 1 of {shown} shown"));
    // Every frame reached the screen within a refresh of its start: the latency row is
    // 100% in column 1. The gaps row: 95% of one refresh, 5% of two (the 5 also heads
    // column 5 of both tables).
    assert_eq!(refreshes.latency[1], shown, "{refreshes:?}");
    harness.get_by_label(" 95");
    assert_eq!(harness.get_all_by_label("  5").count(), 3);
    harness.get_by_label(" 95").hover();
    harness.run();
    harness.get_by_label(&format!("600 of {} frames", shown - 1));
    harness
        .get_by_label_contains("latency, start to screen")
        .hover();
    harness.run();
    harness.get_by_label_contains("Display latency in whole refreshes, rounded up");
}

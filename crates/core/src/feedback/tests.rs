//! Timestamp conversions, matching (out of order, twice, discarded, a new surface) and the
//! measured screen's period, VRR test and model score.

use super::*;

const MS: Nanos = 1_000_000;
/// One 60 Hz refresh.
const FRAME_60HZ: Nanos = 16_666_667;

/// Feedback for `present` shown at platform time `at` (ns) at refresh `sequence`.
fn shown(
    present: u64,
    generation: Option<u32>,
    at: i128,
    sequence: Option<u64>,
) -> PresentFeedback {
    PresentFeedback::shown(present, generation, at, None, sequence)
}

fn discarded(present: u64, generation: Option<u32>) -> PresentFeedback {
    PresentFeedback {
        present,
        generation,
        outcome: FeedbackOutcome::Discarded,
    }
}

#[test]
fn platform_timestamps_map_onto_the_stopwatch() {
    // Wayland: seconds split in two 32-bit halves, then nanoseconds.
    assert_eq!(wayland_time_ns(0, 12, 345), Some(12_000_000_345));
    assert_eq!(
        wayland_time_ns(1, 0, 0),
        Some((1i128 << 32) * 1_000_000_000)
    );
    assert_eq!(wayland_time_ns(0, 1, 1_000_000_000), None);
    assert_eq!(wayland_sequence(2, 7), (2 << 32) + 7);
    // X11: UST in microseconds.
    assert_eq!(x11_ust_ns(1_500), 1_500_000);
    // CLOCK_MONOTONIC read as 5 000 s when the stopwatch read 2 s.
    let clock = ClockMap::new(5_000_000_000_000, 2_000_000_000);
    assert_eq!(clock.stopwatch(5_000_000_000_000), Some(2_000_000_000));
    assert_eq!(clock.stopwatch(x11_ust_ns(4_998_000_001)), Some(1_000));
    // Before the stopwatch started: not on it.
    assert_eq!(clock.stopwatch(4_997_999_999_999), None);
}

#[test]
fn feedback_finds_its_frame_in_any_order_once() {
    let mut matcher = FeedbackMatcher::new(ClockMap::new(0, 0));
    let ids: Vec<u64> = (0..4)
        .map(|k| matcher.presented(100 + k, 0, k * 10 * MS))
        .collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    // Out of order: the third answered before the first.
    let third = matcher
        .take(shown(3, None, i128::from(30 * MS), Some(9)))
        .unwrap();
    assert_eq!(
        (third.frame, third.shown_at, third.sequence),
        (102, Some(30 * MS), Some(9))
    );
    let first = matcher
        .take(shown(1, None, i128::from(12 * MS), None))
        .unwrap();
    assert_eq!((first.frame, first.presented_at), (100, 0));
    // Twice: the second answer is ignored.
    assert_eq!(
        matcher.take(shown(3, None, i128::from(30 * MS), None)),
        None
    );
    // Discarded: matched, never shown.
    let second = matcher.take(discarded(2, None)).unwrap();
    assert_eq!((second.frame, second.shown_at), (101, None));
    // Not presented yet, or never: ignored.
    assert_eq!(matcher.take(shown(9, None, 0, None)), None);
    assert_eq!(matcher.take(shown(0, None, 0, None)), None);
    let counts = matcher.counts();
    assert_eq!(
        (
            counts.presents,
            counts.shown,
            counts.discarded,
            counts.duplicate,
            counts.unknown
        ),
        (4, 2, 1, 1, 2)
    );
    assert_eq!(counts.ignored(), 3);
}

#[test]
fn feedback_for_an_old_surface_is_ignored() {
    let mut matcher = FeedbackMatcher::new(ClockMap::new(0, 0));
    matcher.presented(1, 0, 0);
    matcher.presented(2, 0, 10 * MS);
    let generation = matcher.new_surface(20 * MS);
    assert_eq!(generation, 1);
    // The two waiting presents will never be answered now.
    assert_eq!(matcher.counts().unanswered, 2);
    assert_eq!(matcher.presented(3, 0, 25 * MS), 1);
    // Named for generation 0: old.
    assert_eq!(
        matcher.take(shown(1, Some(0), i128::from(30 * MS), None)),
        None
    );
    // Not named, shown before generation 1 began: the old surface's present 1.
    assert_eq!(
        matcher.take(shown(1, None, i128::from(15 * MS), None)),
        None
    );
    assert_eq!(matcher.counts().old_surface, 2);
    // The new surface's present 1.
    let matched = matcher
        .take(shown(1, Some(1), i128::from(33 * MS), None))
        .unwrap();
    assert_eq!(matched.frame, 3);
}

#[test]
fn a_time_on_another_clock_is_implausible() {
    // The platform's clock read 1 000 s when the stopwatch read 0.
    let mut matcher = FeedbackMatcher::new(ClockMap::new(1_000_000_000_000, 0));
    matcher.presented(1, 0, 100 * MS);
    matcher.presented(2, 0, 116 * MS);
    matcher.presented(3, 0, 133 * MS);
    let platform = |stopwatch: Nanos| 1_000_000_000_000 + i128::from(stopwatch);
    // A wall-clock time (CLOCK_REALTIME, 56 years on): ignored.
    assert_eq!(
        matcher.take(shown(1, None, 1_764_000_000_000_000_000, None)),
        None
    );
    // Shown a second before it was presented: ignored.
    assert_eq!(matcher.take(shown(2, None, platform(0), None)), None);
    // Before the stopwatch started: ignored.
    assert_eq!(matcher.take(shown(3, None, 5, None)), None);
    assert_eq!(matcher.counts().implausible, 3);
    // Within the slack before its present, but before its frame started (at 90 ms): no
    // frame is shown before it is drawn, so a recording never holds such a time.
    let mut matcher = FeedbackMatcher::new(ClockMap::new(0, 0));
    matcher.presented(4, 90 * MS, 100 * MS);
    assert_eq!(
        matcher.take(shown(1, Some(0), i128::from(80 * MS), None)),
        None
    );
    assert_eq!(matcher.counts().implausible, 1);
    let matched = matcher.take(shown(1, Some(0), i128::from(95 * MS), None));
    assert_eq!(matched.map(|m| m.shown_at), Some(Some(95 * MS)));
    // A present never answered is forgotten after IN_FLIGHT more.
    let mut matcher = FeedbackMatcher::new(ClockMap::new(0, 0));
    for frame in 0..=IN_FLIGHT as u64 {
        matcher.presented(frame, 0, frame * MS);
    }
    assert_eq!(matcher.counts().unanswered, 1);
    assert_eq!(matcher.take(shown(1, None, i128::from(MS), None)), None);
    assert_eq!(matcher.counts().unknown, 1);
}

/// A measured screen fed presents at `presents` (stopwatch ns), each shown at the next
/// refresh of `period` (numbered), the model predicting `model_offset` earlier.
fn measured_run(period: impl Fn(u64) -> Nanos, frames: u64, model_offset: Nanos) -> MeasuredScreen {
    let mut screen = MeasuredScreen::new(FeedbackSource::X11Present, ClockMap::new(0, 0));
    let mut at = 0;
    for frame in 0..frames {
        at += period(frame);
        let present = screen.presented(frame, 0, at - MS);
        screen.modeled(frame, Some(at - model_offset));
        screen.feedback(shown(present, None, i128::from(at), Some(frame + 1)));
    }
    screen
}

#[test]
fn the_measured_period_is_the_median_refresh_and_varying_refreshes_are_vrr() {
    let steady = measured_run(|_| FRAME_60HZ, 40, 0);
    assert_eq!(steady.period(), Some(FRAME_60HZ));
    assert!(!steady.variable());
    // One late timestamp in a steady run is not VRR.
    let hiccup = measured_run(|frame| FRAME_60HZ + u64::from(frame == 20) * 3 * MS, 40, 0);
    assert!(!hiccup.variable());
    // Each image a refresh late on the counter: the period is still one refresh.
    let mut screen = MeasuredScreen::new(FeedbackSource::X11Present, ClockMap::new(0, 0));
    for frame in 0..10 {
        let present = screen.presented(frame, 0, frame * 2 * FRAME_60HZ);
        screen.feedback(shown(
            present,
            None,
            i128::from((frame + 1) * 2 * FRAME_60HZ),
            Some(2 * frame + 2),
        ));
    }
    assert_eq!(screen.period(), Some(FRAME_60HZ));
    // 48 to 144 Hz, following the frames: VRR.
    let vrr = measured_run(
        |frame| [7 * MS, 12 * MS, 20 * MS][frame as usize % 3],
        40,
        0,
    );
    assert!(vrr.variable());
    assert_eq!(vrr.period(), Some(12 * MS));
    // Without a counter: what the platform reports, else the shortest interval.
    let mut unnumbered = MeasuredScreen::new(FeedbackSource::X11Present, ClockMap::new(0, 0));
    for (frame, at) in [(0, 10 * MS), (1, 30 * MS), (2, 40 * MS)] {
        let present = unnumbered.presented(frame, 0, at - MS);
        unnumbered.feedback(shown(present, None, i128::from(at), None));
    }
    assert_eq!(unnumbered.period(), Some(10 * MS));
    assert!(!unnumbered.variable());
}

#[test]
fn the_model_is_scored_against_the_measurement_in_either_order() {
    // The model predicts every frame 2 ms early.
    let screen = measured_run(|_| FRAME_60HZ, 30, 2 * MS);
    let score = screen.score();
    assert_eq!(score.compared, 30);
    assert!((score.mean_abs_ms() - 2.0).abs() < 1e-9);
    assert!((score.mean_ms() - 2.0).abs() < 1e-9);
    assert_eq!(score.worst, 2 * MS);
    assert_eq!(score.agreement(), 1.0);
    // Measured before modeled, and disagreements.
    let mut screen = MeasuredScreen::new(FeedbackSource::WaylandPresentation, ClockMap::new(0, 0));
    let first = screen.presented(0, 0, 0);
    let second = screen.presented(1, 0, 10 * MS);
    let third = screen.presented(2, 0, 20 * MS);
    screen.feedback(discarded(first, None));
    screen.feedback(shown(second, None, i128::from(16 * MS), Some(1)));
    screen.feedback(discarded(third, None));
    screen.modeled(0, Some(16 * MS));
    screen.modeled(1, Some(15 * MS));
    screen.modeled(2, None);
    let score = screen.score();
    assert_eq!(
        (
            score.compared,
            score.model_only,
            score.both_dropped,
            score.measured_only
        ),
        (1, 1, 1, 0)
    );
    assert_eq!(score.worst, MS);
    assert!((score.agreement() - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(screen.shown().len(), 1);
}

#[test]
fn a_restarted_model_keeps_the_platforms_numbering_and_stops_scoring_the_old_frames() {
    let mut screen = MeasuredScreen::new(FeedbackSource::X11Present, ClockMap::new(0, 0));
    for frame in 0..3 {
        assert_eq!(screen.presented(frame, 0, frame * 10 * MS), frame + 1);
    }
    // A recording starts: the model numbers its frames from 0 again, the swap chain's
    // serials go on.
    screen.restart();
    assert_eq!(screen.presented(0, 0, 30 * MS), 4);
    screen.modeled(1, Some(15 * MS));
    // Present 2 showed the old frame 1: measured, but neither scored nor given a frame.
    let old = screen
        .feedback(shown(2, None, i128::from(16 * MS), Some(2)))
        .expect("counted");
    assert_eq!(old.frame, UNSCORED);
    assert_eq!(screen.score().judged(), 0);
    // Present 4 is the new frame 0.
    let new = screen
        .feedback(shown(4, None, i128::from(33 * MS), Some(3)))
        .expect("matched");
    assert_eq!(new.frame, 0);
    assert_eq!(screen.counts().shown, 2);
}

#[test]
fn an_unnamed_answer_shown_before_its_present_is_an_old_swap_chains() {
    let mut matcher = FeedbackMatcher::new(ClockMap::new(0, 0));
    matcher.new_surface(100 * MS);
    matcher.presented(7, 0, 100 * MS);
    // Serial 1 of the old chain, shown 5 ms before this chain's first present.
    assert_eq!(
        matcher.take(shown(1, None, i128::from(95 * MS), None)),
        None
    );
    assert_eq!(matcher.counts().old_surface, 1);
    // A named answer may come that early (the compositor showed it while the call returned).
    let mut named = FeedbackMatcher::new(ClockMap::new(0, 0));
    let generation = named.new_surface(100 * MS);
    named.presented(7, 0, 100 * MS);
    assert!(
        named
            .take(shown(1, Some(generation), i128::from(99 * MS), None))
            .is_some()
    );
}

#[test]
fn the_grid_is_the_period_and_the_phase_the_images_land_on() {
    // Every refresh of a 60 Hz grid that starts 4.2 ms into the stopwatch's periods.
    let phase = 4_200_000;
    let on_grid = |images: u64, stray: &dyn Fn(u64) -> Nanos| {
        let mut screen = MeasuredScreen::new(FeedbackSource::X11Present, ClockMap::new(0, 0));
        for frame in 0..images {
            let at = phase + (frame + 3) * FRAME_60HZ + stray(frame);
            let present = screen.presented(frame, 0, at - 2 * MS);
            screen.feedback(shown(present, None, i128::from(at), Some(frame + 3)));
        }
        screen
    };
    let steady = on_grid(40, &|_| 0);
    assert_eq!(
        steady.vblank_timing(),
        Some(VblankTiming {
            period: FRAME_60HZ,
            phase: Some(phase)
        })
    );
    // Too few intervals yet: no grid.
    assert_eq!(on_grid(10, &|_| 0).vblank_timing(), None);
    // Timestamps that stray by a few tenths of a millisecond are still on the grid.
    let wobbly = on_grid(40, &|frame| (frame % 3) * 300_000)
        .vblank_timing()
        .unwrap();
    assert!(wobbly.period.abs_diff(FRAME_60HZ) <= 300_000, "{wobbly:?}");
    let off = wobbly.phase.unwrap().abs_diff(phase);
    assert!(off < 400_000, "{off}");
    // One image 4 ms off the grid moves neither the period nor the phase...
    let stray = on_grid(40, &|frame| u64::from(frame == 35) * 4 * MS).vblank_timing();
    assert_eq!(
        stray,
        Some(VblankTiming {
            period: FRAME_60HZ,
            phase: Some(phase)
        })
    );
    // ...but with every third 4 ms off, the refreshes' lengths spread as VRR's do: no grid.
    let scattered = on_grid(40, &|frame| u64::from(frame % 3 == 0) * 4 * MS);
    assert!(scattered.variable());
    assert_eq!(scattered.vblank_timing(), None);
    // Images stamped 25 ms apart by a compositor's own timer while the counter says one
    // refresh passed (headless Weston): a period is reported, the images are on no grid.
    let mut timer = MeasuredScreen::new(FeedbackSource::WaylandPresentation, ClockMap::new(0, 0));
    for frame in 0..40u64 {
        let at = 30 * MS + frame * 25 * MS + (frame * 7919 % 13) * MS / 10;
        let present = timer.presented(frame, 0, at - 10 * MS);
        timer.feedback(PresentFeedback::shown(
            present,
            Some(0),
            i128::from(at),
            Some(FRAME_60HZ),
            None,
        ));
    }
    assert_eq!(timer.vblank_timing().map(|timing| timing.phase), Some(None));
    // VRR has no grid.
    let vrr = measured_run(
        |frame| [7 * MS, 12 * MS, 20 * MS][frame as usize % 3],
        40,
        0,
    );
    assert_eq!(vrr.vblank_timing(), None);
}

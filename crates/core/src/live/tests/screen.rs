//! The screen model the window feeds: present modes, refreshes shown, repeated and
//! dropped, and the present times the window measures.

use super::*;
use crate::feedback::FeedbackEvent;
use crate::live::Present;

#[test]
fn the_present_rate_is_measured_from_presents() {
    let mut lab = live(LiveSettings::default());
    assert_eq!(lab.present_rate_hz(), 0.0);
    for _ in 0..200 {
        lab.stopwatch_mut().advance(10 * MS);
        lab.record_present(0);
    }
    assert!((lab.present_rate_hz() - 100.0).abs() < 1e-6);
}

#[test]
fn snapping_in_the_window_removes_the_vsync_wobble_at_the_modeled_screen() {
    let wobble = || (0..240).map(|i| if i % 2 == 0 { 15 * MS } else { 18_333_000 });
    let plain = on_screen(LiveSettings::default(), PresentModeId::Fifo, 60.0, wobble());
    let snapped = on_screen(
        LiveSettings {
            filter: crate::timestep::FilterSpec::Snap { tolerance: None },
            ..LiveSettings::default()
        },
        PresentModeId::Fifo,
        60.0,
        wobble(),
    );
    let (plain, snapped) = (plain.window_stats(), snapped.window_stats());
    assert!(plain.display_judder_ms.expect("shown") > 1.0, "{plain:?}");
    assert!(
        snapped.display_judder_ms.expect("shown") < 1e-3,
        "{snapped:?}"
    );
    // The CPU-side judder sees neither: it measures against the frame times fed.
    assert!(plain.judder_ms < 1e-6 && snapped.judder_ms < 1e-6);
}

#[test]
fn the_screen_model_follows_the_present_mode_monitor_and_override() {
    let mut lab = live(LiveSettings::default());
    let readouts = |lab: &LiveLoop<VirtualStopwatch>| lab.snapshot().readouts.screen;
    assert_eq!(lab.screen().spec().to_string(), "fifo:60:2");
    assert_eq!(readouts(&lab).refresh_source, RefreshSource::Assumed);
    lab.set_screen(ScreenFacts {
        present_mode: Some(PresentModeId::Mailbox),
        monitor_hz: Some(144.0),
    });
    assert_eq!(lab.screen().spec().to_string(), "mailbox:144");
    assert_eq!(readouts(&lab).refresh_source, RefreshSource::Monitor);
    let settings = LiveSettings {
        refresh_override_hz: 75.0,
        ..*lab.settings()
    };
    lab.apply(settings).unwrap();
    assert_eq!(lab.screen().spec().to_string(), "mailbox:75");
    assert_eq!(readouts(&lab).refresh_source, RefreshSource::Override);
    let bad = LiveSettings {
        refresh_override_hz: 5000.0,
        ..*lab.settings()
    };
    let error = lab.apply(bad).unwrap_err();
    assert_eq!(
        error.to_string(),
        "refresh rate 5000 Hz is out of range (allowed 0 (the monitor's) or 1 to 1000 Hz)"
    );
    assert_eq!(lab.screen().spec().to_string(), "mailbox:75");
}

#[test]
fn a_mailbox_drops_frames_the_refreshes_cannot_show_and_the_history_marks_them() {
    let frame = 1_000_000_000 / 144;
    let lab = on_screen(
        LiveSettings::default(),
        PresentModeId::Mailbox,
        60.0,
        std::iter::repeat_n(frame, 432),
    );
    let stats = lab.window_stats();
    assert!((80..=88).contains(&stats.dropped_frames), "{stats:?}");
    let screen = lab.snapshot().readouts.screen;
    assert!((screen.shown_fps - 60.0).abs() < 1.0, "{screen:?}");
    let dropped = lab
        .history()
        .iter()
        .filter(|sample| sample.screen == OnScreen::Dropped)
        .count();
    let shown = lab
        .history()
        .iter()
        .filter(|sample| matches!(sample.screen, OnScreen::Shown { .. }))
        .count();
    // All settled but the newest two: one waits in the mailbox for a refresh, the other
    // has not been presented yet.
    assert_eq!(dropped + shown + 2, lab.history().len());
}

#[test]
fn slow_frames_on_fifo_repeat_refreshes_on_the_refresh_row() {
    let lab = on_screen(
        LiveSettings::default(),
        PresentModeId::Fifo,
        60.0,
        std::iter::repeat_n(33_333_333, 120),
    );
    let marks = lab.snapshot().refreshes;
    let repeats = marks
        .iter()
        .filter(|mark| matches!(mark.kind, RefreshKind::Repeat(_)))
        .count();
    let new = marks
        .iter()
        .filter(|mark| mark.kind == RefreshKind::New)
        .count();
    assert_eq!(new, 120);
    assert_eq!(repeats, 119);
    // Each repeat shows the frame before it again.
    let mut on_screen = None;
    for mark in marks.iter() {
        match mark.kind {
            RefreshKind::New => on_screen = Some(mark.frame),
            RefreshKind::Repeat(_) => assert_eq!(Some(mark.frame), on_screen),
            RefreshKind::Torn => unreachable!("FIFO never tears"),
        }
    }
    let screen = lab.snapshot().readouts.screen;
    assert!((screen.repeated_per_s - 30.0).abs() <= 1.0, "{screen:?}");
}

#[test]
fn the_window_present_time_and_acquire_wait_are_measured() {
    let mut lab = live(LiveSettings::default());
    lab.frame();
    for _ in 0..60 {
        lab.stopwatch_mut().advance(10 * MS);
        lab.record_present(4 * MS);
        lab.stopwatch_mut().advance(6 * MS);
        lab.frame();
    }
    let screen = lab.snapshot().readouts.screen;
    assert_eq!(screen.measured_presents, 60);
    assert!((screen.acquire_wait_ms - 4.0).abs() < 1e-9);
    // Frames were presented 10 ms into each 16 ms frame, not at the next frame's start:
    // with 16 ms frames on a 60 Hz grid, the shown frames keep their order and spacing.
    let shown: Vec<Nanos> = lab
        .history()
        .iter()
        .filter_map(|sample| match sample.screen {
            OnScreen::Shown { at, .. } => Some(at),
            _ => None,
        })
        .collect();
    assert!(shown.len() >= 58);
    assert!(shown.windows(2).all(|pair| pair[1] > pair[0]));
}

#[test]
fn every_pane_counts_its_shown_frames_in_the_screens_refreshes() {
    // 30 fps on a 60 Hz FIFO: every image waits one refresh and stays for two.
    let mut lab = on_screen(
        LiveSettings {
            compare: true,
            ..LiveSettings::default()
        },
        PresentModeId::Fifo,
        60.0,
        std::iter::repeat_n(33_333_333, 120),
    );
    let readouts = lab.snapshot().readouts;
    for pane in &readouts.panes[..readouts.pane_count] {
        let refreshes = pane.refreshes.expect("counted on a screen with refreshes");
        assert_eq!(refreshes.unit, FRAME_60HZ);
        let shown: u64 = refreshes.latency.iter().sum();
        assert!((118..=120).contains(&shown), "{refreshes:?}");
        assert_eq!(refreshes.gaps[2], shown - 1, "{refreshes:?}");
    }
    // A new refresh rate starts the counts over in its own unit.
    lab.set_screen(ScreenFacts {
        present_mode: Some(PresentModeId::Fifo),
        monitor_hz: Some(144.0),
    });
    frame_after(&mut lab, 33_333_333);
    let refreshes = lab.snapshot().readouts.panes[0].refreshes.unwrap();
    assert_eq!(refreshes.unit, 6_944_444);
    assert!(refreshes.latency.iter().sum::<u64>() <= 1, "{refreshes:?}");
    // So does a reset.
    for _ in 0..30 {
        frame_after(&mut lab, 33_333_333);
    }
    lab.reset();
    frame_after(&mut lab, 33_333_333);
    let refreshes = lab.snapshot().readouts.panes[0].refreshes.unwrap();
    assert_eq!(refreshes.latency.iter().sum::<u64>(), 0, "{refreshes:?}");
}

#[test]
fn late_frames_count_from_the_reset_across_changes_of_the_screen() {
    // 100 fps into a 60 Hz FIFO: images queue behind each other and reach the screen
    // later than the first refresh after they were ready.
    let mut lab = on_screen(
        LiveSettings::default(),
        PresentModeId::Fifo,
        60.0,
        std::iter::repeat_n(10 * MS, 100),
    );
    let late = |lab: &LiveLoop<VirtualStopwatch>| lab.snapshot().readouts.screen.late_frames;
    let before = late(&lab);
    assert!(before > 20, "{before}");
    // A new model on the same refresh keeps what the old one counted...
    lab.set_screen(ScreenFacts {
        present_mode: Some(PresentModeId::Mailbox),
        monitor_hz: Some(60.0),
    });
    frame_after(&mut lab, 10 * MS);
    assert!(late(&lab) >= before);
    // ...a new refresh length starts over, as the refresh histograms do.
    lab.set_screen(ScreenFacts {
        present_mode: Some(PresentModeId::Fifo),
        monitor_hz: Some(50.0),
    });
    frame_after(&mut lab, 10 * MS);
    assert!(late(&lab) < before, "{}", late(&lab));
    lab.reset();
    assert_eq!(late(&lab), 0);
    for _ in 0..100 {
        frame_after(&mut lab, 10 * MS);
    }
    assert!(late(&lab) > 20, "{}", late(&lab));
}

#[test]
fn a_measured_screen_scores_the_model_frame_by_frame() {
    use crate::feedback::{
        ClockMap, FeedbackFlags, FeedbackOutcome, FeedbackSource, PresentFeedback,
    };
    let mut lab = live(LiveSettings::default());
    assert_eq!(lab.snapshot().readouts.screen.measured, None);
    lab.feedback(FeedbackEvent::Unwatched("no Present events"));
    assert_eq!(
        lab.snapshot().readouts.screen.unmeasured,
        Some("no Present events")
    );
    // The platform's clock read 1 000 s when the stopwatch read 0.
    let offset: i128 = 1_000_000_000_000;
    lab.feedback(FeedbackEvent::Watching(
        FeedbackSource::X11Present,
        ClockMap::new(offset, 0),
    ));
    lab.frame();
    let mut presents = Vec::new();
    for _ in 0..120 {
        lab.stopwatch_mut().advance(FRAME_60HZ);
        presents.push(lab.record_present(0).expect("numbered when measured"));
        lab.frame();
    }
    // The screen showed every frame 1 ms after the model said, at numbered refreshes.
    let shown: Vec<(u64, Nanos)> = lab
        .history()
        .iter()
        .filter_map(|sample| match sample.screen {
            OnScreen::Shown { at, .. } => Some((sample.frame, at)),
            _ => None,
        })
        .collect();
    assert!(shown.len() > 100);
    // Feedback older than IN_FLIGHT presents is forgotten: answer the last 60 frames.
    let shown = &shown[shown.len() - 60..];
    for (k, &(frame, at)) in shown.iter().enumerate() {
        // Present n showed frame n - 1 (the first frame ran before any present).
        let (generation, present) = presents[frame as usize];
        assert_eq!(present, frame + 1);
        let matched = lab.feedback(FeedbackEvent::Answer(PresentFeedback {
            present,
            generation: Some(generation),
            outcome: FeedbackOutcome::Presented {
                at: offset + i128::from(at + MS),
                refresh: None,
                sequence: Some(k as u64),
                flags: FeedbackFlags::default(),
            },
        }));
        assert_eq!(matched.map(|m| m.frame), Some(frame));
    }
    let measured = lab.snapshot().readouts.screen.measured.expect("measured");
    assert_eq!(measured.source, FeedbackSource::X11Present);
    assert!((measured.refresh_hz().unwrap() - 60.0).abs() < 0.01);
    assert!(!measured.variable);
    assert_eq!(measured.score.compared, shown.len() as u64);
    assert!((measured.score.mean_ms() - 1.0).abs() < 1e-9);
    assert_eq!(measured.score.agreement(), 1.0);
    // A recreated surface: the old numbers are ignored.
    lab.presented(Present {
        began: lab.now(),
        new_surface: true,
        acquire_wait: None,
    });
    let (generation, present) = presents[119];
    assert!(
        lab.feedback(FeedbackEvent::Answer(PresentFeedback {
            present,
            generation: Some(generation),
            outcome: FeedbackOutcome::Discarded,
        }))
        .is_none()
    );
    assert_eq!(lab.screen().measured().unwrap().counts().old_surface, 1);
}

#[test]
fn a_replays_presents_are_numbered_but_neither_scored_nor_recorded() {
    use crate::feedback::{ClockMap, FeedbackFlags, FeedbackOutcome, FeedbackSource};
    let mut lab = live(LiveSettings::default());
    lab.feedback(FeedbackEvent::Watching(
        FeedbackSource::WaylandPresentation,
        ClockMap::new(0, 0),
    ));
    // A replayed frame: the window presents it, but the recording holds its times.
    lab.replay_frame(0, 0);
    lab.stopwatch_mut().advance(FRAME_60HZ);
    let (generation, present) = lab
        .presented(Present {
            began: lab.now(),
            new_surface: false,
            acquire_wait: Some(0),
        })
        .expect("numbered");
    assert_eq!(present, 1);
    let matched = lab
        .feedback(FeedbackEvent::Answer(crate::feedback::PresentFeedback {
            present,
            generation: Some(generation),
            outcome: FeedbackOutcome::Presented {
                at: i128::from(2 * FRAME_60HZ),
                refresh: None,
                sequence: Some(2),
                flags: FeedbackFlags::default(),
            },
        }))
        .expect("matched");
    assert_eq!(matched.frame, crate::feedback::UNSCORED);
    let measured = lab.screen().measured().expect("measured");
    assert_eq!(measured.counts().shown, 1);
    assert_eq!(measured.score().judged(), 0);
    // The window's own present after it is numbered on.
    assert_eq!(lab.record_present(0).map(|(_, n)| n), Some(2));
}

#[test]
fn the_model_takes_the_measured_refresh_and_phase_and_its_guesses_end() {
    use crate::display::{DisplaySpec, Refresh};
    use crate::feedback::{ClockMap, FeedbackSource, PresentFeedback};
    // A 59.94 Hz screen whose refreshes start 7 ms into the stopwatch, on a monitor that
    // reports 60 Hz. Each frame starts 3 ms after a refresh and presents 2 ms later: its
    // image is shown at the next refresh, and the platform says so two frames later.
    let screen = Refresh::new(59.94).unwrap().with_phase(7 * MS);
    let period = screen.period_ns();
    let mut lab = live(LiveSettings::default());
    lab.set_screen(ScreenFacts {
        present_mode: Some(PresentModeId::Fifo),
        monitor_hz: Some(60.0),
    });
    lab.feedback(FeedbackEvent::Watching(
        FeedbackSource::WaylandPresentation,
        ClockMap::new(0, 0),
    ));
    let mut waiting = std::collections::VecDeque::new();
    let score = |lab: &LiveLoop<VirtualStopwatch>| lab.screen().measured().unwrap().score();
    let mut scores = Vec::new();
    for i in 0..400u64 {
        let start = screen.at(i) + 3 * MS;
        let now = lab.now();
        lab.stopwatch_mut().advance(start - now);
        lab.frame();
        lab.stopwatch_mut().advance(2 * MS);
        let (generation, present) = lab.record_present(0).expect("measured");
        waiting.push_back((generation, present, screen.at(i + 1), i + 1));
        if waiting.len() > 2 {
            let (generation, present, at, sequence) = waiting.pop_front().unwrap();
            lab.feedback(FeedbackEvent::Answer(PresentFeedback::shown(
                present,
                Some(generation),
                i128::from(at),
                Some(period),
                Some(sequence),
            )));
        }
        scores.push(score(&lab));
    }
    let readouts = lab.snapshot().readouts.screen;
    assert_eq!(
        readouts.refresh_source,
        RefreshSource::Measured { vblank: true }
    );
    assert!((readouts.refresh_hz - 59.94).abs() < 1e-4, "{readouts:?}");
    let Some(DisplaySpec::Fifo { refresh, .. }) = Some(lab.screen().spec()) else {
        panic!("{}", lab.screen().spec());
    };
    let phase_off = refresh.at(300).abs_diff(screen.at(300));
    assert!(
        phase_off < 10_000,
        "the model's refresh 300 is {phase_off} ns off"
    );
    // Before the model took the measured grid its display times were off by milliseconds;
    // after it, by nothing.
    let mean_abs = |from: usize, to: usize| {
        let (a, b) = (scores[from], scores[to]);
        (b.abs_error_sum - a.abs_error_sum) as f64 / (b.compared - a.compared) as f64 / 1e6
    };
    assert!(mean_abs(2, 30) > 1.0, "{}", mean_abs(2, 30));
    assert!(mean_abs(200, 399) < 0.01, "{}", mean_abs(200, 399));
}

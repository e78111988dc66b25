//! The modeled screen on the axis: the stopwatch-to-axis mapping, the refreshes in the
//! window, and what the screen did with each frame.

use super::*;

/// A history of hand-made samples: `(wall, T)` in ms, each with `screen`.
fn knots(points: &[(Nanos, Nanos, OnScreen)]) -> History {
    let mut history = History::default();
    for (frame, &(wall, t, screen)) in points.iter().enumerate() {
        history.push(FrameSample {
            wall: wall * MS,
            presented_time: t * MS,
            frame: frame as u64,
            screen,
            ..FrameSample::default()
        });
    }
    history
}

/// Running 10 ms, paused 10 ms, then 30 ms of simulated time in 10 ms of real time (a
/// time scale of 3), from stopwatch time 100 ms.
fn uneven_knots() -> History {
    let shown = |at: Nanos| OnScreen::Shown {
        at: at * MS,
        display_time: 0,
    };
    knots(&[
        (100, 0, shown(104)),
        (110, 10, OnScreen::Dropped),
        (120, 10, shown(125)),
        (130, 40, OnScreen::Pending),
    ])
}

#[test]
fn wall_times_map_linearly_between_the_frames_knots() {
    let model = model_of(&uneven_knots());
    assert_eq!(model.frames.len(), 3);
    assert_eq!(model.wall_range(), Some(100 * MS..=130 * MS));
    assert_eq!((model.axis_start, model.axis_end), (0, 40 * MS));
    // Each knot (wall_i, T_i) maps exactly, and linearly between them.
    for (wall, t) in [
        (100, 0),
        (104, 4),
        (110, 10),
        (115, 10),
        (120, 10),
        (125, 25),
    ] {
        assert_eq!(model.axis_time(wall * MS), t * MS, "wall {wall} ms");
    }
    assert_eq!(model.axis_time(130 * MS), 40 * MS);
    // Outside the window: clamped to the axis' ends.
    assert_eq!(model.axis_time(0), 0);
    assert_eq!(model.axis_time(500 * MS), 40 * MS);
    // The same stopwatch time on a steady loop is the same axis time.
    let steady = model_of(&history(with(Strategy::Accumulator), [10 * MS; 5]));
    assert_eq!(steady.axis_time(23 * MS), 23 * MS);
    // Without frames, the axis' start.
    assert_eq!(TimelineModel::default().axis_time(5), 0);
}

#[test]
fn frames_shown_in_the_window_are_placed_where_they_reached_the_screen() {
    let model = model_of(&uneven_knots());
    let shown: Vec<Option<Nanos>> = model.frames.iter().map(|f| model.shown_at(f)).collect();
    // Frame 1 dropped, frame 2 shown at 125 ms (25 ms on the axis), frame 3 pending.
    assert_eq!(shown, [None, Some(25 * MS), None]);
    // Shown after the window's last knot: not on the strip.
    let late = knots(&[
        (0, 0, OnScreen::Pending),
        (
            10,
            10,
            OnScreen::Shown {
                at: 30 * MS,
                display_time: 0,
            },
        ),
    ]);
    let model = model_of(&late);
    assert_eq!(model.shown_at(&model.frames[0]), None);
}

#[test]
fn the_refreshes_in_the_window_are_picked_and_last_until_the_next() {
    let mut model = model_of(&uneven_knots());
    let mut marks = Ring::new(64);
    for (k, at) in (90..140).step_by(7).enumerate() {
        marks.push(RefreshMark {
            at: at * MS,
            kind: if k % 2 == 0 {
                RefreshKind::New
            } else {
                RefreshKind::Repeat(crate::display::RepeatCause::CpuLate)
            },
            frame: k as u64 / 2,
        });
    }
    model.place_refreshes(&marks);
    let placed: Vec<(Nanos, Nanos, Nanos)> = model
        .refreshes
        .iter()
        .map(|r| (r.mark.at / MS, r.start / MS, r.end / MS))
        .collect();
    // Marks at 90 and 97 ms are before the window, 132 and 139 ms after; the last one
    // in it lasts until the next mark, past the window: the axis' end.
    assert_eq!(
        placed,
        [(104, 4, 10), (111, 10, 10), (118, 10, 25), (125, 25, 40)]
    );
    // Shades follow the shown frame: a new image and its repeat share one.
    let shades: Vec<bool> = model.refreshes.iter().map(TimelineRefresh::shade).collect();
    assert_eq!(shades, [true, true, false, false]);
    assert!(model.refreshes[1].repeat() && !model.refreshes[1].torn());
    // Frame 2's image came after one repeat of frame 1's; whether frame 1's came after
    // repeats is not known in the window (its refresh is the first), and frame 3's image
    // reached the screen after it.
    let repeats: Vec<Option<String>> = model
        .frames
        .iter()
        .map(|frame| model.repeats_before(frame).map(|causes| causes.describe()))
        .collect();
    assert_eq!(repeats, [None, Some("1 CPU late".to_owned()), None]);
    // No marks, or no frames: nothing placed.
    model.place_refreshes(&Ring::new(4));
    assert!(model.refreshes.is_empty());
    let mut empty = TimelineModel::default();
    empty.place_refreshes(&marks);
    assert!(empty.refreshes.is_empty());
    // A rebuild forgets them until they are placed again.
    model.place_refreshes(&marks);
    model.rebuild(&uneven_knots());
    assert!(model.refreshes.is_empty());
}

/// The model of a live loop on a virtual stopwatch, refreshes placed, after `frames`
/// frames of `frame` each; `facts` says what screen the window has, if any.
fn live_model(facts: Option<ScreenFacts>, frame: Nanos, frames: usize) -> TimelineModel {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), with(Strategy::Accumulator))
        .expect("valid settings");
    if let Some(facts) = facts {
        live.request(LiveRequest::Screen(facts))
            .expect("the loop takes it");
    }
    live.frame();
    for _ in 0..frames {
        live.stopwatch_mut().advance(frame);
        live.frame();
    }
    let mut model = model_of(live.history());
    model.place_refreshes(live.snapshot().refreshes);
    assert_eq!(live.stopwatch().now(), frame * frames as Nanos);
    model
}

#[test]
fn fifo_shows_every_frame_at_its_own_new_refresh() {
    // FIFO at 60 Hz (the default screen) and a 60 Hz loop.
    let model = live_model(None, FRAME_60HZ, 60);
    assert!(model.refreshes.len() >= 25, "{}", model.refreshes.len());
    assert!(model.refreshes.windows(2).all(|w| w[0].end == w[1].start));
    let mut connected = 0;
    for frame in &model.frames {
        assert!(!frame.dropped_image());
        if let Some(t) = model.shown_at(frame) {
            let refresh = model
                .refreshes
                .iter()
                .find(|r| r.mark.frame == frame.sample.frame && !r.repeat())
                .expect("the refresh that first showed it");
            assert_eq!(refresh.start, t);
            // Shown after it started: right of the start of its box.
            assert!(t > frame.start, "{frame:?}");
            connected += 1;
        }
    }
    assert!(connected >= 25, "{connected} frames shown in the window");
    // Every image made the first refresh after it: nothing repeated before any of them.
    assert!(
        model
            .frames
            .iter()
            .filter_map(|frame| model.repeats_before(frame))
            .all(|causes| causes.total() == 0)
    );
}

#[test]
fn at_30_fps_on_a_60_hz_fifo_each_image_follows_one_repeat_of_a_late_cpu_frame() {
    let model = live_model(None, 2 * FRAME_60HZ, 60);
    let repeats: Vec<String> = model
        .frames
        .iter()
        .filter_map(|frame| model.repeats_before(frame))
        .map(|causes| causes.describe())
        .collect();
    assert!(repeats.len() >= 12, "{repeats:?}");
    assert!(
        repeats.iter().all(|text| text == "1 CPU late"),
        "{repeats:?}"
    );
}

#[test]
fn mailbox_drops_frames_and_shows_a_new_one_every_refresh() {
    let mailbox = ScreenFacts {
        present_mode: Some(PresentModeId::Mailbox),
        monitor_hz: Some(60.0),
    };
    let model = live_model(Some(mailbox), 1_000_000_000 / 144, 144);
    let dropped = model.frames.iter().filter(|f| f.dropped_image()).count();
    // About 84 frames fall in the last half-second's 30 refreshes: over half dropped.
    assert!(dropped > model.frames.len() / 2, "{dropped} dropped");
    assert!(model.refreshes.iter().all(|r| !r.repeat() && !r.torn()));
    assert!(model.refreshes.len() >= 29, "{}", model.refreshes.len());
    assert!(
        model
            .refreshes
            .windows(2)
            .all(|w| w[0].mark.frame < w[1].mark.frame)
    );
    let dropped = model.frames.iter().find(|f| f.dropped_image());
    assert_eq!(
        dropped.map(|frame| frame.screen_text(false)).as_deref(),
        Some("dropped: replaced before a refresh showed it (modeled)")
    );
}

#[test]
fn the_screen_label_names_the_model_and_the_measurement() {
    let fifo = DisplaySpec::parse("fifo:60:2").expect("a valid spec");
    assert_eq!(screen_label(fifo, None), "screen (modeled: fifo:60:2)");
    assert_eq!(
        screen_label(
            DisplaySpec::parse("mailbox:144").expect("a valid spec"),
            Some(FeedbackSource::WaylandPresentation)
        ),
        "screen (modeled: mailbox:144; marks: measured by Wayland presentation-time)"
    );
}

#[test]
fn measured_images_in_the_window_are_placed_on_the_axis_in_order() {
    let mut model = model_of(&uneven_knots());
    let mut shown = Ring::new(16);
    // Answers come out of order; 90 ms and 135 ms lie outside the window (100 to 130 ms).
    for (frame, at) in [(2, 125), (0, 90), (1, 104), (3, 135)] {
        shown.push(MeasuredRefresh { at: at * MS, frame });
    }
    model.place_measured(&shown);
    assert_eq!(model.measured, [4 * MS, 25 * MS]);
    // A rebuild forgets them until they are placed again.
    model.rebuild(&uneven_knots());
    assert!(model.measured.is_empty());
}

#[test]
fn the_tooltip_says_what_the_screen_did() {
    let model = model_of(&uneven_knots());
    let texts = |measured| -> Vec<String> {
        model
            .frames
            .iter()
            .map(|f| f.screen_text(measured))
            .collect()
    };
    assert_eq!(
        texts(false),
        [
            "dropped: replaced before a refresh showed it (modeled)",
            "on screen 5.00 ms after it started (modeled)",
            "not on screen yet",
        ]
    );
    assert_eq!(
        texts(true),
        [
            "discarded: never shown (measured)",
            "on screen 5.00 ms after it started (measured)",
            "not on screen yet, or not answered yet",
        ]
    );
    // A rate the model took from the measurement is not a round number; the label rounds
    // it to a thousandth of a hertz.
    let measured = crate::display::Refresh::new(1e9 / 16_666_666.0).expect("in range");
    let fifo = DisplaySpec::Fifo {
        refresh: measured,
        queue: 2,
    };
    assert_eq!(screen_label(fifo, None), "screen (modeled: fifo:60:2)");
}

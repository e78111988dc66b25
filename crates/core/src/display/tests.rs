use super::*;
use crate::timestep::Nanos;

const MS: Nanos = 1_000_000;

fn spec(text: &str) -> DisplaySpec {
    DisplaySpec::parse(text).unwrap_or_else(|error| panic!("{text}: {error}"))
}

/// Runs a closed loop: each frame's CPU work takes `work(i)`, then it is presented; the
/// next frame starts when the present returns. Returns the events, the CPU time at the
/// end, and the display.
fn closed_loop(
    text: &str,
    frames: u64,
    gpu_cost: Nanos,
    work: impl Fn(u64) -> Nanos,
) -> (Vec<DisplayEvent>, Nanos, Display) {
    let mut display = Display::new(spec(text));
    let mut events = Vec::new();
    let mut now = 0;
    for i in 0..frames {
        now = display.present(now + work(i), gpu_cost, |e| events.push(e));
    }
    display.finish(now, |e| events.push(e));
    (events, now, display)
}

fn shown_frames(events: &[DisplayEvent]) -> Vec<(u64, Nanos)> {
    events
        .iter()
        .filter_map(|e| match *e {
            DisplayEvent::Shown { frame, at } => Some((frame, at)),
            _ => None,
        })
        .collect()
}

#[test]
fn specs_parse_and_print_back() {
    for (text, printed) in [
        ("cpu", "cpu"),
        ("trace", "trace"),
        ("fifo:60", "fifo:60:2"),
        ("FIFO:144:3", "fifo:144:3"),
        ("mailbox:60", "mailbox:60"),
        ("immediate", "immediate:60"),
        ("immediate:240", "immediate:240"),
        ("vrr:48-144", "vrr:48-144"),
        (" fifo:59.94 ", "fifo:59.94:2"),
    ] {
        let parsed = spec(text);
        assert_eq!(parsed.to_string(), printed);
        assert_eq!(spec(printed), parsed);
    }
    assert_eq!(DisplaySpec::default(), DisplaySpec::Cpu);
    assert!(!spec("cpu").is_modeled() && !spec("trace").is_modeled());
    assert!(spec("vrr:48-144").is_modeled());
    assert_eq!(spec("mailbox:75").refresh().map(|r| r.hz()), Some(75.0));
}

#[test]
fn bad_specs_name_the_problem() {
    for (text, wanted) in [
        (
            "fifo:0",
            "refresh rate 0 Hz is out of range (allowed 1 to 1000 Hz)",
        ),
        ("fifo:2000", "refresh rate 2000 Hz is out of range"),
        (
            "vrr:144-48",
            "the minimum refresh 144 Hz must be below the maximum 48 Hz",
        ),
        ("vrr:60-60", "must be below the maximum"),
        ("vrr:48", "expected vrr:MIN_HZ-MAX_HZ"),
        ("vrr:-5-10", "expected vrr:MIN_HZ-MAX_HZ"),
        ("fifo:1e308", "refresh rate 1e308 Hz is out of range"),
        ("mailbox:abc", "refresh rate \"abc\" is not a number"),
        ("mailbox", "expected mailbox:HZ"),
        ("fifo:60:0", "queue \"0\" is not a whole number from 1 to 8"),
        ("fifo:60:9", "queue \"9\" is not a whole number from 1 to 8"),
        ("fifo:nan", "refresh rate \"nan\" is not a number"),
        ("cpu:60", "expected cpu"),
        ("gsync", "unknown display (known: cpu, fifo:HZ[:QUEUE]"),
        ("\u{1b}[31m", "display \"\\u{1b}[31m\""),
    ] {
        let error = DisplaySpec::parse(text).unwrap_err();
        assert!(error.contains(wanted), "{text}: {error}");
        assert!(!error.contains('\u{1b}'), "{text}: {error:?}");
    }
}

#[test]
fn the_refresh_grid_is_exact_and_never_drifts() {
    let refresh = Refresh::new(60.0).unwrap();
    assert_eq!(refresh.at(1), 16_666_667);
    assert_eq!(refresh.at(3), 50_000_000);
    assert_eq!(refresh.at(216_000), 3_600_000_000_000);
    for t in [0, 1, 16_666_666, 16_666_667, 16_666_668, 3_600_000_000_000] {
        let k = refresh.first_at_or_after(t);
        assert!(
            refresh.at(k) >= t && (k == 0 || refresh.at(k - 1) < t),
            "{t}"
        );
        let k = refresh.last_at_or_before(t);
        assert!(refresh.at(k) <= t && refresh.at(k + 1) > t, "{t}");
    }
}

#[test]
fn fifo_shows_a_steady_60_hz_loop_at_consecutive_refreshes() {
    let refresh = Refresh::new(60.0).unwrap();
    // Frame i's present at refresh i + 1 exactly: each is shown at that refresh.
    let (events, _, display) =
        closed_loop("fifo:60", 600, 0, |i| refresh.at(i + 1) - refresh.at(i));
    let shown = shown_frames(&events);
    assert_eq!(shown.len(), 600);
    for (i, &(frame, at)) in shown.iter().enumerate() {
        assert_eq!((frame, at), (i as u64, refresh.at(i as u64 + 1)));
    }
    let counts = display.counts();
    assert_eq!((counts.dropped, counts.repeated, counts.blocked), (0, 0, 0));
    assert!((counts.shown_fps() - 60.0).abs() < 1e-6);
}

#[test]
fn a_full_fifo_queue_blocks_the_cpu_down_to_the_refresh_rate() {
    let work = 1_000_000_000 / 144;
    let (events, end, display) = closed_loop("fifo:60:2", 1440, 0, |_| work);
    let counts = display.counts();
    assert_eq!(
        (counts.shown, counts.dropped, counts.repeated),
        (1440, 0, 0)
    );
    let cpu_fps = 1440.0 / (end as f64 / 1e9);
    assert!((cpu_fps - 60.0).abs() < 0.2, "{cpu_fps}");
    assert!(counts.blocked > 0);
    // Shown at consecutive refreshes: the queue never runs dry.
    let shown = shown_frames(&events);
    assert!(shown.windows(2).all(|w| w[1].1 - w[0].1 <= 16_666_667));
    // Each image in flight adds a refresh between present and screen.
    let wait = |queue: u32| {
        let mut display = Display::new(spec(&format!("fifo:60:{queue}")));
        let (mut now, mut last_wait) = (0, 0);
        for _ in 0..600 {
            let present = now + work;
            let mut shown_at = 0;
            now = display.present(present, 0, |e| {
                if let DisplayEvent::Shown { at, .. } = e {
                    shown_at = at;
                }
            });
            last_wait = shown_at - present;
        }
        last_wait
    };
    let (one, two, three) = (wait(1), wait(2), wait(3));
    assert!(one < 2 * 16_666_667, "{one}");
    assert!((two - one).abs_diff(16_666_667) < 2, "{one} {two}");
    assert!((three - two).abs_diff(16_666_667) < 2, "{two} {three}");
}

#[test]
fn mailbox_never_blocks_and_drops_what_a_refresh_cannot_show() {
    let work = 1_000_000_000 / 144;
    let (events, end, display) = closed_loop("mailbox:60", 1440, 0, |_| work);
    let counts = display.counts();
    assert_eq!(counts.blocked, 0);
    assert_eq!(end, 1440 * work);
    assert_eq!(counts.shown + counts.dropped, 1440);
    let seconds = end as f64 / 1e9;
    let dropped_per_s = counts.dropped as f64 / seconds;
    assert!((dropped_per_s - 84.0).abs() < 1.0, "{dropped_per_s}");
    // Each refresh shows the newest frame ready by then.
    let refresh = Refresh::new(60.0).unwrap();
    for (frame, at) in shown_frames(&events) {
        let ready = (frame + 1) * work;
        assert!(at >= ready && at - ready < refresh.period_ns(), "{frame}");
        assert!(
            (frame + 2) * work > at || frame == 1439,
            "a newer frame was ready: {frame}"
        );
    }
    assert_eq!(counts.repeated, 0);
}

#[test]
fn mailbox_repeats_refreshes_when_frames_are_slow() {
    // 30 fps on a 60 Hz mailbox: every other refresh repeats.
    let (_, _, display) = closed_loop("mailbox:60", 300, 0, |_| 33_333_333);
    let counts = display.counts();
    assert_eq!((counts.shown, counts.dropped), (300, 0));
    assert!((298..=300).contains(&counts.repeated), "{counts:?}");
}

#[test]
fn immediate_shows_at_once_and_counts_torn_refreshes() {
    let (events, _, display) = closed_loop("immediate:60", 100, 0, |_| 10 * MS);
    let shown = shown_frames(&events);
    assert!(shown.iter().all(|&(frame, at)| at == (frame + 1) * 10 * MS));
    let counts = display.counts();
    assert_eq!(counts.shown, 100);
    // 100 fps on 60 Hz: one second holds 60 refreshes, most torn by an arriving frame.
    assert!(counts.torn > 50 && counts.torn <= 60, "{counts:?}");
    assert_eq!(counts.repeated, 0);
    // Frames on refresh boundaries tear nothing.
    let refresh = Refresh::new(60.0).unwrap();
    let (_, _, display) = closed_loop("immediate:60", 60, 0, |i| refresh.at(i + 1) - refresh.at(i));
    assert_eq!(display.counts().torn, 0);
    // 30 fps: every other refresh is a whole repeat.
    let (_, _, display) = closed_loop("immediate:60", 60, 0, |i| {
        refresh.at(2 * i + 2) - refresh.at(2 * i)
    });
    assert_eq!(display.counts().repeated, 59);
}

#[test]
fn vrr_follows_frames_inside_its_range_and_repeats_below_it() {
    let (events, _, display) = closed_loop("vrr:48-144", 200, 0, |_| 10 * MS);
    let shown = shown_frames(&events);
    assert_eq!(shown.len(), 200);
    assert!(shown.windows(2).all(|w| w[1].1 - w[0].1 == 10 * MS));
    assert_eq!(display.counts().repeated, 0);

    let (events, _, display) = closed_loop("vrr:48-144", 90, 0, |_| 33_333_333);
    let counts = display.counts();
    assert_eq!(counts.shown, 90);
    // Each 33.3 ms gap exceeds the 20.8 ms the panel can hold an image: one repeat each.
    assert_eq!(counts.repeated, 89);
    let repeats: Vec<Nanos> = events
        .iter()
        .filter_map(|e| match *e {
            DisplayEvent::Repeated {
                at, count, every, ..
            } => Some(at + (count - 1) * every),
            _ => None,
        })
        .collect();
    assert!(!repeats.is_empty());
    // Faster than the range: held to 144 Hz, and the queue then blocks the CPU.
    let (events, end, _) = closed_loop("vrr:48-144", 400, 0, |_| 4 * MS);
    let fast = shown_frames(&events);
    assert!(fast.windows(2).all(|w| w[1].1 - w[0].1 >= 6_944_444));
    assert!((400.0 / (end as f64 / 1e9) - 144.0).abs() < 1.0);
}

#[test]
fn a_frame_arriving_during_a_repeat_waits_for_it() {
    let mut display = Display::new(spec("vrr:48-144"));
    let mut events = Vec::new();
    display.present(0, 0, |e| events.push(e));
    // The panel repeats at 20.833 ms; a frame ready at 22 ms waits until 27.778 ms.
    display.present(22 * MS, 0, |e| events.push(e));
    assert_eq!(
        events[1..],
        [
            DisplayEvent::Repeated {
                at: 20_833_333,
                count: 1,
                every: 20_833_333,
                cause: RepeatCause::Display,
            },
            DisplayEvent::Shown {
                frame: 1,
                at: 20_833_333 + 6_944_444
            },
        ]
    );
}

#[test]
fn gpu_time_delays_readiness_without_costing_cpu_time() {
    // 5 ms of CPU and 12 ms of GPU per frame on a mailbox: the GPU sets the pace, and the
    // two images in flight make the CPU wait for it.
    let (events, end, display) = closed_loop("mailbox:1000", 100, 12 * MS, |_| 5 * MS);
    let shown = shown_frames(&events);
    assert_eq!(shown[0], (0, 17 * MS));
    assert!(shown.windows(2).skip(5).all(|w| w[1].1 - w[0].1 == 12 * MS));
    let cpu_fps = 100.0 / (end as f64 / 1e9);
    assert!((cpu_fps - 1000.0 / 12.0).abs() < 2.0, "{cpu_fps}");
    assert!(display.counts().blocked > 0);
}

/// The repeated refreshes of a display's run, by cause, after the presents `(at, gpu_cost)`
/// and the end of the run at `end`.
fn blamed(
    text: &str,
    presents: &[(Nanos, Nanos)],
    end: Nanos,
) -> (Vec<DisplayEvent>, DisplayCounts) {
    let mut display = Display::new(spec(text));
    let mut events = Vec::new();
    for &(at, gpu_cost) in presents {
        display.present(at, gpu_cost, |e| events.push(e));
    }
    display.finish(end, |e| events.push(e));
    let repeats = events
        .into_iter()
        .filter(|e| matches!(e, DisplayEvent::Repeated { .. }))
        .collect();
    (repeats, display.counts())
}

fn repeat(at: Nanos, count: u64, cause: RepeatCause) -> DisplayEvent {
    DisplayEvent::Repeated {
        at,
        count,
        every: 16_666_667,
        cause,
    }
}

#[test]
fn a_frame_presented_after_the_refresh_it_needed_blames_the_cpu() {
    // Shown at 16.7 and 33.3 ms; the third present comes at 60 ms, after the refresh at
    // 50 ms started, so that one repeats.
    let (repeats, counts) = blamed("fifo:60", &[(MS, 0), (17 * MS, 0), (60 * MS, 0)], 60 * MS);
    assert_eq!(repeats, [repeat(50 * MS, 1, RepeatCause::CpuLate)]);
    assert_eq!(counts.repeated_by_cause.cpu_late, 1);
    assert_eq!(counts.late, 0);
}

#[test]
fn a_frame_presented_in_time_but_rendered_late_blames_the_gpu() {
    // Presented at 20 ms, before the refresh at 33.3 ms, but its 25 ms of GPU work end at
    // 45 ms: the refresh at 33.3 ms repeats.
    let (repeats, counts) = blamed("fifo:60", &[(MS, 0), (20 * MS, 25 * MS)], 20 * MS);
    assert_eq!(repeats, [repeat(33_333_333, 1, RepeatCause::GpuLate)]);
    assert_eq!(counts.repeated_by_cause.gpu_late, 1);
}

#[test]
fn a_frame_started_late_by_a_full_queue_blames_the_queue() {
    // One image in flight: the second present (10 ms) waits 6.7 ms for the first to be
    // shown at 16.7 ms, so the third frame's work starts then; presented at 51.7 ms, it
    // misses the refresh at 50 ms, which it would have made without that wait (45 ms).
    let presents = [(MS, 0), (10 * MS, 0), (51_666_667, 0)];
    let (repeats, counts) = blamed("fifo:60:1", &presents, 51_666_667);
    assert_eq!(repeats, [repeat(50 * MS, 1, RepeatCause::QueueFull)]);
    assert_eq!(counts.repeated_by_cause.queue_full, 1);
    // Without the wait the same late present is the CPU's.
    let (repeats, _) = blamed("fifo:60:2", &presents, 51_666_667);
    assert_eq!(repeats, [repeat(50 * MS, 1, RepeatCause::CpuLate)]);
}

#[test]
fn a_run_of_repeats_splits_between_the_causes_in_time_order() {
    // The third frame's work started 6.7 ms late (the second present waited for the
    // queue); presented at 60 ms (53.3 ms without the wait), its 30 ms of GPU work end at
    // 90 ms, so it is shown at 100 ms.
    let presents = [(MS, 0), (10 * MS, 0), (60 * MS, 30 * MS)];
    let (repeats, counts) = blamed("fifo:60:1", &presents, 60 * MS);
    // 50 ms: not presented even without the wait (53.3 ms): CPU. 66.7 ms and 83.3 ms:
    // presented (60 ms), not ready (90 ms): GPU.
    assert_eq!(
        repeats,
        [
            repeat(50 * MS, 1, RepeatCause::CpuLate),
            repeat(66_666_667, 2, RepeatCause::GpuLate),
        ]
    );
    assert_eq!(counts.repeated_by_cause.total(), counts.repeated);
}

#[test]
fn the_refreshes_after_the_last_frame_are_the_cpus_and_vrr_repeats_are_the_displays() {
    let (repeats, _) = blamed("fifo:60", &[(MS, 0)], 40 * MS);
    assert_eq!(repeats, [repeat(33_333_333, 1, RepeatCause::CpuLate)]);
    let (_, counts) = blamed("vrr:48-144", &[(0, 0), (30 * MS, 0)], 30 * MS);
    assert_eq!(counts.repeated_by_cause.display, 1);
    assert_eq!(counts.repeated, 1);
}

#[test]
fn every_repeated_refresh_has_one_cause_and_queued_frames_are_late() {
    for text in [
        "fifo:60",
        "fifo:60:1",
        "fifo:144:3",
        "mailbox:60",
        "immediate:60",
        "vrr:48-144",
    ] {
        for gpu in [0, 9 * MS] {
            // Uneven frames, some faster and some much slower than the refresh.
            let (_, _, display) = closed_loop(text, 400, gpu, |i| {
                [4, 9, 17, 30, 6, 55][i as usize % 6] * MS
            });
            let counts = display.counts();
            assert!(counts.repeated > 0, "{text}");
            assert_eq!(counts.repeated_by_cause.total(), counts.repeated, "{text}");
        }
    }
    // Frames faster than the refresh wait in the queue: shown later than they could be.
    let (_, _, display) = closed_loop("fifo:60:3", 100, 0, |_| 4 * MS);
    assert!(display.counts().late > 50, "{:?}", display.counts());
}

/// Presents one frame at `present_at` and returns when it reached the screen (a mailbox's
/// once the run ends).
fn shown_at(display: &mut Display, present_at: Nanos, gpu_cost: Nanos) -> Option<Nanos> {
    let frame = display.next_frame();
    let mut at = None;
    let mut watch = |event: DisplayEvent| {
        if let DisplayEvent::Shown {
            frame: shown,
            at: when,
        } = event
            && shown == frame
        {
            at = Some(when);
        }
    };
    display.present(present_at, gpu_cost, &mut watch);
    display.finish(present_at, &mut watch);
    at
}

#[test]
fn a_prediction_is_the_model_run_forward_and_changes_nothing() {
    // FIFO with a full queue, mailbox, VRR holding, immediate: warmed up by fast frames,
    // then a frame presented at several times, with and without GPU cost.
    for text in [
        "fifo:60",
        "fifo:60:3",
        "mailbox:60",
        "vrr:48-144",
        "immediate:60",
    ] {
        for gpu_cost in [0, 9 * MS] {
            for present_in in [MS, 7 * MS, 17 * MS, 40 * MS] {
                let (_, now, display) = closed_loop(text, 10, gpu_cost, |_| 5 * MS);
                let before = format!("{display:?}");
                let predicted = display.predict(now + present_in, gpu_cost);
                assert_eq!(format!("{display:?}"), before, "{text}: a copy ran");
                let mut real = display.clone();
                let at = shown_at(&mut real, now + present_in, gpu_cost);
                assert_eq!(predicted, at, "{text} gpu {gpu_cost} in {present_in}");
                assert!(predicted.is_some(), "{text}");
            }
        }
    }
    // A full FIFO queue: the frame waits behind the two in flight, whatever its work.
    let (_, now, display) = closed_loop("fifo:60", 10, 0, |_| 2 * MS);
    let refresh = Refresh::new(60.0).unwrap();
    let predicted = display.predict(now + MS, 0).unwrap();
    assert!(predicted >= refresh.first_at_or_after(now) + 2 * refresh.period_ns() - 1);
    for text in ["cpu", "trace"] {
        assert_eq!(Display::new(spec(text)).predict(MS, 0), None, "{text}");
    }
}

#[test]
fn the_forecast_takes_the_shortest_recent_work() {
    let display = Display::new(spec("vrr:30-240"));
    let mut forecast = Forecast::default();
    assert_eq!(
        forecast.predict(&display, 0, 0, 0),
        None,
        "nothing seen yet"
    );
    // Before any present, the frame time before the first frame stands in for the work.
    forecast.frame_time(0);
    assert_eq!(forecast.work(), None, "nothing measured");
    forecast.frame_time(12 * MS);
    assert_eq!(forecast.work(), Some(12 * MS));
    forecast.presented(100 * MS, 115 * MS);
    forecast.presented(115 * MS, 133 * MS);
    forecast.frame_time(2 * MS);
    assert_eq!(
        forecast.work(),
        Some(12 * MS),
        "presents came: intervals no longer count"
    );
    for _ in 0..FORECAST_FRAMES {
        forecast.presented(0, 15 * MS);
    }
    assert_eq!(
        forecast.work(),
        Some(15 * MS),
        "the window moved past 12 ms"
    );
    // VRR shows the frame when it is ready: its start, the work, half the tolerance early.
    assert_eq!(
        forecast.predict(&display, 0, 500 * MS, 0),
        Some(515 * MS - FORECAST_TOLERANCE / 2)
    );
    // A capture's display times: the last shown frame's delay.
    let mut forecast = Forecast::default();
    let capture = Display::new(spec("trace"));
    assert_eq!(forecast.predict(&capture, 7, 40 * MS, 0), None);
    forecast.shown(7, 71 * MS);
    assert_eq!(forecast.predict(&capture, 8, 100 * MS, 0), Some(131 * MS));
    // A frame shown that was never forecast teaches nothing.
    forecast.shown(99, 500 * MS);
    assert_eq!(forecast.predict(&capture, 9, 200 * MS, 0), Some(231 * MS));
    assert_eq!(forecast.predict(&Display::new(spec("cpu")), 10, 0, 0), None);
}

#[test]
fn a_forecast_that_scores_worse_than_a_steady_delay_falls_back_without_a_jump() {
    // A capture whose delays alternate 10 and 30 ms: the last delay, the model on a
    // capture, is always 20 ms wrong and its error swings 40 ms a frame, against the
    // steady delay's 20. After two changes scored it falls back, holding the forecast it
    // made last: the switch itself moves nothing.
    let capture = Display::new(spec("trace"));
    let mut forecast = Forecast::default();
    let mut forecasts = Vec::new();
    for frame in 0..12u64 {
        let start = frame * 40 * MS;
        let delay = if frame % 2 == 0 { 10 * MS } else { 30 * MS };
        let predicted = forecast.predict(&capture, frame, start, 0);
        forecasts.push((forecast.fallen_back(), predicted.map(|at| at - start)));
        forecast.shown(frame, start + delay);
    }
    let fell = forecasts
        .iter()
        .position(|&(fallen, _)| fallen)
        .expect("it falls back");
    assert!(fell <= 5, "{forecasts:?}");
    assert_eq!(
        forecasts[fell].1,
        forecasts[fell - 1].1,
        "no jump: {forecasts:?}"
    );
    assert!(
        forecasts[fell..].iter().all(|f| f == &forecasts[fell]),
        "a steady delay from then on: {forecasts:?}"
    );
}

#[test]
fn repeat_causes_are_described_largest_first() {
    let mut causes = RepeatCauses::default();
    assert_eq!(causes.describe(), "none");
    causes.add(RepeatCause::QueueFull, 1);
    causes.add(RepeatCause::CpuLate, 2);
    causes.add(RepeatCause::Display, 1);
    assert_eq!(causes.describe(), "2 CPU late, 1 queue full, 1 VRR");
    for cause in RepeatCause::ALL {
        assert_eq!(
            causes.get(cause),
            [2, 0, 1, 1][RepeatCause::ALL.iter().position(|&c| c == cause).unwrap()]
        );
    }
}

#[test]
fn a_phased_refresh_starts_its_refreshes_at_the_phase() {
    let plain = Refresh::new(60.0).unwrap();
    let phased = plain.with_phase(7_000_000);
    assert_eq!(phased.period_ns(), plain.period_ns());
    assert_eq!(phased.at(0), 7_000_000);
    assert_eq!(phased.at(3), 57_000_000);
    assert_eq!(phased.first_at_or_after(0), 0);
    assert_eq!(phased.first_at_or_after(7_000_000), 0);
    assert_eq!(phased.first_at_or_after(7_000_001), 1);
    assert_eq!(phased.last_at_or_before(phased.at(5)), 5);
    assert_eq!(phased.last_at_or_before(phased.at(5) - 1), 4);
    // Before refresh 0 there is none earlier: refresh 0 (documented).
    assert_eq!(phased.last_at_or_before(3_000_000), 0);
    // A phase of a period or more is the same grid.
    assert_eq!(plain.with_phase(plain.period_ns() + 5).phase(), 5);
    assert_eq!(plain.with_phase(plain.period_ns()).phase(), 0);
}

#[test]
fn a_refitted_refresh_is_the_same_refresh_and_59_94_hz_is_not_60() {
    let period = |hz: f64| Refresh::new(hz).unwrap().period_ns();
    assert!(same_refresh(period(60.0), period(60.0)));
    assert!(same_refresh(16_666_667, 16_666_667 + 3_000));
    assert!(!same_refresh(period(60.0), period(59.94)));
    assert!(!same_refresh(period(144.0), period(143.856)));
    assert!(same_refresh(0, 0));
    assert!(!same_refresh(0, period(60.0)));
}

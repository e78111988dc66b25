//! Recording the live loop and replaying it: the same frames, reports and state, in bench, through
//! the replay and through the window's replay control.

use std::io::Write;
use std::sync::{Arc, Mutex};

use timestep_lab_bench::recording::{
    RecordingWriter, load_recording, read_recording, recording_from_trace,
};
use timestep_lab_core::live::*;
use timestep_lab_core::metrics::Metrics;
use timestep_lab_core::timestep::{FrameReport, Nanos, Strategy};

const MS: Nanos = 1_000_000;

/// A recording's destination the test can read back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .expect("not poisoned")
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a run leaves to compare: every pane's report per frame, and at the end every
/// pane's metrics.
#[derive(Debug, PartialEq)]
struct Outcome {
    reports: Vec<Vec<FrameReport>>,
    metrics: Vec<Metrics>,
}

fn outcome_of(live: &LiveLoop<impl Stopwatch>, reports: Vec<Vec<FrameReport>>) -> Outcome {
    Outcome {
        reports,
        metrics: live.panes().iter().map(Pane::run_metrics).collect(),
    }
}

fn pane_reports(live: &LiveLoop<impl Stopwatch>) -> Vec<FrameReport> {
    live.panes()
        .iter()
        .map(|pane| pane.last().expect("ran").report)
        .collect()
}

/// A scripted session on the virtual clock: uneven frames, a per-step load (so load is
/// carried into frames), presents at uneven offsets, kicks, a pause with a single step, a
/// new physics rate, a strategy switch (`switch`) and a change of screen. Returns the
/// recording's bytes and what the live loop did.
fn scripted_recording(start: LiveSettings, switch: Option<Strategy>) -> (Vec<u8>, Outcome) {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), start).expect("valid");
    live.request(LiveRequest::Screen(ScreenFacts {
        present_mode: Some(PresentModeId::Fifo),
        monitor_hz: Some(60.0),
    }))
    .expect("the loop takes it");
    // Frames before the recording: the recording must not depend on them.
    for _ in 0..7 {
        live.stopwatch_mut().advance(13 * MS);
        live.frame();
        live.record_present(MS / 2);
    }
    let out = Shared::default();
    live.start_recording("virtual adapter", |header| {
        Ok(Box::new(RecordingWriter::new(out.clone(), header)?))
    })
    .expect("header written");
    let mut reports = Vec::new();
    for i in 0..600u64 {
        match i {
            40 | 41 | 300 => live.request(LiveRequest::Kick).expect("the loop takes it"),
            100 => live.request(LiveRequest::Pause).expect("the loop takes it"),
            110 => live
                .request(LiveRequest::SingleStep)
                .expect("the loop takes it"),
            130 => live
                .request(LiveRequest::Resume)
                .expect("the loop takes it"),
            200 => {
                let mut settings = *live.settings();
                settings.rate_hz = 120.0;
                settings.load.step_cost_ms = 1.5;
                live.request(LiveRequest::Settings(settings))
                    .expect("valid");
            }
            250 => {
                if let Some(strategy) = switch {
                    let mut settings = *live.settings();
                    settings.strategy = strategy;
                    live.request(LiveRequest::Settings(settings))
                        .expect("valid");
                }
            }
            400 => live
                .request(LiveRequest::Screen(ScreenFacts {
                    present_mode: Some(PresentModeId::Mailbox),
                    monitor_hz: Some(144.0),
                }))
                .expect("the loop takes it"),
            500 => live.request(LiveRequest::Reset).expect("the loop takes it"),
            _ => {}
        }
        live.stopwatch_mut()
            .advance(9 * MS + (i * 7919 % 23) * MS / 4);
        live.frame();
        reports.push(pane_reports(&live));
        if i % 5 != 3 {
            live.stopwatch_mut().advance((i % 3) * MS);
            live.record_present((i % 4) * MS / 10);
        }
    }
    let frames = live.stop_recording().expect("written");
    assert_eq!(frames, 600);
    let bytes = out.0.lock().expect("not poisoned").clone();
    (bytes, outcome_of(&live, reports))
}

fn read_back(bytes: &[u8]) -> Arc<Recording> {
    Arc::new(read_recording(bytes, "session.csv").expect("a recording"))
}

fn replayed(recording: &Arc<Recording>) -> Outcome {
    // A loop in another state than the recorded one: the replay sets it up.
    let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
        .expect("valid settings");
    live.stopwatch_mut().advance(12345 * MS);
    live.frame();
    let mut replay = Replay::new(Arc::clone(recording));
    replay.begin(&mut live).expect("valid");
    let mut reports = Vec::new();
    while replay.step(&mut live).is_some() {
        reports.push(pane_reports(&live));
    }
    outcome_of(&live, reports)
}

#[test]
fn a_replayed_recording_runs_the_same_frames_to_the_same_state() {
    let start = LiveSettings {
        strategy: Strategy::Accumulator,
        ..LiveSettings::default()
    };
    let (bytes, live) = scripted_recording(start, Some(Strategy::Interpolated));
    let recording = read_back(&bytes);
    assert_eq!(recording.summary.frames, 600);
    assert!(recording.summary.events >= 9, "{:?}", recording.summary);
    let replay = replayed(&recording);
    assert_eq!(replay.reports.len(), live.reports.len());
    for (i, (a, b)) in live.reports.iter().zip(&replay.reports).enumerate() {
        assert_eq!(a, b, "frame {i}");
    }
    assert_eq!(replay.metrics, live.metrics);
    assert_ne!(live.metrics[0].state_hash, 0);
}

/// A recording is read from its file at every pass, not held: one loaded from a file replays
/// to the recorded state, and one whose file is damaged after it was checked stops at the
/// damaged row with the file and line named, in bench and in the window's replay.
#[test]
fn a_recording_replays_from_its_file_and_a_file_damaged_since_stops_with_its_line() {
    let start = LiveSettings {
        strategy: Strategy::Accumulator,
        ..LiveSettings::default()
    };
    let (bytes, live) = scripted_recording(start, None);
    let path = std::env::temp_dir().join(format!("timestep-lab-replay-{}.csv", std::process::id()));
    std::fs::write(&path, &bytes).expect("the temporary folder is writable");
    let recording = Arc::new(load_recording(&path).expect("a recording"));
    assert_eq!(recording.summary.frames, 600);
    let bench = replay_all(&recording, None).expect("read to the end");
    assert_eq!(bench.panes()[0].run_metrics(), live.metrics[0]);
    // Row 299 (line 307: six header lines and the columns come first) damaged.
    let text = String::from_utf8(bytes).expect("UTF-8");
    let mut lines: Vec<&str> = text.lines().collect();
    let damaged = lines[306].replacen("3", "x", 1);
    lines[306] = &damaged;
    std::fs::write(&path, lines.join("\n")).expect("rewritten");
    let Err(error) = replay_all(&recording, None) else {
        panic!("a read error");
    };
    let message = error.to_string();
    assert!(
        matches!(error, ReplayError::Read(_)) && message.contains(":307: "),
        "{message}"
    );
    let mut window = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
        .expect("valid settings");
    let mut replay = Replay::new(Arc::clone(&recording));
    replay.begin(&mut window).expect("valid");
    let mut frames = 0;
    while replay.step(&mut window).is_some() {
        frames += 1;
    }
    assert_eq!(frames, 299);
    assert!(replay.status().finished);
    assert_eq!(replay.error(), Some(message.as_str()));
    // Gone altogether: the next pass says so.
    std::fs::remove_file(&path).expect("removed");
    replay.begin(&mut window).expect("valid");
    assert!(replay.step(&mut window).is_none());
    assert!(
        replay
            .error()
            .is_some_and(|error| error.contains("cannot read")),
        "{:?}",
        replay.error()
    );
}

#[test]
fn comparison_panes_replay_too() {
    let start = LiveSettings {
        compare: true,
        ..LiveSettings::default()
    };
    let (bytes, live) = scripted_recording(start, None);
    let replay = replayed(&read_back(&bytes));
    assert_eq!(live.metrics.len(), 6);
    assert_eq!(replay, live);
}

#[test]
fn bench_replay_of_a_recording_gives_the_live_metrics_exactly() {
    let start = LiveSettings {
        strategy: Strategy::Extrapolated,
        ..LiveSettings::default()
    };
    let (bytes, live) = scripted_recording(start, None);
    let recording = read_back(&bytes);
    let bench = replay_all(&recording, Some(Strategy::Extrapolated)).expect("valid");
    assert_eq!(bench.run_metrics(), live.metrics[0]);
    // Another strategy over the same frames is another run.
    let other = replay_all(&recording, Some(Strategy::Accumulator)).expect("valid");
    assert_ne!(other.run_metrics(), live.metrics[0]);
    assert_eq!(other.panes()[0].strategy(), Strategy::Accumulator);
}

#[test]
fn a_write_error_stops_the_recording_and_says_why() {
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::from_raw_os_error(28))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(std::io::Error::from_raw_os_error(28))
        }
    }
    let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default()).unwrap();
    // The header goes through a buffer; the failure shows when it is written out.
    let started = live.start_recording("a", |header| {
        Ok(Box::new(RecordingWriter::new(
            std::io::BufWriter::new(Full),
            header,
        )?))
    });
    assert!(started.is_ok());
    let mut error = None;
    for _ in 0..20_000 {
        live.stopwatch_mut().advance(MS);
        live.frame();
        if let Some(message) = live.take_recording_error() {
            error = Some(message);
            break;
        }
    }
    let error = error.expect("the write failed");
    assert!(error.contains("No space left on device"), "{error}");
    assert!(live.recording().is_none());
}

#[test]
fn a_trace_replays_paced_by_real_time_with_speed_pause_seek_and_loop() {
    let trace = timestep_lab_bench::trace::FrameTrace {
        source: "t".into(),
        frame_times_ns: vec![10 * MS, 10 * MS, 100 * MS, 10 * MS],
        display_ns: None,
        display_anchor_ns: None,
        notes: Vec::new(),
    };
    let recording = Arc::new(recording_from_trace(trace));
    let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default()).unwrap();
    let mut replay = Replay::new(Arc::clone(&recording));
    replay.begin(&mut live).unwrap();
    // Frames start at 0, 10, 20 and 120 ms of recorded time.
    assert_eq!(replay.advance(&mut live, 0).unwrap(), 1);
    assert_eq!(replay.advance(&mut live, 15 * MS).unwrap(), 1);
    // The 100 ms hitch: nothing for 90 ms of real time.
    replay.set_speed(0.5);
    assert_eq!(replay.advance(&mut live, 10 * MS).unwrap(), 1);
    assert_eq!(replay.advance(&mut live, 150 * MS).unwrap(), 0);
    replay.set_playing(false);
    assert_eq!(replay.advance(&mut live, 1000 * MS).unwrap(), 0);
    replay.set_playing(true);
    assert_eq!(replay.advance(&mut live, 50 * MS).unwrap(), 1);
    assert!(replay.status().finished);
    assert_eq!(replay.advance(&mut live, 50 * MS).unwrap(), 0);
    // Seek back: the frames before the target run again, the same way.
    let end = live.run_metrics();
    replay.seek(&mut live, 2).unwrap();
    assert_eq!(replay.status().frame, 2);
    assert_eq!(live.run_metrics().frames, 2);
    replay.set_playing(true);
    replay.set_speed(1.0);
    // From frame 1's start (10 ms): frames 2 and 3 start by 130 ms.
    assert_eq!(replay.advance(&mut live, 120 * MS).unwrap(), 2);
    assert_eq!(live.run_metrics(), end);
    // Looping: one pass is 130 ms (the last frame ends at 130 ms); 15 ms past the end of
    // the pass, the first two frames (0 and 10 ms) have run again.
    replay.set_looping(true);
    assert_eq!(replay.advance(&mut live, 25 * MS).unwrap(), 2);
    assert_eq!(replay.status().frame, 2);
    assert_eq!(live.run_metrics().frames, 2);
}

/// The window's replay control ([`ReplayControl`]), on a recording written and read back.
mod control {
    use std::time::{Duration, Instant};

    use super::Shared;
    use std::sync::Arc;
    use timestep_lab_bench::recording::{RecordingWriter, read_recording};
    use timestep_lab_core::live::{
        LiveLoop, LiveSettings, Recording, Replay, ReplayControl, VirtualStopwatch,
    };
    use timestep_lab_core::timestep::Nanos;

    /// Frames in the test recording, each [`FRAME`] long.
    const FRAMES: usize = 30;
    /// The recording's frame time.
    const FRAME: Duration = Duration::from_millis(10);

    /// [`FRAMES`] frames of [`FRAME`] on the virtual clock, recorded and read back.
    fn recording() -> Arc<Recording> {
        let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
            .expect("valid settings");
        let out = Shared::default();
        live.start_recording("test adapter", |header| {
            Ok(Box::new(RecordingWriter::new(out.clone(), header)?))
        })
        .expect("header written");
        for _ in 0..FRAMES {
            live.stopwatch_mut().advance(FRAME.as_nanos() as Nanos);
            live.frame();
        }
        live.stop_recording().expect("written");
        let bytes = out.0.lock().expect("not poisoned").clone();
        Arc::new(read_recording(bytes, "session.csv").expect("a recording"))
    }

    /// A loop for the replay to drive, in another state than the recorded one.
    fn live() -> LiveLoop<VirtualStopwatch> {
        let settings = LiveSettings {
            rate_hz: 30.0,
            ..LiveSettings::default()
        };
        LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings")
    }

    fn frames_run(control: &ReplayControl) -> usize {
        control.progress().expect("replaying").0
    }

    #[test]
    fn without_a_replay_the_clock_drives_every_frame() {
        let mut live = live();
        let mut control = ReplayControl::new(None, true);
        assert_eq!(control.frame(&mut live, Instant::now()), Ok(false));
        assert!(!control.is_replaying());
        assert!(!control.toggle_pause());
        assert!(!control.single_step(&mut live));
        assert!(!control.done());
        assert_eq!(control.status(), None);
        assert_eq!(control.progress(), None);
    }

    #[test]
    fn a_replay_runs_the_frames_whose_time_has_come_and_is_done_at_its_end() {
        let mut live = live();
        let mut control = ReplayControl::new(Some(Replay::new(recording())), true);
        let start = Instant::now();
        // The first frame begins the replay: the recording's settings, its first frame.
        assert_eq!(control.frame(&mut live, start), Ok(true));
        assert_eq!(live.settings().rate_hz, LiveSettings::default().rate_hz);
        assert_eq!(frames_run(&control), 1);
        assert!(!control.done());
        // 50 ms of real time later, five more recorded frames have started.
        assert_eq!(control.frame(&mut live, start + 5 * FRAME), Ok(true));
        assert_eq!(frames_run(&control), 6);
        assert_eq!(control.frame(&mut live, start + 60 * FRAME), Ok(true));
        assert_eq!(control.progress(), Some((FRAMES, FRAMES)));
        assert!(control.done());
        // Without --quit-after-replay the window stays open.
        let mut kept = ReplayControl::new(Some(Replay::new(recording())), false);
        kept.frame(&mut live, start).expect("begun");
        kept.frame(&mut live, start + 60 * FRAME).expect("ran");
        assert!(!kept.done());
    }

    #[test]
    fn pause_and_single_step_work_the_replays_time() {
        let mut live = live();
        let mut control = ReplayControl::new(Some(Replay::new(recording())), false);
        let start = Instant::now();
        control.frame(&mut live, start).expect("begun");
        assert!(control.toggle_pause());
        control
            .frame(&mut live, start + 10 * FRAME)
            .expect("paused");
        assert_eq!(frames_run(&control), 1, "paused: no frame runs");
        assert!(control.single_step(&mut live));
        assert_eq!(frames_run(&control), 2);
        let (_, status) = control.status().expect("replaying");
        assert!(!status.playing, "a single step pauses");
        control.seek(&mut live, 20).expect("seeks");
        assert_eq!(frames_run(&control), 20);
        assert!(
            control.status().expect("replaying").1.playing,
            "seeking plays"
        );
        control.stop(&mut live);
        assert!(!control.is_replaying());
        assert_eq!(control.frame(&mut live, start + 20 * FRAME), Ok(false));
    }
}

/// A load ramp while recording: each frame's per-step load is written as a change of
/// settings, so the recording replays the ramp's load frame by frame and every pane reaches
/// the recorded state, its spiral detector's verdicts included.
#[test]
fn a_recording_made_during_a_ramp_replays_its_load() {
    // The six classic panes, the accumulator's steps costing the load, no guards.
    let settings = LiveSettings {
        compare: true,
        focus: 3,
        max_frame_time_ms: 0.0,
        ..LiveSettings::default()
    };
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid");
    let out = Shared::default();
    live.start_recording("virtual adapter", |header| {
        Ok(Box::new(RecordingWriter::new(out.clone(), header)?))
    })
    .expect("header written");
    live.request_ramp(RampRequest::Start(RampSettings {
        max_step_cost_ms: 25.0,
        duration_s: 10.0,
    }))
    .expect("a valid ramp");
    // Each frame: the reports, the per-step load in force and which panes spiral.
    let seen = |live: &LiveLoop<VirtualStopwatch>| {
        let spirals: Vec<bool> = live.panes().iter().map(Pane::spiralling).collect();
        (
            pane_reports(live),
            live.settings().load.step_cost_ms,
            spirals,
        )
    };
    let mut recorded = Vec::new();
    for i in 0..3_000u64 {
        live.stopwatch_mut()
            .advance(16 * MS + (i * 7919 % 5) * MS / 3);
        live.frame();
        recorded.push(seen(&live));
        live.record_present(0);
        if !live.ramp().is_some_and(Ramp::running) {
            break;
        }
    }
    let ramp = live.ramp().expect("a ramp");
    assert!(!ramp.running(), "it ended: {:?}", ramp.phase());
    assert!(
        ramp.onsets()
            .iter()
            .any(|onset| onset.is_some_and(|o| o.spiral))
    );
    assert!(
        recorded
            .iter()
            .any(|(_, _, spirals)| spirals.contains(&true))
    );
    live.stop_recording().expect("written");
    let bytes = out.0.lock().expect("not poisoned").clone();
    let mut replaying = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
        .expect("valid settings");
    let mut replay = Replay::new(read_back(&bytes));
    replay.begin(&mut replaying).expect("valid");
    let mut replayed = Vec::new();
    while replay.step(&mut replaying).is_some() {
        replayed.push(seen(&replaying));
    }
    assert_eq!(replayed.len(), recorded.len());
    // The load the ramp puts back after its last frame is a change for the frame after it,
    // which this recording does not have: that frame's load is the one it ran with.
    let last = recorded.len() - 1;
    recorded[last].1 = replayed[last].1;
    assert_eq!(replayed[last].1, 25.0);
    for (i, (a, b)) in recorded.iter().zip(&replayed).enumerate() {
        assert_eq!(a, b, "frame {i}");
    }
}

/// A session on a screen the platform measures (Wayland presentation-time, its clock
/// 500 s ahead of the stopwatch): each present is answered three frames later, shown at the
/// first refresh 30 ms after it (a compositor's extra repaint) of a 60 Hz grid whose
/// refreshes start 5 ms after the stopwatch's whole periods, or, every 50th, discarded; from
/// frame 200 to 299 no answer comes (a hidden window), then they come again. Returns the recording,
/// what the live loop did, and where its display times came from at each frame.
fn measured_session(
    start: LiveSettings,
    measured: bool,
) -> (Vec<u8>, Outcome, Vec<DisplayTimesBy>) {
    use timestep_lab_core::feedback::{
        ClockMap, FeedbackEvent, FeedbackFlags, FeedbackOutcome, FeedbackSource, PresentFeedback,
    };
    const PERIOD: Nanos = 16_666_667;
    let offset: i128 = 500_000_000_000;
    let mut live = LiveLoop::new(VirtualStopwatch::default(), start).expect("valid");
    live.request(LiveRequest::Screen(ScreenFacts {
        present_mode: Some(PresentModeId::Fifo),
        monitor_hz: Some(60.0),
    }))
    .expect("the loop takes it");
    if measured {
        live.feedback(FeedbackEvent::Watching(
            FeedbackSource::WaylandPresentation,
            ClockMap::new(offset, 0),
        ));
    }
    let out = Shared::default();
    live.start_recording("virtual adapter", |header| {
        Ok(Box::new(RecordingWriter::new(out.clone(), header)?))
    })
    .expect("header written");
    let (mut reports, mut by) = (Vec::new(), Vec::new());
    let mut waiting: Vec<(u32, u64, Nanos)> = Vec::new();
    for i in 0..600u64 {
        // The answers come between frames, as the window polls for them after a present;
        // none after the last frame's (a recording ends with its last frame).
        if waiting.len() > 3 {
            let (generation, present, at) = waiting.remove(0);
            let outcome = if present % 50 == 0 {
                FeedbackOutcome::Discarded
            } else {
                // The first refresh of a 60 Hz grid from 5 ms on at least 30 ms after it.
                let refresh = (at + 30 * MS - 5 * MS).div_ceil(PERIOD);
                FeedbackOutcome::Presented {
                    at: offset + i128::from(5 * MS + refresh * PERIOD),
                    refresh: Some(PERIOD),
                    sequence: Some(refresh),
                    flags: FeedbackFlags::default(),
                }
            };
            if !(200..300).contains(&i) {
                live.feedback(FeedbackEvent::Answer(PresentFeedback {
                    present,
                    generation: Some(generation),
                    outcome,
                }));
            }
        }
        if i == 150 {
            live.request(LiveRequest::Kick).expect("the loop takes it");
        }
        live.stopwatch_mut()
            .advance(16 * MS + (i * 7919 % 17) * MS / 4);
        live.frame();
        reports.push(pane_reports(&live));
        live.stopwatch_mut().advance(MS);
        if let Some((generation, present)) = live.record_present(0) {
            waiting.push((generation, present, live.now()));
        }
        by.push(live.snapshot().readouts.screen.display_times);
    }
    live.stop_recording().expect("written");
    let bytes = out.0.lock().expect("not poisoned").clone();
    (bytes, outcome_of(&live, reports), by)
}

#[test]
fn measured_display_times_settle_the_panes_live_in_a_replay_and_in_bench() {
    use timestep_lab_core::feedback::FeedbackSource;
    let start = LiveSettings {
        strategy: Strategy::Interpolated,
        ..LiveSettings::default()
    };
    let (bytes, live, by) = measured_session(start, true);
    let measured = DisplayTimesBy::Measurement(Some(FeedbackSource::WaylandPresentation));
    // The model settles frames until the first answer, the answers after it; when they
    // stop for more than IN_FLIGHT frames the model takes over again, until they return.
    assert_eq!(by[2], DisplayTimesBy::Model);
    assert!(
        by[10..200].iter().all(|&b| b == measured),
        "{:?}",
        &by[10..200]
    );
    assert_eq!(by[299], DisplayTimesBy::Model);
    assert!(by[310..].iter().all(|&b| b == measured));
    // The model took the measured refresh: its rate, and its phase from the images.
    let text = String::from_utf8(bytes.clone()).expect("text");
    assert!(
        text.contains("measured wayland-presentation-time 59.99999880000002 at 5.000000"),
        "{:?}",
        text.lines()
            .filter(|line| line.contains("measured"))
            .collect::<Vec<_>>()
    );
    // On the measured screen every image came at least 30 ms after its present: far later
    // than the model's next refresh.
    let (_, modeled, by_model) = measured_session(start, false);
    assert!(by_model.iter().all(|&b| b == DisplayTimesBy::Model));
    let (live_latency, model_latency) = (
        live.metrics[0].display_latency_ms,
        modeled.metrics[0].display_latency_ms,
    );
    assert!(
        live_latency > model_latency + 15.0,
        "measured {live_latency} ms, modeled {model_latency} ms"
    );
    // The recording carries the answers and the source: a replay and bench settle the
    // frames as the live run did, metric for metric.
    let text = String::from_utf8(bytes.clone()).expect("text");
    assert!(
        text.contains("# measured: wayland-presentation-time"),
        "{text:.400}"
    );
    let recording = read_back(&bytes);
    let again = replayed(&recording);
    assert_eq!(again.metrics, live.metrics);
    assert!(
        again == live,
        "the replay's frames differ from the live run's"
    );
    let mut bench = replay_all(&recording, Some(Strategy::Interpolated)).expect("valid");
    assert_eq!(bench.run_metrics(), live.metrics[0]);
    assert_eq!(
        bench.screen().display_times(),
        measured,
        "the recording names its source"
    );
    // After the replay, nothing measures this loop's screen: the model settles its frames.
    bench.end_replay();
    assert_eq!(bench.screen().display_times(), DisplayTimesBy::Model);
    bench.stopwatch_mut().advance(20 * MS);
    bench.frame();
    bench.stopwatch_mut().advance(20 * MS);
    bench.frame();
    let refreshes = bench.panes()[0].run_metrics().refreshes.expect("counted");
    assert_eq!(
        refreshes.latency.iter().sum::<u64>(),
        1,
        "the model showed the first frame"
    );
}

/// X11 Present under a software rasterizer: the window begins to measure the screen, no
/// answer ever comes, and after 60 presents it gives up. The recording says when and why
/// (`measured - silent`), and every reader takes its frames for the model's; before, it
/// said nothing, and `bench` said the frames were settled by answers that never came.
#[test]
fn a_recording_says_when_the_window_gave_up_measuring_and_readers_call_it_modeled() {
    use timestep_lab_core::feedback::{ClockMap, FeedbackEvent, FeedbackSource, GaveUp};
    let mut live =
        LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default()).expect("valid");
    live.feedback(FeedbackEvent::Watching(
        FeedbackSource::X11Present,
        ClockMap::new(0, 0),
    ));
    let out = Shared::default();
    live.start_recording("virtual adapter", |header| {
        Ok(Box::new(RecordingWriter::new(out.clone(), header)?))
    })
    .expect("header written");
    for i in 0..90 {
        if i == 61 {
            live.feedback(FeedbackEvent::GaveUp(
                GaveUp::Silent,
                "no X11 Present event came",
            ));
        }
        live.stopwatch_mut().advance(16 * MS);
        live.frame();
        live.stopwatch_mut().advance(MS);
        live.record_present(0);
    }
    live.stop_recording().expect("written");
    let bytes = out.0.lock().expect("not poisoned").clone();
    let text = String::from_utf8(bytes.clone()).expect("text");
    assert!(text.contains("# measured: x11-present"), "{text:.400}");
    let row = text
        .lines()
        .find(|line| line.ends_with("measured - silent"))
        .expect("the give-up is written");
    assert!(row.starts_with("61,"), "{row}");
    let recording = read_back(&bytes);
    assert_eq!(recording.summary.answers, 0);
    assert_eq!(recording.summary.gave_up, Some((61, GaveUp::Silent)));
    let bench = replay_all(&recording, None).expect("valid");
    assert_eq!(bench.screen().display_times(), DisplayTimesBy::Model);
    assert_eq!(bench.screen().measured_facts(), None);
}

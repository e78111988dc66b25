//! The live loop's replay control, on a recording written and read back through the file.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use std::time::Instant;

use timestep_lab_bench::recording::{RecordingWriter, read_recording};
use timestep_lab_bench::trace::read_recording_file;
use timestep_lab_core::live::{
    LiveLoop, LiveSettings, Recording, Replay, ReplayControl, VirtualStopwatch,
};
use timestep_lab_core::timestep::Nanos;

/// Frames in the test recording, each [`FRAME`] long.
const FRAMES: usize = 30;
/// The recording's frame time.
const FRAME: Duration = Duration::from_millis(10);

/// A recording's destination the test reads back.
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
    let file = read_recording_file(&bytes[..], "session.csv").expect("a recording");
    Arc::new(read_recording(file).expect("understood"))
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

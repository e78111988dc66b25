//! What each window frame does under a replay: the first one puts the loop in the
//! recording's starting state, each one then runs the recorded frames whose time has come
//! (paced in real time at the replay's speed), and the person's pause, single step, speed,
//! loop and seek work the replay's time instead of the clock's. With
//! `--quit-after-replay` the window closes once the last frame has run.
//!
//! No window or GPU type here: this is the live loop's side of replaying, and belongs with
//! the loop (the core) rather than with the window.

use std::time::Instant;

use crate::live::{LiveLoop, LiveSettings, Replay, ReplayStatus, Stopwatch};
use crate::timestep::{Nanos, RangeError};

/// The replay driving the live loop instead of the clock, if one does.
#[derive(Clone, Debug)]
pub struct ReplayControl {
    /// The replay; `None` when the clock drives the loop.
    replay: Option<Replay>,
    /// Whether the replay has put the loop in its starting state.
    begun: bool,
    /// When the last frame ran, for pacing the replay in real time.
    last_frame: Option<Instant>,
    /// Whether the window closes once the replay has run its last frame.
    quit_after_replay: bool,
}

impl ReplayControl {
    /// Drives the loop with `replay`, or leaves it to the clock (`None`); with
    /// `quit_after_replay`, [`Self::done`] says when to close.
    pub fn new(replay: Option<Replay>, quit_after_replay: bool) -> Self {
        Self {
            replay,
            begun: false,
            last_frame: None,
            quit_after_replay,
        }
    }

    /// Whether a replay drives the loop (then the loop presents what was recorded, not what
    /// the window does).
    pub fn is_replaying(&self) -> bool {
        self.replay.is_some()
    }

    /// One window frame at `now`: while replaying, runs the recorded frames whose time has
    /// come (the first frame begins the replay) and returns `true`; without a replay does
    /// nothing and returns `false`, for the clock to drive the loop.
    pub fn frame<S: Stopwatch>(
        &mut self,
        live: &mut LiveLoop<S>,
        now: Instant,
    ) -> Result<bool, RangeError> {
        let real = self.last_frame.map_or(0, |last| {
            Nanos::try_from(now.duration_since(last).as_nanos()).unwrap_or(Nanos::MAX)
        });
        self.last_frame = Some(now);
        let Some(replay) = &mut self.replay else {
            return Ok(false);
        };
        if self.begun {
            replay.advance(live, real)?;
        } else {
            self.begun = true;
            replay.begin(live)?;
            replay.advance(live, 0)?;
        }
        Ok(true)
    }

    /// Pause toggled: while replaying it works the replay's time. Returns whether the replay
    /// took it (else it is the loop's).
    pub fn toggle_pause(&mut self) -> bool {
        let Some(replay) = &mut self.replay else {
            return false;
        };
        let playing = replay.status().playing;
        replay.set_playing(!playing);
        true
    }

    /// Single step: while replaying, pauses the replay and runs its next frame. Returns
    /// whether the replay took it (else it is the loop's).
    pub fn single_step<S: Stopwatch>(&mut self, live: &mut LiveLoop<S>) -> bool {
        let Some(replay) = &mut self.replay else {
            return false;
        };
        replay.set_playing(false);
        replay.step(live);
        true
    }

    /// The person asked for `chosen` settings while `now` are in force: once they pick
    /// strategies, panes or focus of their own, the recording's changes leave those alone.
    pub fn settings_chosen(&mut self, chosen: &LiveSettings, now: &LiveSettings) {
        let Some(replay) = &mut self.replay else {
            return;
        };
        if chosen.strategy != now.strategy
            || chosen.compare != now.compare
            || chosen.panes != now.panes
            || chosen.focus != now.focus
        {
            replay.keep_own_strategies(chosen);
        }
    }

    /// Replay time runs (`true`) or stops.
    pub fn set_playing(&mut self, playing: bool) {
        if let Some(replay) = &mut self.replay {
            replay.set_playing(playing);
        }
    }

    /// Recorded time per real time.
    pub fn set_speed(&mut self, speed: f64) {
        if let Some(replay) = &mut self.replay {
            replay.set_speed(speed);
        }
    }

    /// Whether the replay starts over at the end.
    pub fn set_looping(&mut self, looping: bool) {
        if let Some(replay) = &mut self.replay {
            replay.set_looping(looping);
        }
    }

    /// Continues from recorded frame `frame`, playing.
    pub fn seek<S: Stopwatch>(
        &mut self,
        live: &mut LiveLoop<S>,
        frame: usize,
    ) -> Result<(), RangeError> {
        let Some(replay) = &mut self.replay else {
            return Ok(());
        };
        let outcome = replay.seek(live, frame);
        replay.set_playing(true);
        outcome
    }

    /// Back to the live clock: the replay ends, and the loop leaves replay mode.
    pub fn stop<S: Stopwatch>(&mut self, live: &mut LiveLoop<S>) {
        self.replay = None;
        self.begun = false;
        live.end_replay();
    }

    /// Whether the window should close: it was asked to after the replay, and the replay
    /// has run its last frame.
    pub fn done(&self) -> bool {
        self.quit_after_replay
            && self
                .replay
                .as_ref()
                .is_some_and(|replay| replay.status().finished)
    }

    /// The replay, for the panel: what is replayed (control characters escaped) and where
    /// it is.
    pub fn status(&self) -> Option<(String, ReplayStatus)> {
        self.replay.as_ref().map(|replay| {
            (
                crate::trace::escaped(&replay.recording().source),
                replay.status(),
            )
        })
    }

    /// Frames run and frames in the replay, for the exit report.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.replay.as_ref().map(|replay| {
            let status = replay.status();
            (status.frame, status.frames)
        })
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use super::*;
    use crate::live::{Recording, VirtualStopwatch};
    use crate::recording::{SessionWriter, read_recording};
    use crate::trace::read_session;

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
            Ok(Box::new(SessionWriter::new(out.clone(), header)?))
        })
        .expect("header written");
        for _ in 0..FRAMES {
            live.stopwatch_mut().advance(FRAME.as_nanos() as Nanos);
            live.frame();
        }
        live.stop_recording().expect("written");
        let bytes = out.0.lock().expect("not poisoned").clone();
        let file = read_session(&bytes[..], "session.csv").expect("a recording");
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
}

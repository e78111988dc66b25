//! What each window frame does under a replay: the first one puts the loop in the
//! recording's starting state, each one then runs the recorded frames whose time has come
//! (paced in real time at the replay's speed), and the person's pause, single step, speed,
//! loop and seek work the replay's time instead of the clock's. With
//! `--quit-after-replay` the window closes once the last frame has run.
//!
//! No window or GPU type here: this is the live loop's side of replaying; the window only
//! calls it once a frame and forwards the person's requests.

use web_time::Instant;

use super::{LiveLoop, LiveSettings, Replay, ReplayStatus, Stopwatch};
use crate::timestep::{Nanos, RangeError};

/// The replay driving the live loop instead of the clock, if one does.
#[derive(Debug)]
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
                crate::text::escape(&replay.recording().source),
                replay.status(),
            )
        })
    }

    /// Why the replay stopped before its last frame (its file changed or went away since
    /// it was read), escaped for the panel and the terminal; `None` while all is well.
    pub fn error(&self) -> Option<String> {
        let error = self.replay.as_ref()?.error()?;
        Some(format!("replay stopped: {}", crate::text::escape(error)))
    }

    /// Frames run and frames in the replay, for the exit report.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.replay.as_ref().map(|replay| {
            let status = replay.status();
            (status.frame, status.frames)
        })
    }
}

//! Replaying a recording (or any trace) through the live loop: the recorded frame times
//! instead of the clock, the recorded requests at their frames, paced in real time with
//! pause, slow motion, loop and seek.

use std::sync::Arc;

use super::live_loop::LiveLoop;
use super::pane::LiveFrame;
use super::recording::{FrameReader, LiveRequest, RecordedFrame, Recording};
use super::settings::LiveSettings;
use super::stopwatch::{Stopwatch, VirtualStopwatch};
use crate::timestep::{Nanos, RangeError, Strategy};

/// Most recorded frames one call of [`Replay::advance`] runs: a window that fell far behind
/// a fast recording (or sped it up) catches up over several of its frames instead of
/// freezing in one.
pub const MAX_FRAMES_PER_ADVANCE: usize = 256;

/// Slowest and fastest replay speed.
pub const REPLAY_SPEEDS: std::ops::RangeInclusive<f64> = 0.05..=8.0;

/// A recording being replayed, and where it is.
pub struct Replay {
    /// What is replayed (shared: `bench` replays one recording once per strategy).
    recording: Arc<Recording>,
    /// The pass over its frames; `None` before [`Self::begin`] and after a read error.
    reader: Option<Box<dyn FrameReader>>,
    /// The next frame, read ahead (its start decides whether its time has come).
    ahead: Option<RecordedFrame>,
    /// The requests recorded before `ahead`.
    ahead_events: Vec<LiveRequest>,
    /// Why the frames could not be read to their end, if they could not.
    error: Option<String>,
    /// The next frame to run.
    next: usize,
    /// Recorded time since the first frame's start that the replay has reached, ns.
    position: Nanos,
    /// Recorded time per real time.
    speed: f64,
    /// Whether it starts over at the end.
    looping: bool,
    /// Whether time moves (not paused).
    playing: bool,
    /// The strategies the person chose during the replay, which the recording's setting
    /// changes then leave alone; `None` while the recorded ones apply.
    own_strategies: Option<LiveSettings>,
}

impl std::fmt::Debug for Replay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replay")
            .field("source", &self.recording.source)
            .field("next", &self.next)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// Where a replay is, for the panel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReplayStatus {
    /// Frames run.
    pub frame: usize,
    /// Frames in the recording.
    pub frames: usize,
    /// Recorded time reached, s.
    pub position_s: f64,
    /// Recorded time from the first frame's start to the last's, s.
    pub duration_s: f64,
    /// Recorded time per real time.
    pub speed: f64,
    /// Whether it starts over at the end.
    pub looping: bool,
    /// Whether time moves.
    pub playing: bool,
    /// Whether every frame has run (and it does not loop).
    pub finished: bool,
}

impl Replay {
    /// A replay of `recording` from its first frame, playing at normal speed.
    pub fn new(recording: Arc<Recording>) -> Self {
        Self {
            recording,
            reader: None,
            ahead: None,
            ahead_events: Vec::new(),
            error: None,
            next: 0,
            position: 0,
            speed: 1.0,
            looping: false,
            playing: true,
            own_strategies: None,
        }
    }

    /// What is replayed.
    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    /// Puts `live` in the recording's starting state (the header's settings, pause and
    /// screen; for a plain trace, the settings in force) and the replay at its first frame.
    pub fn begin<S: Stopwatch>(&mut self, live: &mut LiveLoop<S>) -> Result<(), RangeError> {
        let (mut settings, paused, screen, measured) = match &self.recording.header {
            Some(header) => (
                header.settings,
                header.paused,
                header.screen,
                header.measured,
            ),
            None => (*live.settings(), false, live.screen().facts(), None),
        };
        if let Some(own) = self.own_strategies {
            keep_strategies(&mut settings, &own);
        }
        live.begin_replay(settings, paused, screen, measured)?;
        self.next = 0;
        self.position = 0;
        self.ahead = None;
        self.error = None;
        self.reader = match self.recording.frames.open() {
            Ok(reader) => Some(reader),
            Err(error) => {
                self.error = Some(error);
                None
            }
        };
        Ok(())
    }

    /// The next frame to run, read ahead; `None` after the last or a read error.
    fn peek(&mut self) -> Option<RecordedFrame> {
        if self.ahead.is_none() {
            let reader = self.reader.as_mut()?;
            match reader.next_frame(&mut self.ahead_events) {
                Ok(frame) => self.ahead = frame,
                Err(error) => {
                    self.error = Some(error);
                    self.reader = None;
                }
            }
        }
        self.ahead
    }

    /// Runs the next frame: the requests recorded before it, then the frame, then its
    /// present. `None` after the last frame (or when the frames could not be read on:
    /// [`Self::error`] says why).
    pub fn step<S: Stopwatch>(&mut self, live: &mut LiveLoop<S>) -> Option<LiveFrame> {
        let frame = self.peek()?;
        self.ahead = None;
        // Taken out while they are applied, and put back to be filled again (no allocation).
        let events = std::mem::take(&mut self.ahead_events);
        for &event in &events {
            self.apply(live, event);
        }
        self.ahead_events = events;
        let outcome = live.replay_frame(frame.time, frame.frame_time);
        if let Some((at, wait)) = frame.present {
            live.record_present_at(at, wait);
        }
        self.next += 1;
        self.position = frame.time - self.start_time();
        Some(outcome)
    }

    /// One recorded request, as the live loop took it (the replay's own strategies kept
    /// in the panes where the reader chose them).
    fn apply<S: Stopwatch>(&self, live: &mut LiveLoop<S>, request: LiveRequest) {
        let request = match (request, self.own_strategies) {
            (LiveRequest::Settings(mut settings), Some(own)) => {
                keep_strategies(&mut settings, &own);
                LiveRequest::Settings(settings)
            }
            (request, _) => request,
        };
        // The recording's settings were valid when it was made; one the reader let through
        // and the loop refuses leaves the settings in force.
        let _ = live.request(request);
    }

    /// Moves the replay on by `real` of real time at its speed (nothing while paused) and
    /// runs every frame that started by then, at most [`MAX_FRAMES_PER_ADVANCE`]. At the end
    /// it starts over when looping and stops otherwise. Returns the frames run.
    pub fn advance<S: Stopwatch>(
        &mut self,
        live: &mut LiveLoop<S>,
        real: Nanos,
    ) -> Result<usize, RangeError> {
        if !self.playing {
            return Ok(0);
        }
        let mut target = self
            .position
            .saturating_add((real as f64 * self.speed).round() as Nanos);
        let mut ran = 0;
        loop {
            if ran == MAX_FRAMES_PER_ADVANCE {
                // Behind: the rest waits for the next call, from the last frame run.
                return Ok(ran);
            }
            match self.peek() {
                Some(frame) if frame.time - self.start_time() <= target => {
                    self.step(live);
                    ran += 1;
                }
                Some(_) => break,
                None if self.looping && self.length() > 0 && self.error.is_none() => {
                    target = target.saturating_sub(self.length());
                    self.begin(live)?;
                }
                None => {
                    self.playing = false;
                    return Ok(ran);
                }
            }
        }
        self.position = target;
        Ok(ran)
    }

    /// Starts over and runs, without pacing, every frame before `frame` (clamped to the
    /// recording), so the next one to run is `frame`.
    pub fn seek<S: Stopwatch>(
        &mut self,
        live: &mut LiveLoop<S>,
        frame: usize,
    ) -> Result<(), RangeError> {
        self.begin(live)?;
        let frame = frame.min(self.recording.summary.frames);
        while self.next < frame && self.step(live).is_some() {}
        Ok(())
    }

    /// Pauses or resumes the replay's time.
    pub fn set_playing(&mut self, playing: bool) {
        self.playing = playing;
    }

    /// Recorded time per real time, clamped to [`REPLAY_SPEEDS`].
    pub fn set_speed(&mut self, speed: f64) {
        if speed.is_finite() {
            self.speed = speed.clamp(*REPLAY_SPEEDS.start(), *REPLAY_SPEEDS.end());
        }
    }

    /// Whether the replay starts over at the end.
    pub fn set_looping(&mut self, looping: bool) {
        self.looping = looping;
        if looping && self.next >= self.recording.summary.frames {
            self.playing = true;
        }
    }

    /// From now on the strategies (and panes) are the person's: the recording's setting
    /// changes leave them as `settings` has them.
    pub fn keep_own_strategies(&mut self, settings: &LiveSettings) {
        self.own_strategies = Some(*settings);
    }

    /// Where the replay is.
    pub fn status(&self) -> ReplayStatus {
        let frames = self.recording.summary.frames;
        ReplayStatus {
            frame: self.next,
            frames,
            position_s: self.position as f64 / 1e9,
            duration_s: self.recording.summary.duration() as f64 / 1e9,
            speed: self.speed,
            looping: self.looping,
            playing: self.playing,
            finished: (self.next >= frames || self.error.is_some()) && !self.looping,
        }
    }

    /// Why the frames could not be read to their end (the file changed or went away since
    /// it was checked), if they could not: the replay stopped there.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Recorded time from the first frame's start to the last frame's end, ns: one pass of
    /// a loop.
    fn length(&self) -> Nanos {
        self.recording.summary.length()
    }

    /// Stopwatch time of the first frame's start.
    fn start_time(&self) -> Nanos {
        self.recording.summary.first_time
    }
}

/// `settings` with the strategies, comparison, panes and focus of `own`.
fn keep_strategies(settings: &mut LiveSettings, own: &LiveSettings) {
    settings.strategy = own.strategy;
    settings.compare = own.compare;
    settings.panes = own.panes;
    settings.focus = own.focus;
}

/// Runs a whole recording through a fresh live loop on a virtual stopwatch, as fast as it
/// goes: with `strategy`, a single pane of it throughout (the recording's own strategy
/// changes left out), else the recorded panes and their changes. This is how `bench` runs
/// a recording: by construction the loop the window ran.
pub fn replay_all(
    recording: &Arc<Recording>,
    strategy: Option<Strategy>,
) -> Result<LiveLoop<VirtualStopwatch>, ReplayError> {
    let base = recording
        .header
        .as_ref()
        .map_or_else(LiveSettings::default, |header| header.settings);
    let mut live = LiveLoop::new(VirtualStopwatch::default(), base)?;
    let mut replay = Replay::new(Arc::clone(recording));
    if let Some(strategy) = strategy {
        let mut own = base;
        own.strategy = strategy;
        own.compare = false;
        replay.keep_own_strategies(&own);
    }
    replay.begin(&mut live)?;
    while replay.step(&mut live).is_some() {}
    match replay.error {
        Some(error) => Err(ReplayError::Read(error)),
        None => Ok(live),
    }
}

/// Why [`replay_all`] could not run a recording to its end.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The recorded settings are out of range.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// The frames could not be read on (the message names the source and line).
    #[error("{0}")]
    Read(String),
}

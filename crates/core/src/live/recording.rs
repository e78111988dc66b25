//! Recordings: what the live loop was given, frame by frame, so that it can be run
//! again exactly — in the window ([`Replay`], paced in real time) or by `bench`.
//!
//! A recording holds every input of the loop: each frame's start on the stopwatch and the
//! frame time it ran (measured, plus the load carried in), when the window presented it and
//! how long acquiring its image blocked, and, between frames, every request that changed
//! something ([`RecordedEvent`]: settings, kicks, resets, pause, single steps, a new present
//! mode or refresh rate, a key pressed or released, the view turned). Recording starts from
//! a reset, with the settings, pause state and screen in a header, so a replay that starts from the same header and is given the same
//! inputs runs the very same frames: the same reports, metrics and `state_hash`.
//!
//! This module holds the recording as data and the [`RecordingSink`] the loop writes it to;
//! the file format (a `frame_time_ms` CSV with `#` header lines, so any tool that reads the
//! lab's traces reads its frame times) is the bench crate's `recording` module.

use super::screen::ScreenFacts;
use super::settings::LiveSettings;
use crate::input::InputEvent;
use crate::timestep::Nanos;

/// One request the live loop took between two frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RecordedEvent {
    /// New settings (written as the settings that changed).
    Settings(LiveSettings),
    /// Back to time zero.
    Reset,
    /// A kick for the next step.
    Kick,
    /// Time stopped.
    Pause,
    /// Time restarted.
    Resume,
    /// One frame of the single-step length.
    SingleStep,
    /// The window's present mode or the monitor's refresh rate changed.
    Screen(ScreenFacts),
    /// The person pressed or released a movement key or turned the view.
    Input(InputEvent),
}

/// What a recording starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordingHeader {
    /// The version of the lab that recorded it.
    pub version: String,
    /// The GPU adapter it ran on, as the window named it.
    pub adapter: String,
    /// The settings in force at the first frame.
    pub settings: LiveSettings,
    /// Whether time was stopped at the first frame.
    pub paused: bool,
    /// The present mode and the monitor's refresh rate at the first frame.
    pub screen: ScreenFacts,
}

/// A recording to replay: frames, the requests between them, and what it starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// Where it came from, for messages and the panel.
    pub source: String,
    /// What the recording starts from; `None` for a trace that is not a recording (its
    /// frames replay under the settings in force).
    pub header: Option<RecordingHeader>,
    /// The frames, in order.
    pub frames: Vec<RecordedFrame>,
    /// The requests, each before the frame whose index it carries, in order.
    pub events: Vec<(usize, RecordedEvent)>,
}

/// One frame of a recording.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordedFrame {
    /// 1-based line of the row in its file (0 for a frame not read from a file).
    pub line: usize,
    /// Stopwatch time at which the frame started, ns.
    pub time: Nanos,
    /// The frame time the loop ran (measured, plus load carried in), ns.
    pub frame_time: Nanos,
    /// The artificial load of the frame, ns.
    pub load: Nanos,
    /// The part of `frame_time` that was load carried in rather than measured, ns.
    pub carried: Nanos,
    /// When the frame was presented and how long acquiring its image blocked, ns.
    pub present: Option<(Nanos, Nanos)>,
}

impl Recording {
    /// Frame times with nothing else, from `source`: each frame starts where the one before
    /// ended, the first at zero.
    pub fn from_frame_times(source: String, frame_times: &[Nanos]) -> Self {
        let mut time: Nanos = 0;
        let frames = frame_times
            .iter()
            .map(|&frame_time| {
                let row = RecordedFrame {
                    time,
                    frame_time,
                    ..RecordedFrame::default()
                };
                time = time.saturating_add(frame_time);
                row
            })
            .collect();
        Self {
            source,
            header: None,
            frames,
            events: Vec::new(),
        }
    }
    /// Recorded time from the first frame's start to the last frame's start, ns.
    pub fn duration(&self) -> Nanos {
        match (self.frames.first(), self.frames.last()) {
            (Some(first), Some(last)) => last.time - first.time,
            _ => 0,
        }
    }
}

/// Where the live loop writes a recording as it runs: the shell opens one (the bench crate's
/// `RecordingWriter` writes the lab's file) and hands it to [`super::LiveLoop::start_recording`].
pub trait RecordingSink: Send {
    /// Writes one frame with the requests taken before it.
    fn frame(&mut self, row: &RecordedFrame, events: &[RecordedEvent]) -> std::io::Result<()>;

    /// Frames written so far.
    fn frames(&self) -> u64;

    /// Flushes everything written.
    fn finish(self: Box<Self>) -> std::io::Result<()>;
}

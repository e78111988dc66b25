//! Recordings: what the live loop was given, frame by frame, so that it can be run
//! again exactly — in the window ([`Replay`], paced in real time) or by `bench`.
//!
//! A recording holds every input of the loop: each frame's start on the stopwatch and the
//! frame time it ran (measured, plus the load carried in), when the window presented it and
//! how long acquiring its image blocked, and, between frames, every request that changed
//! something ([`LiveRequest`]: settings, kicks, resets, pause, single steps, a new present
//! mode or refresh rate, a key pressed or released, the view turned), and when the platform
//! measured the screen, when each frame's image reached it. Recording starts from
//! a reset, with the settings, pause state and screen in a header, so a replay that starts from the same header and is given the same
//! inputs runs the very same frames: the same reports, metrics and `state_hash`.
//!
//! This module holds the recording as data and the [`RecordingSink`] the loop writes it to;
//! the file format (a `frame_time_ms` CSV with `#` header lines, so any tool that reads the
//! lab's traces reads its frame times) is the bench crate's `recording` module.

use std::sync::Arc;

use super::screen::{MeasuredFacts, ScreenFacts};
use super::settings::LiveSettings;
use crate::feedback::GaveUp;
use crate::input::InputEvent;
use crate::timestep::Nanos;

/// One request the live loop took between two frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LiveRequest {
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
    /// The platform said when the image of the recording's frame `frame` (its row, from 0)
    /// reached the screen, on the stopwatch; `None`: it was discarded, never shown. Written
    /// frames later than its frame, when the feedback came (see [`crate::feedback`]).
    Displayed {
        /// The frame's row, from 0.
        frame: u64,
        /// When its image reached the screen, on the stopwatch; `None`: discarded.
        at: Option<Nanos>,
    },
    /// What the platform's feedback says about the screen changed: it measures it (from a
    /// source, with the refresh it reveals) or no longer does (`None`).
    Measured(Option<MeasuredFacts>),
    /// The window gave up measuring the screen, for this reason: no longer measured, as
    /// `Measured(None)`, and why.
    GaveUp(GaveUp),
}

impl LiveRequest {
    /// Time stopped (`true`) or restarted.
    pub fn paused(paused: bool) -> Self {
        if paused { Self::Pause } else { Self::Resume }
    }
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
    /// What the platform's feedback said about the screen at the first frame.
    pub measured: Option<MeasuredFacts>,
}

/// A recording to replay: what it starts from, and where its frames are read from.
///
/// The frames are not held: a replay reads them in order from [`Self::frames`], and reads
/// them again from the first when it starts over, so a recording of ten million frames
/// replays in the memory of one. What a replay needs to know before it reads them (how
/// many, when they start and end) is the [`RecordingSummary`], counted when the recording
/// was read and checked.
#[derive(Clone, Debug)]
pub struct Recording {
    /// Where it came from, for messages and the panel.
    pub source: String,
    /// What the recording starts from; `None` for a trace that is not a recording (its
    /// frames replay under the settings in force).
    pub header: Option<RecordingHeader>,
    /// The frames and the requests between them.
    pub frames: Arc<dyn RecordedFrames>,
    /// What a pass over the frames found.
    pub summary: RecordingSummary,
    /// What the reader noticed and the person should know (a recording from a newer
    /// version, one cut short), each naming the source; the shell prints them.
    pub notes: Vec<String>,
}

/// What one pass over a recording's frames found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordingSummary {
    /// Frames.
    pub frames: usize,
    /// Requests between them.
    pub events: usize,
    /// Stopwatch time at which the first frame started, ns.
    pub first_time: Nanos,
    /// Stopwatch time at which the last frame started, ns.
    pub last_time: Nanos,
    /// The last frame's frame time, ns.
    pub last_frame_time: Nanos,
    /// Presentation answers (`shown`, `discarded`).
    pub answers: usize,
    /// The first time the window gave up measuring the screen: the row it was noted
    /// before, and why.
    pub gave_up: Option<(usize, GaveUp)>,
}

impl RecordingSummary {
    /// Counts one more frame, with the `events` requests taken before it.
    pub fn add(&mut self, frame: &RecordedFrame, events: &[LiveRequest]) {
        if self.frames == 0 {
            self.first_time = frame.time;
        }
        for event in events {
            match *event {
                LiveRequest::Displayed { .. } => self.answers += 1,
                LiveRequest::GaveUp(why) if self.gave_up.is_none() => {
                    self.gave_up = Some((self.frames, why));
                }
                _ => {}
            }
        }
        self.frames += 1;
        self.events += events.len();
        self.last_time = frame.time;
        self.last_frame_time = frame.frame_time;
    }

    /// Recorded time from the first frame's start to the last frame's start, ns.
    pub fn duration(&self) -> Nanos {
        self.last_time.saturating_sub(self.first_time)
    }

    /// Recorded time from the first frame's start to the last frame's end, ns: one pass of
    /// a loop.
    pub fn length(&self) -> Nanos {
        if self.frames == 0 {
            0
        } else {
            self.duration().saturating_add(self.last_frame_time)
        }
    }
}

/// Where a recording's frames are read from: a file read again at each pass, or frame times
/// in memory. The bench crate reads the lab's recording files; [`Recording::from_frame_times`]
/// holds a trace's.
pub trait RecordedFrames: Send + Sync + std::fmt::Debug {
    /// A reader from the first frame, or why none can be had (the message names the source).
    fn open(&self) -> Result<Box<dyn FrameReader>, String>;
}

/// One pass over a recording's frames, in order.
pub trait FrameReader: Send {
    /// The next frame, with the requests taken before it put in `events` (cleared first);
    /// `None` after the last. An error (the file changed or went away since it was checked)
    /// ends the pass; its message names the source and line.
    fn next_frame(
        &mut self,
        events: &mut Vec<LiveRequest>,
    ) -> Result<Option<RecordedFrame>, String>;
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
    /// ended, the first at zero. They are held in memory (8 bytes a frame).
    pub fn from_frame_times(source: String, frame_times: Vec<Nanos>) -> Self {
        let frames = FrameTimes(frame_times.into());
        let mut summary = RecordingSummary::default();
        for frame in frames.reader() {
            summary.add(&frame, &[]);
        }
        Self {
            source,
            header: None,
            frames: Arc::new(frames),
            summary,
            notes: Vec::new(),
        }
    }
}

/// Frame times in memory, as a recording's frames.
#[derive(Debug)]
struct FrameTimes(Arc<[Nanos]>);

impl FrameTimes {
    /// A pass from the first frame.
    fn reader(&self) -> FrameTimesReader {
        FrameTimesReader {
            frame_times: Arc::clone(&self.0),
            next: 0,
            time: 0,
        }
    }
}

impl RecordedFrames for FrameTimes {
    fn open(&self) -> Result<Box<dyn FrameReader>, String> {
        Ok(Box::new(self.reader()))
    }
}

/// One pass over [`FrameTimes`].
struct FrameTimesReader {
    /// The frame times.
    frame_times: Arc<[Nanos]>,
    /// The next frame.
    next: usize,
    /// When the next frame starts, ns.
    time: Nanos,
}

impl Iterator for FrameTimesReader {
    type Item = RecordedFrame;

    fn next(&mut self) -> Option<RecordedFrame> {
        let frame_time = *self.frame_times.get(self.next)?;
        let frame = RecordedFrame {
            time: self.time,
            frame_time,
            ..RecordedFrame::default()
        };
        self.next += 1;
        self.time = self.time.saturating_add(frame_time);
        Some(frame)
    }
}

impl FrameReader for FrameTimesReader {
    fn next_frame(
        &mut self,
        events: &mut Vec<LiveRequest>,
    ) -> Result<Option<RecordedFrame>, String> {
        events.clear();
        Ok(self.next())
    }
}

/// Where the live loop writes a recording as it runs: the shell opens one (the bench crate's
/// `RecordingWriter` writes the lab's file) and hands it to [`super::LiveLoop::start_recording`].
pub trait RecordingSink: Send {
    /// Writes one frame with the requests taken before it.
    fn frame(&mut self, row: &RecordedFrame, events: &[LiveRequest]) -> std::io::Result<()>;

    /// Frames written so far.
    fn frames(&self) -> u64;

    /// Flushes everything written.
    fn finish(self: Box<Self>) -> std::io::Result<()>;
}

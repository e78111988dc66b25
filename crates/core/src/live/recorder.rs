//! The live loop's recorder: the one part that writes a recording. The loop tells it what
//! happened (a frame started, a request was taken, the window presented, the load was
//! spent) and it writes each frame with the requests before it once the frame's present
//! is known; a write that fails stops the recording and keeps why, for the shell.

use super::load::LoadSpent;
use super::recording::{LiveRequest, RecordedFrame, RecordingSink};
use crate::timestep::Nanos;

/// How a recording is going, for the panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordingStatus {
    /// Frames written.
    pub frames: u64,
}

/// The recording in progress, if any, and why the last one stopped.
#[derive(Default)]
pub(super) struct Recorder {
    /// The recording being written.
    journal: Option<Journal>,
    /// Why the recording stopped, until the shell takes it.
    error: Option<String>,
}

/// A recording in progress: the writer, the requests taken since the last frame and the
/// frame that waits for its present before it is written.
struct Journal {
    /// Where the frames go.
    writer: Box<dyn RecordingSink>,
    /// Requests taken since the last frame started.
    pending: Vec<LiveRequest>,
    /// The last frame and the requests before it, written when the next one starts (its
    /// present comes after it ran).
    current: Option<(RecordedFrame, Vec<LiveRequest>)>,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("frames", &self.status().map(|status| status.frames))
            .field(
                "pending",
                &self.journal.as_ref().map(|journal| &journal.pending),
            )
            .field("error", &self.error)
            .finish()
    }
}

impl Journal {
    /// Writes the frame that waited, if any.
    fn flush(&mut self) -> std::io::Result<()> {
        match self.current.take() {
            Some((row, events)) => self.writer.frame(&row, &events),
            None => Ok(()),
        }
    }
}

impl Recorder {
    /// Records into `writer` from the next frame on (a recording running is dropped:
    /// [`Self::stop`] it first).
    pub(super) fn start(&mut self, writer: Box<dyn RecordingSink>) {
        self.journal = Some(Journal {
            writer,
            pending: Vec::new(),
            current: None,
        });
    }

    /// Finishes the recording: writes the last frame and flushes. Returns the frames
    /// written (0 when none was running).
    pub(super) fn stop(&mut self) -> std::io::Result<u64> {
        let Some(mut journal) = self.journal.take() else {
            return Ok(0);
        };
        journal.flush()?;
        let frames = journal.writer.frames();
        journal.writer.finish()?;
        Ok(frames)
    }

    /// The recording in progress, if any.
    pub(super) fn status(&self) -> Option<RecordingStatus> {
        self.journal.as_ref().map(|journal| RecordingStatus {
            frames: journal.writer.frames(),
        })
    }

    /// Takes the error that stopped the recording, if one did since the last call.
    pub(super) fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    /// A request the loop took, for the next frame's row.
    pub(super) fn note(&mut self, event: LiveRequest) {
        if let Some(journal) = &mut self.journal {
            journal.pending.push(event);
        }
    }

    /// A frame started at `time` on the stopwatch, `frame_time` long (`carried` of it load
    /// carried in): the frame before it is written, and this one waits for its present.
    pub(super) fn frame_started(&mut self, time: Nanos, frame_time: Nanos, carried: Nanos) {
        let Some(journal) = &mut self.journal else {
            return;
        };
        let written = journal.flush();
        let events = std::mem::take(&mut journal.pending);
        journal.current = Some((
            RecordedFrame {
                time,
                frame_time,
                carried,
                ..RecordedFrame::default()
            },
            events,
        ));
        if let Err(error) = written {
            self.journal = None;
            self.error = Some(format!("the recording stopped: {error}"));
        }
    }

    /// The frame that started last spent `spent` of artificial load.
    pub(super) fn spent(&mut self, spent: LoadSpent) {
        if let Some(row) = self.current_row() {
            row.load = spent.total;
        }
    }

    /// The window presented the frame that started last at `at`, after acquiring its
    /// image blocked for `acquire_wait`.
    pub(super) fn presented(&mut self, at: Nanos, acquire_wait: Nanos) {
        if let Some(row) = self.current_row() {
            row.present = Some((at, acquire_wait));
        }
    }

    /// The row of the frame waiting for its present.
    fn current_row(&mut self) -> Option<&mut RecordedFrame> {
        let (row, _) = self.journal.as_mut()?.current.as_mut()?;
        Some(row)
    }
}

//! The trace a bench request runs over: a file read into memory, or a generator whose frames
//! are made anew on each pass.

use std::path::PathBuf;

use super::BenchError;
use crate::trace::{
    self, DisplayTimes, FrameSource, FrameTrace, GeneratedFrames, GeneratedTrace, LoadOptions,
};

/// Which trace a [`BenchRequest`](super::BenchRequest) runs over.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceChoice {
    /// A trace file (`--trace`), or a recorded session.
    File {
        /// The file.
        path: PathBuf,
        /// How to read it (PresentMon's `--process` and `--swap-chain`).
        options: LoadOptions,
        /// Whether a recorded session runs as a plain trace of its frame times under the
        /// bench's model (`--as-trace`) instead of being replayed as recorded.
        as_trace: bool,
    },
    /// A generated trace (`--generate`).
    Generated {
        /// The generator: `steady:HZ`, `jitter:HZ:SD_MS[:SEED]`, `hitch:HZ:SPIKE_MS:EVERY_S`
        /// or `ramp:FROM_HZ:TO_HZ`.
        spec: String,
        /// Its length, seconds (more than 0 up to [`trace::MAX_DURATION_S`]).
        duration_s: f64,
    },
}

impl TraceChoice {
    /// Reads or makes the trace. `on_wait` is told the path when a file has given no data
    /// for a second (a named pipe whose writer has not started blocks the read). With
    /// `display_times` (`--display trace`), a recorded session is read with the display
    /// times it measured.
    pub fn load(
        &self,
        display_times: bool,
        on_wait: impl FnOnce(&str) + Send + 'static,
    ) -> Result<BenchTrace, BenchError> {
        match self {
            Self::File { path, .. } if display_times && trace::is_recording(path) => {
                Ok(BenchTrace::Read(crate::recording::recording_trace(path)?))
            }
            Self::File { path, options, .. } => Ok(BenchTrace::Read(trace::load_with_wait_notice(
                path, options, on_wait,
            )?)),
            Self::Generated { spec, duration_s } => {
                let duration_s = *duration_s;
                if !(duration_s > 0.0 && duration_s <= trace::MAX_DURATION_S) {
                    return Err(BenchError::Duration { duration_s });
                }
                let generated =
                    GeneratedTrace::new(spec, duration_s).map_err(BenchError::Generate)?;
                Ok(BenchTrace::Generated(generated))
            }
        }
    }
}

/// The trace `bench` runs over: read from a file, its frames held in memory, or generated,
/// its frames made anew on each pass and never all held.
#[derive(Clone, Debug)]
pub enum BenchTrace {
    /// Read from `--trace`.
    Read(FrameTrace),
    /// Made by `--generate` (by default `steady:60`).
    Generated(GeneratedTrace),
}

impl BenchTrace {
    /// Where the frames came from: the file, or the spec with its duration.
    pub fn source(&self) -> &str {
        match self {
            Self::Read(trace) => &trace.source,
            Self::Generated(trace) => trace.source(),
        }
    }

    /// What the reader or the generator wants the user to know.
    pub fn notes(&self) -> &[String] {
        match self {
            Self::Read(trace) => &trace.notes,
            Self::Generated(trace) => trace.notes(),
        }
    }

    /// The capture's display times, when it has them (see [`FrameTrace::display_times`]).
    pub fn display_times(&self) -> Option<DisplayTimes<'_>> {
        match self {
            Self::Read(trace) => trace.display_times(),
            Self::Generated(_) => None,
        }
    }

    /// Sum of the frame times in seconds.
    pub fn wall_time_s(&self) -> f64 {
        match self {
            Self::Read(trace) => trace.wall_time_s(),
            Self::Generated(trace) => trace.wall_time_s(),
        }
    }
}

impl FrameSource for BenchTrace {
    fn frame_count(&self) -> u64 {
        match self {
            Self::Read(trace) => trace.len() as u64,
            Self::Generated(trace) => trace.len(),
        }
    }

    fn frame_times(&self) -> impl Iterator<Item = u64> + '_ {
        match self {
            Self::Read(trace) => BenchFrames::Read(trace.frame_times_ns.iter().copied()),
            Self::Generated(trace) => BenchFrames::Generated(trace.frames()),
        }
    }
}

/// A pass over a [`BenchTrace`]'s frames.
enum BenchFrames<'a> {
    /// Over the frames in memory.
    Read(std::iter::Copied<std::slice::Iter<'a, u64>>),
    /// Making the frames.
    Generated(GeneratedFrames),
}

impl Iterator for BenchFrames<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        match self {
            Self::Read(frames) => frames.next(),
            Self::Generated(frames) => frames.next(),
        }
    }
}

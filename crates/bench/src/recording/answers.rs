//! The rules every reader of a recording applies to its presentation answers (`shown FRAME
//! at MS`, `discarded FRAME`): an answer says what the platform told the window about a
//! frame it had presented, so it must name a frame whose row is written already, recently,
//! and once, and a display time must lie between the frame's start and a minute after it.
//! The window records nothing else (its matcher drops what breaks these rules, see
//! `timestep_lab_core::feedback`), so a file that does was edited or damaged, and is refused
//! with its line before anything replays.

use std::collections::VecDeque;

use timestep_lab_core::feedback::IN_FLIGHT;
use timestep_lab_core::timestep::Nanos;

use crate::trace::{MAX_FRAME_TIME_MS, ms_text};

/// Rows back an answer may name. The window forgets a present [`IN_FLIGHT`] presents after
/// it (one present a frame), so its answers name one of the last 64 frames; the rest is
/// slack. Bounded so that checking a recording takes the same memory however long it is.
pub const ANSWER_REACH: usize = 16 * IN_FLIGHT;

/// Latest a frame may reach the screen after it started, ns: a minute, as for a frame time
/// (the window's own limit, seconds after the present, is tighter).
const LATEST_SHOWN: Nanos = MAX_FRAME_TIME_MS as Nanos * 1_000_000;

/// The recent rows' starts and whether each was answered, to check answers against.
#[derive(Debug, Default)]
pub(super) struct Answers {
    /// Rows read so far.
    rows: u64,
    /// The last [`ANSWER_REACH`] rows, oldest first: start and answered.
    recent: VecDeque<(Nanos, bool)>,
}

impl Answers {
    /// Checks the answer that frame `frame` was shown at `at` (`None`: discarded), written
    /// in the row about to be read; notes it as answered.
    pub(super) fn answer(&mut self, frame: u64, at: Option<Nanos>) -> Result<(), String> {
        let what = match at {
            Some(at) => format!("\"shown {frame} at {}\"", ms_text(at)),
            None => format!("\"discarded {frame}\""),
        };
        if frame >= self.rows {
            return Err(format!(
                "{what} answers for frame {frame}, whose row is not written yet (this is row \
                 {}): the window writes an answer in a row after its frame's",
                self.rows
            ));
        }
        let back = self.rows - frame;
        let Some(index) = usize::try_from(back)
            .ok()
            .filter(|&back| back <= self.recent.len())
            .map(|back| self.recent.len() - back)
        else {
            return Err(format!(
                "{what} answers for a frame {back} rows back: the window forgets a present \
                 {IN_FLIGHT} presents after it, so an answer names one of the last \
                 {ANSWER_REACH} frames"
            ));
        };
        let (start, answered) = &mut self.recent[index];
        if *answered {
            return Err(format!(
                "{what} answers for frame {frame} a second time: the platform answers each \
                 present once, and the window records the first answer only"
            ));
        }
        if let Some(at) = at {
            if at < *start {
                return Err(format!(
                    "{what} puts frame {frame} on the screen before it started (at {} ms)",
                    ms_text(*start)
                ));
            }
            if at - *start > LATEST_SHOWN {
                return Err(format!(
                    "{what} puts frame {frame} on the screen more than a minute after it \
                     started (at {} ms)",
                    ms_text(*start)
                ));
            }
        }
        *answered = true;
        Ok(())
    }

    /// The row just read started at `start`.
    pub(super) fn row(&mut self, start: Nanos) {
        if self.recent.len() == ANSWER_REACH {
            self.recent.pop_front();
        }
        self.recent.push_back((start, false));
        self.rows += 1;
    }
}

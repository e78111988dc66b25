//! When the frame about to run will reach the screen: what the `display-time` strategy
//! animates to.
//!
//! A frame's display time depends on when it is presented, which is only known after its
//! work is done. The forecast assumes the frame's CPU work (its start to its present) is
//! the shortest of the last [`FORECAST_FRAMES`] frames' and asks the display model what it
//! would do with a frame presented then ([`Display::predict`]). The shortest, not the mean:
//! CPU frame times that wobble around a refresh (15 and 18.3 ms at 60 Hz) straddle the
//! refresh boundary, and their mean lands on it, so a tiny error picks the wrong refresh;
//! and a hitch, which nothing can foresee, does not move the forecast of the frames after
//! it. Before the first present, the frame time measured before the first frame stands in
//! for the work, and the frame is assumed presented half [`FORECAST_TOLERANCE`] early, so a
//! frame as long as a refresh is not pushed a refresh late by rounding. On a capture's own
//! display times (`trace`), which no model decides, the forecast is
//! the last shown frame's delay, as a game reading presentation feedback would guess.

use super::{Display, DisplaySpec};
use crate::timestep::Nanos;

/// Frames whose CPU work the forecast remembers: a quarter of a second at 60 Hz, long
/// enough to hold both halves of a wobble, short enough to follow a change of load.
pub const FORECAST_FRAMES: usize = 16;

/// How far a frame may reach the screen from its forecast and still be on time; the
/// forecast assumes a frame is presented half of it earlier than the shortest recent work
/// says: the refresh grid and frame times are rounded to the nanosecond, so a frame as long
/// as a refresh presents a nanosecond either side of a refresh's start, which picks one
/// refresh or the next.
pub const FORECAST_TOLERANCE: Nanos = 10_000;

/// The forecast of a display time for each frame about to run (see the module doc).
#[derive(Clone, Copy, Debug)]
pub struct Forecast {
    /// The last frames' CPU work, ns; `Nanos::MAX` where no frame has been seen yet.
    works: [Nanos; FORECAST_FRAMES],
    /// Where the next work is written.
    next: usize,
    /// The last shown frame's time from its start to the screen (for `trace`).
    last_delay: Option<Nanos>,
}

impl Default for Forecast {
    fn default() -> Self {
        Self {
            works: [Nanos::MAX; FORECAST_FRAMES],
            next: 0,
            last_delay: None,
        }
    }
}

impl Forecast {
    /// A frame that started at `start` was presented at `present_at` (before any wait for
    /// a free image).
    pub fn presented(&mut self, start: Nanos, present_at: Nanos) {
        self.works[self.next] = present_at.saturating_sub(start);
        self.next = (self.next + 1) % FORECAST_FRAMES;
    }

    /// A frame started `interval` after the one before it (0: nothing measured). Before any
    /// frame was presented, that time stands in for a frame's work.
    pub fn frame_time(&mut self, interval: Nanos) {
        if interval > 0 && self.work().is_none() {
            self.works[self.next] = interval;
            self.next = (self.next + 1) % FORECAST_FRAMES;
        }
    }

    /// A frame that started at `start` reached the screen at `at`.
    pub fn shown(&mut self, start: Nanos, at: Nanos) {
        self.last_delay = Some(at.saturating_sub(start));
    }

    /// The CPU work the next frame is expected to take: the shortest recent one; `None`
    /// before any frame was presented.
    pub fn work(&self) -> Option<Nanos> {
        self.works
            .iter()
            .copied()
            .min()
            .filter(|&work| work != Nanos::MAX)
    }

    /// When a frame starting at `start` is expected to reach `display`'s screen, its image
    /// ready `gpu_cost` after the GPU's queued work; `None` on the `cpu` display, before
    /// the first frame was presented, and on a capture before its first shown frame.
    pub fn predict(&self, display: &Display, start: Nanos, gpu_cost: Nanos) -> Option<Nanos> {
        match display.spec() {
            DisplaySpec::Cpu => None,
            DisplaySpec::Trace => self.last_delay.map(|delay| start.saturating_add(delay)),
            _ => {
                let work = self.work()?;
                let present_at = start.saturating_add(work - work.min(FORECAST_TOLERANCE / 2));
                display.predict(present_at, gpu_cost)
            }
        }
    }
}

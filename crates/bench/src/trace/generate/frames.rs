//! The frame makers: a pass over a generated trace, one frame at a time.

use super::NANOS_PER_SECOND;
use super::spec::{Rate, Shape};
use crate::trace::{MAX_FRAME_TIME_MS, Rng};

/// Jittered frames are kept at or above this fraction of the period: a frame cannot take
/// negative time, and near-zero frames would be noise no real loop produces.
const MIN_JITTER_FRACTION: f64 = 0.1;

/// A pass over a generated trace's frames (see
/// [`GeneratedTrace::frames`](super::GeneratedTrace::frames)): frames are made until their
/// total reaches the duration, the last one ending at or just past it.
#[derive(Clone, Debug)]
pub struct GeneratedFrames {
    /// The generator's state.
    maker: Maker,
    /// Frames are made until their total reaches this, ns.
    duration_ns: u64,
    /// The total of the frames made so far, ns.
    pub(super) total_ns: u64,
    /// Whether the duration is reached.
    finished: bool,
}

impl GeneratedFrames {
    /// A pass from the first frame.
    pub(super) fn new(shape: Shape, duration_ns: u64) -> Self {
        let maker = match shape {
            Shape::Steady(rate) => Maker::Steady(SteadyFrames::new(rate)),
            Shape::Jitter { rate, sd_ms, seed } => Maker::Jitter {
                steady: SteadyFrames::new(rate),
                rng: Rng::new(seed),
                sd_ns: sd_ms * 1e6,
                min_ns: (rate.period_ns() * MIN_JITTER_FRACTION).round() as i64,
                max_ns: (MAX_FRAME_TIME_MS * 1e6) as i64,
                clamped: 0,
            },
            Shape::Hitch {
                rate,
                spike_ns,
                every_ns,
            } => Maker::Hitch {
                steady: SteadyFrames::new(rate),
                spike_ns,
                every_ns,
                next_hitch: every_ns,
            },
            Shape::Ramp {
                from_hz,
                to_hz,
                duration_s,
            } => Maker::Ramp {
                from_hz,
                to_hz,
                duration_s,
                half_slope: (to_hz - from_hz) / (2.0 * duration_s),
                frames_in_ramp: (from_hz + to_hz) / 2.0 * duration_s,
                k: 0,
                end_ns: 0,
            },
        };
        Self {
            maker,
            duration_ns,
            total_ns: 0,
            finished: false,
        }
    }

    /// A whole pass of `shape`'s frames up to `duration_ns`, counted: the frames, their
    /// total, ns, and how many the jitter raised ([`Self::clamped`]). A steady sequence is
    /// counted by its formula ([`Rate::frames_to_reach`]), not frame by frame: the same
    /// count, and an hour of 144 Hz needs no pass.
    pub(super) fn count(shape: Shape, duration_ns: u64) -> (u64, u64, u64) {
        if let Shape::Steady(rate) = shape {
            let frames = rate.frames_to_reach(duration_ns);
            return (frames, rate.frame_end_ns(frames), 0);
        }
        let mut pass = Self::new(shape, duration_ns);
        let frames = pass.by_ref().count() as u64;
        (frames, pass.total_ns, pass.clamped())
    }

    /// How many frames so far the jitter's noise would have made shorter than a tenth of
    /// the period (they were raised to it); 0 for the other generators.
    pub(super) fn clamped(&self) -> u64 {
        match self.maker {
            Maker::Jitter { clamped, .. } => clamped,
            _ => 0,
        }
    }
}

impl Iterator for GeneratedFrames {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.finished {
            return None;
        }
        let frame = self.maker.next_frame(self.total_ns);
        self.total_ns = self.total_ns.saturating_add(frame);
        self.finished = self.total_ns >= self.duration_ns;
        Some(frame)
    }
}

/// The state of one generator part way through its frames.
#[derive(Clone, Debug)]
enum Maker {
    /// Exactly the steady sequence.
    Steady(SteadyFrames),
    /// Steady frames plus normal noise, kept within a tenth of the period and the longest
    /// frame time.
    Jitter {
        /// The steady sequence under the noise.
        steady: SteadyFrames,
        /// The noise.
        rng: Rng,
        /// The noise's standard deviation, ns.
        sd_ns: f64,
        /// The shortest frame, ns.
        min_ns: i64,
        /// The longest frame, ns.
        max_ns: i64,
        /// Frames raised to `min_ns` so far.
        clamped: u64,
    },
    /// Steady frames, except that the first frame starting at or after each multiple of
    /// `every_ns` of trace time takes `spike_ns`. The steady frames keep their own
    /// sequence, so the frames between spikes are exactly the steady ones.
    Hitch {
        /// The steady sequence between the spikes.
        steady: SteadyFrames,
        /// A spike's length, ns.
        spike_ns: u64,
        /// Trace time between spikes, ns.
        every_ns: u64,
        /// The trace time at or after which the next spike starts, ns.
        next_hitch: u64,
    },
    /// Frames whose rate rises (or falls) linearly from `from_hz` at 0 to `to_hz` at the
    /// end.
    ///
    /// The frame count is the integral of the rate, `phase(t) = from t + (to - from) t² / 2T`,
    /// and frame `k` ends where `phase(t) = k`; past `T` the rate stays at `to_hz`. Only
    /// `+ - * /` and `sqrt` are used, which IEEE 754 rounds the same everywhere.
    Ramp {
        /// The rate at the start, Hz.
        from_hz: f64,
        /// The rate at `duration_s`, Hz.
        to_hz: f64,
        /// `T`, s.
        duration_s: f64,
        /// `(to - from) / 2T`.
        half_slope: f64,
        /// Frames within `T`: `(from + to) / 2 * T`.
        frames_in_ramp: f64,
        /// Frames made so far.
        k: u64,
        /// Where the last frame made ended, ns.
        end_ns: u64,
    },
}

impl Maker {
    /// The next frame's time, ns; `total_ns` is the time of the frames before it.
    fn next_frame(&mut self, total_ns: u64) -> u64 {
        match self {
            Self::Steady(steady) => steady.next_frame(),
            Self::Jitter {
                steady,
                rng,
                sd_ns,
                min_ns,
                max_ns,
                clamped,
            } => {
                let steady_ns = steady.next_frame() as i64;
                let noisy_ns = steady_ns + rng.normal(0.0, *sd_ns).round() as i64;
                if noisy_ns < *min_ns {
                    *clamped += 1;
                }
                noisy_ns.clamp(*min_ns, *max_ns) as u64
            }
            Self::Hitch {
                steady,
                spike_ns,
                every_ns,
                next_hitch,
            } => {
                if total_ns >= *next_hitch {
                    // A spike longer than the interval swallows the marks it covers: the next
                    // mark is the first multiple of the interval after now (found at once, not
                    // mark by mark, which a nanosecond interval makes billions of).
                    *next_hitch = (total_ns / *every_ns + 1) * *every_ns;
                    *spike_ns
                } else {
                    steady.next_frame()
                }
            }
            Self::Ramp {
                from_hz,
                to_hz,
                duration_s,
                half_slope,
                frames_in_ramp,
                k,
                end_ns,
            } => {
                *k += 1;
                let k_f = *k as f64;
                let end_s = if k_f <= *frames_in_ramp {
                    // Root of half_slope t² + from t - k = 0, in the form that stays exact
                    // when half_slope is 0 and does not cancel when it is small.
                    let discriminant = (*from_hz * *from_hz + 4.0 * *half_slope * k_f).max(0.0);
                    2.0 * k_f / (*from_hz + discriminant.sqrt())
                } else {
                    *duration_s + (k_f - *frames_in_ramp) / *to_hz
                };
                let next = ((end_s * 1e9).round() as u64).max(*end_ns);
                let frame = next - *end_ns;
                *end_ns = next;
                frame
            }
        }
    }
}

/// The frames of a steady sequence in turn: frame `k` ends at exactly
/// [`Rate::frame_end_ns`]`(k)`. The end is `floor(N_k / 2n)` with `N_k = 2 k 1e9 d + n` for
/// the rate `n / d`; `N` grows by the same amount each frame, so the quotient and remainder
/// are carried from frame to frame instead of divided out anew (a 128-bit division per
/// frame would cost more than the rest of the generator).
#[derive(Clone, Copy, Debug)]
pub(super) struct SteadyFrames {
    /// `floor(N_k / divisor)`: where the last frame made ended, ns.
    pub(super) end: u128,
    /// `N_k mod divisor`.
    pub(super) remainder: u128,
    /// `2n`.
    pub(super) divisor: u128,
    /// `(N_{k+1} - N_k) / divisor`, whole.
    step_quotient: u128,
    /// `(N_{k+1} - N_k) mod divisor`.
    step_remainder: u128,
}

impl SteadyFrames {
    /// The sequence from frame 1 (frame 0 ends at 0).
    pub(super) fn new(rate: Rate) -> Self {
        let divisor = 2 * rate.numerator;
        let step = 2 * NANOS_PER_SECOND * rate.denominator;
        Self {
            end: 0,
            // N_0 = n, less than 2n.
            remainder: rate.numerator,
            divisor,
            step_quotient: step / divisor,
            step_remainder: step % divisor,
        }
    }

    /// The next frame's time, ns.
    pub(super) fn next_frame(&mut self) -> u64 {
        let mut end = self.end + self.step_quotient;
        let mut remainder = self.remainder + self.step_remainder;
        if remainder >= self.divisor {
            remainder -= self.divisor;
            end += 1;
        }
        let frame = (end - self.end) as u64;
        self.end = end;
        self.remainder = remainder;
        frame
    }
}

//! Latency and judder: the two smoothness measures, as running sums over frames. `bench`'s
//! whole-run metrics and the window's one-second readouts both use this.

use crate::timestep::{Nanos, shifted};

/// Running sums of `T_i - S_i` and of the squared judder terms
/// `(S_i - S_{i-1}) - (T_i - T_{i-1})` over the judged frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Smoothness {
    /// Frames that counted toward latency.
    judged: u64,
    /// Sum of `T_i - S_i`, ns.
    latency_sum: f64,
    /// Judder terms summed (judged frames that had a frame before them).
    judder_terms: u64,
    /// Sum of squared judder terms, ns².
    judder_sq_sum: f64,
    /// `(T, S)` of the previous frame, judged or not.
    previous: Option<(Nanos, Nanos)>,
}

impl Smoothness {
    /// Records frame `(t, s)`; `judged` says whether it counts (metrics start at the first
    /// frame after the first step). An unjudged frame still serves as the previous one.
    /// Returns the frame's judder term `(S_i - S_{i-1}) - (T_i - T_{i-1})` in ns when it
    /// counted one.
    pub fn record(&mut self, t: Nanos, s: Nanos, judged: bool) -> Option<f64> {
        let mut term = None;
        if judged {
            self.judged += 1;
            self.latency_sum += signed_diff(t, s);
            if let Some((previous_t, previous_s)) = self.previous {
                let judder = signed_diff(s, previous_s) - signed_diff(t, previous_t);
                self.judder_sq_sum += judder * judder;
                self.judder_terms += 1;
                term = Some(judder);
            }
        }
        self.previous = Some((t, s));
        term
    }

    /// Moves the previous frame's `T` by `shift` ns: the clock `T` is measured on was moved
    /// by that much between it and the next frame (see
    /// [`crate::timestep::Engine::resync`]), so the next judder term compares like with like.
    pub fn rebase(&mut self, shift: i64) {
        if let Some((t, _)) = &mut self.previous {
            *t = shifted(*t, shift);
        }
    }

    /// Mean `T_i - S_i` over the judged frames, ms (0 before any).
    pub fn latency_ms(&self) -> f64 {
        mean(self.latency_sum, self.judged) / 1e6
    }

    /// RMS of the judder terms, ms (0 before any).
    pub fn judder_ms(&self) -> f64 {
        mean(self.judder_sq_sum, self.judder_terms).sqrt() / 1e6
    }
}

/// `sum / count`, or 0 when nothing was counted.
fn mean(sum: f64, count: u64) -> f64 {
    if count > 0 { sum / count as f64 } else { 0.0 }
}

/// `a - b` in nanoseconds, as a float.
fn signed_diff(a: Nanos, b: Nanos) -> f64 {
    (i128::from(a) - i128::from(b)) as f64
}

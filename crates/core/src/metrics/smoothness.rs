//! Latency and judder: the two smoothness measures, as running sums over frames. `bench`'s
//! whole-run metrics and the window's one-second readouts both use this.

use crate::timestep::{Nanos, shifted};

/// Running sums of `T_i - S_i` and of the squared judder terms
/// `(S_i - S_{i-1}) - (T_i - T_{i-1})` over the judged frames, and the worst of each.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Smoothness {
    /// Frames that counted toward latency.
    judged: u64,
    /// Sum of `T_i - S_i`, ns.
    latency_sum: f64,
    /// The `T_i - S_i` farthest from zero, with its sign, ns.
    latency_worst: f64,
    /// Judder terms summed (judged frames that had a frame before them).
    judder_terms: u64,
    /// Sum of squared judder terms, ns².
    judder_sq_sum: f64,
    /// The largest judder term's magnitude, ns.
    judder_worst: f64,
    /// `(T, S)` of the previous frame, judged or not.
    previous: Option<(Nanos, Nanos)>,
}

impl Smoothness {
    /// Records frame `(t, s)`; `judged` says whether it counts (metrics start at the first
    /// frame after the first step). An unjudged frame still serves as the previous one.
    /// Returns the frame's judder term `(S_i - S_{i-1}) - (T_i - T_{i-1})` in ns when it
    /// counted one.
    pub fn record(&mut self, t: Nanos, s: Nanos, judged: bool) -> Option<f64> {
        self.record_frame(t, s, judged, true)
    }

    /// Records frame `(t, s)` as the start of a new timeline: its latency counts when
    /// `judged`, but it has no judder term (PresentMon gives such a frame no animation
    /// error: its display time or CPU start did not move on from the previous frame's).
    /// The frames after it are measured from it.
    pub fn record_restart(&mut self, t: Nanos, s: Nanos, judged: bool) {
        self.record_frame(t, s, judged, false);
    }

    /// [`Self::record`], with a judder term only when `stepped`.
    fn record_frame(&mut self, t: Nanos, s: Nanos, judged: bool, stepped: bool) -> Option<f64> {
        let mut term = None;
        if judged {
            self.judged += 1;
            let latency = signed_diff(t, s);
            self.latency_sum += latency;
            if latency.abs() > self.latency_worst.abs() {
                self.latency_worst = latency;
            }
            if let Some((previous_t, previous_s)) = self.previous.filter(|_| stepped) {
                let judder = signed_diff(s, previous_s) - signed_diff(t, previous_t);
                self.judder_sq_sum += judder * judder;
                self.judder_worst = self.judder_worst.max(judder.abs());
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

    /// Frames that counted toward latency.
    pub fn judged(&self) -> u64 {
        self.judged
    }

    /// Judder terms counted (judged frames with a frame before them).
    pub fn judder_terms(&self) -> u64 {
        self.judder_terms
    }

    /// Mean `T_i - S_i` over the judged frames, ms (0 before any).
    pub fn latency_ms(&self) -> f64 {
        mean(self.latency_sum, self.judged) / 1e6
    }

    /// RMS of the judder terms, ms (0 before any).
    pub fn judder_ms(&self) -> f64 {
        mean(self.judder_sq_sum, self.judder_terms).sqrt() / 1e6
    }

    /// The judged `T_i - S_i` farthest from zero, with its sign, ms (0 before any): the
    /// worst frame beside [`Self::latency_ms`]'s mean.
    pub fn latency_worst_ms(&self) -> f64 {
        self.latency_worst / 1e6
    }

    /// The largest judder term's magnitude, ms (0 before any): the worst frame beside
    /// [`Self::judder_ms`]'s RMS, which never exceeds it.
    pub fn judder_worst_ms(&self) -> f64 {
        self.judder_worst / 1e6
    }
}

/// `sum / count`, or 0 when nothing was counted.
fn mean(sum: f64, count: u64) -> f64 {
    if count > 0 { sum / count as f64 } else { 0.0 }
}

/// `a - b` in nanoseconds, as a float: the exact difference rounded once, as a wider
/// integer type would give it, without 128-bit arithmetic on the per-frame path.
fn signed_diff(a: Nanos, b: Nanos) -> f64 {
    if a >= b {
        (a - b) as f64
    } else {
        -((b - a) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Nanos = 1_000_000;

    #[test]
    fn a_difference_is_the_exact_one_rounded_once() {
        let wide = |a: Nanos, b: Nanos| (i128::from(a) - i128::from(b)) as f64;
        let edges = [
            0,
            1,
            2,
            (1 << 53) - 1,
            1 << 53,
            (1 << 53) + 1,
            (1 << 63) + 3,
            u64::MAX,
        ];
        for a in edges {
            for b in edges {
                assert_eq!(
                    signed_diff(a, b).to_bits(),
                    wide(a, b).to_bits(),
                    "{a} - {b}"
                );
            }
        }
    }

    #[test]
    fn the_worst_frames_stand_beside_the_mean_and_the_rms() {
        let mut smoothness = Smoothness::default();
        // (T, S) in ms. The first frame is not judged: it only serves as the previous one.
        assert_eq!(smoothness.record(10 * MS, 0, false), None);
        // T - S: 10, 10, 10, -20 ms; mean 10 / 4 = 2.5 ms, worst -20 ms (ahead).
        // Judder (dS - dT): 10 - 10, 10 - 10, 10 - 10, 40 - 10 = 0, 0, 0, 30 ms;
        // RMS sqrt(900 / 4) = 15 ms, worst 30 ms.
        let terms = [
            smoothness.record(20 * MS, 10 * MS, true),
            smoothness.record(30 * MS, 20 * MS, true),
            smoothness.record(40 * MS, 30 * MS, true),
            smoothness.record(50 * MS, 70 * MS, true),
        ];
        assert_eq!(
            terms,
            [Some(0.0), Some(0.0), Some(0.0), Some(30.0 * MS as f64)]
        );
        assert_eq!(smoothness.latency_ms(), 2.5);
        assert_eq!(smoothness.latency_worst_ms(), -20.0);
        assert_eq!(smoothness.judder_ms(), 15.0);
        assert_eq!(smoothness.judder_worst_ms(), 30.0);
    }

    #[test]
    fn a_restart_counts_its_latency_and_measures_the_next_frame_from_itself() {
        let mut smoothness = Smoothness::default();
        smoothness.record(10 * MS, 0, true);
        // No judder term for the restart (it would be 0 - 20 = -20 ms), latency 30 ms.
        smoothness.record_restart(30 * MS, 0, true);
        // From the restart: (10 - 0) - (40 - 30) = 0.
        assert_eq!(smoothness.record(40 * MS, 10 * MS, true), Some(0.0));
        assert_eq!(smoothness.judder_worst_ms(), 0.0);
        assert_eq!(smoothness.latency_ms(), (10.0 + 30.0 + 30.0) / 3.0);
    }

    #[test]
    fn nothing_judged_is_no_worst() {
        let mut smoothness = Smoothness::default();
        smoothness.record(10 * MS, 0, false);
        assert_eq!(smoothness.latency_worst_ms(), 0.0);
        assert_eq!(smoothness.judder_worst_ms(), 0.0);
    }
}

//! What an input policy cost over a run: latency to the screen, inputs lost and
//! duplicated, and how far held keys are off.

use super::InputPolicy;
use crate::timestep::{Nanos, secs_from_ns};

/// One policy's input measurements since the start or the last reset.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PolicyStats {
    /// Input events read.
    pub inputs: u64,
    /// Events a step applied at least once.
    pub applied: u64,
    /// Events no step ever applied (read in a frame without a step under "first step
    /// only", or beyond a full queue).
    pub lost: u64,
    /// Applications beyond the first (a frame's events applied to each of its steps).
    pub duplicated: u64,
    /// Events whose latency was measured.
    pub measured: u64,
    /// Sum of the measured latencies, ns.
    latency_sum_ns: i128,
    /// The largest latency, ns.
    latency_worst_ns: i64,
    /// Completed holds (a press and its release both applied).
    pub holds: u64,
    /// Sum of `|simulated hold - real hold|`, ns.
    hold_error_abs_sum_ns: u128,
    /// The hold error farthest from zero, with its sign, ns (positive: held too long).
    hold_error_worst_ns: i64,
}

impl PolicyStats {
    /// Records one latency: from the event to the screen showing its first step, ns.
    pub(super) fn latency(&mut self, ns: i64) {
        if self.measured == 0 || ns > self.latency_worst_ns {
            self.latency_worst_ns = ns;
        }
        self.measured += 1;
        self.latency_sum_ns += i128::from(ns);
    }

    /// Records one completed hold: simulated minus real hold time, ns.
    pub(super) fn hold(&mut self, error_ns: i64) {
        if self.holds == 0 || error_ns.unsigned_abs() > self.hold_error_worst_ns.unsigned_abs() {
            self.hold_error_worst_ns = error_ns;
        }
        self.holds += 1;
        self.hold_error_abs_sum_ns += u128::from(error_ns.unsigned_abs());
    }

    /// Mean latency, ms; `None` before one is measured.
    pub fn latency_mean_ms(&self) -> Option<f64> {
        (self.measured > 0).then(|| self.latency_sum_ns as f64 / self.measured as f64 / 1e6)
    }

    /// The worst latency, ms; `None` before one is measured.
    pub fn latency_worst_ms(&self) -> Option<f64> {
        (self.measured > 0).then(|| self.latency_worst_ns as f64 / 1e6)
    }

    /// Sum of the measured latencies, ns (exact, for tests).
    pub fn latency_sum_ns(&self) -> i128 {
        self.latency_sum_ns
    }

    /// Mean `|simulated hold - real hold|` as distance walked at `speed_mps`, mm; `None`
    /// before a hold completes.
    pub fn hold_error_mean_mm(&self, speed_mps: f64) -> Option<f64> {
        (self.holds > 0)
            .then(|| self.hold_error_abs_sum_ns as f64 / self.holds as f64 / 1e9 * speed_mps * 1e3)
    }

    /// The hold error farthest from zero as distance walked at `speed_mps`, mm, with its
    /// sign (positive: walked too far); `None` before a hold completes.
    pub fn hold_error_worst_mm(&self, speed_mps: f64) -> Option<f64> {
        (self.holds > 0).then(|| secs_from_ns_signed(self.hold_error_worst_ns) * speed_mps * 1e3)
    }

    /// The hold error farthest from zero, ns, with its sign.
    pub fn hold_error_worst_ns(&self) -> i64 {
        self.hold_error_worst_ns
    }
}

/// Seconds of a signed nanosecond count.
fn secs_from_ns_signed(ns: i64) -> f64 {
    let magnitude = secs_from_ns(ns.unsigned_abs() as Nanos);
    if ns < 0 { -magnitude } else { magnitude }
}

/// Every policy's measurements, in [`InputPolicy::ALL`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InputStats {
    /// Per policy.
    pub policies: [PolicyStats; 4],
}

impl InputStats {
    /// One policy's measurements.
    pub fn get(&self, policy: InputPolicy) -> &PolicyStats {
        &self.policies[policy.index()]
    }

    /// Whether any input was read.
    pub fn any(&self) -> bool {
        self.policies[0].inputs > 0
    }
}

//! The closed-loop model of a loaded game loop, worked out on paper rather than run: what
//! `sweep` predicts beside what it measures, so that a disagreement shows where the lab's
//! loop (or the model) does something unexpected.
//!
//! A frame lasts the trace's mean frame `f`, plus the load: the frame cost `r`, the mean
//! jitter `sd·√(2/π)` (half-normal), a hitch of `L` once every `P` of real time (at most
//! one a frame), and the previous frame's steps at `c` each. In a steady state every frame
//! is alike, so its length `F` solves
//!
//! ```text
//! F = f + r + sd·√(2/π) + L·min(1, F/P) + c·n(F)
//! ```
//!
//! where the rule says how many steps `n` a frame of `F` takes, and how much it simulates:
//! after the clamp `M`, `F' = min(F, M)`,
//!
//! - the accumulator family: `n = min(k, F'/dt)` steps of `dt` (the cap `k` drops the rest);
//! - `semi-fixed`, `equal-substeps`: `n = min(k, ⌈F'/dt⌉)` steps simulating `min(F', k·dt)`;
//! - `fixed`: one step of `dt`, whatever the frame;
//! - `variable`: one step of `F'`.
//!
//! The simulation speed is what a frame simulates over `F`. For an unguarded accumulator
//! `F = (f + r)/(1 − c/dt)`: `(f + r)/(dt − c)` steps a frame, diverging as `c` reaches
//! `dt`; with a cap it settles at `F = f + r + k·c`, speed `min(1, k·dt/(f + r + k·c))`.
//! The model finds the smallest `F` that solves the equation; when none does up to the
//! frozen limit (60 s of load in one frame), the loop spirals.
//!
//! Single long frames lose time the mean frame does not: a frame can turn at most its
//! capacity `W = min(M, k·dt)` into simulated time (`M` for `variable`; `fixed` loses
//! none), so a hitch loses `(F + L − W)+` once a period and the jitter `E[(F' + J − W)+]`
//! a frame (`J` half-normal, `F'` the frame without its mean jitter), each beyond what the
//! mean frame loses, and the trace's own frames `Σ (f_i − W)+` over their total; the speed
//! drops by their share of real time. It knows no display (a
//! FIFO's waits are not in it), no transient (a run still climbing at the end of the
//! trace), and no knock-on of a long frame (the steps it owes making the next longer):
//! those are where it disagrees with the measurement.

use crate::live::LoadSettings;
use crate::run::FROZEN_LOAD;
use crate::timestep::{Nanos, StepLimits, StepRule, Strategy, TimestepConfig, ms_from_ns};

/// What the model says about a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// Simulated time over real time in the steady state (0 when it spirals).
    pub sim_speed: f64,
    /// Whether no steady state exists: every frame longer than the last.
    pub spiral: bool,
    /// The steady frame's length, ms (`None` when it spirals).
    pub frame_ms: Option<f64>,
    /// Steps a frame in the steady state (`None` when it spirals).
    pub steps_per_frame: Option<f64>,
}

/// How a rule turns a frame into steps, for the model.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stepping {
    /// One step of `dt` a frame.
    Fixed,
    /// One step of the (clamped) frame.
    Variable,
    /// Whole steps from an accumulator.
    Accumulator,
    /// The frame in steps no longer than `dt`, nothing carried.
    Substeps,
}

/// The model of one strategy's loop: its rule and guards, in ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoopModel {
    /// How it steps.
    stepping: Stepping,
    /// The step, ms.
    dt: f64,
    /// The clamp on a frame, ms (infinite when off).
    clamp: f64,
    /// The cap on steps a frame (infinite when off).
    cap: f64,
}

impl LoopModel {
    /// The model of `strategy` under `timestep`; `None` for an engine's own loop (Godot's,
    /// Unreal's, Glaiel's, Matter.js'), whose rules the model does not cover. Bevy, Unity
    /// and Fiedler are the clamped accumulator with their own constants.
    pub fn of(strategy: Strategy, timestep: &TimestepConfig) -> Option<Self> {
        let (stepping, limits) = match strategy.step_rule(timestep) {
            StepRule::Fixed(limits) => (Stepping::Fixed, limits),
            StepRule::Variable(limits) => (Stepping::Variable, limits),
            StepRule::SemiFixed(limits) | StepRule::EqualSubsteps(limits) => {
                (Stepping::Substeps, limits)
            }
            StepRule::ClampedAccumulator { limits, .. } => (Stepping::Accumulator, limits),
            StepRule::EngineLoop(_) => return None,
        };
        let StepLimits {
            dt,
            max_frame_time,
            max_steps,
        } = limits;
        Some(Self {
            stepping,
            dt: ms_from_ns(dt),
            clamp: max_frame_time.map_or(f64::INFINITY, ms_from_ns),
            cap: max_steps.map_or(f64::INFINITY, |steps| steps as f64),
        })
    }

    /// Steps a frame of `frame` ms takes, and the time they simulate, ms.
    fn steps(&self, frame: f64) -> (f64, f64) {
        let fed = frame.min(self.clamp);
        match self.stepping {
            Stepping::Fixed => (1.0, self.dt),
            Stepping::Variable => (1.0, fed),
            Stepping::Accumulator => {
                let steps = (fed / self.dt).min(self.cap);
                (steps, steps * self.dt)
            }
            Stepping::Substeps => {
                let steps = (fed / self.dt).ceil().min(self.cap);
                (steps, fed.min(self.cap * self.dt))
            }
        }
    }

    /// The steady state of the loop over frames of `mean_frame` ms under `load`, less
    /// `trace_loss`, the share of real time the trace's own long frames lose
    /// ([`Self::trace_loss`]).
    pub fn predict(&self, mean_frame: Nanos, load: &LoadSettings, trace_loss: f64) -> Prediction {
        let f = ms_from_ns(mean_frame);
        let base = f + load.render_cost_ms + load.jitter_ms * (2.0 / std::f64::consts::PI).sqrt();
        let period = load.hitch_every_s * 1000.0;
        let c = load.step_cost_ms;
        // How much longer the loop makes a frame than `frame`: positive while the frame is
        // too short to hold its own load.
        let excess = |frame: f64| {
            let hitch = if load.hitch_ms > 0.0 {
                load.hitch_ms * (frame / period).min(1.0)
            } else {
                0.0
            };
            base + hitch + c * self.steps(frame).0 - frame
        };
        let limit = ms_from_ns(FROZEN_LOAD);
        // The smallest frame that holds its load: double until one does, then halve the
        // bracket down to a nanosecond.
        let mut low = f;
        let mut high = f.max(1e-3);
        while excess(high) > 0.0 {
            low = high;
            high *= 2.0;
            if high > limit {
                return Prediction {
                    sim_speed: 0.0,
                    spiral: true,
                    frame_ms: None,
                    steps_per_frame: None,
                };
            }
        }
        while high - low > 1e-6 {
            let mid = 0.5 * (low + high);
            if excess(mid) > 0.0 {
                low = mid;
            } else {
                high = mid;
            }
        }
        let (steps, simulated) = self.steps(high);
        let steady = if high > 0.0 { simulated / high } else { 1.0 };
        Prediction {
            sim_speed: (steady - self.long_frame_loss(high, load) - trace_loss).max(0.0),
            spiral: false,
            frame_ms: Some(high),
            steps_per_frame: Some(steps),
        }
    }

    /// The share of real time the trace's own frames longer than their capacity (`min(M, k·dt)`) lose:
    /// `Σ (f_i − W)+ / Σ f_i`, one pass over the frames.
    pub fn trace_loss(&self, frame_times: impl Iterator<Item = Nanos>) -> f64 {
        let capacity = self.capacity();
        if !capacity.is_finite() {
            return 0.0;
        }
        let (lost, total) = frame_times.fold((0.0, 0.0), |(lost, total), frame| {
            let ms = ms_from_ns(frame);
            (lost + (ms - capacity).max(0.0), total + ms)
        });
        if total > 0.0 { lost / total } else { 0.0 }
    }

    /// The most real time one frame can turn into simulated time: the clamp, or the cap's
    /// steps; infinite for a rule that loses none (`fixed` takes one step whatever).
    fn capacity(&self) -> f64 {
        match self.stepping {
            Stepping::Fixed => f64::INFINITY,
            Stepping::Variable => self.clamp,
            Stepping::Accumulator | Stepping::Substeps => self.clamp.min(self.cap * self.dt),
        }
    }

    /// The share of real time that single long frames lose beyond what the mean frame
    /// `frame` (ms) already loses: a hitch's frame once a period, and the jitter's long
    /// tail, each cut to [`Self::capacity`].
    fn long_frame_loss(&self, frame: f64, load: &LoadSettings) -> f64 {
        let capacity = self.capacity();
        if !capacity.is_finite() || frame <= 0.0 {
            return 0.0;
        }
        let over = |length: f64| (length - capacity).max(0.0);
        let mut loss = 0.0;
        if load.hitch_ms > 0.0 {
            // One hitch a period of real time, at most one a frame.
            let period = (load.hitch_every_s * 1000.0).max(frame);
            loss += (over(frame + load.hitch_ms) - over(frame)) / period;
        }
        let sd = load.jitter_ms;
        if sd > 0.0 {
            // The frame without its mean jitter, plus |N(0, sd)|: E[(X - capacity)+].
            let mean = sd * (2.0 / std::f64::consts::PI).sqrt();
            let threshold = capacity - (frame - mean);
            let tail = if threshold <= 0.0 {
                mean - threshold
            } else {
                half_normal_excess(threshold, sd)
            };
            loss += (tail - over(frame)) / frame;
        }
        loss.max(0.0)
    }
}

/// `E[(X - a)+]` for `X = |N(0, sd)|` and `a >= 0`: `2·(sd·φ(a/sd) − a·(1 − Φ(a/sd)))`.
fn half_normal_excess(a: f64, sd: f64) -> f64 {
    let z = a / sd;
    let density = (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let upper_tail = 0.5 * libm::erfc(z / std::f64::consts::SQRT_2);
    (2.0 * (sd * density - a * upper_tail)).max(0.0)
}

//! The stepping rules: how one frame's time becomes steps.
//!
//! A [`StepRule`] takes the time carried from the last frame and this frame's time, and says
//! what it used, which steps to take, what it dropped and what it carries on ([`Stepped`]).
//! It keeps no ledger: the [`super::Engine`] does. The clamped accumulator is written once
//! here and serves the lab's accumulator family and the engines whose loop is that rule with
//! their own constants (Bevy, Unity, Fiedler); an engine with a loop of its own (Godot,
//! Unreal, Glaiel, Matter.js) runs it as [`StepRule::EngineLoop`], which keeps its state.

use super::preset::EngineLoop;
use super::split::{accumulate, equal_substeps};
use super::{Nanos, StepPlan, TimestepConfig};

/// A step and the spiral guards a rule works under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepLimits {
    /// The step, ns; never 0.
    pub dt: Nanos,
    /// A frame's time is clamped to this before it is consumed; `None` = no clamp.
    pub max_frame_time: Option<Nanos>,
    /// At most this many steps a frame; owed whole steps beyond it are dropped. `None` = no
    /// cap.
    pub max_steps: Option<u64>,
}

impl StepLimits {
    /// The lab's configured step and guards.
    pub fn configured(config: &TimestepConfig) -> Self {
        Self {
            dt: config.dt.get(),
            max_frame_time: config.max_frame_time.map(|max| max.get()),
            max_steps: config.max_steps.map(|n| u64::from(n.get())),
        }
    }

    /// The frame time after the clamp.
    fn clamp(&self, frame_time: Nanos) -> Nanos {
        self.max_frame_time
            .map_or(frame_time, |max| frame_time.min(max))
    }

    /// The cap on steps, `u64::MAX` when there is none.
    fn step_cap(&self) -> u64 {
        self.max_steps.unwrap_or(u64::MAX)
    }
}

/// How a clamped accumulator reports `alpha`, the fraction of a step it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alpha {
    /// `accumulator / dt` in `f64` (the lab, Unity's model, Fiedler's `double`).
    Exact,
    /// The same ratio of `f32` seconds, as Bevy's `Time<Fixed>::overstep_fraction()`
    /// computes it (`crates/bevy_time/src/fixed.rs:205-207`).
    SecondsF32,
}

impl Alpha {
    /// The fraction of `dt` that `carried` is.
    fn of(self, carried: Nanos, dt: Nanos) -> f64 {
        match self {
            Alpha::Exact => carried as f64 / dt as f64,
            Alpha::SecondsF32 => {
                let seconds = |ns: Nanos| std::time::Duration::from_nanos(ns).as_secs_f32();
                f64::from(seconds(carried) / seconds(dt))
            }
        }
    }
}

/// How a strategy turns frame time into steps. Every rule but `fixed` first takes the time
/// carried from the last frame; the lab's rules clamp the frame to `max_frame_time` first.
#[derive(Clone, Debug)]
pub enum StepRule {
    /// One step of `dt` per frame with time in it, whatever the time (`fixed`). The carried
    /// time waits for a rule that uses it; what the step simulates beyond the frame time is
    /// the engine's lead. Ignores `max_steps`.
    Fixed(StepLimits),
    /// One step of all the time owed (`variable`). Uses neither `dt` nor `max_steps`.
    Variable(StepLimits),
    /// Steps of `dt`, then one of the remainder, until the time owed is used up
    /// (`semi-fixed`).
    SemiFixed(StepLimits),
    /// Whole steps of `dt` while the accumulator holds one; the fraction of a step is
    /// carried (the accumulator family; Bevy, Unity and Fiedler with their constants).
    ClampedAccumulator {
        /// The step and guards.
        limits: StepLimits,
        /// How the carried fraction is reported.
        alpha: Alpha,
    },
    /// The time owed in `n = ceil(owed / dt)` equal steps, none longer than `dt`
    /// (`equal-substeps`, Unreal's substepping).
    EqualSubsteps(StepLimits),
    /// An engine's own loop, with the state it keeps between frames and its own guards.
    EngineLoop(EngineLoop),
}

impl StepRule {
    /// The lab's clamped accumulator under `limits`, reporting the exact alpha.
    pub fn accumulator(limits: StepLimits) -> Self {
        StepRule::ClampedAccumulator {
            limits,
            alpha: Alpha::Exact,
        }
    }

    /// The rule's step: its fixed step, or (a variable step) the largest it takes.
    pub fn dt(&self) -> Nanos {
        match self {
            StepRule::Fixed(limits)
            | StepRule::Variable(limits)
            | StepRule::SemiFixed(limits)
            | StepRule::ClampedAccumulator { limits, .. }
            | StepRule::EqualSubsteps(limits) => limits.dt,
            StepRule::EngineLoop(engine_loop) => engine_loop.dt(),
        }
    }

    /// Whether this rule takes the same steps as `other` on every frame from the same
    /// start: the same stateless rule with the same step and guards. An engine's own loop
    /// keeps state of its own, and is never said to.
    pub fn steps_as(&self, other: &StepRule) -> bool {
        use StepRule::{ClampedAccumulator, EqualSubsteps, Fixed, SemiFixed, Variable};
        match (self, other) {
            (Fixed(a), Fixed(b))
            | (Variable(a), Variable(b))
            | (SemiFixed(a), SemiFixed(b))
            | (EqualSubsteps(a), EqualSubsteps(b)) => a == b,
            (
                ClampedAccumulator {
                    limits: a,
                    alpha: alpha_a,
                },
                ClampedAccumulator {
                    limits: b,
                    alpha: alpha_b,
                },
            ) => a == b && alpha_a == alpha_b,
            _ => false,
        }
    }

    /// Whether the rule, on a frame no longer than its step, takes one step of all the time
    /// owed (`variable`, `semi-fixed`, `equal-substeps`): rules that differ, but step alike
    /// frame after frame while the frames stay short.
    pub fn steps_short_frames_whole(&self) -> bool {
        matches!(
            self,
            StepRule::Variable(_) | StepRule::SemiFixed(_) | StepRule::EqualSubsteps(_)
        )
    }

    /// One frame: `carried` from the last frame and `frame_time` new.
    #[inline(always)]
    pub(crate) fn step(&mut self, carried: Nanos, frame_time: Nanos) -> Stepped {
        match self {
            StepRule::Fixed(limits) => fixed(limits, carried, frame_time),
            StepRule::Variable(limits) => variable(limits, carried, frame_time),
            StepRule::SemiFixed(limits) => semi_fixed(limits, carried, frame_time),
            StepRule::ClampedAccumulator { limits, alpha } => {
                clamped_accumulator(limits, *alpha, carried, frame_time)
            }
            StepRule::EqualSubsteps(limits) => substeps(limits, carried, frame_time),
            StepRule::EngineLoop(engine_loop) => {
                let frame = engine_loop.advance(frame_time);
                Stepped {
                    used: frame.used,
                    owed: carried.saturating_add(frame.used),
                    steps: frame.steps,
                    dropped: frame.dropped,
                    carried: frame.accumulator,
                    lead: 0,
                    fraction: frame.fraction,
                }
            }
        }
    }
}

/// `fixed`: one step of `dt` if the clamped frame has time in it; the carried time is left
/// alone, and the step simulates `dt - used` beyond the frame (the lead).
fn fixed(limits: &StepLimits, carried: Nanos, frame_time: Nanos) -> Stepped {
    let frame = Stepped::clamped(limits, 0, frame_time);
    if frame.used == 0 {
        return Stepped { carried, ..frame };
    }
    Stepped {
        steps: StepPlan::uniform(1, limits.dt),
        carried,
        lead: signed(limits.dt).saturating_sub(signed(frame.used)),
        ..frame
    }
}

/// `variable`: one step of everything owed.
fn variable(limits: &StepLimits, carried: Nanos, frame_time: Nanos) -> Stepped {
    let frame = Stepped::clamped(limits, carried, frame_time);
    Stepped {
        steps: StepPlan::single(frame.owed),
        ..frame
    }
}

/// `semi-fixed`: whole steps of `dt` and one of the remainder, within the cap.
fn semi_fixed(limits: &StepLimits, carried: Nanos, frame_time: Nanos) -> Stepped {
    let frame = Stepped::clamped(limits, carried, frame_time);
    let (dt, cap, owed) = (limits.dt, limits.step_cap(), frame.owed);
    let (whole, remainder) = (owed / dt, owed % dt);
    if whole >= cap {
        Stepped {
            steps: StepPlan::uniform(cap, dt),
            dropped: frame.dropped + (owed - cap * dt),
            ..frame
        }
    } else if whole + u64::from(remainder > 0) > cap {
        // The cap leaves no room for the remainder step: drop it.
        Stepped {
            steps: StepPlan::uniform(whole, dt),
            dropped: frame.dropped + remainder,
            ..frame
        }
    } else {
        Stepped {
            steps: StepPlan {
                count: whole,
                size: dt,
                tail: remainder,
            },
            ..frame
        }
    }
}

/// The clamped accumulator: the frame clamped to `max_frame_time`, whole steps of `dt` from
/// the carried time plus the frame, at most `max_steps` of them. The whole steps beyond the
/// cap are dropped; the fraction of a step is carried, so alpha stays smooth.
fn clamped_accumulator(
    limits: &StepLimits,
    alpha: Alpha,
    carried: Nanos,
    frame_time: Nanos,
) -> Stepped {
    let frame = Stepped::clamped(limits, carried, frame_time);
    let split = accumulate(frame.owed, limits.dt, limits.step_cap());
    Stepped {
        steps: split.steps,
        dropped: frame.dropped + split.dropped,
        carried: split.carried,
        fraction: alpha.of(split.carried, limits.dt),
        ..frame
    }
}

/// `equal-substeps`: the time owed in equal steps no longer than `dt`, within the cap.
fn substeps(limits: &StepLimits, carried: Nanos, frame_time: Nanos) -> Stepped {
    let frame = Stepped::clamped(limits, carried, frame_time);
    let split = equal_substeps(frame.owed, limits.dt, limits.step_cap());
    Stepped {
        steps: split.steps,
        dropped: frame.dropped + split.dropped,
        carried: split.carried,
        ..frame
    }
}

/// What a rule did with one frame's time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stepped {
    /// The frame time taken in, after the rule's clamp.
    pub used: Nanos,
    /// Time the frame had to simulate: the carried time plus `used` (`fixed`: `used`).
    pub owed: Nanos,
    /// The steps to take.
    pub steps: StepPlan,
    /// Real time thrown away: the clamp, the cap on steps, an engine's resync.
    pub dropped: Nanos,
    /// Real time carried to the next frame.
    pub carried: Nanos,
    /// Time simulated beyond the frame time used: `fixed`'s step against its frame. An
    /// engine loop does not say; the engine reads its lead off the ledger.
    pub lead: i64,
    /// The fraction of a step carried, as the rule reports it; 0 for a rule that carries
    /// none.
    pub fraction: f64,
}

impl Stepped {
    /// The frame clamped to `max_frame_time` and added to `carried`, before any step: all
    /// of it owed, nothing carried yet.
    fn clamped(limits: &StepLimits, carried: Nanos, frame_time: Nanos) -> Self {
        let used = limits.clamp(frame_time);
        Self {
            used,
            owed: carried.saturating_add(used),
            steps: StepPlan::NONE,
            dropped: frame_time - used,
            carried: 0,
            lead: 0,
            fraction: 0.0,
        }
    }

    /// A paused frame that does not reach the rule: nothing used, nothing stepped, the
    /// carried time and the last fraction kept.
    pub fn paused(carried: Nanos, fraction: f64) -> Self {
        Self {
            used: 0,
            owed: carried,
            steps: StepPlan::NONE,
            dropped: 0,
            carried,
            lead: 0,
            fraction,
        }
    }
}

/// Nanoseconds as a signed value, saturating (only past 292 years).
pub(crate) fn signed(ns: Nanos) -> i64 {
    i64::try_from(ns).unwrap_or(i64::MAX)
}

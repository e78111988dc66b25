//! Unreal Engine (source access-restricted): the world's clamp on the frame, then Chaos's
//! physics tick: one semi-fixed step, equal substeps, or async fixed steps.
//!
//! Documented (Epic, "Physics Sub-Stepping"): with substepping a frame's physics step is
//! split evenly into substeps no longer than Max Substep Delta Time ("if a full step takes
//! .05 seconds, and Max Substep Delta Time is set to .025, the full step will be split into
//! 2 sub-steps"), at most Max Substeps of them ("evenly split based on the value in Max
//! Substeps").
//!
//! From third-party copies of Epic's code (docs/engines.md §5, not verified against one engine
//! version): `UPhysicsSettings` defaults (`MaxPhysicsDeltaTime` 1/30, `MaxSubstepDeltaTime`
//! 1/60, `MaxSubsteps` 6, `AsyncFixedTimeStepSize` 1/30); `AWorldSettings::
//! FixupDeltaSeconds` clamps the frame to `[MinUndilatedFrameTime, MaxUndilatedFrameTime]`
//! = [0.5 ms, 0.4 s] (values from notes quoting `BaseGame.ini`); `FChaosScene::SetUpForFrame`
//! clamps the physics delta to `MaxSubsteps·MaxSubstepDeltaTime` (substepping) or
//! `MaxPhysicsDeltaTime`; `FPhysicsSolverBase::AdvanceAndDispatch_External` takes
//! `ceil(D/MaxSubstepDeltaTime)` equal substeps, or one step, or (async) whole
//! `AsyncFixedTimeStepSize` steps from an accumulator; async results are drawn interpolated
//! at `ExternalTime + Acc - AsyncDt·p.AsyncInterpolationMultiplier` (2): two steps behind.
//!
//! The lab's model: those rules in integer nanoseconds. The synchronous modes keep no
//! accumulator (what a frame does not simulate is dropped) and draw the frame's end state.
//! Equal substeps that do not divide a frame's nanoseconds evenly carry the few left (fewer
//! than the substeps) to the next frame, where Unreal's float arithmetic rounds them away.

use super::{EngineLoop, LoopState, Nanos, PresetFrame};
use crate::timestep::split::{accumulate, equal_substeps};
use crate::timestep::{StepPlan, StepRule};

/// `MinUndilatedFrameTime`: a frame counts at least 0.5 ms.
pub const MIN_UNDILATED_FRAME_TIME: Nanos = 500_000;
/// `MaxUndilatedFrameTime`: a frame counts at most 0.4 s; the rest is dropped.
pub const MAX_UNDILATED_FRAME_TIME: Nanos = 400_000_000;
/// `MaxSubstepDeltaTime`, the `float` 1/60 (0.0166666675 s), to the nearest nanosecond as
/// docs/engines.md E1 has it: an exact 60 Hz frame is one substep, 0.3 µs more makes two.
pub const MAX_SUBSTEP_DELTA_TIME: Nanos = 16_666_668;
/// `MaxSubsteps`.
pub const MAX_SUBSTEPS: u64 = 6;
/// `MaxPhysicsDeltaTime`, 1/30 s, as docs/engines.md E1 and E2 have it.
pub const MAX_PHYSICS_DELTA_TIME: Nanos = 33_333_333;
/// `AsyncFixedTimeStepSize`, 1/30 s, as docs/engines.md E2 has it.
pub const ASYNC_FIXED_TIME_STEP: Nanos = 33_333_333;

/// Substepping on, from its start: equal substeps of at most [`MAX_SUBSTEP_DELTA_TIME`].
pub(crate) fn substepping_rule() -> StepRule {
    let tick = PhysicsTick::Substepping { carry: 0 };
    EngineLoop::rule(MAX_SUBSTEP_DELTA_TIME, LoopState::Unreal(tick))
}

/// The default: one step a frame, at most [`MAX_PHYSICS_DELTA_TIME`].
pub(crate) fn single_step_rule() -> StepRule {
    EngineLoop::rule(
        MAX_PHYSICS_DELTA_TIME,
        LoopState::Unreal(PhysicsTick::SingleStep),
    )
}

/// Async physics, from its start: steps of [`ASYNC_FIXED_TIME_STEP`].
pub(crate) fn async_rule() -> StepRule {
    let tick = PhysicsTick::Async { accumulator: 0 };
    EngineLoop::rule(ASYNC_FIXED_TIME_STEP, LoopState::Unreal(tick))
}

/// The physics tick mode and its state.
#[derive(Clone, Debug)]
pub(crate) enum PhysicsTick {
    /// `bSubstepping`: equal substeps; the nanoseconds that did not divide are carried.
    Substepping {
        /// Nanoseconds carried, fewer than `MAX_SUBSTEPS`.
        carry: Nanos,
    },
    /// The default: one step of the clamped frame.
    SingleStep,
    /// `bTickPhysicsAsync`: fixed steps from an accumulator.
    Async {
        /// Physics time fed but not stepped, `< ASYNC_FIXED_TIME_STEP`.
        accumulator: Nanos,
    },
}

impl PhysicsTick {
    /// One game frame.
    pub fn advance(&mut self, raw: Nanos) -> PresetFrame {
        // FixupDeltaSeconds: a frame below 0.5 ms counts 0.5 ms (time invented, the lead),
        // one above 0.4 s counts 0.4 s (the rest dropped).
        let world = raw.clamp(MIN_UNDILATED_FRAME_TIME, MAX_UNDILATED_FRAME_TIME);
        let mut dropped = raw.saturating_sub(world);
        let (steps, accumulator, fraction) = match self {
            PhysicsTick::Substepping { carry } => {
                let owed = *carry + world;
                let physics = owed.min(MAX_SUBSTEPS * MAX_SUBSTEP_DELTA_TIME);
                dropped += owed - physics;
                let stepped = equal_substeps(physics, MAX_SUBSTEP_DELTA_TIME, MAX_SUBSTEPS);
                dropped += stepped.dropped;
                *carry = stepped.carried;
                (stepped.steps, *carry, 0.0)
            }
            PhysicsTick::SingleStep => {
                let physics = world.min(MAX_PHYSICS_DELTA_TIME);
                dropped += world - physics;
                (StepPlan::single(physics), 0, 0.0)
            }
            PhysicsTick::Async { accumulator } => {
                let physics = world.min(MAX_PHYSICS_DELTA_TIME);
                dropped += world - physics;
                let stepped = accumulate(*accumulator + physics, ASYNC_FIXED_TIME_STEP, u64::MAX);
                *accumulator = stepped.carried;
                let fraction = *accumulator as f64 / ASYNC_FIXED_TIME_STEP as f64;
                (stepped.steps, *accumulator, fraction)
            }
        };
        PresetFrame {
            used: world,
            dropped,
            steps,
            accumulator,
            fraction,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::Run;
    use super::*;
    use crate::timestep::{EnginePreset, View};

    /// docs/engines.md E1, substepping on, each frame on its own (no carry between them).
    #[test]
    fn e1_substeps_are_equal_at_most_six_and_the_excess_is_dropped() {
        for (frame, substeps, size, dropped) in [
            (16_666_667, 1, 16_666_667, 0),
            (16_667_000, 2, 8_333_500, 0),
            (6_944_444, 1, 6_944_444, 0),
            (50_000_000, 3, 16_666_666, 0),
            (
                300_000_000,
                6,
                MAX_SUBSTEP_DELTA_TIME,
                300_000_000 - 6 * MAX_SUBSTEP_DELTA_TIME,
            ),
        ] {
            let mut run = Run::new(EnginePreset::UnrealSubstep);
            let report = run.frames(&[frame])[0];
            assert_eq!(report.steps, StepPlan::uniform(substeps, size), "{frame}");
            assert_eq!(report.dropped, dropped, "{frame}");
            assert_eq!(report.drawn, View::Latest);
        }
        // Substepping off: one step of at most 33.3 ms; a 300 ms frame drops 266.7 ms.
        let mut run = Run::new(EnginePreset::Unreal);
        let report = run.frames(&[300_000_000])[0];
        assert_eq!(report.steps, StepPlan::single(MAX_PHYSICS_DELTA_TIME));
        assert_eq!(report.dropped, 300_000_000 - MAX_PHYSICS_DELTA_TIME);
    }

    /// docs/engines.md E2: async physics at 60 Hz: steps 0,1,0,1, Acc 16666667, 1, 16666668, 2;
    /// a 300 ms frame feeds 33_333_333 ns: one step, 266.7 ms dropped.
    #[test]
    fn e2_async_physics_steps_every_other_frame_and_drops_a_hitch() {
        let mut run = Run::new(EnginePreset::UnrealAsync);
        let reports = run.frames(&[16_666_667; 4]);
        let steps: Vec<u64> = reports.iter().map(|r| r.steps.len()).collect();
        assert_eq!(steps, [0, 1, 0, 1]);
        let carried: Vec<Nanos> = reports.iter().map(|r| r.accumulator).collect();
        assert_eq!(carried, [16_666_667, 1, 16_666_668, 2]);
        let hitch = run.frames(&[300_000_000])[0];
        assert_eq!(hitch.steps.len(), 1);
        assert_eq!(hitch.dropped, 300_000_000 - ASYNC_FIXED_TIME_STEP);
        assert_eq!(hitch.accumulator, 2);
    }

    /// Worked out from Epic's documentation ("2 full seconds … evenly split based on the
    /// value in Max Substeps"): a 2 s frame is first clamped to 0.4 s by the world, then
    /// to 6 substeps of MaxSubstepDeltaTime: 1.9 s and a little are dropped.
    #[test]
    fn a_two_second_frame_is_six_substeps() {
        let mut run = Run::new(EnginePreset::UnrealSubstep);
        let report = run.frames(&[2_000_000_000])[0];
        assert_eq!(
            report.steps,
            StepPlan::uniform(MAX_SUBSTEPS, MAX_SUBSTEP_DELTA_TIME)
        );
        assert_eq!(report.used, MAX_UNDILATED_FRAME_TIME);
        assert_eq!(report.dropped, 2_000_000_000 - 6 * MAX_SUBSTEP_DELTA_TIME);
    }

    /// Worked out from `FixupDeltaSeconds` (docs/engines.md §5a): a 0.2 ms frame (5000 fps)
    /// counts 0.5 ms, so the one step is 0.5 ms and the simulation runs ahead of real time.
    #[test]
    fn unreal_counts_a_frame_at_least_half_a_millisecond() {
        let mut run = Run::new(EnginePreset::Unreal);
        let reports = run.frames(&[200_000; 10]);
        assert!(reports.iter().all(|r| r.steps == StepPlan::single(500_000)));
        assert_eq!(run.engine.latest_time(), 5_000_000);
        assert_eq!(run.engine.presented_time(), 2_000_000);
        assert_eq!(run.engine.lead(), 3_000_000);
    }

    /// Worked out from `GetPhysicsResultsTime_External` (docs/engines.md §5b): async results
    /// are drawn at the fed time less 2·AsyncDt, between the results that bracket it.
    #[test]
    fn unreal_async_draws_two_steps_behind() {
        let mut run = Run::new(EnginePreset::UnrealAsync);
        for report in &run.frames(&[16_666_667; 30])[6..] {
            assert_eq!(
                report.presented_time - report.shown_time,
                2 * ASYNC_FIXED_TIME_STEP
            );
            let View::BlendOlder(t) = report.drawn else {
                panic!("{:?}", report.drawn)
            };
            assert!((t - report.alpha).abs() < 1e-12);
        }
    }
}

//! Unity (closed source): `FixedUpdate` catches fixed time up to `Time.time`.
//!
//! Documented (docs/engines.md §4b): `Time.fixedDeltaTime` defaults to 0.02 s and is game
//! time; `Time.maximumDeltaTime` (default 0.33333334) is "the maximum value of
//! Time.deltaTime in any given frame" and bounds FixedUpdate calls per frame to
//! `maximumDeltaTime / fixedDeltaTime` (ScriptReference/Time-maximumDeltaTime.html); fixed
//! time "is updated in regular intervals (equal to fixedDeltaTime) until time property is
//! reached" (Time-fixedTime.html); Interpolate shows "the pose of the Rigidbody from the
//! previous two physics updates", one update behind; Extrapolate predicts from the last
//! pose and the current velocity (Manual/rigidbody-interpolation.html).
//!
//! The lab's model (docs/engines.md §4c; Unity publishes no algorithm):
//! `T += min(Δ, maxDelta)`, then `FixedUpdate` while `F + fdt <= T`, `α = (T - F) / fdt`;
//! Interpolate draws `lerp(pose_{N-1}, pose_N, α)`, Extrapolate `pose_N + α·fdt·v_N`. Not
//! published: whether the loop is `F + fdt <= T` or `F <= T`, the first frame, and Unity's
//! exact alpha.

use super::Nanos;
use crate::timestep::rules::{Alpha, StepLimits, StepRule};

/// `Time.fixedDeltaTime`'s default, 0.02 s (Project Settings > Time > Fixed Timestep). The
/// `float` 0.02 is 19_999_999.55 ns; the lab takes the 20 ms it stands for.
pub const FIXED_DELTA_TIME: Nanos = 20_000_000;

/// `Time.maximumDeltaTime`'s default, the `float` 0.33333334 s ("Maximum Allowed
/// Timestep"): at most 16 or 17 fixed updates a frame.
pub const MAXIMUM_DELTA_TIME: Nanos = 333_333_343;

/// `Time.deltaTime` clamped to `maximumDeltaTime`, then the fixed updates that fit: the
/// clamped accumulator with Unity's constants and no cap of its own (the clamp bounds the
/// updates a frame). `T - F`, the game time not yet caught up, is the engine's accumulator;
/// `α = (T - F) / fdt`.
pub const RULE: StepRule = StepRule::ClampedAccumulator {
    limits: StepLimits {
        dt: FIXED_DELTA_TIME,
        max_frame_time: Some(MAXIMUM_DELTA_TIME),
        max_steps: None,
    },
    alpha: Alpha::Exact,
};

#[cfg(test)]
mod tests {
    use super::super::tests::{Run, exact_60hz, exact_hz};
    use super::*;
    use crate::timestep::{EnginePreset, View};

    /// docs/engines.md U1: 60 Hz (`t_k = floor(k·1e9/60)`): steps 0,1,1,1,1,1 repeating from
    /// frame 1 (frame 0, Δ = 0, takes none); α .8333 .6667 .5 .3333 .1667 0.
    #[test]
    fn u1_five_fixed_updates_every_six_frames_at_60_hz() {
        let mut run = Run::new(EnginePreset::Unity);
        let reports = run.frames(&exact_60hz(12));
        let steps: Vec<u64> = reports.iter().map(|r| r.steps.len()).collect();
        assert_eq!(steps, [0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1]);
        let alphas = [0.8333, 0.6667, 0.5, 0.3333, 0.1667, 0.0];
        for (report, expected) in reports.iter().zip(alphas.iter().cycle()) {
            assert!((report.alpha - expected).abs() < 1e-4, "{}", report.alpha);
        }
        // Interpolate lags one fixedDeltaTime.
        let mut run = Run::new(EnginePreset::UnityInterpolate);
        for report in &run.frames(&exact_60hz(12))[2..] {
            assert_eq!(report.presented_time - report.shown_time, FIXED_DELTA_TIME);
        }
    }

    /// docs/engines.md U2: 3 frames at 60 Hz, then 300 ms (not clamped: 15 updates, α stays
    /// .5), then 500 ms (clamped to 333.333343 ms: 17 updates, α .1667, 166.67 ms lost).
    #[test]
    fn u2_maximum_delta_time_clamps_a_500_ms_frame() {
        let mut run = Run::new(EnginePreset::Unity);
        let reports = run.frames(&[16_666_667, 16_666_667, 16_666_667, 300_000_000]);
        assert!((reports[2].alpha - 0.5).abs() < 1e-6);
        assert_eq!(reports[3].steps.len(), 15);
        assert_eq!(reports[3].dropped, 0);
        assert!((reports[3].alpha - 0.5).abs() < 1e-6);
        let report = run.frames(&[500_000_000])[0];
        assert_eq!(report.steps.len(), 17);
        assert_eq!(report.used, MAXIMUM_DELTA_TIME);
        assert_eq!(report.dropped, 166_666_657);
        assert!((report.alpha - 0.1667).abs() < 1e-4);
    }

    /// Worked out from the documentation: maximumDeltaTime "bounds the maximum number of
    /// times Unity executes FixedUpdate in a frame to maximumDeltaTime / fixedDeltaTime"
    /// (ScriptReference/Time-maximumDeltaTime.html). From rest, a 1 s frame adds 333.333343
    /// ms: 16 updates, 13.333343 ms left (α .6667), 666.666657 ms lost.
    #[test]
    fn a_one_second_frame_runs_maximum_delta_over_fixed_delta_updates() {
        let mut run = Run::new(EnginePreset::Unity);
        let report = run.frames(&[1_000_000_000])[0];
        assert_eq!(report.steps.len(), 16);
        assert_eq!(report.accumulator, 13_333_343);
        assert_eq!(report.dropped, 666_666_657);
    }

    /// Worked out from the documentation: Interpolate uses "the pose of the Rigidbody from
    /// the previous two physics updates" and "delays the Rigidbody's pose by one physics
    /// update" (Manual/rigidbody-interpolation.html). At 30 Hz (`t_k = floor(k·1e9/30)`) the
    /// fixed updates go 1, 2, 2 with `T - F` = 13.33, 6.67, 0 ms: the pose is blended at
    /// α = .6667, .3333, 0 and always shows `T - 20 ms`.
    #[test]
    fn unity_interpolate_blends_the_last_two_updates_one_update_late() {
        let mut run = Run::new(EnginePreset::UnityInterpolate);
        let reports = run.frames(&exact_hz(30, 6));
        let steps: Vec<u64> = reports.iter().map(|r| r.steps.len()).collect();
        assert_eq!(steps, [1, 2, 2, 1, 2, 2]);
        for (report, alpha) in reports
            .iter()
            .zip([2.0 / 3.0, 1.0 / 3.0, 0.0].iter().cycle())
        {
            let View::Blend(t) = report.drawn else {
                panic!("{:?}", report.drawn)
            };
            assert!((t - alpha).abs() < 1e-6, "{t}");
            assert_eq!(report.presented_time - report.shown_time, FIXED_DELTA_TIME);
        }
    }

    /// Worked out from the documentation: Extrapolate predicts "based on the current
    /// velocity" (ScriptReference/RigidbodyInterpolation.html): no lag, the last pose moved
    /// along its velocity for `α·fdt` = the carried `T - F`.
    #[test]
    fn unity_extrapolate_draws_the_last_pose_moved_along_its_velocity() {
        let mut run = Run::new(EnginePreset::UnityExtrapolate);
        let reports = run.frames(&exact_60hz(12));
        for report in &reports {
            assert_eq!(report.drawn, View::Velocity(report.accumulator));
            assert_eq!(report.shown_time, report.latest_time + report.accumulator);
            assert_eq!(report.shown_time, report.presented_time);
        }
    }
}

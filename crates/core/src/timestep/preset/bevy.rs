//! Bevy (`bevy_time`, 0.12 and later): real time into `Time<Virtual>`, clamped to its
//! `max_delta`, then `Time<Fixed>` spends it in whole steps and keeps the overstep.
//!
//! Source (docs/engines.md §2, `bevyengine/bevy` @4805ca792c3e): `Time<Virtual>::
//! advance_with_raw_delta` clamps the (speed-scaled) delta to `max_delta`
//! (`crates/bevy_time/src/virt.rs:242-267`); `run_fixed_main_schedule` adds it to the
//! overstep and runs `FixedMain` while `expend()` can take a timestep from it
//! (`crates/bevy_time/src/fixed.rs:216-258`). Bevy draws the `Transform` the last fixed step
//! left; its `physics_in_fixed_timestep` example interpolates
//! `previous.lerp(current, overstep_fraction)` (`examples/movement/
//! physics_in_fixed_timestep.rs:404-406`), with the fraction in `f32`
//! (`fixed.rs:205-207`).

use super::Nanos;
use crate::timestep::rules::{Alpha, StepLimits, StepRule};

/// `Time<Fixed>::DEFAULT_TIMESTEP`: 64 Hz, chosen by Bevy because 15.625 ms is exact in
/// binary floating point and does not beat against 60 Hz as 2-steps-then-0 would
/// (`fixed.rs:76`).
pub const DEFAULT_TIMESTEP: Nanos = 15_625_000;

/// `Time<Virtual>::DEFAULT_MAX_DELTA`: a frame adds at most 250 ms of game time; the rest
/// is dropped, so a breakpoint or a dragged window does not owe seconds of steps
/// (`virt.rs:86`).
pub const DEFAULT_MAX_DELTA: Nanos = 250_000_000;

/// `Time<Virtual>`'s clamp, then `Time<Fixed>`'s accumulator: the clamped accumulator
/// with Bevy's constants and no cap on steps, reporting the overstep fraction in `f32` as
/// `Time<Fixed>::overstep_fraction()` does. The overstep is the engine's accumulator.
pub const RULE: StepRule = StepRule::ClampedAccumulator {
    limits: StepLimits {
        dt: DEFAULT_TIMESTEP,
        max_frame_time: Some(DEFAULT_MAX_DELTA),
        max_steps: None,
    },
    alpha: Alpha::SecondsF32,
};

#[cfg(test)]
mod tests {
    use super::super::tests::{Run, exact_60hz};
    use super::*;
    use crate::timestep::{EnginePreset, View};

    /// docs/engines.md B1: 60 Hz display (`t_k = floor(k·1e9/60)`), frame 0 has Δ = 0.
    #[test]
    fn b1_sixteen_steps_every_fifteen_frames_at_60_hz() {
        let mut run = Run::new(EnginePreset::Bevy);
        let frames = exact_60hz(16);
        let reports = run.frames(&frames);
        let steps: Vec<u64> = reports.iter().map(|r| r.steps.len()).collect();
        let mut expected = vec![1; 16];
        expected[14] = 2;
        assert_eq!(steps, expected);
        // Overstep grows by 1_041_666.67 ns a frame.
        let overstep: Vec<Nanos> = reports.iter().map(|r| r.accumulator).collect();
        assert_eq!(
            &overstep[..6],
            [
                1_041_666, 2_083_333, 3_125_000, 4_166_666, 5_208_333, 6_250_000
            ]
        );
        assert_eq!(overstep[13], 14_583_333);
        assert_eq!((overstep[14], overstep[15]), (0, 1_041_666));
        for (report, expected) in reports
            .iter()
            .zip([0.0666666, 0.1333333, 0.2, 0.2666666, 0.3333333, 0.4])
        {
            assert!((report.alpha - expected).abs() < 1e-6, "{}", report.alpha);
        }
        assert!((reports[13].alpha - 0.9333333).abs() < 1e-6);
        assert!(
            reports
                .iter()
                .all(|r| r.dropped == 0 && r.drawn == View::Latest)
        );
    }

    /// docs/engines.md B2: 3 frames of 16_666_667 ns, then 300 ms: clamped to 250 ms, 16 steps,
    /// 50 ms dropped, the overstep unchanged.
    #[test]
    fn b2_a_300_ms_hitch_runs_16_steps_and_drops_50_ms() {
        let mut run = Run::new(EnginePreset::Bevy);
        let reports = run.frames(&[16_666_667, 16_666_667, 16_666_667, 300_000_000]);
        assert_eq!(reports[2].accumulator, 3_125_001);
        let hitch = &reports[3];
        assert_eq!(hitch.steps.len(), 16);
        assert_eq!(hitch.used, 250_000_000);
        assert_eq!(hitch.dropped, 50_000_000);
        assert_eq!(hitch.accumulator, 3_125_001);
        assert!((hitch.alpha - 0.2000001).abs() < 1e-6);
        let after = run.frames(&[16_666_667; 3]);
        for (report, expected) in after.iter().zip([0.2666667, 0.3333334, 0.4000001]) {
            assert_eq!(report.steps.len(), 1);
            assert!((report.alpha - expected).abs() < 1e-6);
        }
    }

    /// Worked out from the source: at 30 Hz (33_333_333 ns frames) `expend()`
    /// (`fixed.rs:216-227`) takes 2 steps a frame and the overstep grows by
    /// 33_333_333 - 2·15_625_000 = 2_083_333 ns, so the 8th frame holds 7·2_083_333 +
    /// 33_333_333 = 47_916_664 ns and takes 3 steps, leaving 1_041_664.
    #[test]
    fn at_30_hz_every_eighth_frame_takes_a_third_step() {
        let mut run = Run::new(EnginePreset::Bevy);
        let reports = run.frames(&[33_333_333; 8]);
        let steps: Vec<u64> = reports.iter().map(|r| r.steps.len()).collect();
        assert_eq!(steps, [2, 2, 2, 2, 2, 2, 2, 3]);
        assert_eq!(reports[6].accumulator, 7 * 2_083_333);
        assert_eq!(reports[7].accumulator, 1_041_664);
    }

    /// Worked out from the source: `bevy-interpolated` blends by Bevy's `f32` overstep
    /// fraction (`fixed.rs:205-207`, the example's `lerp` at `physics_in_fixed_timestep.rs:
    /// 404-406`), not by the exact ratio: after one 60 Hz frame the overstep is 1_041_666 ns
    /// and the blend is `(0.001041666f32) / 0.015625f32`.
    #[test]
    fn bevy_interpolated_blends_by_the_f32_overstep_fraction() {
        let mut run = Run::new(EnginePreset::BevyInterpolated);
        let report = run.frames(&[16_666_666])[0];
        let fraction = f64::from(1_041_666f32 / 1e9f32 / 0.015625f32);
        assert_eq!(report.drawn, View::Blend(fraction));
        assert_ne!(fraction, 1_041_666.0 / 15_625_000.0);
        // The shown state is one step behind: the previous step's time plus the overstep.
        assert_eq!(
            report.shown_time,
            report.latest_time - DEFAULT_TIMESTEP + 1_041_666
        );
    }
}

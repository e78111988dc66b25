//! Glenn Fiedler's "Fix Your Timestep!", the final loop ("The Final Touch",
//! <https://gafferongames.com/post/fix_your_timestep/>; docs/engines.md §6): clamp the frame to
//! 0.25 s, integrate whole `dt = 0.01` steps from the accumulator, and draw
//! `currentState*alpha + previousState*(1-alpha)` with `alpha = accumulator/dt`.

use super::Nanos;
use crate::timestep::rules::{Alpha, StepLimits, StepRule};

/// `const double dt = 0.01`: 100 Hz.
pub const DT: Nanos = 10_000_000;

/// `if (frameTime > 0.25) frameTime = 0.25; // note: max frame time to avoid spiral of death`.
pub const MAX_FRAME_TIME: Nanos = 250_000_000;

/// One pass of the `while (!quit)` loop: the clamped accumulator with the article's
/// constants and no cap on steps, `alpha = accumulator / dt`.
pub const RULE: StepRule = StepRule::ClampedAccumulator {
    limits: StepLimits {
        dt: DT,
        max_frame_time: Some(MAX_FRAME_TIME),
        max_steps: None,
    },
    alpha: Alpha::Exact,
};

#[cfg(test)]
mod tests {
    use super::super::tests::{Run, exact_60hz};
    use super::*;
    use crate::timestep::{EnginePreset, View};

    /// docs/engines.md F1: 60 Hz: steps 1,2,2 repeating, α .6667 .3333 0.
    #[test]
    fn f1_steps_one_two_two_at_60_hz() {
        let mut run = Run::new(EnginePreset::Fiedler);
        let reports = run.frames(&exact_60hz(9));
        for (report, (steps, alpha)) in reports
            .iter()
            .zip([(1, 0.6667), (2, 0.3333), (2, 0.0)].iter().cycle())
        {
            assert_eq!(report.steps.len(), *steps);
            assert!((report.alpha - alpha).abs() < 1e-4);
            assert_eq!(report.drawn, View::Blend(report.alpha));
            assert_eq!(report.presented_time - report.shown_time, DT);
        }
    }

    /// docs/engines.md F2: a 300 ms hitch is clamped to 250 ms: 25 steps, α unchanged, 50 ms
    /// lost.
    #[test]
    fn f2_a_300_ms_hitch_takes_25_steps_and_loses_50_ms() {
        let mut run = Run::new(EnginePreset::Fiedler);
        let before = run.frames(&exact_60hz(2))[1];
        let hitch = run.frames(&[300_000_000])[0];
        assert_eq!(hitch.steps.len(), 25);
        assert_eq!(hitch.dropped, 50_000_000);
        assert_eq!(hitch.accumulator, before.accumulator);
    }

    /// Worked out from the article's loop: at 30 Hz (33_333_333 ns) the accumulator holds
    /// 3_333_333, 6_666_666, 9_999_999 after 3 steps each, then 43_333_332 makes 4 steps.
    #[test]
    fn at_30_hz_every_fourth_frame_takes_four_steps() {
        let mut run = Run::new(EnginePreset::Fiedler);
        let reports = run.frames(&[33_333_333; 4]);
        let steps: Vec<u64> = reports.iter().map(|r| r.steps.len()).collect();
        assert_eq!(steps, [3, 3, 3, 4]);
        let carried: Vec<Nanos> = reports.iter().map(|r| r.accumulator).collect();
        assert_eq!(carried, [3_333_333, 6_666_666, 9_999_999, 3_333_332]);
    }
}

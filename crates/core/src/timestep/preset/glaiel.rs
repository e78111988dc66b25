//! Tyler Glaiel's frame timer (`TylerGlaiel/FrameTimingControl`, `frame_timer.cpp`; blog
//! "How to make your game run at 60fps"; docs/engines.md §7), in its unlocked, interpolating
//! mode, on a clock of 1e9 ticks a second (SDL's performance counter on Linux).
//!
//! Each frame: a delta over 8 updates is treated as one update (the rest dropped, :48-50);
//! it snaps to a whole number (1 to 8) of 60 Hz periods when within 0.2 ms of one (:57-62);
//! it is averaged with the three before it, the integer remainder carried (:65-77); an
//! accumulator over 8 updates resyncs, as does the first frame (:83-92); then
//! `fixed_update` runs while the accumulator holds an update, and the game renders with
//! `accumulator / desired_frametime` (:97-111) — the lab draws
//! `lerp(previous, current, that)`, which the code's "INTERPOLATION ENABLED" mode is for.
//!
//! `snap_hz` is the display's refresh rate as SDL reports it, or 60 (:15-27); the lab does
//! not tell a preset its display, so it snaps to 60 Hz multiples. (An earlier version of
//! the file snapped to fixed 60, 30, 20, 15 and 120 Hz periods and had no averager
//! remainder; this is the version docs/engines.md §7 cites, `ed335bb29162`.)

use super::{EngineLoop, LoopState, Nanos, PresetFrame};
use crate::timestep::{StepPlan, StepRule};

/// Ticks of the performance counter per second.
const CLOCKS_PER_SECOND: i64 = 1_000_000_000;
/// `update_rate`: 60 updates a second.
const UPDATE_RATE: f64 = 60.0;
/// `desired_frametime = SDL_GetPerformanceFrequency() / update_rate`: an `int64` from a
/// `double`, truncated: 16_666_666 ticks an update.
pub const DESIRED_FRAMETIME: i64 = (CLOCKS_PER_SECOND as f64 / UPDATE_RATE) as i64;
/// `fixed_deltatime = 1.0 / update_rate`: what each `fixed_update` simulates, to the
/// nearest nanosecond (one more than the ticks it consumes).
pub const FIXED_DELTATIME: Nanos = 16_666_667;
/// `vsync_maxerror`: a delta within 0.2 ms of a multiple of the refresh period snaps to it.
const VSYNC_MAXERROR: i64 = (CLOCKS_PER_SECOND as f64 * 0.0002) as i64;
/// `snap_hz` when SDL reports no refresh rate.
const SNAP_HZ: i64 = 60;
/// `time_history_count`: deltas averaged.
const TIME_HISTORY_COUNT: usize = 4;

/// The frame timer from its start.
pub(crate) fn rule() -> StepRule {
    EngineLoop::rule(FIXED_DELTATIME, LoopState::Glaiel(FrameTimer::default()))
}

/// The timer's state.
#[derive(Clone, Debug)]
pub(crate) struct FrameTimer {
    /// `time_averager`: the last four deltas, oldest first.
    averager: [i64; TIME_HISTORY_COUNT],
    /// `averager_residual`: the average's remainder, carried.
    residual: i64,
    /// `frame_accumulator`.
    accumulator: i64,
    /// `resync`: throw the accumulator away this frame.
    resync: bool,
}

impl Default for FrameTimer {
    fn default() -> Self {
        Self {
            averager: [DESIRED_FRAMETIME; TIME_HISTORY_COUNT],
            residual: 0,
            accumulator: 0,
            resync: true,
        }
    }
}

impl FrameTimer {
    /// One pass of the `while (running)` loop.
    pub fn advance(&mut self, raw: Nanos) -> PresetFrame {
        let carried = self.accumulator;
        let mut delta = i64::try_from(raw).unwrap_or(i64::MAX);
        let mut dropped = 0;
        // Ignore extra-slow frames.
        if delta > DESIRED_FRAMETIME * 8 {
            dropped += delta - DESIRED_FRAMETIME;
            delta = DESIRED_FRAMETIME;
        }
        delta = delta.max(0);
        let used = delta;
        // Vsync time snapping.
        for multiple in 1..=8 {
            let snap = (CLOCKS_PER_SECOND / SNAP_HZ) * multiple;
            if (delta - snap).abs() < VSYNC_MAXERROR {
                delta = snap;
                break;
            }
        }
        // Delta time averaging.
        self.averager.rotate_left(1);
        self.averager[TIME_HISTORY_COUNT - 1] = delta;
        let sum: i64 = self.averager.iter().sum();
        let count = TIME_HISTORY_COUNT as i64;
        delta = sum / count;
        self.residual += sum % count;
        delta += self.residual / count;
        self.residual %= count;
        self.accumulator += delta;
        // Spiral-of-death protection and the resync it (or the first frame) asks for: the
        // accumulator is thrown away. At most the time on hand (what was carried plus this
        // frame) counts as dropped; the rest was the averager's, and shows as lead.
        if self.accumulator > DESIRED_FRAMETIME * 8 {
            self.resync = true;
        }
        if self.resync {
            dropped += self.accumulator.min(carried + used);
            self.accumulator = 0;
            self.resync = false;
        }
        let mut updates = 0;
        while self.accumulator >= DESIRED_FRAMETIME {
            updates += 1;
            self.accumulator -= DESIRED_FRAMETIME;
        }
        let nanos = |ticks: i64| Nanos::try_from(ticks).unwrap_or(0);
        PresetFrame {
            used: nanos(used),
            dropped: nanos(dropped),
            steps: StepPlan::uniform(updates, FIXED_DELTATIME),
            accumulator: nanos(self.accumulator),
            fraction: self.accumulator as f64 / DESIRED_FRAMETIME as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::Run;
    use super::*;
    use crate::timestep::{EnginePreset, View};

    const D: Nanos = DESIRED_FRAMETIME as Nanos;

    /// docs/engines.md T1: 60 Hz with ±150 µs of noise: every delta snaps to 16_666_666, one
    /// update a frame, α 0; the first frame resyncs and takes none.
    #[test]
    fn t1_noisy_60_hz_snaps_to_one_update_a_frame() {
        let mut run = Run::new(EnginePreset::Glaiel);
        let frames: Vec<Nanos> = (0..60)
            .map(|i| match i % 3 {
                0 => D + 150_000,
                1 => D - 150_000,
                _ => D + 20_000,
            })
            .collect();
        let reports = run.frames(&frames);
        assert_eq!(reports[0].steps.len(), 0);
        for report in &reports[1..] {
            assert_eq!(report.steps, StepPlan::uniform(1, FIXED_DELTATIME));
            assert_eq!(report.alpha, 0.0);
            assert_eq!(report.drawn, View::Blend(0.0));
        }
    }

    /// docs/engines.md T2: a 100 ms hitch snaps to 99_999_996 and is spread over four frames:
    /// updates 2,2,2,3, α .25 .5 .75 0, then one a frame; nothing dropped.
    #[test]
    fn t2_a_100_ms_hitch_is_spread_over_four_frames() {
        let mut run = Run::new(EnginePreset::Glaiel);
        run.frames(&[D; 10]);
        let mut frames = vec![100_000_000];
        frames.extend([D; 6]);
        let reports = run.frames(&frames);
        let steps: Vec<u64> = reports.iter().map(|r| r.steps.len()).collect();
        assert_eq!(steps, [2, 2, 2, 3, 1, 1, 1]);
        for (report, alpha) in reports.iter().zip([0.25, 0.5, 0.75, 0.0]) {
            assert!((report.alpha - alpha).abs() < 1e-6, "{}", report.alpha);
        }
        assert!(reports.iter().all(|r| r.dropped == 0));
    }

    /// docs/engines.md T3: a 300 ms hitch is over 8 updates: treated as one, 283.3 ms dropped.
    #[test]
    fn t3_a_300_ms_hitch_is_one_update_and_the_rest_is_dropped() {
        let mut run = Run::new(EnginePreset::Glaiel);
        run.frames(&[D; 10]);
        let report = run.frames(&[300_000_000])[0];
        assert_eq!(report.steps.len(), 1);
        assert_eq!(report.dropped, 300_000_000 - D);
    }

    /// Worked out from `frame_timer.cpp` (:57-77, :88-92): at 30 Hz (33_333_333 ns) each
    /// delta snaps to 2·16_666_666; the averager still holds three 16_666_666 from the
    /// start. Frame 1: mean 20_833_332 (remainder 2), resync: no update. Frame 2: sum
    /// 99_999_996, mean 24_999_999: 1 update, 8_333_333 left (α .5). Frame 3: sum
    /// 116_666_662, mean 29_166_665 and 1 from the carried remainders, so the accumulator
    /// holds 37_499_999: 2 updates, 4_166_667 left (α .25). Frame 4 on: mean 33_333_332,
    /// 2 updates, α stays .25.
    #[test]
    fn at_30_hz_the_averager_ramps_up_over_three_frames() {
        let mut run = Run::new(EnginePreset::Glaiel);
        let reports = run.frames(&[33_333_333; 8]);
        let steps: Vec<u64> = reports.iter().map(|r| r.steps.len()).collect();
        assert_eq!(steps, [0, 1, 2, 2, 2, 2, 2, 2]);
        let carried: Vec<Nanos> = reports.iter().map(|r| r.accumulator).collect();
        assert_eq!(
            carried,
            [
                0, 8_333_333, 4_166_667, 4_166_667, 4_166_667, 4_166_667, 4_166_667, 4_166_667
            ]
        );
    }
}

//! Matter.js's `Runner` (`liabru/matter-js`, `src/core/Runner.js`; docs/engines.md §7b):
//! 0.20's fixed steps from a smoothed, snapped time buffer, and 0.19's one variable step a
//! frame.
//!
//! Both run in a `requestAnimationFrame` callback given the frame's timestamp in
//! milliseconds (a `double`); the lab's frames are those timestamps' differences, so each
//! runner keeps the page's clock (starting 1000 ms after the page's time origin, as the
//! worked cases of docs/engines.md §7b.4 do) and repeats the source's `double` operations
//! in its order.
//! Neither interpolates; the examples start `Render.run` before `Runner.run`, and one
//! frame's callbacks run in that order with one timestamp, so a frame shows the bodies as
//! they were before its updates (`src/render/Render.js:140-160`; `examples/mixed.js:29,33`).
//!
//! 0.20 (`Runner.tick`, 0.20.0 :94-210): a frame delta over `max(1000/15, maxFrameTime)` ms
//! (or the first) is replaced by the last accepted one; the delta joins a 100-frame history
//! whose middle 80% (by age, not sorted: see docs/engines.md §7b.5) is averaged; the mean
//! snaps to the nearest whole frame rate; the buffer takes it, clamped to one frame plus 1.5
//! steps; `Engine.update` runs while 1.5 steps are buffered, at most
//! `ceil(maxFrameTime/delta)` = 2 times. The time budget (`performance.now()`) is not
//! modelled: only the update cap binds.
//!
//! 0.19 (`Runner.tick`, 0.19.0 :108-158): the delta is the minimum of the last 60 raw
//! deltas, clamped to `[1000/60, 1000/30]` ms, and one `Engine.update` of it runs.

use super::{EngineLoop, LoopState, Nanos, PresetFrame, ns_from_ms_f64};
use crate::timestep::{StepPlan, StepRule};

/// `runner.delta` (0.20) and the 0.19 step at 60 Hz, 1000/60 ms to the nearest nanosecond.
pub const DELTA: Nanos = 16_666_667;
/// 0.19's largest step, `deltaMax` = 1000/30 ms to the nearest nanosecond.
pub const MAX_DELTA: Nanos = 33_333_333;
/// 0.20's runner from its start: steps of [`DELTA`].
pub(crate) fn rule_0_20() -> StepRule {
    EngineLoop::rule(DELTA, LoopState::Matterjs(Box::new(Runner::v0_20())))
}

/// 0.19's runner from its start: one step a frame, at most [`MAX_DELTA`].
pub(crate) fn rule_0_19() -> StepRule {
    EngineLoop::rule(MAX_DELTA, LoopState::Matterjs(Box::new(Runner::v0_19())))
}

/// The page's clock at the start of the lab's first frame: the first callback comes 1000
/// ms after the time origin plus that frame.
const PAGE_ORIGIN: Nanos = 1_000_000_000;

/// `runner.delta`, ms.
const DELTA_MS: f64 = 1000.0 / 60.0;
/// `Runner._maxFrameDelta`, ms.
const MAX_FRAME_DELTA_MS: f64 = 1000.0 / 15.0;
/// `Runner._frameDeltaFallback`, ms.
const FRAME_DELTA_FALLBACK_MS: f64 = 1000.0 / 60.0;
/// `Runner._timeBufferMargin`, steps.
const TIME_BUFFER_MARGIN: f64 = 1.5;
/// `Runner._smoothingLowerBound` and `_smoothingUpperBound`.
const SMOOTHING_BOUNDS: (f64, f64) = (0.1, 0.9);
/// `runner.frameDeltaHistorySize`.
const FRAME_DELTA_HISTORY_SIZE: usize = 100;
/// `runner.maxFrameTime`, ms.
const MAX_FRAME_TIME_MS: f64 = 1000.0 / 30.0;
/// 0.19's `deltaSampleSize`.
const DELTA_SAMPLE_SIZE: usize = 60;
/// 0.19's `deltaMin` and `deltaMax`: `1000/fps` and `1000/(fps*0.5)` at 60 fps, ms.
const DELTA_RANGE_MS: (f64, f64) = (1000.0 / 60.0, 1000.0 / (60.0 * 0.5));

/// A runner of either version with its clock and history.
#[derive(Clone, Debug)]
pub(crate) struct Runner {
    /// The version's own state.
    version: Version,
    /// The page's clock, ns.
    clock: Nanos,
    /// Recent frame deltas, ms, oldest first from `start` (a ring of `len` entries).
    history: [f64; FRAME_DELTA_HISTORY_SIZE],
    /// Index of the oldest entry.
    start: usize,
    /// Entries in use.
    len: usize,
}

/// What differs between the versions.
#[derive(Clone, Copy, Debug)]
enum Version {
    /// 0.20.
    V0_20 {
        /// `runner.timeLastTick`, ms (`null` at first).
        time_last_tick: Option<f64>,
        /// `runner.frameDelta`, ms (`null` at first).
        frame_delta: Option<f64>,
        /// `runner.timeBuffer`, ms.
        time_buffer: f64,
    },
    /// 0.19.
    V0_19 {
        /// `runner.timePrev`, ms (`null` at first).
        time_prev: Option<f64>,
        /// `runner.delta`, ms.
        delta: f64,
    },
}

impl Runner {
    /// 0.20's runner as `Runner.run` starts it (`timeBuffer` = the fallback delta).
    pub fn v0_20() -> Self {
        Self::with(Version::V0_20 {
            time_last_tick: None,
            frame_delta: None,
            time_buffer: FRAME_DELTA_FALLBACK_MS,
        })
    }

    /// 0.19's runner.
    pub fn v0_19() -> Self {
        Self::with(Version::V0_19 {
            time_prev: None,
            delta: DELTA_RANGE_MS.0,
        })
    }

    fn with(version: Version) -> Self {
        Self {
            version,
            clock: PAGE_ORIGIN,
            history: [0.0; FRAME_DELTA_HISTORY_SIZE],
            start: 0,
            len: 0,
        }
    }

    /// Adds a delta to the history, forgetting the oldest beyond `size`.
    fn push(&mut self, delta: f64, size: usize) {
        if self.len == size {
            self.history[self.start] = delta;
            self.start = (self.start + 1) % size;
        } else {
            self.history[(self.start + self.len) % size] = delta;
            self.len += 1;
        }
    }

    /// The history's entries `from..to` (oldest is 0), in order.
    fn span(&self, from: usize, to: usize, size: usize) -> impl Iterator<Item = f64> + '_ {
        (from..to).map(move |i| self.history[(self.start + i) % size])
    }

    /// One animation frame.
    pub fn advance(&mut self, raw: Nanos) -> PresetFrame {
        self.clock = self.clock.saturating_add(raw);
        let time = self.clock as f64 / 1e6;
        match self.version {
            Version::V0_20 { .. } => self.tick_0_20(raw, time),
            Version::V0_19 { .. } => self.tick_0_19(raw, time),
        }
    }

    /// 0.20's `Runner.tick`.
    fn tick_0_20(&mut self, raw: Nanos, time: f64) -> PresetFrame {
        let Version::V0_20 {
            time_last_tick,
            frame_delta: last_frame_delta,
            mut time_buffer,
        } = self.version
        else {
            unreachable!("called for 0.20 only")
        };
        let mut dropped = 0;
        let mut frame_delta = time_last_tick.map_or(f64::NAN, |last| time - last);
        let accepted = frame_delta != 0.0
            && !frame_delta.is_nan()
            && frame_delta <= MAX_FRAME_DELTA_MS.max(MAX_FRAME_TIME_MS);
        if !accepted {
            frame_delta = last_frame_delta
                .filter(|&delta| delta != 0.0)
                .unwrap_or(FRAME_DELTA_FALLBACK_MS);
            dropped += raw.saturating_sub(ns_from_ms_f64(frame_delta));
        }
        let used = raw - dropped;
        // Smoothing: the mean of the history's middle (by age), the newest 10% and oldest
        // 10% left out; `slice` truncates its bounds.
        self.push(frame_delta, FRAME_DELTA_HISTORY_SIZE);
        let length = self.len as f64;
        let from = (length * SMOOTHING_BOUNDS.0) as usize;
        let to = (length * SMOOTHING_BOUNDS.1) as usize;
        let mut sum = 0.0;
        for delta in self.span(from, to.max(from), FRAME_DELTA_HISTORY_SIZE) {
            sum += delta;
        }
        let mean = sum / (to.saturating_sub(from)) as f64;
        if mean != 0.0 && !mean.is_nan() {
            frame_delta = mean;
        }
        // Snapping to the nearest whole frame rate.
        frame_delta = 1000.0 / js_round(1000.0 / frame_delta);
        // The buffer, limited to a frame of updates.
        time_buffer += frame_delta;
        let limit = frame_delta + DELTA_MS * TIME_BUFFER_MARGIN;
        if time_buffer > limit {
            dropped += ns_from_ms_f64(time_buffer - limit);
            time_buffer = limit;
        }
        time_buffer = time_buffer.max(0.0);
        let max_updates = (MAX_FRAME_TIME_MS / DELTA_MS).ceil() as u64;
        let mut updates = 0;
        while time_buffer >= DELTA_MS * TIME_BUFFER_MARGIN {
            time_buffer -= DELTA_MS;
            updates += 1;
            if updates >= max_updates {
                break;
            }
        }
        self.version = Version::V0_20 {
            time_last_tick: Some(time),
            frame_delta: Some(frame_delta),
            time_buffer,
        };
        PresetFrame {
            used,
            dropped,
            steps: StepPlan::uniform(updates, DELTA),
            accumulator: ns_from_ms_f64(time_buffer),
            fraction: 0.0,
        }
    }

    /// 0.19's `Runner.tick` (not `isFixed`).
    fn tick_0_19(&mut self, raw: Nanos, time: f64) -> PresetFrame {
        let Version::V0_19 { time_prev, delta } = self.version else {
            unreachable!("called for 0.19 only")
        };
        // `(time - timePrev) || runner.delta`, with `timePrev` null at first (`time - null`
        // is `time`).
        let mut step = time - time_prev.unwrap_or(0.0);
        if step == 0.0 || step.is_nan() {
            step = delta;
        }
        self.push(step, DELTA_SAMPLE_SIZE);
        step = self
            .span(0, self.len, DELTA_SAMPLE_SIZE)
            .fold(f64::INFINITY, f64::min);
        if step < DELTA_RANGE_MS.0 {
            step = DELTA_RANGE_MS.0;
        }
        if step > DELTA_RANGE_MS.1 {
            step = DELTA_RANGE_MS.1;
        }
        self.version = Version::V0_19 {
            time_prev: Some(time),
            delta: step,
        };
        let step = ns_from_ms_f64(step);
        let dropped = raw.saturating_sub(step);
        PresetFrame {
            used: raw - dropped,
            dropped,
            steps: StepPlan::single(step),
            accumulator: 0,
            fraction: 0.0,
        }
    }
}

/// JavaScript's `Math.round`: to the nearest integer, halves towards +∞.
fn js_round(x: f64) -> f64 {
    let floor = x.floor();
    if x - floor >= 0.5 { floor + 1.0 } else { floor }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{Run, exact_hz};
    use super::*;
    use crate::timestep::{EnginePreset, FrameReport, View};

    /// The lab's frames for the M cases of docs/engines.md §7b.4:
    /// `t_k = t_1 + floor((k-1)·1e9/hz)`; the first frame takes the page from its origin to
    /// `t_1` (its own length does not matter: 0.19 clamps the page's age, 0.20 replaces the
    /// first delta).
    fn m_frames(hz: u64, count: usize) -> Vec<Nanos> {
        let mut frames = vec![DELTA];
        frames.extend(exact_hz(hz, count - 1));
        frames
    }

    fn steps(reports: &[FrameReport]) -> Vec<u64> {
        reports.iter().map(|r| r.steps.len()).collect()
    }

    /// docs/engines.md M1: 60 Hz, 10 frames, one update each. 0.19's first step is deltaMax
    /// (the page's age, clamped), then 1000/60; 0.20 steps 1000/60 with 16.667 ms buffered
    /// and draws the state before each frame's update.
    #[test]
    fn m1_one_update_a_frame_at_60_hz() {
        let mut run = Run::new(EnginePreset::Matterjs019);
        let reports = run.frames(&m_frames(60, 10));
        assert_eq!(steps(&reports), [1; 10]);
        assert_eq!(reports[0].steps, StepPlan::single(33_333_333));
        assert!(
            reports[1..]
                .iter()
                .all(|r| r.steps == StepPlan::single(DELTA))
        );
        assert_eq!(run.engine.latest_time(), 33_333_333 + 9 * DELTA);

        let mut run = Run::new(EnginePreset::Matterjs);
        let reports = run.frames(&m_frames(60, 10));
        assert_eq!(steps(&reports), [1; 10]);
        for (k, report) in reports.iter().enumerate() {
            assert_eq!(report.accumulator, DELTA, "frame {}", k + 1);
            assert_eq!(report.drawn, View::FrameStart);
            assert_eq!(
                report.shown_time,
                k as Nanos * DELTA,
                "drawn before its update"
            );
        }
    }

    /// docs/engines.md M2: 144 Hz. 0.20 ramps its smoothed delta up over 10 frames, then
    /// takes 5 updates every 12 frames: 602 in 1440 frames. 0.19 steps 1000/60 every frame:
    /// 2.4x real time.
    #[test]
    fn m2_at_144_hz() {
        let mut run = Run::new(EnginePreset::Matterjs);
        let reports = run.frames(&m_frames(144, 1440));
        let first: Vec<u64> = steps(&reports[..24]);
        assert_eq!(
            first,
            [
                1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0
            ]
        );
        let buffers = [
            16.667, 16.667, 11.765, 21.969, 14.648, 23.497, 15.378, 23.711, 15.175, 22.119, 12.397,
            19.341, 9.619, 16.563, 23.508, 13.786, 20.730, 11.008, 17.952, 24.897, 15.175, 22.119,
            12.397, 19.341,
        ];
        for (k, (report, ms)) in reports.iter().zip(buffers).enumerate() {
            let got = report.accumulator as f64 / 1e6;
            assert!((got - ms).abs() < 0.0006, "frame {}: {got} vs {ms}", k + 1);
        }
        assert_eq!(run.engine.steps(), 602);

        let mut run = Run::new(EnginePreset::Matterjs019);
        let reports = run.frames(&m_frames(144, 1440));
        assert!(
            reports[1..]
                .iter()
                .all(|r| r.steps == StepPlan::single(DELTA))
        );
        let simulated_ms = run.engine.latest_time() as f64 / 1e6;
        assert!((simulated_ms - 24_016.7).abs() < 0.05, "{simulated_ms}");
    }

    /// docs/engines.md M3: 5 frames at 60 Hz, then 300 ms, then 60 Hz. Both versions run one
    /// update of 1000/60 ms on the hitch and drop 283.33 ms.
    #[test]
    fn m3_a_300_ms_hitch_is_one_update_and_283_ms_dropped() {
        for preset in [EnginePreset::Matterjs, EnginePreset::Matterjs019] {
            let mut run = Run::new(preset);
            let mut frames = m_frames(60, 5);
            frames.push(300_000_000);
            frames.extend([16_666_667; 5]);
            let reports = run.frames(&frames);
            assert_eq!(steps(&reports), [1; 11], "{preset}");
            assert_eq!(reports[5].steps, StepPlan::single(DELTA), "{preset}");
            assert_eq!(reports[5].dropped, 300_000_000 - DELTA, "{preset}");
            assert!(reports[6..].iter().all(|r| r.dropped == 0), "{preset}");
        }
    }

    /// Worked out from 0.20's `Runner.tick` (0.20.0 :94-210: the buffer clamp and
    /// `maxUpdates`): at 20 Hz the smoothed delta is 50 ms once the fallback has aged out of
    /// the window (10 frames); the buffer is clamped to 50 + 25 ms, 2 updates (`maxUpdates`)
    /// leave 41.667 ms, and each frame adds 50 and drops 16.667 ms: the simulation runs at
    /// 2/3 speed.
    #[test]
    fn at_20_hz_two_updates_a_frame_and_a_third_of_the_time_dropped() {
        let mut run = Run::new(EnginePreset::Matterjs);
        let reports = run.frames(&m_frames(20, 40));
        for report in &reports[20..] {
            assert_eq!(report.steps, StepPlan::uniform(2, DELTA));
            assert!(
                report.dropped.abs_diff(16_666_667) <= 1,
                "{}",
                report.dropped
            );
            assert!(report.accumulator.abs_diff(41_666_667) <= 1);
        }
    }

    /// Worked out from 0.19's `Runner.tick` (0.19.0 :108-158: the minimum and the clamp): at
    /// 20 Hz the minimum delta is 50 ms, clamped to deltaMax: one 33.333 ms step a frame,
    /// 16.667 ms dropped.
    #[test]
    fn matterjs_0_19_at_20_hz_steps_33_ms_and_drops_the_rest() {
        let mut run = Run::new(EnginePreset::Matterjs019);
        for report in &run.frames(&m_frames(20, 20))[1..] {
            assert_eq!(report.steps, StepPlan::single(33_333_333));
            assert_eq!(report.dropped, 50_000_000 - 33_333_333);
        }
    }
}

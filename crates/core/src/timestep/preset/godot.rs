//! Godot 4's `MainTimerSync` (`main/main_timer_sync.cpp`, docs/engines.md §1): the frame delta
//! in whole microseconds, optionally smoothed to whole vsync periods, then ticks counted by
//! an accumulator whose count is held near the recent frames' ("jitter fix" hysteresis),
//! at most `max_physics_steps_per_frame` of them run (`Main::iteration`, `main/main.cpp`).
//!
//! Everything after the microsecond clock is `double` in Godot; this file repeats its
//! operations in the source's order (Rust does not contract `a*b+c` into a fused
//! multiply-add), so ticks and fractions match Godot's bit for bit. Citations are by
//! function (docs/engines.md §0: the Godot repository's line numbers were not retrievable).
//!
//! Drawn: with physics interpolation off (the default) nodes show their last tick; with it
//! on (`godot-interpolated`) `SceneTreeFTI` draws `lerp(previous, current, fraction)` with
//! `Engine.get_physics_interpolation_fraction()`, and the jitter fix is forced to 0.
//! The delta smoother runs as in a default project (vsync enabled, `delta_smoothing` on);
//! it only acts once it has measured the refresh rate (about 180 frames).

use super::{EngineLoop, LoopState, Nanos, PresetFrame, ns_from_secs_f64};
use crate::timestep::{StepPlan, StepRule};

/// `physics/common/physics_ticks_per_second`'s default.
const PHYSICS_TICKS_PER_SECOND: i32 = 60;
/// One tick, 1/60 s to the nearest nanosecond (Godot's `physics_step = 1.0 / 60`).
pub const TICK: Nanos = 16_666_667;
/// `physics/common/max_physics_steps_per_frame`'s default: ticks beyond it are dropped.
pub const MAX_PHYSICS_STEPS_PER_FRAME: i32 = 8;
/// `physics/common/physics_jitter_fix`'s default: how far (in ticks) the clock may run
/// ahead or behind to keep the tick count consistent with recent frames.
pub const PHYSICS_JITTER_FIX: f64 = 0.5;
/// `MainTimerSync::CONTROL_STEPS`: frames of tick history (12 makes 144 Hz on 60 Hz ticks
/// behave, says the header).
const CONTROL_STEPS: usize = 12;

/// Godot's loop from its start, with `physics_jitter_fix` at `jitter_fix`.
pub(crate) fn rule(jitter_fix: f64) -> StepRule {
    EngineLoop::rule(
        TICK,
        LoopState::Godot(Box::new(MainTimerSync::new(jitter_fix))),
    )
}

/// `MainTimerSync`: the clock, the smoother and the tick hysteresis.
#[derive(Clone, Debug)]
pub(crate) struct MainTimerSync {
    /// `physics_jitter_fix`.
    jitter_fix: f64,
    /// The lab's frame times summed, ns: `OS::get_ticks_usec()` is this in whole µs.
    clock_ns: Nanos,
    /// `last_cpu_ticks_usec`.
    last_ticks_usec: u64,
    /// `_delta_smoother`.
    smoother: DeltaSmoother,
    /// `time_accum`: logical time since the last tick, s.
    time_accum: f64,
    /// `time_deficit`: wall clock minus the sum of process steps, s.
    time_deficit: f64,
    /// `accumulated_physics_steps`: ticks over the last `i + 1` frames.
    accumulated: [i32; CONTROL_STEPS],
    /// `typical_physics_steps`: the typical value of `accumulated[i]` (or one less).
    typical: [i32; CONTROL_STEPS],
    /// The last frame's process step (`Engine.get_process_delta_time()`), s.
    process_step: f64,
}

impl MainTimerSync {
    /// A timer as `MainTimerSync::MainTimerSync()` builds it, with `physics_jitter_fix`.
    pub fn new(jitter_fix: f64) -> Self {
        let ramp = std::array::from_fn(|i| i as i32);
        Self {
            jitter_fix,
            clock_ns: 0,
            last_ticks_usec: 0,
            smoother: DeltaSmoother::default(),
            time_accum: 0.0,
            time_deficit: 0.0,
            accumulated: ramp,
            typical: ramp,
            process_step: 0.0,
        }
    }

    /// One `Main::iteration`: `MainTimerSync::advance`, then the cap on ticks.
    pub fn advance(&mut self, raw: Nanos) -> PresetFrame {
        // get_cpu_process_step: the µs clock's difference, smoothed, in seconds.
        self.clock_ns = self.clock_ns.saturating_add(raw);
        let ticks_usec = self.clock_ns / 1000;
        let elapsed = ticks_usec - self.last_ticks_usec;
        self.last_ticks_usec = ticks_usec;
        let elapsed = self
            .smoother
            .smooth_delta(i64::try_from(elapsed).unwrap_or(i64::MAX));
        let cpu_process_step = elapsed as f64 / 1_000_000.0;
        let (ticks, fraction) = self.advance_checked(cpu_process_step);
        // Main::iteration: ticks over the cap are dropped (time_accum already lost them).
        let physics_step = 1.0 / f64::from(PHYSICS_TICKS_PER_SECOND);
        let (run, dropped) = if ticks > MAX_PHYSICS_STEPS_PER_FRAME {
            let excess = ticks - MAX_PHYSICS_STEPS_PER_FRAME;
            self.process_step -= f64::from(excess) * physics_step;
            (MAX_PHYSICS_STEPS_PER_FRAME, excess)
        } else {
            (ticks.max(0), 0)
        };
        let count = |ticks: i32| u64::try_from(ticks).unwrap_or(0);
        PresetFrame {
            used: raw,
            dropped: count(dropped) * TICK,
            steps: StepPlan::uniform(count(run), TICK),
            accumulator: ns_from_secs_f64(self.time_accum),
            fraction,
        }
    }

    /// `advance_checked`: the ticks of this frame and the interpolation fraction after them.
    fn advance_checked(&mut self, process_step: f64) -> (i32, f64) {
        let physics_step = 1.0 / f64::from(PHYSICS_TICKS_PER_SECOND);
        // `float min_output_step = p_process_step / 8; MAX(min_output_step, 1E-6)`.
        let mut min_output_step = (process_step / 8.0) as f32;
        if f64::from(min_output_step) <= 1e-6 {
            min_output_step = 1e-6_f64 as f32;
        }
        let process_step = process_step + self.time_deficit;
        let mut ticks = self.advance_core(physics_step, process_step);
        let mut step = process_step;
        let process_minus_accum = step - self.time_accum;
        let clamp = |value: f64, low: f64, high: f64| {
            if value < low {
                low
            } else if value > high {
                high
            } else {
                value
            }
        };
        // Keep the process step consistent with the average tick rate.
        let (consistent, min_average, max_average) = self.average_physics_steps();
        if consistent > 3 {
            step = clamp(step, min_average * physics_step, max_average * physics_step);
        }
        // Keep the deficit within the jitter fix.
        let max_clock_deviation = self.jitter_fix * physics_step;
        step = clamp(
            step,
            process_step - max_clock_deviation,
            process_step + max_clock_deviation,
        );
        // Keep time_accum within [0, physics_step].
        step = clamp(
            step,
            process_minus_accum,
            process_minus_accum + physics_step,
        );
        if step < f64::from(min_output_step) {
            step = f64::from(min_output_step);
        }
        self.time_accum = step - process_minus_accum;
        if self.time_accum > physics_step {
            let extra = (self.time_accum * f64::from(PHYSICS_TICKS_PER_SECOND)).floor() as i32;
            self.time_accum -= f64::from(extra) * physics_step;
            ticks += extra;
        }
        self.time_deficit = process_step - step;
        self.process_step = step;
        (ticks, self.time_accum / physics_step)
    }

    /// `advance_core`: ticks for `process_step` held within one of the typical counts.
    fn advance_core(&mut self, physics_step: f64, process_step: f64) -> i32 {
        let tps = f64::from(PHYSICS_TICKS_PER_SECOND);
        self.time_accum += process_step;
        let mut ticks = (self.time_accum * tps).floor() as i32;
        let mut min_typical = self.typical[0];
        let mut max_typical = min_typical + 1;
        let mut update_typical = false;
        for i in 0..CONTROL_STEPS - 1 {
            let left = self.typical[i + 1] - self.accumulated[i];
            if left > max_typical || left + 1 < min_typical {
                update_typical = true;
                break;
            }
            min_typical = min_typical.max(left);
            max_typical = max_typical.min(left + 1);
        }
        if ticks < min_typical {
            let max_possible = (self.time_accum * tps + self.jitter_fix).floor() as i32;
            if max_possible < min_typical {
                ticks = max_possible;
                update_typical = true;
            } else {
                ticks = min_typical;
            }
        } else if ticks > max_typical {
            let min_possible = (self.time_accum * tps - self.jitter_fix).floor() as i32;
            if min_possible > max_typical {
                ticks = min_possible;
                update_typical = true;
            } else {
                ticks = max_typical;
            }
        }
        ticks = ticks.max(0);
        self.time_accum -= f64::from(ticks) * physics_step;
        for i in (0..CONTROL_STEPS - 1).rev() {
            self.accumulated[i + 1] = self.accumulated[i] + ticks;
        }
        self.accumulated[0] = ticks;
        if update_typical {
            for i in (0..CONTROL_STEPS).rev() {
                if self.typical[i] > self.accumulated[i] {
                    self.typical[i] = self.accumulated[i];
                } else if self.typical[i] < self.accumulated[i] - 1 {
                    self.typical[i] = self.accumulated[i] - 1;
                }
            }
        }
        ticks
    }

    /// `get_average_physics_steps`: how many frames back the typical counts agree, and the
    /// range of ticks per frame they allow.
    fn average_physics_steps(&self) -> (usize, f64, f64) {
        let mut min = f64::from(self.typical[0]);
        let mut max = min + 1.0;
        for i in 1..CONTROL_STEPS {
            let typical_lower = f64::from(self.typical[i]);
            let frames = (i + 1) as f64;
            let current_min = typical_lower / frames;
            if current_min > max {
                return (i, min, max);
            } else if current_min > min {
                min = current_min;
            }
            let current_max = (typical_lower + 1.0) / frames;
            if current_max < min {
                return (i, min, max);
            } else if current_max < max {
                max = current_max;
            }
        }
        (CONTROL_STEPS, min, max)
    }
}

/// Frames the smoother's FPS check measures over (`MEASURE_FPS_OVER_NUM_FRAMES`).
const MEASURE_FPS_OVER_NUM_FRAMES: i64 = 64;
/// Deltas averaged for one refresh-rate reading (`NUM_READINGS`).
const NUM_READINGS: i32 = 60;

/// `MainTimerSync::DeltaSmoother`: once it has measured the refresh rate, every delta
/// becomes a whole number of vsync periods, the difference carried.
#[derive(Clone, Debug)]
struct DeltaSmoother {
    /// `_vsync_delta`, µs.
    vsync_delta: i64,
    /// `_leftover_time`, µs.
    leftover_time: i64,
    /// `_measurement_time`, µs.
    measurement_time: i64,
    /// `_measurement_frame_count`.
    measurement_frame_count: i64,
    /// `_measurement_end_frame`.
    measurement_end_frame: i64,
    /// `_measurement_start_time`, µs.
    measurement_start_time: i64,
    /// `_measurement_allows_smoothing`.
    measurement_allows_smoothing: bool,
    /// `_estimated_fps`.
    estimated_fps: i32,
    /// `_hits_at_estimated`.
    hits_at_estimated: i32,
    /// `_hits_above_estimated`.
    hits_above_estimated: i32,
    /// `_hits_below_estimated`.
    hits_below_estimated: i32,
    /// `_hits_one_above_estimated`.
    hits_one_above_estimated: i32,
    /// `_hits_one_below_estimated`.
    hits_one_below_estimated: i32,
    /// `_estimate_complete`.
    estimate_complete: bool,
    /// `_estimate_locked`.
    estimate_locked: bool,
    /// `_estimator_total_delta`, µs.
    estimator_total_delta: i64,
    /// `_estimator_delta_readings`.
    estimator_delta_readings: i32,
}

impl Default for DeltaSmoother {
    fn default() -> Self {
        Self {
            vsync_delta: 16666,
            leftover_time: 0,
            measurement_time: 0,
            measurement_frame_count: 0,
            measurement_end_frame: MEASURE_FPS_OVER_NUM_FRAMES,
            measurement_start_time: 0,
            measurement_allows_smoothing: true,
            estimated_fps: 0,
            hits_at_estimated: 0,
            hits_above_estimated: 0,
            hits_below_estimated: 0,
            hits_one_above_estimated: 0,
            hits_one_below_estimated: 0,
            estimate_complete: false,
            estimate_locked: false,
            estimator_total_delta: 0,
            estimator_delta_readings: 0,
        }
    }
}

impl DeltaSmoother {
    /// `smooth_delta` in a default project (smoothing on, vsync enabled, not the editor).
    fn smooth_delta(&mut self, delta: i64) -> i64 {
        // Long deltas (resuming after a suspend) pass unchanged.
        if delta > 1_000_000 {
            return delta;
        }
        if !self.fps_allows_smoothing(delta) {
            return delta;
        }
        if delta < 1000 {
            return delta;
        }
        self.update_refresh_rate_estimator(delta);
        if !self.estimate_complete {
            return delta;
        }
        self.leftover_time += delta;
        let units = (self.leftover_time / self.vsync_delta).max(1);
        self.leftover_time -= units * self.vsync_delta;
        units * self.vsync_delta
    }

    /// `made_new_estimate`.
    fn made_new_estimate(&mut self) {
        self.hits_above_estimated = 0;
        self.hits_at_estimated = 0;
        self.hits_below_estimated = 0;
        self.hits_one_above_estimated = 0;
        self.hits_one_below_estimated = 0;
        self.estimate_complete = false;
    }

    /// `update_refresh_rate_estimator`.
    fn update_refresh_rate_estimator(&mut self, delta: i64) {
        if self.estimate_locked {
            return;
        }
        self.estimator_total_delta += delta;
        self.estimator_delta_readings += 1;
        if self.estimator_delta_readings < NUM_READINGS {
            return;
        }
        let delta = self.estimator_total_delta / i64::from(NUM_READINGS);
        self.estimator_delta_readings = 0;
        self.estimator_total_delta = 0;
        let fps = (1_000_000.0 / delta as f64).round() as i32;
        if self.estimated_fps == 0 {
            // Below 50 it might be loading: the estimate would be off.
            if fps >= 50 {
                self.estimated_fps = fps;
            } else {
                return;
            }
        }
        if fps == self.estimated_fps {
            self.hits_at_estimated += 1;
            if self.estimate_complete && self.hits_at_estimated == 20 {
                self.estimate_locked = true;
                return;
            }
            if !self.estimate_complete && self.hits_at_estimated > 2 && self.estimated_fps != 0 {
                self.estimate_complete = true;
                self.vsync_delta = 1_000_000 / i64::from(self.estimated_fps);
            }
            return;
        }
        const SIGNIFICANCE_UP: i32 = 1;
        const SIGNIFICANCE_DOWN: i32 = 2;
        if fps < self.estimated_fps {
            if fps == self.estimated_fps - 1 {
                self.hits_one_below_estimated += 1;
                if self.hits_one_below_estimated > self.hits_at_estimated
                    && self.hits_one_below_estimated > SIGNIFICANCE_DOWN
                {
                    self.estimated_fps -= 1;
                    self.made_new_estimate();
                }
            } else {
                self.hits_below_estimated += 1;
                let established = self.estimate_complete && self.hits_at_estimated > 10;
                if !established
                    && self.hits_below_estimated / 8 > self.hits_at_estimated
                    && self.hits_below_estimated > SIGNIFICANCE_DOWN
                {
                    self.estimated_fps -= 1;
                    self.made_new_estimate();
                }
            }
            return;
        }
        if fps == self.estimated_fps + 1 {
            self.hits_one_above_estimated += 1;
            if self.hits_one_above_estimated > self.hits_at_estimated
                && self.hits_one_above_estimated > SIGNIFICANCE_UP
            {
                self.estimated_fps += 1;
                self.made_new_estimate();
            }
        } else {
            self.hits_above_estimated += 1;
            if self.hits_above_estimated > self.hits_at_estimated
                && self.hits_above_estimated > SIGNIFICANCE_UP
            {
                let change = ((fps - self.estimated_fps) / 2).max(1);
                self.estimated_fps += change;
                self.made_new_estimate();
            }
        }
    }

    /// `fps_allows_smoothing`: every 64 frames, smoothing stays on only while the measured
    /// rate is within 5% of the estimate.
    fn fps_allows_smoothing(&mut self, delta: i64) -> bool {
        self.measurement_time += delta;
        self.measurement_frame_count += 1;
        if self.measurement_frame_count == self.measurement_end_frame {
            if self.estimate_complete {
                let time_passed = (self.measurement_time - self.measurement_start_time)
                    / MEASURE_FPS_OVER_NUM_FRAMES;
                if time_passed != 0 {
                    let fps = 1_000_000.0 / time_passed as f64;
                    let ratio = fps / f64::from(self.estimated_fps);
                    self.measurement_allows_smoothing = ratio > 0.95 && ratio < 1.05;
                }
            }
            self.measurement_start_time = self.measurement_time;
            self.measurement_end_frame += MEASURE_FPS_OVER_NUM_FRAMES;
        }
        self.measurement_allows_smoothing
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{Run, exact_hz};
    use super::*;
    use crate::timestep::{EnginePreset, View};

    /// The lab's frame times for a display whose frames end at `t_k = k·period_ns`.
    fn every(period_ns: u64, count: usize) -> Vec<Nanos> {
        vec![period_ns; count]
    }

    fn timer(run: &Run) -> &MainTimerSync {
        match run.engine.engine_loop().map(EngineLoop::state) {
            Some(LoopState::Godot(timer)) => timer,
            other => panic!("not Godot: {other:?}"),
        }
    }

    fn close(got: f64, want: f64, tolerance: f64) -> bool {
        (got - want).abs() <= tolerance
    }

    /// docs/engines.md G1: 60 Hz at `t_k = k·16_666_667` ns (µs deltas 16666, 16667, 16667),
    /// defaults: one tick a frame from the first (the initial typical counts force it), the
    /// process step exactly 1/60 s, fraction 0, deficit -0.667, -0.333, 0 µs.
    #[test]
    fn g1_one_tick_a_frame_at_60_hz_with_the_process_step_lifted_to_a_tick() {
        let mut run = Run::new(EnginePreset::Godot);
        for (k, frame) in every(16_666_667, 10).into_iter().enumerate() {
            let report = run.frames(&[frame])[0];
            let timer = timer(&run);
            assert_eq!(report.steps, StepPlan::uniform(1, TICK), "frame {}", k + 1);
            assert!(close(timer.process_step * 1e6, 16_666.667, 5e-4));
            assert!(close(report.alpha, 0.0, 1e-9));
            let deficit_us = [-0.667, -0.333, 0.0][k % 3];
            assert!(
                close(timer.time_deficit * 1e6, deficit_us, 1e-3),
                "frame {}: deficit {}",
                k + 1,
                timer.time_deficit * 1e6
            );
            assert_eq!(report.drawn, View::Latest);
        }
    }

    /// docs/engines.md G2: the same frames with physics interpolation (jitter fix 0): tick
    /// counts 0,1,2 repeating, fraction .999960 .999980 0, and the drawn pose advancing one
    /// tick a frame.
    #[test]
    fn g2_interpolation_turns_the_hysteresis_off_and_the_pose_still_advances_evenly() {
        let mut run = Run::new(EnginePreset::GodotInterpolated);
        let reports = run.frames(&every(16_666_667, 9));
        for (k, report) in reports.iter().enumerate() {
            let (ticks, fraction) = [(0, 0.999960), (1, 0.999980), (2, 0.0)][k % 3];
            assert_eq!(report.steps.len(), ticks, "frame {}", k + 1);
            assert!(close(report.alpha, fraction, 1e-6), "{}", report.alpha);
            // Drawn at tick time (N - 1 + fraction): S0, about 1, 2, about 3, ...
            let drawn_ticks = report.shown_time as f64 / TICK as f64;
            if k > 0 {
                assert!(
                    close(drawn_ticks, k as f64, 1e-4),
                    "frame {}: {drawn_ticks}",
                    k + 1
                );
                assert!(matches!(report.drawn, View::Blend(_)));
            }
        }
    }

    /// docs/engines.md G3: a 300 ms hitch after 5 frames at 60 Hz (jitter 0.5): 17 ticks
    /// computed, 8 run, 9 dropped; then 2, 1, 1, and the process clock pinned half a tick
    /// ahead (deficit -8333.3 µs, fraction about .5).
    #[test]
    fn g3_a_300_ms_hitch_runs_8_of_17_ticks() {
        let mut run = Run::new(EnginePreset::Godot);
        let mut frames = every(16_666_667, 5);
        frames.push(300_000_000);
        frames.extend(every(16_666_667, 20));
        let mut reports = Vec::new();
        let mut processes = Vec::new();
        let mut deficits = Vec::new();
        for frame in frames {
            reports.push(run.frames(&[frame])[0]);
            processes.push(timer(&run).process_step * 1e6);
            deficits.push(timer(&run).time_deficit * 1e6);
        }
        let ticks: Vec<u64> = reports[..12].iter().map(|r| r.steps.len()).collect();
        assert_eq!(ticks, [1, 1, 1, 1, 1, 8, 2, 1, 1, 1, 1, 1]);
        assert_eq!(reports[5].dropped, 9 * TICK);
        assert!(close(processes[5], 149_999.667, 2e-3), "{}", processes[5]);
        assert!(close(reports[5].alpha, 0.999980, 1e-6));
        assert!(close(processes[6], 16_667.0, 2e-3));
        for (k, process, fraction, deficit) in [
            (9, 20_833.333, 0.25, -4_166.7),
            (10, 20_000.000, 0.45, -7_500.7),
            (11, 17_499.667, 0.49998, -8_333.3),
        ] {
            assert!(
                close(processes[k], process, 2e-3),
                "frame {}: {}",
                k + 1,
                processes[k]
            );
            assert!(
                close(reports[k].alpha, fraction, 1e-4),
                "{}",
                reports[k].alpha
            );
            assert!(close(deficits[k], deficit, 0.1), "{}", deficits[k]);
        }
        // Pinned at -jitter_fix·tick, give or take the µs clock's 16666/16667.
        for k in 12..reports.len() {
            assert!(close(deficits[k], -8_333.3, 0.7), "pinned: {}", deficits[k]);
            assert!(close(reports[k].alpha, 0.5, 5e-5), "{}", reports[k].alpha);
        }
        // With the jitter fix off the hitch computes 18 ticks, runs 8, drops 10.
        let mut run = Run::new(EnginePreset::GodotInterpolated);
        let mut frames = every(16_666_667, 5);
        frames.push(300_000_000);
        let hitch = run.frames(&frames)[5];
        assert_eq!(hitch.steps.len(), 8);
        assert_eq!(hitch.dropped, 10 * TICK);
        assert!(close(timer(&run).process_step * 1e6, 133_333.333, 2e-3));
    }

    /// docs/engines.md G4: 144 Hz (`t_k = floor(k·1e9/144)`), jitter 0.5, frames 60–71: the
    /// process step is 5/12 of a tick every frame, ticks 0,0,1,0,1,0,0,1,0,1,0,1 and the
    /// fraction steps through twelfths.
    #[test]
    fn g4_at_144_hz_five_ticks_every_twelve_frames_in_twelfths() {
        let mut run = Run::new(EnginePreset::Godot);
        let reports = run.frames(&exact_hz(144, 59));
        assert!(!reports.is_empty());
        let mut ticks = Vec::new();
        let frames = exact_hz(144, 71);
        for (k, &frame) in frames[59..].iter().enumerate() {
            let report = run.frames(&[frame])[0];
            ticks.push(report.steps.len());
            assert!(close(timer(&run).process_step * 1e6, 6_944.444, 5e-4));
            let twelfths = [5, 10, 3, 8, 1, 6, 11, 4, 9, 2, 7, 0][k];
            assert!(
                close(report.alpha, f64::from(twelfths) / 12.0, 1e-4),
                "frame {}: {}",
                k + 60,
                report.alpha
            );
        }
        assert_eq!(ticks, [0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1]);
    }

    /// Worked out from `DeltaSmoother` (`update_refresh_rate_estimator`, `smooth_delta`):
    /// at 60 Hz the 60-frame averages read 60 fps; the third reading (frame 180) completes
    /// the estimate, `_vsync_delta = 1000000 / 60 = 16666` µs, and from that frame on every
    /// delta is one vsync unit: the µs clock's 16666/16667/16667 become 16666 each, the
    /// 2 µs a 3 frames piling up in `_leftover_time`.
    #[test]
    fn delta_smoothing_makes_every_60_hz_delta_16666_us_from_frame_180() {
        let mut run = Run::new(EnginePreset::Godot);
        let mut leftovers = Vec::new();
        for frame in every(16_666_667, 240) {
            run.frames(&[frame]);
            let smoother = &timer(&run).smoother;
            leftovers.push((smoother.estimate_complete, smoother.leftover_time));
        }
        assert!(!leftovers[178].0, "not yet at frame 179");
        assert!(leftovers[179].0, "complete at frame 180");
        assert_eq!(timer(&run).smoother.vsync_delta, 16_666);
        // Frame 180's own delta is 16667 µs (180·16_666_667 ns ends a 16667 µs step).
        let leftover_at = |frame: usize| leftovers[frame - 1].1;
        assert_eq!(
            leftover_at(240) - leftover_at(180),
            40,
            "2 µs every 3 frames"
        );
    }

    /// Worked out from `Main::iteration` (`main/main.cpp`): with the jitter fix off, a one
    /// second frame computes floor(1.0·60) = 60 ticks, runs `max_physics_steps_per_frame`
    /// = 8 and drops 52; the fraction stays 0.
    #[test]
    fn a_one_second_frame_runs_8_of_60_ticks() {
        let mut run = Run::new(EnginePreset::GodotInterpolated);
        let report = run.frames(&[1_000_000_000])[0];
        assert_eq!(report.steps, StepPlan::uniform(8, TICK));
        assert_eq!(report.dropped, 52 * TICK);
        assert!(close(report.alpha, 0.0, 1e-9));
    }
}

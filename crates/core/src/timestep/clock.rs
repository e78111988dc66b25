//! Pause, single frame step and time scale: what happens to real frame time before the
//! filters and the strategy see it.

use super::{Nanos, RangeError};

/// Slowest time scale (slow motion).
pub const MIN_TIME_SCALE: f64 = 0.05;
/// Fastest time scale.
pub const MAX_TIME_SCALE: f64 = 2.0;
/// Length of the frame a single step advances: one 60 Hz frame, the most common display
/// period, so stepping shows the 50-on-60 pattern one frame at a time.
pub const DEFAULT_SINGLE_STEP_FRAME: Nanos = 16_666_667;

/// Scales, pauses and single-steps the real frame time.
///
/// Scaling carries the sub-nanosecond remainder, so the scaled total never drifts from
/// `scale * real total` by a nanosecond or more.
#[derive(Clone, Debug)]
pub struct FrameClock {
    /// Multiplier on real frame time.
    time_scale: f64,
    /// Whether time is stopped.
    paused: bool,
    /// Single frame steps requested and not yet delivered.
    pending_single_steps: u32,
    /// Frame time one single step delivers (not scaled: the step is a fixed length).
    single_step_frame: Nanos,
    /// Fraction of a nanosecond left over by scaling, in `[0, 1)`.
    carry: f64,
}

impl Default for FrameClock {
    fn default() -> Self {
        Self {
            time_scale: 1.0,
            paused: false,
            pending_single_steps: 0,
            single_step_frame: DEFAULT_SINGLE_STEP_FRAME,
            carry: 0.0,
        }
    }
}

impl FrameClock {
    /// Turns one frame's real elapsed time into the frame time the engine gets.
    pub fn tick(&mut self, real: Nanos) -> Nanos {
        if self.paused {
            if self.pending_single_steps > 0 {
                self.pending_single_steps -= 1;
                return self.single_step_frame;
            }
            return 0;
        }
        if self.time_scale == 1.0 {
            return real;
        }
        let exact = real as f64 * self.time_scale + self.carry;
        let whole = exact.floor();
        self.carry = exact - whole;
        whole as Nanos
    }

    /// The time scale.
    pub fn time_scale(&self) -> f64 {
        self.time_scale
    }

    /// Sets the time scale, 0.05x to 2x.
    pub fn set_time_scale(&mut self, scale: f64) -> Result<(), RangeError> {
        if !(MIN_TIME_SCALE..=MAX_TIME_SCALE).contains(&scale) {
            return Err(RangeError {
                name: "time scale",
                value: crate::text::number(scale),
                allowed: format!("{MIN_TIME_SCALE} to {MAX_TIME_SCALE}"),
            });
        }
        self.time_scale = scale;
        Ok(())
    }

    /// Whether time is stopped.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Stops or restarts time. Restarting forgets single steps not yet delivered.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
        if !paused {
            self.pending_single_steps = 0;
        }
    }

    /// Pauses (if running) and advances exactly one frame of the single-step length on the
    /// next tick.
    pub fn single_step(&mut self) {
        self.paused = true;
        self.pending_single_steps = self.pending_single_steps.saturating_add(1);
    }

    /// Frame time a single step delivers.
    pub fn single_step_frame(&self) -> Nanos {
        self.single_step_frame
    }

    /// Sets the frame time a single step delivers (at least 1 ns).
    pub fn set_single_step_frame(&mut self, frame: Nanos) {
        self.single_step_frame = frame.max(1);
    }
}

/// `count` frame times of an exact display at `hz`: frame `k` ends at `round(k * 1e9 / hz)`
/// ns (halves rounded up), as the bench's `steady:HZ` generator makes them.
#[cfg(test)]
pub(crate) fn steady_frames(hz: u64, count: u64) -> Vec<Nanos> {
    let end = |k: u64| (2 * k * 1_000_000_000 + hz) / (2 * hz);
    (1..=count).map(|k| end(k) - end(k - 1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_stops_time_and_single_step_delivers_one_fixed_frame() {
        let mut clock = FrameClock::default();
        assert_eq!(clock.tick(5_000_000), 5_000_000);
        clock.set_paused(true);
        assert_eq!(clock.tick(5_000_000), 0);
        clock.single_step();
        clock.single_step();
        assert_eq!(clock.tick(123), DEFAULT_SINGLE_STEP_FRAME);
        assert_eq!(clock.tick(123), DEFAULT_SINGLE_STEP_FRAME);
        assert_eq!(clock.tick(123), 0);
        assert!(clock.paused());
        clock.set_paused(false);
        assert_eq!(clock.tick(7), 7);
    }

    #[test]
    fn single_step_while_running_pauses() {
        let mut clock = FrameClock::default();
        clock.single_step();
        assert!(clock.paused());
        assert_eq!(clock.tick(1), DEFAULT_SINGLE_STEP_FRAME);
        assert_eq!(clock.tick(1), 0);
    }

    #[test]
    fn time_scale_total_stays_within_a_nanosecond() {
        let mut clock = FrameClock::default();
        clock.set_time_scale(0.3).unwrap();
        let frames = [16_666_667u64, 16_666_666, 33_333_333, 7, 1, 99_999_999];
        let mut real_total = 0u64;
        let mut scaled_total = 0u64;
        for _ in 0..1000 {
            for frame in frames {
                real_total += frame;
                scaled_total += clock.tick(frame);
                let expected = real_total as f64 * 0.3;
                assert!((scaled_total as f64 - expected).abs() < 1.0 + expected * 1e-15);
            }
        }
    }

    #[test]
    fn time_scale_range_is_enforced() {
        let mut clock = FrameClock::default();
        assert!(clock.set_time_scale(0.05).is_ok());
        assert!(clock.set_time_scale(2.0).is_ok());
        let error = clock.set_time_scale(0.01).unwrap_err();
        assert_eq!(
            error.to_string(),
            "time scale 0.01 is out of range (allowed 0.05 to 2)"
        );
        assert!(clock.set_time_scale(f64::NAN).is_err());
        assert_eq!(clock.time_scale(), 2.0);
    }
}

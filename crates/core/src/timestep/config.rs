//! Step size and spiral guards, with the defaults the lab launches with.

use std::num::{NonZeroU32, NonZeroU64};

use super::Nanos;

/// Default physics rate. 50 Hz (`dt` = 20 ms) is Unity's default and deliberately not a
/// divisor of a 60 Hz display, so the strategies differ visibly at launch.
pub const DEFAULT_RATE_HZ: f64 = 50.0;

/// Default clamp on one frame's time. 250 ms is what Gaffer's "Fix Your Timestep!" and Bevy
/// use: long enough for ordinary hitches, short enough that a breakpoint or a dragged window
/// does not make the loop owe seconds of steps.
pub const DEFAULT_MAX_FRAME_TIME: Nanos = 250_000_000;

/// Physics-rate presets offered by the lab.
pub const RATE_PRESETS_HZ: [f64; 7] = [30.0, 50.0, 60.0, 64.0, 100.0, 120.0, 240.0];

/// Lowest physics rate accepted.
pub const MIN_RATE_HZ: f64 = 1.0;
/// Highest physics rate accepted.
pub const MAX_RATE_HZ: f64 = 1000.0;
/// Largest `max_frame_time` accepted: one minute.
pub const MAX_MAX_FRAME_TIME: Nanos = 60_000_000_000;
/// Largest `max_steps` accepted.
pub const MAX_MAX_STEPS: u32 = 100_000;
/// `max_steps`'s range: 0 turns the cap off.
pub const MAX_STEPS: crate::setting::Whole =
    crate::setting::Whole::new(0, MAX_MAX_STEPS).low_means("off");

/// Nanoseconds in one second.
pub const NANOS_PER_SECOND: u64 = 1_000_000_000;

/// Converts nanoseconds to milliseconds, for display.
pub fn ms_from_ns(ns: Nanos) -> f64 {
    ns as f64 / 1e6
}

/// Converts nanoseconds to seconds, for display and physics.
pub fn secs_from_ns(ns: Nanos) -> f64 {
    ns as f64 / 1e9
}

/// Converts a non-negative, finite number of milliseconds to whole nanoseconds.
pub fn ns_from_ms(ms: f64) -> Nanos {
    (ms * 1e6).round() as Nanos
}

/// A configuration value outside its allowed range.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{name} {value} is out of range (allowed {allowed})")]
pub struct RangeError {
    /// What the value sets, as the user knows it (e.g. "physics rate").
    pub name: &'static str,
    /// The offending value, as given.
    pub value: String,
    /// The allowed range, in words.
    pub allowed: String,
}

/// The step size and the spiral guards shared by every strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestepConfig {
    /// The fixed step, a whole number of nanoseconds.
    pub dt: NonZeroU64,
    /// Each frame's time is clamped to this before it is consumed; `None` = off.
    pub max_frame_time: Option<NonZeroU64>,
    /// At most this many steps per frame; owed whole steps beyond it are dropped. `None` = off.
    pub max_steps: Option<NonZeroU32>,
}

impl Default for TimestepConfig {
    fn default() -> Self {
        Self {
            dt: NonZeroU64::new(20_000_000).expect("20 ms is not zero"),
            max_frame_time: NonZeroU64::new(DEFAULT_MAX_FRAME_TIME),
            max_steps: None,
        }
    }
}

impl TimestepConfig {
    /// The step for a physics rate: `round(1e9 / hz)` ns, for 1 to 1000 Hz.
    pub fn dt_for_rate(rate_hz: f64) -> Result<NonZeroU64, RangeError> {
        if !(MIN_RATE_HZ..=MAX_RATE_HZ).contains(&rate_hz) {
            return Err(RangeError {
                name: "physics rate",
                value: format!("{} Hz", crate::text::number(rate_hz)),
                allowed: format!("{MIN_RATE_HZ} to {MAX_RATE_HZ} Hz"),
            });
        }
        let dt = (NANOS_PER_SECOND as f64 / rate_hz).round() as u64;
        Ok(NonZeroU64::new(dt).expect("rate <= 1000 Hz gives dt >= 1 ms"))
    }

    /// Sets the step from a physics rate.
    pub fn with_rate_hz(mut self, rate_hz: f64) -> Result<Self, RangeError> {
        self.dt = Self::dt_for_rate(rate_hz)?;
        Ok(self)
    }

    /// Sets the frame-time clamp in milliseconds; 0 turns it off.
    pub fn with_max_frame_time_ms(mut self, ms: f64) -> Result<Self, RangeError> {
        let max_ms = ms_from_ns(MAX_MAX_FRAME_TIME);
        if !(0.0..=max_ms).contains(&ms) {
            return Err(RangeError {
                name: "max frame time",
                value: format!("{} ms", crate::text::number(ms)),
                allowed: format!("0 (off) to {max_ms} ms"),
            });
        }
        let ns = ns_from_ms(ms);
        if ms > 0.0 && ns == 0 {
            // Rounded to whole nanoseconds it would be 0, which means "off": refuse it
            // rather than silently turn the guard off.
            return Err(RangeError {
                name: "max frame time",
                value: format!("{} ms", crate::text::number(ms)),
                allowed: format!("0 (off), or 0.0000005 to {max_ms} ms: it rounds to 0 ns"),
            });
        }
        self.max_frame_time = NonZeroU64::new(ns);
        Ok(self)
    }

    /// Sets the per-frame step cap; 0 turns it off.
    pub fn with_max_steps(mut self, steps: u32) -> Result<Self, RangeError> {
        if !MAX_STEPS.contains(u64::from(steps)) {
            return Err(RangeError {
                name: "max steps",
                value: steps.to_string(),
                allowed: MAX_STEPS.allowed(),
            });
        }
        self.max_steps = NonZeroU32::new(steps);
        Ok(self)
    }

    /// The step in nanoseconds.
    pub fn dt_ns(&self) -> Nanos {
        self.dt.get()
    }

    /// The physics rate the step corresponds to.
    pub fn rate_hz(&self) -> f64 {
        NANOS_PER_SECOND as f64 / self.dt.get() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dt_is_the_rounded_whole_nanosecond_period() {
        assert_eq!(TimestepConfig::dt_for_rate(50.0).unwrap().get(), 20_000_000);
        assert_eq!(TimestepConfig::dt_for_rate(60.0).unwrap().get(), 16_666_667);
        assert_eq!(TimestepConfig::dt_for_rate(64.0).unwrap().get(), 15_625_000);
        assert_eq!(TimestepConfig::dt_for_rate(240.0).unwrap().get(), 4_166_667);
        assert_eq!(
            TimestepConfig::dt_for_rate(1000.0).unwrap().get(),
            1_000_000
        );
        assert_eq!(TimestepConfig::default().dt_ns(), 20_000_000);
    }

    #[test]
    fn out_of_range_values_are_named_with_their_range() {
        let error = TimestepConfig::dt_for_rate(0.5).unwrap_err();
        assert_eq!(
            error.to_string(),
            "physics rate 0.5 Hz is out of range (allowed 1 to 1000 Hz)"
        );
        assert!(TimestepConfig::dt_for_rate(f64::NAN).is_err());
        assert!(TimestepConfig::dt_for_rate(1000.5).is_err());
        let config = TimestepConfig::default();
        assert!(config.with_max_frame_time_ms(-1.0).is_err());
        assert!(config.with_max_frame_time_ms(f64::INFINITY).is_err());
        assert!(config.with_max_steps(MAX_MAX_STEPS + 1).is_err());
    }

    #[test]
    fn zero_turns_guards_off() {
        let config = TimestepConfig::default()
            .with_max_frame_time_ms(0.0)
            .unwrap()
            .with_max_steps(0)
            .unwrap();
        assert_eq!(config.max_frame_time, None);
        assert_eq!(config.max_steps, None);
        let config = config.with_max_steps(8).unwrap();
        assert_eq!(config.max_steps.map(NonZeroU32::get), Some(8));
    }
}

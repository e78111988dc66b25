//! What a spec asks for: its fields read, checked and named in errors.

use super::{DEFAULT_JITTER_SEED, GENERATORS, NANOS_PER_SECOND};
use crate::trace::TraceError;
use crate::trace::error::shown;

/// Most decimals accepted in a rate, enough for 59.94 or 143.856 Hz.
const MAX_RATE_DECIMALS: usize = 9;

/// What a spec asks for, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Shape {
    /// Frame `k` ends at `round(k * 1e9 / HZ)`.
    Steady(Rate),
    /// Steady frames plus normal noise of `sd_ms`, from `seed`.
    Jitter {
        /// The steady rate under the noise.
        rate: Rate,
        /// The noise's standard deviation, ms.
        sd_ms: f64,
        /// The noise's seed.
        seed: u64,
    },
    /// Steady frames, and a spike of `spike_ns` every `every_ns` of trace time.
    Hitch {
        /// The steady rate between the spikes.
        rate: Rate,
        /// A spike's length, ns.
        spike_ns: u64,
        /// Trace time between spikes, ns.
        every_ns: u64,
    },
    /// A rate rising (or falling) linearly over `duration_s`.
    Ramp {
        /// The rate at the start, Hz.
        from_hz: f64,
        /// The rate at the end of the duration, Hz.
        to_hz: f64,
        /// The trace's duration, s.
        duration_s: f64,
    },
}

/// The four generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Steady,
    Jitter,
    Hitch,
    Ramp,
}

impl Kind {
    /// The generator a spec's first field names, ignoring ASCII case.
    pub(super) fn from_name(name: &str) -> Option<Self> {
        let kinds = [Self::Steady, Self::Jitter, Self::Hitch, Self::Ramp];
        GENERATORS
            .iter()
            .position(|known| known.eq_ignore_ascii_case(name))
            .map(|index| kinds[index])
    }

    /// The spec syntax shown in errors.
    pub(super) fn syntax(self) -> &'static str {
        match self {
            Self::Steady => "steady:HZ",
            Self::Jitter => "jitter:HZ:SD_MS[:SEED]",
            Self::Hitch => "hitch:HZ:SPIKE_MS:EVERY_S",
            Self::Ramp => "ramp:FROM_HZ:TO_HZ",
        }
    }
}

/// A frame rate as an exact fraction `numerator / denominator` Hz (the decimal as written).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Rate {
    /// The decimal's digits without its point (never 0).
    pub(super) numerator: u128,
    /// Ten to the number of decimals written.
    pub(super) denominator: u128,
}

impl Rate {
    /// The rate in Hz, for the float-based generators.
    pub(super) fn hz(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }

    /// End of frame `k` of a steady sequence: `round(k * 1e9 / hz)` ns, halves rounded up.
    pub(super) fn frame_end_ns(self, k: u64) -> u64 {
        let twice = 2 * u128::from(k) * NANOS_PER_SECOND * self.denominator;
        ((twice + self.numerator) / (2 * self.numerator)) as u64
    }

    /// How many frames of a steady sequence reach `duration_ns`: the first `k` (at least 1)
    /// whose end ([`Self::frame_end_ns`]) is at or past it, worked out instead of counted.
    /// `end(k) >= D` exactly when `2k·1e9·den + num >= 2·num·D`.
    pub(super) fn frames_to_reach(self, duration_ns: u64) -> u64 {
        let step = 2 * NANOS_PER_SECOND * self.denominator;
        let needed = (2 * self.numerator * u128::from(duration_ns)).saturating_sub(self.numerator);
        u64::try_from(needed.div_ceil(step)).map_or(u64::MAX, |k| k.max(1))
    }

    /// The period in nanoseconds, unrounded.
    pub(super) fn period_ns(self) -> f64 {
        1e9 / self.hz()
    }
}

/// The fields of one spec, with the spec kept for messages.
pub(super) struct Fields<'a> {
    /// The whole spec, trimmed.
    pub(super) spec: &'a str,
    /// The spec split at `:` and trimmed; the generator name first.
    pub(super) fields: Vec<&'a str>,
}

impl Fields<'_> {
    /// Fails unless `valid(value)`.
    pub(super) fn check_range(
        &self,
        field: &'static str,
        value: f64,
        written: &str,
        valid: impl Fn(f64) -> bool,
        allowed: &'static str,
    ) -> Result<f64, TraceError> {
        if valid(value) {
            Ok(value)
        } else {
            Err(TraceError::GeneratorRange {
                spec: shown(self.spec),
                field,
                value: shown(written),
                allowed,
            })
        }
    }

    fn not_a_number(
        &self,
        field: &'static str,
        index: usize,
        expected: &'static str,
    ) -> TraceError {
        TraceError::GeneratorNotANumber {
            spec: shown(self.spec),
            field,
            value: shown(self.fields[index]),
            expected,
        }
    }

    /// Field `index` as a number checked with `valid`.
    pub(super) fn number(
        &self,
        index: usize,
        field: &'static str,
        valid: impl Fn(f64) -> bool,
        allowed: &'static str,
    ) -> Result<f64, TraceError> {
        let text = self.fields[index];
        let value = text
            .parse::<f64>()
            .ok()
            .filter(|value| !value.is_nan())
            .ok_or_else(|| self.not_a_number(field, index, "a number"))?;
        self.check_range(field, value, text, valid, allowed)
    }

    /// Field `index` as a rate from 1 to 2000 Hz, kept as an exact decimal fraction.
    pub(super) fn rate(&self, index: usize, field: &'static str) -> Result<Rate, TraceError> {
        self.number(
            index,
            field,
            |hz| (1.0..=2000.0).contains(&hz),
            "1 to 2000 Hz",
        )?;
        exact_decimal(self.fields[index]).ok_or_else(|| {
            self.not_a_number(
                field,
                index,
                "a decimal number such as 60 or 59.94 (at most 9 decimals)",
            )
        })
    }

    /// Field `index` as a seed, or the default when the spec stops before it.
    pub(super) fn seed(&self, index: usize) -> Result<u64, TraceError> {
        match self.fields.get(index) {
            None => Ok(DEFAULT_JITTER_SEED),
            Some(text) => text.parse::<u64>().map_err(|_| {
                self.not_a_number(
                    "SEED",
                    index,
                    "a whole number from 0 to 18446744073709551615",
                )
            }),
        }
    }
}

/// Parses `123` or `123.456` into an exact fraction; `None` for anything else (signs,
/// exponents, more than [`MAX_RATE_DECIMALS`] decimals).
fn exact_decimal(text: &str) -> Option<Rate> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let all_digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty()
        || !all_digits(whole)
        || !all_digits(fraction)
        || fraction.len() > MAX_RATE_DECIMALS
    {
        return None;
    }
    let digits = format!("{whole}{fraction}");
    let numerator = digits.parse::<u128>().ok()?;
    let denominator = 10_u128.pow(fraction.len() as u32);
    (numerator > 0).then_some(Rate {
        numerator,
        denominator,
    })
}

//! Synthetic traces: `steady:HZ`, `jitter:HZ:SD_MS[:SEED]`, `hitch:HZ:SPIKE_MS:EVERY_S` and
//! `ramp:FROM_HZ:TO_HZ`, generated for a given duration.
//!
//! A [`GeneratedTrace`] makes its frames one at a time, as a pass goes through them
//! ([`GeneratedTrace::frames`]), and every pass makes the same frames: the bench runs a
//! generated trace of any length in memory that does not grow with it. [`generate()`]
//! collects the frames into a [`FrameTrace`], for the tests and for short traces.
//!
//! Steady frame times are computed in integer nanoseconds from the rate as an exact decimal
//! fraction, so frame `k` ends at exactly `round(k * 1e9 / HZ)` ns however long the trace.
//! Everything random comes from [`Rng`] with a fixed seed, so a spec always yields the same
//! trace.

use super::error::{escape, shown};
use super::{FrameSource, FrameTrace, MAX_FRAME_TIME_MS, Rng, TraceError};

/// The generator names, in the order the help lists them.
pub const GENERATORS: [&str; 4] = ["steady", "jitter", "hitch", "ramp"];
/// Seed of `jitter` when the spec gives none.
pub const DEFAULT_JITTER_SEED: u64 = 1;
/// Trace length when the user gives none, in seconds.
pub const DEFAULT_DURATION_S: f64 = 10.0;
/// Longest trace a generator makes: one day, far more than any experiment needs. Memory does
/// not depend on it (the frames are made as they run); it bounds the run time: 2000 Hz for a
/// day is 173 million frames, each run once per strategy.
pub const MAX_DURATION_S: f64 = 86_400.0;

/// Most frames a generator makes: what `steady:2000` makes in [`MAX_DURATION_S`].
pub const MAX_GENERATED_FRAMES: u64 = 2000 * 86_400 + 1;

const NANOS_PER_SECOND: u128 = 1_000_000_000;
/// Jittered frames are kept at or above this fraction of the period: a frame cannot take
/// negative time, and near-zero frames would be noise no real loop produces.
const MIN_JITTER_FRACTION: f64 = 0.1;
/// Most decimals accepted in a rate, enough for 59.94 or 143.856 Hz.
const MAX_RATE_DECIMALS: usize = 9;

/// Generates the trace a spec describes, `duration_s` seconds long, with all its frames in
/// memory (see [`GeneratedTrace::new`]).
pub fn generate(spec: &str, duration_s: f64) -> Result<FrameTrace, TraceError> {
    GeneratedTrace::new(spec, duration_s).map(|trace| trace.to_frame_trace())
}

/// A generated trace: its spec, checked, and what one pass over it found (the number of
/// frames and their total). Its frames are made anew by each pass ([`Self::frames`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedTrace {
    /// The spec with the duration, e.g. "jitter:60:2:7 (10 s)".
    source: String,
    /// What to generate.
    shape: Shape,
    /// Frames are made until their total reaches this, ns.
    duration_ns: u64,
    /// Frames in a pass.
    frames: u64,
    /// Their total time, ns.
    total_ns: u64,
    /// What the user should know (frames the jitter's noise would have made too short).
    notes: Vec<String>,
}

impl GeneratedTrace {
    /// The trace a spec describes, `duration_s` seconds long: frames are made until their
    /// total reaches the duration (the last frame may end just past it). The spec is checked
    /// and the frames counted in one pass; none is kept.
    pub fn new(spec: &str, duration_s: f64) -> Result<Self, TraceError> {
        let spec = spec.trim();
        let fields: Vec<&str> = spec.split(':').map(str::trim).collect();
        let name = fields[0];
        let Some(kind) = Kind::from_name(name) else {
            return Err(TraceError::UnknownGenerator {
                spec: shown(spec),
                name: shown(name),
            });
        };
        let syntax = kind.syntax();
        let arity = syntax.split(':').count();
        let optional = syntax.matches('[').count();
        if fields.len() > arity || fields.len() + optional < arity {
            return Err(TraceError::GeneratorSyntax {
                spec: shown(spec),
                found: fields.len(),
                syntax,
            });
        }
        let fields = Fields { spec, fields };
        let duration_s = fields.check_range(
            "duration",
            duration_s,
            &duration_s.to_string(),
            |s| s > 0.0 && s <= MAX_DURATION_S,
            "more than 0 up to 86400 s",
        )?;
        let duration_ns = (duration_s * 1e9).round() as u64;

        let shape = match kind {
            Kind::Steady => Shape::Steady(fields.rate(1, "HZ")?),
            Kind::Jitter => Shape::Jitter {
                rate: fields.rate(1, "HZ")?,
                sd_ms: fields.number(
                    2,
                    "SD_MS",
                    |sd| (0.0..=1000.0).contains(&sd),
                    "0 to 1000 ms",
                )?,
                seed: fields.seed(3)?,
            },
            Kind::Hitch => {
                let rate = fields.rate(1, "HZ")?;
                // Both must be at least 1 ns once rounded: a 0 ns interval would never advance.
                let spike_ms = fields.number(
                    2,
                    "SPIKE_MS",
                    |ms| (ms * 1e6).round() >= 1.0 && ms <= MAX_FRAME_TIME_MS,
                    "more than 0 up to 60000 ms",
                )?;
                let every_s = fields.number(
                    3,
                    "EVERY_S",
                    |s| (s * 1e9).round() >= 1.0 && s <= 3600.0,
                    "more than 0 up to 3600 s",
                )?;
                let spike_ns = (spike_ms * 1e6).round() as u64;
                // Tiny spikes repeated back to back could make billions of frames; refuse
                // before making any. The shortest frame bounds the count.
                let shortest_ns = spike_ns.min(rate.frame_end_ns(1).saturating_sub(1)).max(1);
                if duration_ns / shortest_ns >= MAX_GENERATED_FRAMES {
                    return Err(TraceError::TooManyFrames {
                        spec: shown(spec),
                        limit: MAX_GENERATED_FRAMES,
                    });
                }
                Shape::Hitch {
                    rate,
                    spike_ns,
                    every_ns: (every_s * 1e9).round() as u64,
                }
            }
            Kind::Ramp => Shape::Ramp {
                from_hz: fields.rate(1, "FROM_HZ")?.hz(),
                to_hz: fields.rate(2, "TO_HZ")?.hz(),
                duration_s,
            },
        };

        let mut pass = GeneratedFrames::new(shape, duration_ns);
        let frames = pass.by_ref().count() as u64;
        let mut notes = Vec::new();
        if pass.clamped() > 0 {
            notes.push(format!(
                "{}: {} of {frames} frames were raised to 10% of the period (the noise \
                 would have made them shorter)",
                escape(spec),
                pass.clamped()
            ));
        }
        Ok(Self {
            // Whitespace inside the spec (a tab, a line break) survives the trims and reaches
            // the source and the notes, which are printed: escaped like everything from the
            // user.
            source: format!("{} ({duration_s} s)", escape(spec)),
            shape,
            duration_ns,
            frames,
            total_ns: pass.total_ns,
            notes,
        })
    }

    /// Where the frames come from: the spec with the duration, e.g. "jitter:60:2:7 (10 s)".
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Things the user should know (printed on stderr by the CLI).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Number of frames.
    pub fn len(&self) -> u64 {
        self.frames
    }

    /// Whether there are no frames (never: a generator makes at least one).
    pub fn is_empty(&self) -> bool {
        self.frames == 0
    }

    /// Sum of the frame times in nanoseconds.
    pub fn total_ns(&self) -> u64 {
        self.total_ns
    }

    /// Sum of the frame times in seconds, for display.
    pub fn wall_time_s(&self) -> f64 {
        self.total_ns as f64 / 1e9
    }

    /// A pass over the frames, from the first: each pass makes the same frames.
    pub fn frames(&self) -> GeneratedFrames {
        GeneratedFrames::new(self.shape, self.duration_ns)
    }

    /// The trace with all its frames in memory.
    pub fn to_frame_trace(&self) -> FrameTrace {
        let mut frame_times_ns = Vec::with_capacity(usize::try_from(self.frames).unwrap_or(0));
        frame_times_ns.extend(self.frames());
        FrameTrace {
            source: self.source.clone(),
            frame_times_ns,
            display_ns: None,
            notes: self.notes.clone(),
        }
    }
}

impl FrameSource for GeneratedTrace {
    fn frame_count(&self) -> u64 {
        self.frames
    }

    fn frame_times(&self) -> impl Iterator<Item = u64> + '_ {
        self.frames()
    }
}

/// What a spec asks for, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
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
enum Kind {
    Steady,
    Jitter,
    Hitch,
    Ramp,
}

impl Kind {
    /// The generator a spec's first field names, ignoring ASCII case.
    fn from_name(name: &str) -> Option<Self> {
        let kinds = [Self::Steady, Self::Jitter, Self::Hitch, Self::Ramp];
        GENERATORS
            .iter()
            .position(|known| known.eq_ignore_ascii_case(name))
            .map(|index| kinds[index])
    }

    /// The spec syntax shown in errors.
    fn syntax(self) -> &'static str {
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
struct Rate {
    /// The decimal's digits without its point (never 0).
    numerator: u128,
    /// Ten to the number of decimals written.
    denominator: u128,
}

impl Rate {
    /// The rate in Hz, for the float-based generators.
    fn hz(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }

    /// End of frame `k` of a steady sequence: `round(k * 1e9 / hz)` ns, halves rounded up.
    fn frame_end_ns(self, k: u64) -> u64 {
        let twice = 2 * u128::from(k) * NANOS_PER_SECOND * self.denominator;
        ((twice + self.numerator) / (2 * self.numerator)) as u64
    }

    /// The period in nanoseconds, unrounded.
    fn period_ns(self) -> f64 {
        1e9 / self.hz()
    }
}

/// The fields of one spec, with the spec kept for messages.
struct Fields<'a> {
    /// The whole spec, trimmed.
    spec: &'a str,
    /// The spec split at `:` and trimmed; the generator name first.
    fields: Vec<&'a str>,
}

impl Fields<'_> {
    /// Fails unless `valid(value)`.
    fn check_range(
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
    fn number(
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
    fn rate(&self, index: usize, field: &'static str) -> Result<Rate, TraceError> {
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
    fn seed(&self, index: usize) -> Result<u64, TraceError> {
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

/// A pass over a generated trace's frames (see [`GeneratedTrace::frames`]): frames are made
/// until their total reaches the duration, the last one ending at or just past it.
#[derive(Clone, Debug)]
pub struct GeneratedFrames {
    /// The generator's state.
    maker: Maker,
    /// Frames are made until their total reaches this, ns.
    duration_ns: u64,
    /// The total of the frames made so far, ns.
    total_ns: u64,
    /// Whether the duration is reached.
    finished: bool,
}

impl GeneratedFrames {
    /// A pass from the first frame.
    fn new(shape: Shape, duration_ns: u64) -> Self {
        let maker = match shape {
            Shape::Steady(rate) => Maker::Steady(SteadyFrames::new(rate)),
            Shape::Jitter { rate, sd_ms, seed } => Maker::Jitter {
                steady: SteadyFrames::new(rate),
                rng: Rng::new(seed),
                sd_ns: sd_ms * 1e6,
                min_ns: (rate.period_ns() * MIN_JITTER_FRACTION).round() as i64,
                max_ns: (MAX_FRAME_TIME_MS * 1e6) as i64,
                clamped: 0,
            },
            Shape::Hitch {
                rate,
                spike_ns,
                every_ns,
            } => Maker::Hitch {
                steady: SteadyFrames::new(rate),
                spike_ns,
                every_ns,
                next_hitch: every_ns,
            },
            Shape::Ramp {
                from_hz,
                to_hz,
                duration_s,
            } => Maker::Ramp {
                from_hz,
                to_hz,
                duration_s,
                half_slope: (to_hz - from_hz) / (2.0 * duration_s),
                frames_in_ramp: (from_hz + to_hz) / 2.0 * duration_s,
                k: 0,
                end_ns: 0,
            },
        };
        Self {
            maker,
            duration_ns,
            total_ns: 0,
            finished: false,
        }
    }

    /// How many frames so far the jitter's noise would have made shorter than a tenth of
    /// the period (they were raised to it); 0 for the other generators.
    fn clamped(&self) -> u64 {
        match self.maker {
            Maker::Jitter { clamped, .. } => clamped,
            _ => 0,
        }
    }
}

impl Iterator for GeneratedFrames {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.finished {
            return None;
        }
        let frame = self.maker.next_frame(self.total_ns);
        self.total_ns = self.total_ns.saturating_add(frame);
        self.finished = self.total_ns >= self.duration_ns;
        Some(frame)
    }
}

/// The state of one generator part way through its frames.
#[derive(Clone, Debug)]
enum Maker {
    /// Exactly the steady sequence.
    Steady(SteadyFrames),
    /// Steady frames plus normal noise, kept within a tenth of the period and the longest
    /// frame time.
    Jitter {
        /// The steady sequence under the noise.
        steady: SteadyFrames,
        /// The noise.
        rng: Rng,
        /// The noise's standard deviation, ns.
        sd_ns: f64,
        /// The shortest frame, ns.
        min_ns: i64,
        /// The longest frame, ns.
        max_ns: i64,
        /// Frames raised to `min_ns` so far.
        clamped: u64,
    },
    /// Steady frames, except that the first frame starting at or after each multiple of
    /// `every_ns` of trace time takes `spike_ns`. The steady frames keep their own
    /// sequence, so the frames between spikes are exactly the steady ones.
    Hitch {
        /// The steady sequence between the spikes.
        steady: SteadyFrames,
        /// A spike's length, ns.
        spike_ns: u64,
        /// Trace time between spikes, ns.
        every_ns: u64,
        /// The trace time at or after which the next spike starts, ns.
        next_hitch: u64,
    },
    /// Frames whose rate rises (or falls) linearly from `from_hz` at 0 to `to_hz` at the
    /// end.
    ///
    /// The frame count is the integral of the rate, `phase(t) = from t + (to - from) t² / 2T`,
    /// and frame `k` ends where `phase(t) = k`; past `T` the rate stays at `to_hz`. Only
    /// `+ - * /` and `sqrt` are used, which IEEE 754 rounds the same everywhere.
    Ramp {
        /// The rate at the start, Hz.
        from_hz: f64,
        /// The rate at `duration_s`, Hz.
        to_hz: f64,
        /// `T`, s.
        duration_s: f64,
        /// `(to - from) / 2T`.
        half_slope: f64,
        /// Frames within `T`: `(from + to) / 2 * T`.
        frames_in_ramp: f64,
        /// Frames made so far.
        k: u64,
        /// Where the last frame made ended, ns.
        end_ns: u64,
    },
}

impl Maker {
    /// The next frame's time, ns; `total_ns` is the time of the frames before it.
    fn next_frame(&mut self, total_ns: u64) -> u64 {
        match self {
            Self::Steady(steady) => steady.next_frame(),
            Self::Jitter {
                steady,
                rng,
                sd_ns,
                min_ns,
                max_ns,
                clamped,
            } => {
                let steady_ns = steady.next_frame() as i64;
                let noisy_ns = steady_ns + rng.normal(0.0, *sd_ns).round() as i64;
                if noisy_ns < *min_ns {
                    *clamped += 1;
                }
                noisy_ns.clamp(*min_ns, *max_ns) as u64
            }
            Self::Hitch {
                steady,
                spike_ns,
                every_ns,
                next_hitch,
            } => {
                if total_ns >= *next_hitch {
                    // A spike longer than the interval swallows the marks it covers: the next
                    // mark is the first multiple of the interval after now (found at once, not
                    // mark by mark, which a nanosecond interval makes billions of).
                    *next_hitch = (total_ns / *every_ns + 1) * *every_ns;
                    *spike_ns
                } else {
                    steady.next_frame()
                }
            }
            Self::Ramp {
                from_hz,
                to_hz,
                duration_s,
                half_slope,
                frames_in_ramp,
                k,
                end_ns,
            } => {
                *k += 1;
                let k_f = *k as f64;
                let end_s = if k_f <= *frames_in_ramp {
                    // Root of half_slope t² + from t - k = 0, in the form that stays exact
                    // when half_slope is 0 and does not cancel when it is small.
                    let discriminant = (*from_hz * *from_hz + 4.0 * *half_slope * k_f).max(0.0);
                    2.0 * k_f / (*from_hz + discriminant.sqrt())
                } else {
                    *duration_s + (k_f - *frames_in_ramp) / *to_hz
                };
                let next = ((end_s * 1e9).round() as u64).max(*end_ns);
                let frame = next - *end_ns;
                *end_ns = next;
                frame
            }
        }
    }
}

/// The frames of a steady sequence in turn: frame `k` ends at exactly
/// [`Rate::frame_end_ns`]`(k)`. The end is `floor(N_k / 2n)` with `N_k = 2 k 1e9 d + n` for
/// the rate `n / d`; `N` grows by the same amount each frame, so the quotient and remainder
/// are carried from frame to frame instead of divided out anew (a 128-bit division per
/// frame would cost more than the rest of the generator).
#[derive(Clone, Copy, Debug)]
struct SteadyFrames {
    /// `floor(N_k / divisor)`: where the last frame made ended, ns.
    end: u128,
    /// `N_k mod divisor`.
    remainder: u128,
    /// `2n`.
    divisor: u128,
    /// `(N_{k+1} - N_k) / divisor`, whole.
    step_quotient: u128,
    /// `(N_{k+1} - N_k) mod divisor`.
    step_remainder: u128,
}

impl SteadyFrames {
    /// The sequence from frame 1 (frame 0 ends at 0).
    fn new(rate: Rate) -> Self {
        let divisor = 2 * rate.numerator;
        let step = 2 * NANOS_PER_SECOND * rate.denominator;
        Self {
            end: 0,
            // N_0 = n, less than 2n.
            remainder: rate.numerator,
            divisor,
            step_quotient: step / divisor,
            step_remainder: step % divisor,
        }
    }

    /// The next frame's time, ns.
    fn next_frame(&mut self) -> u64 {
        let mut end = self.end + self.step_quotient;
        let mut remainder = self.remainder + self.step_remainder;
        if remainder >= self.divisor {
            remainder -= self.divisor;
            end += 1;
        }
        let frame = (end - self.end) as u64;
        self.end = end;
        self.remainder = remainder;
        frame
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_frame_k_ends_at_exactly_round_k_period() {
        let trace = generate("steady:60", 10.0).unwrap();
        assert_eq!(trace.len(), 600);
        assert_eq!(trace.total_ns(), 10_000_000_000);
        let mut end = 0_u128;
        for (index, frame) in trace.frame_times_ns.iter().enumerate() {
            end += u128::from(*frame);
            let k = index as u128 + 1;
            // round(k * 1e9 / 60), halves up.
            assert_eq!(end, (2 * k * 1_000_000_000 + 60) / 120);
        }
        let min = trace.frame_times_ns.iter().min().unwrap();
        let max = trace.frame_times_ns.iter().max().unwrap();
        assert_eq!((*min, *max), (16_666_666, 16_666_667));
        assert_eq!(trace.source, "steady:60 (10 s)");
    }

    #[test]
    fn steady_fractional_rate_is_exact_over_a_day() {
        // 59.94 Hz for a day: 5_178_816 frames, the last ending at exactly round(k * 1e9 / 59.94).
        let trace = generate("steady:59.94", 86_400.0).unwrap();
        let n = trace.len() as u128;
        assert_eq!(n, 5_178_816);
        assert_eq!(
            u128::from(trace.total_ns()),
            (2 * n * 1_000_000_000 * 100 + 5994) / (2 * 5994)
        );
        let min = trace.frame_times_ns.iter().min().unwrap();
        let max = trace.frame_times_ns.iter().max().unwrap();
        assert_eq!(max - min, 1);
    }

    #[test]
    fn last_frame_ends_at_or_just_past_the_duration() {
        // 7 Hz does not divide 1 s: frames until the total reaches 1 s, no more.
        let trace = generate("steady:7", 1.0).unwrap();
        assert_eq!(trace.len(), 7);
        assert_eq!(trace.total_ns(), 1_000_000_000);
        let trace = generate("steady:3", 0.5).unwrap();
        assert_eq!(trace.frame_times_ns, [333_333_333, 333_333_334]);
    }

    #[test]
    fn jitter_is_reproducible_for_a_seed_and_differs_for_another() {
        let a = generate("jitter:60:2:7", 10.0).unwrap();
        let b = generate("jitter:60:2:7", 10.0).unwrap();
        let c = generate("jitter:60:2:8", 10.0).unwrap();
        assert_eq!(a.frame_times_ns, b.frame_times_ns);
        assert_ne!(a.frame_times_ns, c.frame_times_ns);
        assert_eq!(a.source, "jitter:60:2:7 (10 s)");
        assert_eq!(
            generate("jitter:60:2", 10.0).unwrap().frame_times_ns,
            generate("jitter:60:2:1", 10.0).unwrap().frame_times_ns
        );
    }

    #[test]
    fn jitter_has_the_requested_spread_around_the_period() {
        let trace = generate("jitter:100:1.5:3", 60.0).unwrap();
        let n = trace.len() as f64;
        let mean = trace
            .frame_times_ns
            .iter()
            .map(|&ns| ns as f64)
            .sum::<f64>()
            / n;
        let sd = (trace
            .frame_times_ns
            .iter()
            .map(|&ns| (ns as f64 - mean).powi(2))
            .sum::<f64>()
            / n)
            .sqrt();
        assert!((mean - 10e6).abs() < 0.05e6, "mean {mean}");
        assert!((sd - 1.5e6).abs() < 0.05e6, "sd {sd}");
    }

    #[test]
    fn jitter_without_noise_is_steady() {
        assert_eq!(
            generate("jitter:60:0", 3.0).unwrap().frame_times_ns,
            generate("steady:60", 3.0).unwrap().frame_times_ns
        );
    }

    #[test]
    fn jitter_never_goes_below_a_tenth_of_the_period() {
        let trace = generate("jitter:100:20:5", 10.0).unwrap();
        assert_eq!(*trace.frame_times_ns.iter().min().unwrap(), 1_000_000);
        assert_eq!(trace.notes.len(), 1);
        assert!(trace.notes[0].starts_with("jitter:100:20:5: "));
    }

    #[test]
    fn hitch_spikes_at_the_first_frame_of_each_interval() {
        // 50 Hz, a 100 ms spike every second: frames 0..49 fill the first second, frame 50
        // spikes (ending at 1.1 s), 45 steady frames reach 2.0 s, frame 96 spikes.
        let trace = generate("hitch:50:100:1", 3.0).unwrap();
        let spikes: Vec<usize> = trace
            .frame_times_ns
            .iter()
            .enumerate()
            .filter(|(_, ns)| **ns == 100_000_000)
            .map(|(index, _)| index)
            .collect();
        assert_eq!(spikes, [50, 96]);
        assert!(
            trace
                .frame_times_ns
                .iter()
                .all(|&ns| ns == 20_000_000 || ns == 100_000_000)
        );
        assert_eq!(trace.total_ns(), 3_000_000_000);
        assert_eq!(trace.len(), 50 + 1 + 45 + 1 + 45);
    }

    #[test]
    fn hitch_longer_than_its_interval_spikes_every_frame() {
        let trace = generate("hitch:60:500:0.25", 2.0).unwrap();
        // 15 steady frames fill the first 250 ms; from then on every frame starts past a mark.
        let steady = generate("steady:60", 0.25).unwrap();
        assert_eq!(steady.len(), 15);
        assert_eq!(trace.frame_times_ns[..15], steady.frame_times_ns[..]);
        assert!(
            trace.frame_times_ns[15..]
                .iter()
                .all(|&ns| ns == 500_000_000)
        );
    }

    #[test]
    fn ramp_starts_at_from_rate_and_ends_at_to_rate() {
        // 30 -> 90 Hz over 10 s: (30 + 90) / 2 * 10 = 600 frames, the last ending at 10 s.
        let trace = generate("ramp:30:90", 10.0).unwrap();
        assert_eq!(trace.len(), 600);
        assert_eq!(trace.total_ns(), 10_000_000_000);
        let first_hz = 1e9 / trace.frame_times_ns[0] as f64;
        let last_hz = 1e9 / trace.frame_times_ns[599] as f64;
        // Each frame's rate is its average, a little above the rate at its start.
        assert!((first_hz - 30.0).abs() < 0.2, "first {first_hz}");
        assert!((last_hz - 90.0).abs() < 0.1, "last {last_hz}");
        assert!(
            trace
                .frame_times_ns
                .windows(2)
                .all(|pair| pair[1] <= pair[0])
        );
    }

    #[test]
    fn falling_ramp_and_flat_ramp() {
        let trace = generate("ramp:120:40", 5.0).unwrap();
        assert_eq!(trace.len(), 400);
        assert_eq!(trace.total_ns(), 5_000_000_000);
        assert!(
            trace
                .frame_times_ns
                .windows(2)
                .all(|pair| pair[1] >= pair[0])
        );
        assert_eq!(
            generate("ramp:50:50", 2.0).unwrap().frame_times_ns,
            generate("steady:50", 2.0).unwrap().frame_times_ns
        );
    }

    #[test]
    fn every_pass_makes_the_frames_the_first_pass_counted() {
        for spec in [
            "steady:59.94",
            "jitter:144:3:5",
            "jitter:100:20:5",
            "hitch:60:100:0.5",
            "ramp:30:120",
        ] {
            let generated = GeneratedTrace::new(spec, 7.0).unwrap();
            let trace = generated.to_frame_trace();
            assert_eq!(generated.len(), trace.len() as u64, "{spec}");
            assert_eq!(generated.total_ns(), trace.total_ns(), "{spec}");
            assert_eq!(generated.source(), trace.source, "{spec}");
            assert_eq!(generated.notes(), trace.notes, "{spec}");
            assert!(generated.frames().eq(trace.frame_times_ns.iter().copied()));
            assert_eq!(generated.frame_count(), generated.len());
            assert!(generated.frame_times().eq(generated.frames()));
        }
    }

    #[test]
    fn jitter_counts_its_raised_frames_in_its_note() {
        let generated = GeneratedTrace::new("jitter:100:20:5", 10.0).unwrap();
        let min = generated.frames().min().unwrap();
        let raised = generated.frames().filter(|&ns| ns == min).count();
        assert_eq!(
            generated.notes(),
            [format!(
                "jitter:100:20:5: {raised} of {} frames were raised to 10% of the period (the \
                 noise would have made them shorter)",
                generated.len()
            )]
        );
    }

    proptest::proptest! {
        /// The carried division gives exactly the frame ends of the direct formula, for any
        /// rate the generators accept.
        #[test]
        fn steady_frames_end_where_the_formula_says(
            whole in 1u128..2000,
            decimals in 0u32..=9,
            digits in 0u128..1_000_000_000,
            frames in 1u64..3000,
        ) {
            let denominator = 10u128.pow(decimals);
            let rate = Rate {
                numerator: whole * denominator + digits % denominator,
                denominator,
            };
            let mut steady = SteadyFrames::new(rate);
            let mut end = 0u64;
            for k in 1..=frames {
                end += steady.next_frame();
                proptest::prop_assert_eq!(end, rate.frame_end_ns(k));
            }
            // Far along the sequence too: skip ahead by carrying the state exactly.
            let mut far = SteadyFrames::new(rate);
            let k = 1_000_000_000_u64;
            let twice = 2 * u128::from(k) * NANOS_PER_SECOND * rate.denominator + rate.numerator;
            far.end = twice / far.divisor;
            far.remainder = twice % far.divisor;
            let next = far.end as u64 + far.next_frame();
            proptest::prop_assert_eq!(next, rate.frame_end_ns(k + 1));
        }
    }

    #[test]
    fn spec_errors_name_the_spec_field_and_range() {
        let message = |spec: &str, duration: f64| generate(spec, duration).unwrap_err().to_string();
        assert_eq!(
            message("steady:0", 10.0),
            "generator \"steady:0\": HZ 0 is out of range (allowed 1 to 2000 Hz)"
        );
        assert_eq!(
            message("jitter:60:1001", 10.0),
            "generator \"jitter:60:1001\": SD_MS 1001 is out of range (allowed 0 to 1000 ms)"
        );
        assert_eq!(
            message("hitch:60:0:2", 10.0),
            "generator \"hitch:60:0:2\": SPIKE_MS 0 is out of range (allowed more than 0 up to 60000 ms)"
        );
        assert_eq!(
            message("hitch:60:100:3601", 10.0),
            "generator \"hitch:60:100:3601\": EVERY_S 3601 is out of range (allowed more than 0 up to 3600 s)"
        );
        assert_eq!(
            message("ramp:30:2001", 10.0),
            "generator \"ramp:30:2001\": TO_HZ 2001 is out of range (allowed 1 to 2000 Hz)"
        );
        assert_eq!(
            message("steady:60", 0.0),
            "generator \"steady:60\": duration 0 is out of range (allowed more than 0 up to 86400 s)"
        );
        assert_eq!(
            message("steady:sixty", 10.0),
            "generator \"steady:sixty\": HZ \"sixty\" is not a number"
        );
        assert_eq!(
            message("steady:6e1", 10.0),
            "generator \"steady:6e1\": HZ \"6e1\" is not a decimal number such as 60 or 59.94 (at most 9 decimals)"
        );
        assert_eq!(
            message("jitter:60:2:-1", 10.0),
            "generator \"jitter:60:2:-1\": SEED \"-1\" is not a whole number from 0 to 18446744073709551615"
        );
        assert_eq!(
            message("steady:60:2", 10.0),
            "generator \"steady:60:2\" has 3 fields; expected steady:HZ"
        );
        assert_eq!(
            message("jitter:60", 10.0),
            "generator \"jitter:60\" has 2 fields; expected jitter:HZ:SD_MS[:SEED]"
        );
        assert_eq!(
            message("wobble:60", 10.0),
            "unknown generator \"wobble\" in \"wobble:60\"; expected one of steady, jitter, hitch, ramp \
             (e.g. steady:60, jitter:60:2, hitch:60:100:2, ramp:30:120)"
        );
        assert_eq!(
            message("hitch:60:0.0000001:1", 10.0),
            "generator \"hitch:60:0.0000001:1\": SPIKE_MS 0.0000001 is out of range (allowed more than 0 up to 60000 ms)"
        );
        assert_eq!(
            message("hitch:60:0.001:0.000001", 86_400.0),
            "generator \"hitch:60:0.001:0.000001\" would make more than 172800001 frames; \
             use a shorter duration or longer frames"
        );
        assert!(matches!(
            generate("steady:60", f64::NAN),
            Err(TraceError::GeneratorRange { .. })
        ));
        assert!(matches!(
            generate("steady:60", 86_400.5),
            Err(TraceError::GeneratorRange { .. })
        ));
    }

    #[test]
    fn fuzz_generator_spec_whitespace_control_characters_are_escaped_in_the_source() {
        // Found by fuzz target generator_spec: the tab is trimmed off the field, so the spec
        // is valid, but it reached the source (printed by bench) raw.
        let trace = generate("ramp:1\t:1", 0.005).unwrap();
        assert_eq!(trace.source, "ramp:1\\t:1 (0.005 s)");
        let trace = generate("jitter:\r100:20:5", 1.0).unwrap();
        assert!(
            trace.source.starts_with("jitter:\\r100:20:5 "),
            "{}",
            trace.source
        );
        assert!(
            trace.notes[0].starts_with("jitter:\\r100:20:5: "),
            "{:?}",
            trace.notes
        );
    }

    #[test]
    fn a_hitch_every_nanosecond_takes_time_in_proportion_to_the_frames() {
        // One steady frame, then every frame a 100 ms spike: a day is 864_001 frames. The
        // marks each spike passes were counted one nanosecond at a time, 8.64e13 steps (hours
        // for a command that should take milliseconds).
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sender.send(generate("hitch:60:100:0.000000001", 86_400.0));
        });
        let trace = receiver
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("a day of 100 ms hitches generated in well under 30 s")
            .unwrap();
        assert_eq!(trace.len(), 864_001);
        assert_eq!(trace.frame_times_ns[0], 16_666_667);
        assert!(
            trace.frame_times_ns[1..]
                .iter()
                .all(|&ns| ns == 100_000_000)
        );
    }
}

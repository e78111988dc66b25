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
//! Everything random comes from [`Rng`](super::Rng) with a fixed seed, so a spec always
//! yields the same trace.

mod frames;
mod spec;
#[cfg(test)]
mod tests;

use self::spec::{Fields, Kind, Shape};
use super::error::{escape, shown};
use super::{FrameSource, FrameTrace, MAX_FRAME_TIME_MS, TraceError};

pub use self::frames::GeneratedFrames;

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
            &timestep_lab_core::text::number(duration_s),
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

        let (frames, total_ns, clamped) = GeneratedFrames::count(shape, duration_ns);
        let mut notes = Vec::new();
        if clamped > 0 {
            notes.push(format!(
                "{}: {clamped} of {frames} frames were raised to 10% of the period (the noise \
                 would have made them shorter)",
                escape(spec),
            ));
        }
        Ok(Self {
            // Whitespace inside the spec (a tab, a line break) survives the trims and reaches
            // the source and the notes, which are printed: escaped like everything from the
            // user.
            source: format!(
                "{} ({} s)",
                escape(spec),
                timestep_lab_core::text::number(duration_s)
            ),
            shape,
            duration_ns,
            frames,
            total_ns,
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
            display_anchor_ns: None,
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

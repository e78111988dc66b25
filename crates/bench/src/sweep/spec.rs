//! What `sweep --load` ramps: one of the load model's costs, over a range, in evenly spaced
//! levels (`step-cost:0..30:50`).

use crate::live::{LoadSettings, MAX_JITTER_MS, MAX_LOAD_MS};
use timestep_lab_core::text::{escape, number};

/// Most levels a sweep runs: each is a whole bench run per strategy.
pub const MAX_LEVELS: u32 = 10_000;

/// Levels when the spec gives none: the two ends and every 5% between.
pub const DEFAULT_LEVELS: u32 = 21;

/// The load a sweep ramps: one of the costs of the load model (`LoadSettings`, the
/// window's artificial load), in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoadKind {
    /// Real time each physics step costs.
    StepCost,
    /// Real time each frame costs on top of the trace.
    RenderCost,
    /// Standard deviation of the half-normal extra time per frame.
    Jitter,
    /// A hitch's length (every `--hitch-every` seconds).
    Hitch,
}

impl LoadKind {
    /// Every load, in the order the help lists them.
    pub const ALL: [LoadKind; 4] = [
        LoadKind::StepCost,
        LoadKind::RenderCost,
        LoadKind::Jitter,
        LoadKind::Hitch,
    ];

    /// The id `--load` takes, which is also the option that sets the load by itself.
    pub fn id(self) -> &'static str {
        match self {
            LoadKind::StepCost => "step-cost",
            LoadKind::RenderCost => "render-cost",
            LoadKind::Jitter => "jitter",
            LoadKind::Hitch => "hitch",
        }
    }

    /// What the load is, for the report's axis and header.
    pub fn describe(self) -> &'static str {
        match self {
            LoadKind::StepCost => "cost per physics step",
            LoadKind::RenderCost => "cost per frame",
            LoadKind::Jitter => "jitter (standard deviation)",
            LoadKind::Hitch => "hitch length",
        }
    }

    /// The largest value the load model takes for it, ms.
    pub fn max_ms(self) -> f64 {
        match self {
            LoadKind::Jitter => MAX_JITTER_MS,
            _ => MAX_LOAD_MS,
        }
    }

    /// The load it sets in `load`.
    pub fn value(self, load: &LoadSettings) -> f64 {
        match self {
            LoadKind::StepCost => load.step_cost_ms,
            LoadKind::RenderCost => load.render_cost_ms,
            LoadKind::Jitter => load.jitter_ms,
            LoadKind::Hitch => load.hitch_ms,
        }
    }

    /// `load` with this cost set to `ms`.
    pub fn set(self, mut load: LoadSettings, ms: f64) -> LoadSettings {
        match self {
            LoadKind::StepCost => load.step_cost_ms = ms,
            LoadKind::RenderCost => load.render_cost_ms = ms,
            LoadKind::Jitter => load.jitter_ms = ms,
            LoadKind::Hitch => load.hitch_ms = ms,
        }
        load
    }

    /// The load named `id`.
    fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.id() == id)
    }
}

/// A load ramped over a range: `LEVELS` evenly spaced values from `FROM` to `TO`, both
/// included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadSweep {
    /// The load.
    pub kind: LoadKind,
    /// The first level, ms.
    pub from_ms: f64,
    /// The last level, ms.
    pub to_ms: f64,
    /// How many levels, 2 to [`MAX_LEVELS`].
    pub levels: u32,
}

impl LoadSweep {
    /// Reads `NAME:FROM..TO[:LEVELS]` (`step-cost:0..30:50`); the error says what is wrong
    /// with which part, and what is allowed.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let shown = escape(spec);
        let syntax = "NAME:FROM..TO[:LEVELS], e.g. step-cost:0..30:50";
        let names = LoadKind::ALL.map(LoadKind::id).join(", ");
        let mut fields = spec.trim().split(':');
        let name = fields.next().unwrap_or_default().trim();
        let Some(kind) = LoadKind::from_id(name) else {
            return Err(format!(
                "\"{shown}\": unknown load \"{}\" (allowed: {names}); the syntax is {syntax}",
                escape(name)
            ));
        };
        let Some(range) = fields.next() else {
            return Err(format!("\"{shown}\" has no range; the syntax is {syntax}"));
        };
        let levels = fields.next();
        if fields.next().is_some() {
            return Err(format!(
                "\"{shown}\" has too many fields; the syntax is {syntax}"
            ));
        }
        let two_dots = range
            .split_once("..")
            .filter(|(_, to)| !to.starts_with('.'));
        let Some((from, to)) = two_dots else {
            return Err(format!(
                "\"{shown}\": the range \"{}\" is not FROM..TO (two numbers of ms); the \
                 syntax is {syntax}",
                escape(range)
            ));
        };
        let max = kind.max_ms();
        let number = |what: &str, text: &str| -> Result<f64, String> {
            let value: f64 = text.trim().parse().map_err(|_| {
                format!(
                    "\"{shown}\": {what} \"{}\" is not a number of ms",
                    escape(text.trim())
                )
            })?;
            if (0.0..=max).contains(&value) {
                Ok(value)
            } else {
                Err(format!(
                    "\"{shown}\": {what} {} ms is out of range (allowed 0 to {max} ms for {})",
                    number(value),
                    kind.id()
                ))
            }
        };
        // `+ 0.0` turns a -0 into 0, which is what it means here.
        let from_ms = number("FROM", from)? + 0.0;
        let to_ms = number("TO", to)? + 0.0;
        if from_ms > to_ms {
            return Err(format!(
                "\"{shown}\": the range is reversed (FROM {} ms is above TO {} ms)",
                timestep_lab_core::text::number(from_ms),
                timestep_lab_core::text::number(to_ms)
            ));
        }
        if from_ms == to_ms {
            return Err(format!(
                "\"{shown}\": the range is empty (FROM and TO are both {} ms); give two \
                 different loads",
                timestep_lab_core::text::number(from_ms)
            ));
        }
        let levels = match levels {
            None => DEFAULT_LEVELS,
            Some(text) => {
                let text = text.trim();
                match text.parse::<u32>() {
                    Ok(levels) if (2..=MAX_LEVELS).contains(&levels) => levels,
                    _ => {
                        return Err(format!(
                            "\"{shown}\": LEVELS \"{}\" is out of range (allowed a whole \
                             number from 2 to {MAX_LEVELS}: the range's two ends and the \
                             levels between)",
                            escape(text)
                        ));
                    }
                }
            }
        };
        let spacing_ns = (to_ms - from_ms) * 1e6 / f64::from(levels - 1);
        if spacing_ns < 1.0 {
            return Err(format!(
                "\"{shown}\": {levels} levels from {} to {} ms would be less than a \
                 nanosecond apart, finer than the clock; take fewer levels or a wider range",
                timestep_lab_core::text::number(from_ms),
                timestep_lab_core::text::number(to_ms)
            ));
        }
        Ok(Self {
            kind,
            from_ms,
            to_ms,
            levels,
        })
    }

    /// The load at level `index` (0 is `FROM`, `levels - 1` is `TO`), ms, to the whole
    /// nanosecond the load model runs it at.
    pub fn level(&self, index: u32) -> f64 {
        if index + 1 >= self.levels {
            return self.to_ms;
        }
        let share = f64::from(index) / f64::from(self.levels - 1);
        let ms = self.from_ms + (self.to_ms - self.from_ms) * share;
        (ms * 1e6).round() / 1e6
    }

    /// The distance between two levels, ms.
    pub fn spacing(&self) -> f64 {
        (self.to_ms - self.from_ms) / f64::from(self.levels - 1)
    }
}

impl std::fmt::Display for LoadSweep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}..{}:{}",
            self.kind.id(),
            self.from_ms,
            self.to_ms,
            self.levels
        )
    }
}

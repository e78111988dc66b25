//! The lab's timestep strategies and the engines' own loops, with their stable ids.

use super::EnginePreset;

/// How real frame time becomes simulation steps, and which state is drawn: one of the
/// lab's loops, or an engine's own loop ([`EnginePreset`]) with its own step and guards.
///
/// The ids (`fixed`, `variable`, …, `godot`, `bevy`, …) are stable: they appear on the
/// command line, in `bench` output and in recorded settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// One step of `dt` per render frame, whatever time passed.
    Fixed,
    /// One step of the measured frame time.
    Variable,
    /// Steps of `min(remaining, dt)` until the frame time is used up.
    SemiFixed,
    /// Whole `dt` steps from an accumulator; the remainder is carried.
    Accumulator,
    /// As `Accumulator`, drawing `lerp(previous, current, alpha)`.
    Interpolated,
    /// As `Accumulator`, drawing the current state advanced by a throw-away step of `acc`.
    Extrapolated,
    /// As `Accumulator`, drawing the current state moved along its velocity for `acc`:
    /// `S_N + alpha·dt·v_N` (Unity's Extrapolate, bevy_transform_interpolation's
    /// extrapolation).
    VelocityExtrapolated,
    /// As `Interpolated`, but a cubic Hermite curve through the previous and current
    /// states with their velocities instead of a straight line.
    Hermite,
    /// Each frame split into `n = ceil(frame / dt)` equal steps, none longer than `dt`
    /// (Unreal's substepping). Nothing is carried but the nanoseconds that do not divide.
    EqualSubsteps,
    /// An engine's own loop, with its own step, guards and drawing.
    Preset(EnginePreset),
}

impl Strategy {
    /// The six loops of the textbook table: the comparison the lab opens with.
    pub const CLASSIC: [Strategy; 6] = [
        Strategy::Fixed,
        Strategy::Variable,
        Strategy::SemiFixed,
        Strategy::Accumulator,
        Strategy::Interpolated,
        Strategy::Extrapolated,
    ];

    /// Every lab strategy, in the order the lab presents them: the classic six, then the
    /// smoothing variants engines use.
    pub const ALL: [Strategy; 9] = [
        Strategy::Fixed,
        Strategy::Variable,
        Strategy::SemiFixed,
        Strategy::Accumulator,
        Strategy::Interpolated,
        Strategy::Extrapolated,
        Strategy::VelocityExtrapolated,
        Strategy::Hermite,
        Strategy::EqualSubsteps,
    ];

    /// Everything a pane can run: every lab strategy, then every engine preset.
    pub const CHOICES: [Strategy; Self::ALL.len() + EnginePreset::ALL.len()] = {
        let mut choices = [Strategy::Fixed; Self::ALL.len() + EnginePreset::ALL.len()];
        let mut i = 0;
        while i < Self::ALL.len() {
            choices[i] = Self::ALL[i];
            i += 1;
        }
        let mut j = 0;
        while j < EnginePreset::ALL.len() {
            choices[i + j] = Strategy::Preset(EnginePreset::ALL[j]);
            j += 1;
        }
        choices
    };

    /// The stable id used on the command line and in reports.
    pub fn id(self) -> &'static str {
        match self {
            Strategy::Fixed => "fixed",
            Strategy::Variable => "variable",
            Strategy::SemiFixed => "semi-fixed",
            Strategy::Accumulator => "accumulator",
            Strategy::Interpolated => "interpolated",
            Strategy::Extrapolated => "extrapolated",
            Strategy::VelocityExtrapolated => "velocity-extrapolated",
            Strategy::Hermite => "hermite",
            Strategy::EqualSubsteps => "equal-substeps",
            Strategy::Preset(preset) => preset.id(),
        }
    }

    /// A short human name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Fixed => "fixed dt",
            Strategy::Variable => "variable dt",
            Strategy::SemiFixed => "semi-fixed",
            Strategy::Accumulator => "fixed step, accumulator",
            Strategy::Interpolated => "accumulator + interpolation",
            Strategy::Extrapolated => "accumulator + render tick",
            Strategy::VelocityExtrapolated => "velocity extrapolation",
            Strategy::Hermite => "accumulator + Hermite interpolation",
            Strategy::EqualSubsteps => "equal substeps, no carry",
            Strategy::Preset(preset) => preset.name(),
        }
    }

    /// The strategy's known weakness, in one line.
    pub fn known_problem(self) -> &'static str {
        match self {
            Strategy::Fixed => "simulation speed follows the frame rate",
            Strategy::Variable => {
                "behaviour depends on frame rate; big frames make stiff springs explode"
            }
            Strategy::SemiFixed => "step sizes vary, so it is not deterministic; can spiral",
            Strategy::Accumulator => "shown state lags real time by a varying 0..dt: stutter",
            Strategy::Interpolated => "always one dt behind real time (latency)",
            Strategy::Extrapolated => "the prediction overshoots at a kick",
            Strategy::VelocityExtrapolated => {
                "a straight-line guess: overshoots where the motion curves or is kicked"
            }
            Strategy::Hermite => "one dt behind like interpolation; needs velocities",
            Strategy::EqualSubsteps => "step sizes follow the frame, so not deterministic",
            Strategy::Preset(preset) => preset.known_problem(),
        }
    }

    /// Whether the strategy keeps real time it has not simulated yet for later frames.
    pub fn carries_accumulator(self) -> bool {
        match self {
            Strategy::Accumulator
            | Strategy::Interpolated
            | Strategy::Extrapolated
            | Strategy::VelocityExtrapolated
            | Strategy::Hermite => true,
            Strategy::Fixed
            | Strategy::Variable
            | Strategy::SemiFixed
            | Strategy::EqualSubsteps => false,
            Strategy::Preset(preset) => preset.carries_accumulator(),
        }
    }

    /// The engine preset, if this is one.
    pub fn preset(self) -> Option<EnginePreset> {
        match self {
            Strategy::Preset(preset) => Some(preset),
            _ => None,
        }
    }

    /// Parses a comma-separated list of ids (strategies or engine presets), or `all` (every
    /// lab strategy, [`Self::ALL`]).
    pub fn parse_list(list: &str) -> Result<Vec<Strategy>, UnknownStrategy> {
        if list.trim() == "all" {
            return Ok(Strategy::ALL.to_vec());
        }
        let mut strategies = Vec::new();
        for id in list.split(',') {
            let strategy: Strategy = id.trim().parse()?;
            if !strategies.contains(&strategy) {
                strategies.push(strategy);
            }
        }
        Ok(strategies)
    }
}

crate::id::stable_ids!(Strategy, UnknownStrategy, "strategy", Strategy::CHOICES);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for strategy in Strategy::CHOICES {
            assert_eq!(strategy.id().parse::<Strategy>(), Ok(strategy));
            assert_eq!(strategy.to_string(), strategy.id());
        }
        let mut ids: Vec<&str> = Strategy::CHOICES.iter().map(|s| s.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Strategy::CHOICES.len(), "every id is unique");
    }

    #[test]
    fn list_parses_all_and_commas_and_rejects_unknown_ids() {
        assert_eq!(Strategy::parse_list("all").unwrap(), Strategy::ALL.to_vec());
        assert_eq!(
            Strategy::parse_list("fixed, interpolated,fixed").unwrap(),
            vec![Strategy::Fixed, Strategy::Interpolated]
        );
        assert_eq!(
            Strategy::parse_list("hermite,godot").unwrap(),
            vec![Strategy::Hermite, Strategy::Preset(EnginePreset::Godot)]
        );
        let error = Strategy::parse_list("fixed,smooth").unwrap_err();
        assert_eq!(error, UnknownStrategy("smooth".into()));
        assert!(error.to_string().contains("semi-fixed"));
        assert!(error.to_string().contains("matterjs-0.19"));
    }
}

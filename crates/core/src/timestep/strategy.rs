//! The lab's timestep strategies and the engines' own loops, with their stable ids, and the
//! table every fact about them comes from.

use super::preset::{bevy, fiedler, glaiel, godot, matterjs, unity, unreal};
use super::{EnginePreset, Nanos, StepLimits, StepRule, TimestepConfig, View, ViewKind};

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
    /// As `Interpolated`, but drawing the state at the frame's predicted display time less
    /// a steady latency instead of at `T` (see [`super::Pacing`]).
    DisplayTime,
    /// An engine's own loop, with its own step, guards and drawing.
    Preset(EnginePreset),
}

/// How a strategy carries time from one frame to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// One step a frame; nothing carried (`fixed`, `variable`; Unreal's default loop,
    /// Matter.js 0.19).
    OneStep,
    /// The frame cut into several steps; nothing carried but the nanoseconds that do not
    /// divide (`semi-fixed`, `equal-substeps`; Unreal's substepping).
    Substeps,
    /// Whole steps from an accumulator that carries the rest to the next frame (the
    /// accumulator family, and the other engines' loops).
    Accumulator,
}

/// Everything the lab says about one strategy: one row of the strategy table.
#[derive(Clone, Copy, Debug)]
pub struct StrategyFacts {
    /// The strategy.
    pub strategy: Strategy,
    /// The stable id used on the command line and in reports.
    pub id: &'static str,
    /// A short human name.
    pub name: &'static str,
    /// The number key that picks it in the window; `None` for an engine preset, which the
    /// panel's list picks.
    pub key: Option<char>,
    /// How it carries time between frames.
    pub family: Family,
    /// Its known weakness, in one line.
    pub known_problem: &'static str,
    /// Its stepping rule, given the lab's configured step and guards (an engine preset
    /// ignores them: it keeps its own).
    pub rule: fn(StepLimits) -> StepRule,
    /// What it draws.
    pub view: ViewKind,
    /// Where an engine preset's rule comes from: `source` (read in the engine's code),
    /// `documented` (vendor documentation) or, for parts of closed engines, `model` (the
    /// lab's reading); `None` for the lab's own strategies.
    pub provenance: Option<&'static str>,
}

/// The strategy table, in the order of [`Strategy::CHOICES`]: the lab's strategies, then the
/// engine presets.
static STRATEGIES: [StrategyFacts; Strategy::CHOICES.len()] = [
    StrategyFacts {
        strategy: Strategy::Fixed,
        id: "fixed",
        name: "fixed dt",
        key: Some('1'),
        family: Family::OneStep,
        known_problem: "simulation speed follows the frame rate",
        rule: StepRule::Fixed,
        view: View::Latest,
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::Variable,
        id: "variable",
        name: "variable dt",
        key: Some('2'),
        family: Family::OneStep,
        known_problem: "behaviour depends on frame rate; big frames make stiff springs explode",
        rule: StepRule::Variable,
        view: View::Latest,
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::SemiFixed,
        id: "semi-fixed",
        name: "semi-fixed",
        key: Some('3'),
        family: Family::Substeps,
        known_problem: "step sizes vary, so it is not deterministic; can spiral",
        rule: StepRule::SemiFixed,
        view: View::Latest,
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::Accumulator,
        id: "accumulator",
        name: "fixed step, accumulator",
        key: Some('4'),
        family: Family::Accumulator,
        known_problem: "shown state lags real time by a varying 0..dt: stutter",
        rule: StepRule::accumulator,
        view: View::Latest,
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::Interpolated,
        id: "interpolated",
        name: "accumulator + interpolation",
        key: Some('5'),
        family: Family::Accumulator,
        known_problem: "always one dt behind real time (latency)",
        rule: StepRule::accumulator,
        view: View::Blend(()),
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::Extrapolated,
        id: "extrapolated",
        name: "accumulator + render tick",
        key: Some('6'),
        family: Family::Accumulator,
        known_problem: "the prediction overshoots at a kick",
        rule: StepRule::accumulator,
        view: View::Extrapolate(()),
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::VelocityExtrapolated,
        id: "velocity-extrapolated",
        name: "velocity extrapolation",
        key: Some('7'),
        family: Family::Accumulator,
        known_problem: "a straight-line guess: overshoots where the motion curves or is kicked",
        rule: StepRule::accumulator,
        view: View::Velocity(()),
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::Hermite,
        id: "hermite",
        name: "accumulator + Hermite interpolation",
        key: Some('8'),
        family: Family::Accumulator,
        known_problem: "one dt behind like interpolation; needs velocities",
        rule: StepRule::accumulator,
        view: View::Hermite(()),
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::EqualSubsteps,
        id: "equal-substeps",
        name: "equal substeps, no carry",
        key: Some('9'),
        family: Family::Substeps,
        known_problem: "step sizes follow the frame, so not deterministic",
        rule: StepRule::EqualSubsteps,
        view: View::Latest,
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::DisplayTime,
        id: "display-time",
        name: "interpolated at display time",
        key: Some('0'),
        family: Family::Accumulator,
        known_problem: "a wrong forecast of the display time shows as a jump; needs a display",
        rule: StepRule::accumulator,
        view: View::AtDisplay,
        provenance: None,
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::Godot),
        id: "godot",
        name: "Godot 4 (jitter fix 0.5)",
        key: None,
        family: Family::Accumulator,
        known_problem: "hysteresis evens out steps but the last tick is drawn: stutter off 60 Hz",
        rule: |_| godot::rule(godot::PHYSICS_JITTER_FIX),
        view: View::Latest,
        provenance: Some(SOURCE),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::GodotInterpolated),
        id: "godot-interpolated",
        name: "Godot 4, physics interpolation",
        key: None,
        family: Family::Accumulator,
        known_problem: "one tick behind; tick counts per frame vary",
        // Turning physics interpolation on sets the jitter fix to 0 (SceneTree).
        rule: |_| godot::rule(0.0),
        view: View::Blend(()),
        provenance: Some(SOURCE),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::Bevy),
        id: "bevy",
        name: "Bevy fixed timestep",
        key: None,
        family: Family::Accumulator,
        known_problem: "the last fixed step is drawn: 64 Hz on 60 Hz stutters",
        rule: |_| bevy::RULE,
        view: View::Latest,
        provenance: Some(SOURCE),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::BevyInterpolated),
        id: "bevy-interpolated",
        name: "Bevy, interpolated by overstep",
        key: None,
        family: Family::Accumulator,
        known_problem: "one 15.625 ms step behind real time",
        rule: |_| bevy::RULE,
        view: View::Blend(()),
        provenance: Some(SOURCE),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::Unity),
        id: "unity",
        name: "Unity FixedUpdate",
        key: None,
        family: Family::Accumulator,
        known_problem: "the last physics pose is drawn: 50 Hz on 60 Hz stutters",
        rule: |_| unity::RULE,
        view: View::Latest,
        provenance: Some(UNITY),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::UnityInterpolate),
        id: "unity-interpolate",
        name: "Unity, Rigidbody Interpolate",
        key: None,
        family: Family::Accumulator,
        known_problem: "one fixedDeltaTime (20 ms) behind",
        rule: |_| unity::RULE,
        view: View::Blend(()),
        provenance: Some(UNITY),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::UnityExtrapolate),
        id: "unity-extrapolate",
        name: "Unity, Rigidbody Extrapolate",
        key: None,
        family: Family::Accumulator,
        known_problem: "overshoots where the motion curves or is hit",
        rule: |_| unity::RULE,
        view: View::Velocity(()),
        provenance: Some(UNITY),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::UnrealSubstep),
        id: "unreal-substep",
        name: "Unreal, physics substepping",
        key: None,
        family: Family::Substeps,
        known_problem: "frame-sized substeps: not deterministic",
        rule: |_| unreal::substepping_rule(),
        view: View::Latest,
        provenance: Some(UNREAL),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::Unreal),
        id: "unreal",
        name: "Unreal, one step per frame",
        key: None,
        family: Family::OneStep,
        known_problem: "one variable step: physics follows the frame rate",
        rule: |_| unreal::single_step_rule(),
        view: View::Latest,
        provenance: Some(UNREAL),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::UnrealAsync),
        id: "unreal-async",
        name: "Unreal, async physics",
        key: None,
        family: Family::Accumulator,
        known_problem: "two async steps (66.7 ms) behind",
        rule: |_| unreal::async_rule(),
        view: View::BlendOlder(()),
        provenance: Some(UNREAL),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::Fiedler),
        id: "fiedler",
        name: "Fix Your Timestep! (Fiedler)",
        key: None,
        family: Family::Accumulator,
        known_problem: "one 10 ms step behind real time",
        rule: |_| fiedler::RULE,
        view: View::Blend(()),
        provenance: Some("published code"),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::Glaiel),
        id: "glaiel",
        name: "Glaiel's frame timer",
        key: None,
        family: Family::Accumulator,
        known_problem: "snapping and averaging invent or lose time",
        rule: |_| glaiel::rule(),
        view: View::Blend(()),
        provenance: Some(SOURCE),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::Matterjs),
        id: "matterjs",
        name: "Matter.js 0.20 Runner",
        key: None,
        family: Family::Accumulator,
        known_problem: "no interpolation, drawn a frame late; 2 updates a frame at most",
        rule: |_| matterjs::rule_0_20(),
        view: View::FrameStart,
        provenance: Some(SOURCE),
    },
    StrategyFacts {
        strategy: Strategy::Preset(EnginePreset::Matterjs019),
        id: "matterjs-0.19",
        name: "Matter.js 0.19 Runner",
        key: None,
        family: Family::OneStep,
        known_problem: "simulation speed follows the display above 60 Hz (clamped up to 16.7 ms)",
        rule: |_| matterjs::rule_0_19(),
        view: View::FrameStart,
        provenance: Some(SOURCE),
    },
];

/// Provenance of a rule read in the engine's own code.
const SOURCE: &str = "source";
/// Provenance of the Unity presets.
const UNITY: &str = "documented limits, lab's model of the loop";
/// Provenance of the Unreal presets.
const UNREAL: &str = "documented substepping, third-party copies of the code, lab's model";

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
    /// smoothing variants engines use, then drawing at the display time.
    pub const ALL: [Strategy; 10] = [
        Strategy::Fixed,
        Strategy::Variable,
        Strategy::SemiFixed,
        Strategy::Accumulator,
        Strategy::Interpolated,
        Strategy::Extrapolated,
        Strategy::VelocityExtrapolated,
        Strategy::Hermite,
        Strategy::EqualSubsteps,
        Strategy::DisplayTime,
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

    /// The strategy's row of the strategy table.
    pub fn facts(self) -> &'static StrategyFacts {
        &STRATEGIES[self.index()]
    }

    /// The position of the strategy in [`Self::CHOICES`] and in the table.
    fn index(self) -> usize {
        match self {
            Strategy::Fixed => 0,
            Strategy::Variable => 1,
            Strategy::SemiFixed => 2,
            Strategy::Accumulator => 3,
            Strategy::Interpolated => 4,
            Strategy::Extrapolated => 5,
            Strategy::VelocityExtrapolated => 6,
            Strategy::Hermite => 7,
            Strategy::EqualSubsteps => 8,
            Strategy::DisplayTime => 9,
            Strategy::Preset(preset) => Self::ALL.len() + preset as usize,
        }
    }

    /// The stable id used on the command line and in reports.
    pub fn id(self) -> &'static str {
        self.facts().id
    }

    /// A short human name.
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// The number key that picks the strategy in the window, if one does.
    pub fn key(self) -> Option<char> {
        self.facts().key
    }

    /// The strategy's known weakness, in one line.
    pub fn known_problem(self) -> &'static str {
        self.facts().known_problem
    }

    /// How the strategy carries time between frames.
    pub fn family(self) -> Family {
        self.facts().family
    }

    /// Whether the strategy keeps real time it has not simulated yet for later frames.
    pub fn carries_accumulator(self) -> bool {
        self.family() == Family::Accumulator
    }

    /// What the strategy draws.
    pub fn view(self) -> ViewKind {
        self.facts().view
    }

    /// The strategy's stepping rule from its start, under the lab's `config` (an engine
    /// preset keeps its own step and guards).
    pub fn step_rule(self, config: &TimestepConfig) -> StepRule {
        (self.facts().rule)(StepLimits::configured(config))
    }

    /// Whether this strategy takes the same steps as `other` under the lab's `config`,
    /// frame for frame, and so differs from it only in what it draws: both the lab's or
    /// both engine presets (a preset keeps its ledger its own way), with rules that step
    /// alike ([`StepRule::steps_as`]): the accumulator family, for one, or Bevy's two loops.
    pub fn steps_as(self, other: Strategy, config: &TimestepConfig) -> bool {
        self.preset().is_some() == other.preset().is_some()
            && self.step_rule(config).steps_as(&other.step_rule(config))
    }

    /// The step the strategy takes under the lab's `config`: the configured `dt`, or an
    /// engine preset's own (for a variable step, the largest it takes).
    pub fn dt(self, config: &TimestepConfig) -> Nanos {
        self.step_rule(config).dt()
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
    fn every_strategy_reads_its_own_row() {
        for (row, strategy) in STRATEGIES.iter().zip(Strategy::CHOICES) {
            assert_eq!(row.strategy, strategy);
            assert_eq!(strategy.facts().strategy, strategy);
        }
    }

    #[test]
    fn the_lab_strategies_have_keys_1_to_9_then_0_and_no_preset_has_one() {
        for (i, strategy) in Strategy::ALL.into_iter().enumerate() {
            let key = char::from_digit((i as u32 + 1) % 10, 10);
            assert_eq!(strategy.key(), key, "{strategy}");
        }
        assert!(EnginePreset::ALL.iter().all(|p| p.facts().key.is_none()));
        assert!(
            EnginePreset::ALL
                .iter()
                .all(|p| p.facts().provenance.is_some())
        );
        assert!(Strategy::ALL.iter().all(|s| s.facts().provenance.is_none()));
    }

    #[test]
    fn a_family_says_whether_the_rule_carries_an_accumulator() {
        // Under the defaults, a large frame leaves a carrying rule with a fraction of a step
        // and the others with nothing (or nanoseconds that do not divide).
        let config = TimestepConfig::default();
        for strategy in Strategy::CHOICES {
            let mut rule = strategy.step_rule(&config);
            if matches!(rule, StepRule::EngineLoop(_)) {
                continue; // Its first frames are its own (a resync, a smoother warming up).
            }
            let dt = rule.dt();
            let stepped = rule.step(0, 10 * dt + dt / 2);
            let carries = stepped.carried >= dt / 4;
            assert_eq!(carries, strategy.carries_accumulator(), "{strategy}");
        }
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

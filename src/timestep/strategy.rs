//! The six timestep strategies and their stable ids.

/// How real frame time becomes simulation steps, and which state is drawn.
///
/// The ids (`fixed`, `variable`, …) are stable: they appear on the command line, in
/// `bench` output and in recorded settings.
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
}

impl Strategy {
    /// Every strategy, in the order the lab presents them.
    pub const ALL: [Strategy; 6] = [
        Strategy::Fixed,
        Strategy::Variable,
        Strategy::SemiFixed,
        Strategy::Accumulator,
        Strategy::Interpolated,
        Strategy::Extrapolated,
    ];

    /// The stable id used on the command line and in reports.
    pub fn id(self) -> &'static str {
        match self {
            Strategy::Fixed => "fixed",
            Strategy::Variable => "variable",
            Strategy::SemiFixed => "semi-fixed",
            Strategy::Accumulator => "accumulator",
            Strategy::Interpolated => "interpolated",
            Strategy::Extrapolated => "extrapolated",
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
        }
    }

    /// Whether the strategy keeps real time it has not simulated yet for later frames.
    pub fn carries_accumulator(self) -> bool {
        matches!(
            self,
            Strategy::Accumulator | Strategy::Interpolated | Strategy::Extrapolated
        )
    }

    /// Parses a comma-separated list of ids, or `all`.
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

crate::id::stable_ids!(Strategy, UnknownStrategy, "strategy");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for strategy in Strategy::ALL {
            assert_eq!(strategy.id().parse::<Strategy>(), Ok(strategy));
            assert_eq!(strategy.to_string(), strategy.id());
        }
    }

    #[test]
    fn list_parses_all_and_commas_and_rejects_unknown_ids() {
        assert_eq!(Strategy::parse_list("all").unwrap(), Strategy::ALL.to_vec());
        assert_eq!(
            Strategy::parse_list("fixed, interpolated,fixed").unwrap(),
            vec![Strategy::Fixed, Strategy::Interpolated]
        );
        let error = Strategy::parse_list("fixed,smooth").unwrap_err();
        assert_eq!(error, UnknownStrategy("smooth".into()));
        assert!(error.to_string().contains("semi-fixed"));
    }
}

//! `timestep-lab sweep`: the spiral of death stress-tested. One load of the bench's model
//! (the cost of a step or a frame, jitter, a hitch's length) is ramped over a range in evenly
//! spaced levels; at each level every strategy runs the bench's closed loop over the same
//! trace, and the sweep records how it held up: simulation speed, steps a frame, latency,
//! judder, dropped time, whether it spiralled.
//!
//! Definitions, the same in `docs/sweep.md`:
//! - a run has **broken** when the speed it kept (simulated time plus what it carries into
//!   a next frame, over real time: [`BenchResult::kept_speed`]) is below
//!   [`crate::run::ONSET_SPEED`] (0.99) or it spiralled (the bench's detector, or a frozen run) — [`crate::run::broken`];
//! - a strategy's **onset** is the lowest level at which it has broken;
//! - its **breaking point** is the lowest level at which it spiralled: a guarded loop
//!   slows down instead and may never reach one;
//! - beside each, the onset the closed-loop model ([`LoopModel`]) predicts, and whether
//!   the two are more than one level apart.
//!
//! Levels and strategies are independent runs: they run side by side on every core, and
//! the results are the same, to the bit, as one after the other. What a sweep keeps is a
//! few numbers per level and strategy; each run's own memory is the bench's (bounded
//! whatever the trace's length).

mod model;
mod plot;
mod report;
mod request;
mod spec;
#[cfg(test)]
mod tests;

pub use model::{LoopModel, Prediction};
pub use plot::{SweepChartAreas, SweepPlot};
pub use report::{LevelJson, StrategySweepJson, SweepReport};
pub use request::SweepRequest;
pub use spec::{DEFAULT_LEVELS, LoadKind, LoadSweep, MAX_LEVELS};

use crate::bench::{BenchResult, BenchSettings, SharedProgress, run_strategy_on};
use crate::run::broken;
use crate::timestep::{Nanos, Strategy};
use crate::trace::{DisplayTimes, FrameSource};

/// One strategy at one level of the load.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// The load, ms.
    pub load_ms: f64,
    /// What the bench measured.
    pub result: BenchResult,
    /// What the closed-loop model predicts; `None` for an engine's own loop.
    pub predicted: Option<Prediction>,
}

impl Level {
    /// Whether the run broke: too slow, or a spiral (see the module doc).
    pub fn broken(&self) -> bool {
        broken(self.result.kept_speed(), self.result.spiral)
    }

    /// Whether the model says it breaks; `None` without a model.
    pub fn predicted_broken(&self) -> Option<bool> {
        self.predicted
            .map(|prediction| broken(prediction.sim_speed, prediction.spiral))
    }
}

/// What a sweep keeps of one strategy as its levels go by: where it broke, where the model
/// says it breaks, and its last level. Its size does not depend on the number of levels.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategySweep {
    /// The strategy.
    pub strategy: Strategy,
    /// Whether the closed-loop model covers its rule.
    pub model: bool,
    /// The lowest level at which it broke.
    pub onset: Option<usize>,
    /// The lowest level at which it spiralled.
    pub breaking_point: Option<usize>,
    /// The lowest level at which the model says it breaks (`None` without a model, or
    /// when the model says it holds over the range).
    pub predicted_onset: Option<usize>,
    /// Levels seen.
    pub levels: usize,
    /// The last level seen (the top of the range once the sweep is over).
    pub top: Option<Level>,
}

impl StrategySweep {
    /// Before any level.
    fn new(strategy: Strategy, model: bool) -> Self {
        Self {
            strategy,
            model,
            onset: None,
            breaking_point: None,
            predicted_onset: None,
            levels: 0,
            top: None,
        }
    }

    /// Takes the next level.
    fn record(&mut self, level: &Level) {
        let index = self.levels;
        if self.onset.is_none() && level.broken() {
            self.onset = Some(index);
        }
        if self.breaking_point.is_none() && level.result.spiral {
            self.breaking_point = Some(index);
        }
        if self.predicted_onset.is_none() && level.predicted_broken() == Some(true) {
            self.predicted_onset = Some(index);
        }
        self.levels += 1;
        self.top = Some(*level);
    }

    /// Whether the measured and predicted onsets are more than one level apart (an onset
    /// beyond the range counts as the level after the last). `false` without a model.
    pub fn disagrees(&self) -> bool {
        if !self.model {
            return false;
        }
        let beyond = self.levels;
        let measured = self.onset.unwrap_or(beyond);
        measured.abs_diff(self.predicted_onset.unwrap_or(beyond)) > 1
    }
}

/// Runs taken side by side before their levels are handed on, in order: enough to keep
/// every core busy while runs of very different lengths finish, few enough that what is
/// held does not grow with the sweep.
const CHUNK: usize = 256;

/// Runs `strategies` over the trace at every level of `load` (on every core), with the
/// rest of the model from `settings`; `display_times` as for [`run_strategy_on`]. Each
/// run reports its frames to `progress`. Every level is handed to `on_level` (the
/// strategy's index, the level's index, the level) in order, strategy by strategy from the
/// lowest load, and then let go: what the sweep holds does not grow with the number of
/// levels. Returns what it kept of each strategy.
pub fn sweep(
    frame_times: &(impl FrameSource + Sync + ?Sized),
    display_times: Option<DisplayTimes<'_>>,
    strategies: &[Strategy],
    settings: &BenchSettings,
    load: &LoadSweep,
    progress: &SharedProgress,
    mut on_level: impl FnMut(usize, usize, &Level),
) -> Vec<StrategySweep> {
    use rayon::prelude::*;
    let levels = load.levels as usize;
    let frames = frame_times.frame_count();
    let mean_frame = mean_frame(frame_times);
    let models: Vec<Option<LoopModel>> = strategies
        .iter()
        .map(|&strategy| LoopModel::of(strategy, &settings.timestep))
        .collect();
    let trace_losses: Vec<f64> = models
        .iter()
        .map(|model| model.map_or(0.0, |model| model.trace_loss(frame_times.frame_times())))
        .collect();
    let mut sweeps: Vec<StrategySweep> = strategies
        .iter()
        .zip(&models)
        .map(|(&strategy, model)| StrategySweep::new(strategy, model.is_some()))
        .collect();
    let jobs = strategies.len() * levels;
    for first in (0..jobs).step_by(CHUNK) {
        let runs: Vec<Level> = (first..(first + CHUNK).min(jobs))
            .into_par_iter()
            .map(|job| {
                let (which, level) = (job / levels, job % levels);
                let load_ms = load.level(level as u32);
                let settings = BenchSettings {
                    load: load.kind.set(settings.load, load_ms),
                    ..*settings
                };
                let mut share = progress.share(frames);
                let result = run_strategy_on(
                    frame_times,
                    display_times,
                    strategies[which],
                    &settings,
                    &mut share,
                );
                Level {
                    load_ms,
                    result,
                    predicted: models[which].map(|model| {
                        model.predict(mean_frame, &settings.load, trace_losses[which])
                    }),
                }
            })
            .collect();
        for (job, level) in (first..).zip(&runs) {
            let (which, index) = (job / levels, job % levels);
            sweeps[which].record(level);
            on_level(which, index, level);
        }
    }
    sweeps
}

/// The trace's mean frame time, ns (0 for no frames).
fn mean_frame(frame_times: &(impl FrameSource + ?Sized)) -> Nanos {
    let count = frame_times.frame_count();
    if count == 0 {
        return 0;
    }
    let total: u128 = frame_times.frame_times().map(u128::from).sum();
    Nanos::try_from(total / u128::from(count)).unwrap_or(Nanos::MAX)
}

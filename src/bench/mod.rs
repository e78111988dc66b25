//! `timestep-lab bench`: every strategy over the same frame-time trace, with a closed-loop
//! load model, reported as a table or JSON.
//!
//! The load model makes the frame time depend on the loop's own work, as in a real game:
//! `frame_i = trace_i + render_cost + steps_{i-1} * step_cost`. A step cost above `dt`
//! therefore reproduces the spiral of death deterministically, and the guards stop it.

mod report;

pub use report::{BenchReport, ResultJson, SettingsJson, TraceJson};

use crate::metrics::Metrics;
use crate::run::{PaneRun, freezes};
use crate::scene::SceneConfig;
use crate::timestep::{Nanos, RangeError, Strategy, TimestepConfig, ms_from_ns};

/// Largest per-step or per-frame cost accepted, ms.
pub const MAX_COST_MS: f64 = 1000.0;

/// What a bench run simulates, besides the trace and the strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchSettings {
    /// Step size and guards.
    pub timestep: TimestepConfig,
    /// The scene.
    pub scene: SceneConfig,
    /// Real time one physics step costs (load model).
    pub step_cost: Nanos,
    /// Real time one render frame costs on top of the trace (load model).
    pub render_cost: Nanos,
}

impl Default for BenchSettings {
    fn default() -> Self {
        Self {
            timestep: TimestepConfig::default(),
            scene: SceneConfig::new(),
            step_cost: 0,
            render_cost: 0,
        }
    }
}

impl BenchSettings {
    /// Sets the load model's costs in milliseconds, 0 to 1000 each.
    pub fn with_costs_ms(
        mut self,
        step_cost_ms: f64,
        render_cost_ms: f64,
    ) -> Result<Self, RangeError> {
        for (name, ms) in [("step cost", step_cost_ms), ("render cost", render_cost_ms)] {
            if !(0.0..=MAX_COST_MS).contains(&ms) {
                return Err(RangeError {
                    name,
                    value: format!("{ms} ms"),
                    allowed: format!("0 to {MAX_COST_MS} ms"),
                });
            }
        }
        self.step_cost = crate::timestep::ns_from_ms(step_cost_ms);
        self.render_cost = crate::timestep::ns_from_ms(render_cost_ms);
        Ok(self)
    }
}

/// One strategy's run over a trace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchResult {
    /// The strategy.
    pub strategy: Strategy,
    /// Smoothness and accuracy.
    pub metrics: Metrics,
    /// Real time the run took: the trace's frames plus the load, dropped time included.
    pub wall_time: Nanos,
    /// Time dropped by the guards.
    pub dropped: Nanos,
    /// Whether the loop was still falling behind at the end (or froze).
    pub spiral: bool,
    /// Whether the run stopped before the end of the trace because the loop froze.
    pub frozen: bool,
}

impl BenchResult {
    /// Simulated time over real time.
    pub fn sim_speed(&self) -> f64 {
        if self.wall_time == 0 {
            0.0
        } else {
            self.metrics.sim_time_s * 1e9 / self.wall_time as f64
        }
    }
}

/// Runs one strategy over a trace's frame times under the closed-loop load model.
pub fn run_strategy(
    frame_times: &[Nanos],
    strategy: Strategy,
    settings: &BenchSettings,
) -> BenchResult {
    let mut run = PaneRun::new(strategy, settings.timestep, settings.scene);
    let step_work = |steps: u64| steps.saturating_mul(settings.step_cost);
    let mut previous_steps = 0u64;
    let mut wall_time = 0u64;
    let mut frozen = false;
    for &trace_frame in frame_times {
        let load = step_work(previous_steps);
        if freezes(load) {
            frozen = true;
            break;
        }
        let frame = trace_frame
            .saturating_add(settings.render_cost)
            .saturating_add(load);
        let (report, _) = run.frame(frame, step_work);
        previous_steps = report.steps.len();
        wall_time = wall_time.saturating_add(frame);
    }
    BenchResult {
        strategy,
        metrics: run.metrics(),
        wall_time,
        dropped: run.sim().engine().dropped(),
        spiral: frozen || run.spiralling(),
        frozen,
    }
}

/// Runs each strategy over the trace.
pub fn run(
    frame_times: &[Nanos],
    strategies: &[Strategy],
    settings: &BenchSettings,
) -> Vec<BenchResult> {
    strategies
        .iter()
        .map(|&strategy| run_strategy(frame_times, strategy, settings))
        .collect()
}

/// Milliseconds of a cost, for reports.
fn cost_ms(ns: Nanos) -> f64 {
    ms_from_ns(ns)
}

#[cfg(test)]
mod tests;

//! `timestep-lab bench`: every strategy over the same frame-time trace, with a closed-loop
//! load model, reported as a table or JSON.
//!
//! The load model makes the frame time depend on the loop's own work, as in a real game:
//! `frame_i = trace_i + render_cost + steps_{i-1} * step_cost (+ jitter_i + hitch_i)`. A
//! step cost above `dt` therefore reproduces the spiral of death deterministically, and the
//! guards stop it. The costs are the window's artificial load, computed by the same
//! [`LoadModel`](crate::live::LoadModel): jitter is half-normal with a fixed seed, a hitch
//! lands on the first frame starting at or after each period of the run's own (loaded)
//! time.
//!
//! A display model ([`DisplaySpec`]) closes the loop the same way: frame `i - 1` is
//! presented at the end of that work, `C_{i-1} + trace_i + render_cost + steps_{i-1} *
//! step_cost`, and when a FIFO queue is full the present blocks, so frame `i` starts (and
//! measures its frame time) later. The last frame's present lies past the end of the
//! trace: it is never presented. Frame times then pass through the filters
//! ([`FilterSpec`]) to the strategy.
//!
//! Besides the table and JSON of the totals, a run can be watched frame by frame
//! ([`FrameObserver`]): [`FrameCsv`] streams one row per frame (`--csv`), [`PlotRecorder`]
//! keeps a bounded sketch of each series for a PNG (`--plot`), [`Progress`] draws a long
//! run's progress on a terminal.
//!
//! [`BenchRequest`] is the whole `bench` command as plain values (the strategies, the
//! settings, the trace, the report and its files): the app builds one from its command line
//! and prints what [`BenchRequest::run`] returns.

mod followers;
mod frame_csv;
mod observe;
mod output;
pub mod plot;
mod progress;
mod replay;
mod report;
mod runner;
mod strategy_run;
mod table;
mod trace_choice;
mod twins;

pub use frame_csv::{FrameCsv, FrameRow};
pub use observe::{BenchFrame, FrameObserver};
pub use output::{WriteError, same_file, same_output};
pub(crate) use output::{close_csv, csv_write_error};
pub use plot::PlotRecorder;
pub use progress::{
    PROGRESS_DELAY, PROGRESS_DELAY_ENV, Progress, ProgressShare, SharedProgress, progress_delay,
    shows_progress,
};
pub use replay::run_recording;
pub use report::{BenchReport, FrameStatsJson, ResultJson, SettingsJson, TraceJson};
pub(crate) use report::{header_lines, trim};
pub use runner::{BenchError, BenchRequest, PlotRequest, ReportFormat};
pub(crate) use runner::{open_run, trace_json};
pub use trace_choice::{BenchTrace, TraceChoice};

use strategy_run::StrategyRun;

use crate::display::{DisplayCounts, DisplaySpec};
use crate::input::{InputScript, InputStats};
use crate::live::LoadSettings;
use crate::metrics::{Metrics, TruthMemo};
use crate::run::costs_ns;
use crate::scene::SceneConfig;
use crate::timestep::{
    FilterSpec, Nanos, RangeError, Strategy, TimestepConfig, ms_from_ns, ns_from_ms,
};
use crate::trace::{DisplayTimes, FrameSource};

pub use crate::run::MAX_COST_MS;

/// What a bench run simulates, besides the trace and the strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchSettings {
    /// Step size and guards.
    pub timestep: TimestepConfig,
    /// The scene.
    pub scene: SceneConfig,
    /// The load model: what each step and each frame costs on top of the trace, with the
    /// window's jitter and hitches (the same [`LoadSettings`] and
    /// [`LoadModel`](crate::live::LoadModel)).
    pub load: LoadSettings,
    /// The display the frames are shown on.
    pub display: DisplaySpec,
    /// GPU time per frame: delays when a presented image is ready, costs no CPU time.
    pub gpu_cost: Nanos,
    /// Filters between the measured frame time and the strategy.
    pub filter: FilterSpec,
    /// Scripted key presses, received on the display's clock (`C`, the frames' starts).
    pub input: Option<InputScript>,
}

impl Default for BenchSettings {
    fn default() -> Self {
        Self {
            timestep: TimestepConfig::default(),
            scene: SceneConfig::new(),
            load: LoadSettings::default(),
            display: DisplaySpec::Cpu,
            gpu_cost: 0,
            filter: FilterSpec::None,
            input: None,
        }
    }
}

impl BenchSettings {
    /// Sets the load model's costs in milliseconds, 0 to [`MAX_COST_MS`] each.
    pub fn with_costs_ms(
        mut self,
        step_cost_ms: f64,
        render_cost_ms: f64,
    ) -> Result<Self, RangeError> {
        costs_ns(step_cost_ms, render_cost_ms)?;
        self.load.step_cost_ms = step_cost_ms;
        self.load.render_cost_ms = render_cost_ms;
        Ok(self)
    }

    /// Sets the whole load model (costs, jitter and hitches), each value checked against
    /// the range the window allows.
    pub fn with_load(mut self, load: LoadSettings) -> Result<Self, RangeError> {
        load.validate()?;
        self.load = load;
        Ok(self)
    }

    /// Real time one physics step costs, ns.
    pub fn step_cost(&self) -> Nanos {
        ns_from_ms(self.load.step_cost_ms)
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
    /// Real time received but not simulated yet when the run ended: what the loop carries
    /// into a next frame (an accumulator's remainder, under a step when it keeps up).
    pub carried: Nanos,
    /// Whether the loop was still falling behind at the end (or froze).
    pub spiral: bool,
    /// Whether the run stopped before the end of the trace because the loop froze.
    pub frozen: bool,
    /// What the screen did: frames shown and dropped, refreshes repeated and torn, and
    /// time the CPU was blocked presenting.
    pub display: DisplayCounts,
    /// Whether the display has refreshes to count (a modeled one: not `cpu` or `trace`).
    pub refresh_grid: bool,
    /// Nearest-rank 99th percentile of the frame times the loop ran (the trace's, plus
    /// the load model and any time blocked presenting), ns; `None` for no frames.
    pub frame_time_p99: Option<Nanos>,
    /// The longest frame the loop ran, ns; `None` for no frames.
    pub frame_time_max: Option<Nanos>,
    /// What each input policy made of the inputs (all zero without any).
    pub input: InputStats,
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

    /// The speed the loop kept: simulated time plus what it carries into a next frame, over
    /// real time. Unlike [`Self::sim_speed`] it does not count the run's unfinished last
    /// step as lost, so a loop that keeps up reads 1 however short the trace; time the
    /// guards dropped, and time a loop owes because it fell behind, still count.
    pub fn kept_speed(&self) -> f64 {
        if self.wall_time == 0 {
            0.0
        } else {
            (self.metrics.sim_time_s * 1e9 + self.carried as f64) / self.wall_time as f64
        }
    }
}

/// Runs one strategy over a trace's frame times under the closed-loop load model.
pub fn run_strategy(
    frame_times: &(impl FrameSource + ?Sized),
    strategy: Strategy,
    settings: &BenchSettings,
) -> BenchResult {
    run_strategy_on(frame_times, None, strategy, settings, &mut ())
}

/// Runs one strategy over a trace's frame times under the closed-loop load model and the
/// display, telling `observer` about every frame as it runs and as it reaches the screen.
/// `display_times` are the capture's own (for [`DisplaySpec::Trace`]): per frame, the time
/// from its start to the screen, or `None` if never shown; a capture's anchor (the row
/// before the first frame, shown at `anchor` from the timeline's 0) is the shown frame the
/// first frame's animation error is measured from, as in PresentMon.
///
/// The trace's frames are gone through once, as they come: a generated trace is never held
/// in memory. What the run keeps grows only with the 99th-percentile tail of its frame
/// times ([`FrameTail`](crate::metrics::FrameTail): 1% of the frames, 8 bytes each).
pub fn run_strategy_on(
    frame_times: &(impl FrameSource + ?Sized),
    display_times: Option<DisplayTimes<'_>>,
    strategy: Strategy,
    settings: &BenchSettings,
    observer: &mut impl FrameObserver,
) -> BenchResult {
    let watched = strategy_run::Watched {
        run: (strategy, observer),
        followers: Vec::new(),
        twins: Vec::new(),
    };
    let mut run = StrategyRun::new(watched, settings, display_times, frame_times.frame_count());
    let mut truths = TruthMemo::default();
    for (i, trace_frame) in frame_times.frame_times().enumerate() {
        if !run.frame(i, trace_frame, &mut truths) {
            break;
        }
    }
    let [result] = run.finish()[..] else {
        unreachable!("one strategy, one result")
    };
    result
}

/// Runs each strategy over the trace (`display_times` as for [`run_strategy_on`]).
pub fn run(
    frame_times: &(impl FrameSource + ?Sized),
    display_times: Option<DisplayTimes<'_>>,
    strategies: &[Strategy],
    settings: &BenchSettings,
) -> Vec<BenchResult> {
    run_observed(frame_times, display_times, strategies, settings, &mut ())
}

/// Runs each strategy over the trace, one after the other, telling `observer` about every
/// frame (see [`run_strategy_on`]).
pub fn run_observed(
    frame_times: &(impl FrameSource + ?Sized),
    display_times: Option<DisplayTimes<'_>>,
    strategies: &[Strategy],
    settings: &BenchSettings,
    observer: &mut impl FrameObserver,
) -> Vec<BenchResult> {
    strategies
        .iter()
        .map(|&strategy| run_strategy_on(frame_times, display_times, strategy, settings, observer))
        .collect()
}

/// Runs each strategy over the trace, side by side on every core, reporting to `progress`;
/// the results are in the strategies' order and the same, to the bit, as [`run`]'s.
/// (`--csv` and `--plot` watch the frames in order, so `bench` runs serially with them:
/// [`run_observed`].)
///
/// The strategies that step alike run as one (`strategy_run::runs_of`), and the runs are
/// split into one group per core, the costliest first onto the core with the least work
/// so far ([`FOLLOWER_COST`]), each group run frame by frame together on its core
/// (`strategy_run::run_together`): it reads the trace once and asks the exact spring once
/// where its strategies show the same simulated time. A group holds all its runs at once,
/// each with its slowest 1% of frames (8 bytes a frame), so a trace of more than
/// [`SHARED_RUN_FRAMES`] frames runs its runs one at a time on each core instead, and memory
/// grows with the cores, not the strategies.
pub fn run_parallel(
    frame_times: &(impl FrameSource + Sync + ?Sized),
    display_times: Option<DisplayTimes<'_>>,
    strategies: &[Strategy],
    settings: &BenchSettings,
    progress: &SharedProgress,
) -> Vec<BenchResult> {
    use rayon::prelude::*;
    let plans = strategy_run::plan(strategies, settings, frame_times.frame_count());
    let groups: Vec<Vec<usize>> = if frame_times.frame_count() <= SHARED_RUN_FRAMES {
        balanced(&plans, rayon::current_num_threads())
    } else {
        plans.iter().map(|plan| plan.all().collect()).collect()
    };
    let mut results: Vec<(usize, BenchResult)> = groups
        .par_iter()
        .flat_map_iter(|group| {
            let chosen: Vec<Strategy> = group.iter().map(|&index| strategies[index]).collect();
            let mut shares: Vec<_> = group
                .iter()
                .map(|_| progress.share(frame_times.frame_count()))
                .collect();
            let results = strategy_run::run_together(
                frame_times,
                display_times,
                &chosen,
                settings,
                &mut shares,
            );
            group.iter().copied().zip(results).collect::<Vec<_>>()
        })
        .collect();
    results.sort_by_key(|&(index, _)| index);
    results.into_iter().map(|(_, result)| result).collect()
}

/// The longest trace whose strategies [`run_parallel`] runs in groups, frames: each run of
/// a group then keeps at most 1 MiB of its slowest frames (1% of 13 million frames, 8 bytes
/// each), about a day of 144 Hz frames.
pub const SHARED_RUN_FRAMES: u64 = 13_000_000;

/// The work of a strategy that follows another's steps, as a share of a run's own: it
/// draws and measures, but neither steps nor loads nor presents (measured: the accumulator
/// family of six takes 2.7 times the accumulator's time alone, over an hour of 144 Hz).
pub const FOLLOWER_COST: f64 = 0.35;

/// The work of a strategy taking another's steps while they agree (a twin), as a share of
/// a run's own: its rule is asked of each frame and compared with the run's (measured: the
/// three strategies that take short frames whole, two of them twins, took 1.2 times
/// `variable`'s instructions alone over 600 s of 144 Hz, the trace's statistics left out).
pub const TWIN_COST: f64 = 0.1;

/// `plans` (from `strategy_run::plan`) in at most `cores` groups of about equal work: each
/// run, the costliest first, goes to the group with the least so far. A group lists its
/// runs' strategies in order, each run's together.
fn balanced(plans: &[strategy_run::RunPlan], cores: usize) -> Vec<Vec<usize>> {
    let cost = |plan: &strategy_run::RunPlan| {
        1.0 + FOLLOWER_COST * (plan.members.len() - 1) as f64 + TWIN_COST * plan.twins.len() as f64
    };
    let mut costliest: Vec<&strategy_run::RunPlan> = plans.iter().collect();
    costliest.sort_by(|a, b| cost(b).total_cmp(&cost(a)));
    let mut groups: Vec<(f64, Vec<usize>)> =
        vec![(0.0, Vec::new()); cores.clamp(1, plans.len().max(1))];
    for plan in costliest {
        let least = groups
            .iter_mut()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .expect("a group");
        least.0 += cost(plan);
        least.1.extend(plan.all());
    }
    groups
        .into_iter()
        .map(|(_, group)| group)
        .filter(|group| !group.is_empty())
        .collect()
}

/// Milliseconds of a cost, for reports.
fn cost_ms(ns: Nanos) -> f64 {
    ms_from_ns(ns)
}

#[cfg(test)]
mod tests;

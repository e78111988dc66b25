//! One strategy's run over a trace, a frame at a time, and several run side by side.
//!
//! A [`StrategyRun`] is everything one strategy's run holds between frames: its pane, its
//! display, its frame driver (with the filters), the load model and the clock the load
//! closes the loop on. Each trace frame goes to [`StrategyRun::frame`]; the totals come
//! from [`StrategyRun::finish`]. [`run_together`] walks the trace once for a group of
//! strategies, giving each frame to every run in turn: the trace is read (or generated)
//! once for the group, and the runs share one [`TruthMemo`], so where two strategies show
//! the same simulated time in a frame, the exact spring there is computed once. Nothing
//! else passes between them, and the memo's answer is the same value whoever computed
//! it, so every run's result is the one it has alone, to the bit.

use super::{BenchPane, BenchResult, BenchSettings, FrameObserver};
use crate::display::{DisplaySpec, Presentation};
use crate::drive::{FrameDriver, FrameInput, settle};
use crate::input::{ScriptCursor, ScriptEvents};
use crate::live::LoadModel;
use crate::metrics::{FrameTail, TruthMemo};
use crate::run::{PaneRun, freezes};
use crate::timestep::{Nanos, Strategy};
use crate::trace::{DisplayTimes, FrameSource};

/// One strategy's run part way through a trace (see the module doc).
pub(super) struct StrategyRun<'a, O> {
    /// The strategy's pane, watched by its observer.
    pane: [BenchPane<'a, O>; 1],
    /// The display its frames are shown on.
    screen: Presentation,
    /// Whether the display is modeled (it has presents to wait for).
    modeled: bool,
    /// Runs each frame: the filters, the display, the pane.
    driver: FrameDriver,
    /// What the work of each frame costs on top of the trace.
    load: LoadModel,
    /// Real time one step costs, ns.
    step_cost: Nanos,
    /// The bench's settings.
    settings: &'a BenchSettings,
    /// The capture's own display times, for [`DisplaySpec::Trace`].
    display_times: Option<DisplayTimes<'a>>,
    /// `C_i`: when the frame about to run started, on the display's clock.
    wall_time: Nanos,
    /// Whether the loop froze (the run stopped there).
    frozen: bool,
    /// The frame times the loop ran, for their 99th percentile.
    tail: FrameTail,
    /// The scripted inputs not given yet.
    inputs: Option<ScriptCursor<ScriptEvents>>,
}

impl<'a, O: FrameObserver> StrategyRun<'a, O> {
    /// A run of `strategy` over a trace of `frame_count` frames, watched by `observer`
    /// (`display_times` as for [`super::run_strategy_on`]).
    pub(super) fn new(
        strategy: Strategy,
        settings: &'a BenchSettings,
        display_times: Option<DisplayTimes<'a>>,
        frame_count: u64,
        observer: &'a mut O,
    ) -> Self {
        observer.start(strategy);
        let mut pane = [BenchPane {
            run: PaneRun::new(strategy, settings.timestep, settings.scene),
            observer,
            index: 0,
            steps: 0,
        }];
        if let Some(unit) = settings.display.refresh_unit() {
            pane[0].run.count_refreshes(unit);
        }
        if settings.display == DisplaySpec::Trace
            && let Some(anchor) = display_times.and_then(|times| times.anchor)
        {
            pane[0].run.anchor_screen(anchor);
        }
        let refresh = settings
            .display
            .refresh()
            .map(|refresh| refresh.period_ns());
        Self {
            pane,
            screen: Presentation::new(settings.display, settings.gpu_cost),
            modeled: settings.display.is_modeled(),
            driver: FrameDriver::new(settings.filter.build(refresh)),
            load: LoadModel::new(settings.load),
            step_cost: settings.step_cost(),
            settings,
            display_times,
            wall_time: 0,
            frozen: false,
            tail: FrameTail::new(usize::try_from(frame_count).unwrap_or(usize::MAX)),
            inputs: settings
                .input
                .as_ref()
                .map(|script| ScriptCursor::new(script.events())),
        }
    }

    /// Runs trace frame `i` of `trace_frame` ns under the load model and the display, the
    /// exact spring asked of `truths`. Returns `false` once the loop has frozen: the run
    /// stops there and takes no more frames.
    pub(super) fn frame(&mut self, i: usize, trace_frame: Nanos, truths: &mut TruthMemo) -> bool {
        if self.frozen {
            return false;
        }
        // The previous iteration's load (its steps, the render cost, jitter, a hitch),
        // spent from its start.
        let load = self.load.cost(self.wall_time, self.pane[0].steps).total;
        if freezes(load) {
            self.frozen = true;
            return false;
        }
        // The previous iteration's work: its trace time and its load.
        let work = trace_frame.saturating_add(load);
        // It ends by presenting the previous frame; a full queue holds the CPU there.
        let frame = if self.modeled && i > 0 {
            let at = self.wall_time.saturating_add(work);
            self.driver.present(&mut self.screen, &mut self.pane, at) - self.wall_time
        } else {
            work
        };
        self.wall_time = self.wall_time.saturating_add(frame);
        self.tail.record(frame);
        let events = match self.inputs.as_mut() {
            Some(cursor) => cursor.until(self.wall_time),
            None => &[],
        };
        let input = FrameInput {
            start: self.wall_time,
            interval: frame,
            time: Some(frame),
            events,
        };
        let step_cost = self.step_cost;
        let step_work = |steps: u64| steps.saturating_mul(step_cost);
        self.driver
            .frame(&mut self.screen, &mut self.pane, input, step_work, truths);
        if self.settings.display == DisplaySpec::Trace {
            let delay = self
                .display_times
                .and_then(|times| times.frames.get(i).copied().flatten());
            let shown = delay.map(|delay| self.wall_time.saturating_add(delay));
            let event = self.screen.record(i as u64, shown);
            settle(&mut self.pane, &event);
        }
        true
    }

    /// The run's totals, the last frame's present settled where the display is modeled;
    /// the observer is told.
    pub(super) fn finish(mut self) -> BenchResult {
        if self.modeled {
            let pane = &mut self.pane;
            self.screen
                .finish(self.wall_time, |event| settle(pane, &event));
        }
        let [BenchPane { run, observer, .. }] = self.pane;
        let engine = run.sim().engine();
        let result = BenchResult {
            strategy: run.strategy(),
            metrics: run.metrics(),
            wall_time: self.wall_time,
            dropped: engine.dropped(),
            carried: engine.accumulator(),
            spiral: self.frozen || run.spiralling(),
            frozen: self.frozen,
            display: self.screen.display().counts(),
            refresh_grid: self.modeled,
            frame_time_p99: self.tail.p99(),
            frame_time_max: self.tail.max(),
            input: run.sim().input_stats(),
        };
        observer.finish(&result);
        result
    }
}

/// Runs `strategies` over the trace side by side, frame by frame (see the module doc),
/// each watched by its own of `observers`; the results are in the strategies' order.
pub(super) fn run_together<O: FrameObserver>(
    frame_times: &(impl FrameSource + ?Sized),
    display_times: Option<DisplayTimes<'_>>,
    strategies: &[Strategy],
    settings: &BenchSettings,
    observers: &mut [O],
) -> Vec<BenchResult> {
    debug_assert_eq!(
        strategies.len(),
        observers.len(),
        "an observer for each run"
    );
    let frame_count = frame_times.frame_count();
    let mut runs: Vec<_> = strategies
        .iter()
        .zip(observers.iter_mut())
        .map(|(&strategy, observer)| {
            StrategyRun::new(strategy, settings, display_times, frame_count, observer)
        })
        .collect();
    let mut truths = TruthMemo::default();
    for (i, trace_frame) in frame_times.frame_times().enumerate() {
        let mut running = false;
        for run in &mut runs {
            running |= run.frame(i, trace_frame, &mut truths);
        }
        if !running {
            break;
        }
    }
    runs.into_iter().map(StrategyRun::finish).collect()
}

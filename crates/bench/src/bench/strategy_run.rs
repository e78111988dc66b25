//! One strategy's run over a trace, a frame at a time, and several run side by side.
//!
//! A [`StrategyRun`] is everything one strategy's run holds between frames: its pane, its
//! display, its frame driver (with the filters), the load model and the clock the load
//! closes the loop on. Each trace frame goes to [`StrategyRun::frame`]; the totals come
//! from [`StrategyRun::finish`]. [`run_together`] walks the trace once for a group of
//! strategies, giving each frame to every run in turn: the trace is read (or generated)
//! once for the group, and the runs share one [`TruthMemo`], so where two strategies show
//! the same simulated time in a frame, the exact spring there is computed once.
//!
//! Strategies of a group that step alike ([`Strategy::steps_as`]: the six of the
//! accumulator family, Bevy's two loops, Unity's three) run as one: the first runs, and
//! the others follow its steps ([`FollowerRun`](crate::run::FollowerRun)), each drawing
//! them its own way and measuring what it draws. With the same frames, the same load (the
//! same steps) and the same display, everything but what they draw is the same for all of
//! them, so it is worked out once. Strategies whose rules differ but take short frames
//! whole (`variable`, `semi-fixed`, `equal-substeps`) are twins of the first of them while
//! their steps agree, and run on their own from the frame that parts them (`twins.rs`). A
//! run with scripted inputs runs each strategy on its own: each measures the inputs by what
//! it draws. Nothing else passes between runs, and the memo's answer is the same value
//! whoever computed it, so every strategy's result is the one it has alone, to the bit.

use super::followers::Followers;
use super::twins::{Parted, Twins};
use super::{BenchFrame, BenchResult, BenchSettings, FrameObserver, SHARED_RUN_FRAMES};
use crate::display::{DisplayEvent, DisplaySpec, Presentation};
use crate::drive::{DrivenPane, FrameDriver, FrameInput, PaneFrame, settle};
use crate::input::{ScriptCursor, ScriptEvents};
use crate::live::LoadModel;
use crate::metrics::{FrameTail, ScreenFrame, TruthMemo};
use crate::run::{PaneRun, freezes};
use crate::timestep::{Nanos, Strategy};
use crate::trace::{DisplayTimes, FrameSource};

/// A bench run's one pane: the strategy's run, watched frame by frame by `observer`, and
/// the strategies that follow its steps, each watched by its own.
pub(super) struct BenchPane<'o, O> {
    /// The run.
    run: PaneRun,
    /// Who watches its frames.
    observer: &'o mut O,
    /// The strategies that follow the run's steps.
    followers: Followers<'o, O>,
    /// The strategies taking the run's steps while they agree with it.
    twins: Twins<'o, O>,
    /// The index of the next frame in the trace.
    index: u64,
    /// Steps the last frame took: the load model charges them to the next frame.
    steps: u64,
    /// What the observer was told before this run began: the frames before this trace
    /// frame, and the frames at the screen up to this one (a twin run on its own from the
    /// frame it parted at: see `twins.rs`).
    told: (u64, Option<u64>),
}

impl<O: FrameObserver> BenchPane<'_, O> {
    /// Tells the observer of the frame at the screen `screen`, unless it was told already.
    fn tell_screen(&mut self, screen: Option<&ScreenFrame>) {
        if let Some(screen) = screen
            && self.told.1.is_none_or(|told| screen.frame > told)
        {
            self.observer.screen(screen);
        }
    }
}

impl<O: FrameObserver> DrivenPane for BenchPane<'_, O> {
    fn run_mut(&mut self) -> &mut PaneRun {
        &mut self.run
    }

    fn ran(&mut self, frame: PaneFrame<'_>, truths: &mut TruthMemo) {
        if self.index >= self.told.0 {
            self.observer.frame(&BenchFrame {
                index: self.index,
                frame_time: frame.input.interval,
                report: frame.report,
                scene: self.run.sim().scene(),
            });
        }
        self.tell_screen(frame.screen.as_ref());
        self.followers.ran(&self.run, self.index, &frame, truths);
        self.twins.ran(&self.run, self.index, &frame);
        self.index += 1;
        self.steps = frame.report.steps.len();
    }

    fn settled(&mut self, event: &DisplayEvent, screen: Option<ScreenFrame>) {
        self.tell_screen(screen.as_ref());
        self.followers.settled(event);
        self.twins.settled(screen.as_ref());
    }
}

/// One strategy's run part way through a trace, with the strategies that follow its steps
/// (see the module doc).
pub(super) struct StrategyRun<'a, O> {
    /// The strategy's pane, watched by its observer, with its followers.
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
    /// A run of the first of `strategies` over a trace of `frame_count` frames, the others
    /// following its steps (they must step as it does: [`Strategy::steps_as`]), each
    /// watched by its own of `observers` (`display_times` as for
    /// [`super::run_strategy_on`]).
    pub(super) fn new(
        watched: Watched<'a, O>,
        settings: &'a BenchSettings,
        display_times: Option<DisplayTimes<'a>>,
        frame_count: u64,
    ) -> Self {
        let started = |(strategy, observer): (Strategy, &'a mut O)| {
            observer.start(strategy);
            (strategy, observer)
        };
        let mut run = Self::resumed(
            started(watched.run),
            settings,
            display_times,
            frame_count,
            (0, None),
        );
        let pane = &mut run.pane[0];
        pane.followers = Followers::new(&pane.run, watched.followers.into_iter().map(started));
        pane.twins = Twins::new(&pane.run, watched.twins.into_iter().map(started));
        run
    }

    /// A run of `strategy` (its observer already told it started), which has told its
    /// observer what `told` says (see `BenchPane::told`), and tells it nothing of that again.
    pub(super) fn resumed(
        (strategy, observer): (Strategy, &'a mut O),
        settings: &'a BenchSettings,
        display_times: Option<DisplayTimes<'a>>,
        frame_count: u64,
        told: (u64, Option<u64>),
    ) -> Self {
        let mut run = PaneRun::new(strategy, settings.timestep, settings.scene);
        if let Some(unit) = settings.display.refresh_unit() {
            run.count_refreshes(unit);
        }
        if settings.display == DisplaySpec::Trace
            && let Some(anchor) = display_times.and_then(|times| times.anchor)
        {
            run.anchor_screen(anchor);
        }
        let pane = [BenchPane {
            followers: Followers::new(&run, std::iter::empty()),
            twins: Twins::new(&run, std::iter::empty()),
            run,
            observer,
            index: 0,
            steps: 0,
            told,
        }];
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

    /// Whether a twin parted from the run at the frame it has just run.
    fn any_parted(&self) -> bool {
        self.pane[0].twins.any_parted()
    }

    /// The twins that parted from the run at the frame it has just run (see `twins.rs`).
    pub(super) fn take_parted(&mut self) -> Vec<Parted<'a, O>> {
        self.pane[0].twins.take_parted()
    }

    /// The totals of the run, of each follower and of each twin still taking its steps, in
    /// that order, the last frame's present settled where the display is modeled; the
    /// observers are told.
    pub(super) fn finish(mut self) -> Vec<BenchResult> {
        if self.modeled {
            let pane = &mut self.pane;
            self.screen
                .finish(self.wall_time, |event| settle(pane, &event));
        }
        let [
            BenchPane {
                run,
                observer,
                followers,
                twins,
                ..
            },
        ] = self.pane;
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
        let mut results = vec![result];
        results.extend(followers.finish(&run, &result));
        results.extend(twins.finish(&result));
        results
    }
}

/// `strategies` in runs: each a strategy and those after it that step as it does
/// ([`Strategy::steps_as`]), as indexes into `strategies`, in order; every strategy a run
/// of its own where `settings` script inputs (see the module doc).
pub(super) fn runs_of(strategies: &[Strategy], settings: &BenchSettings) -> Vec<Vec<usize>> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for (index, &strategy) in strategies.iter().enumerate() {
        let joins = runs.iter_mut().find(|run| {
            settings.input.is_none() && strategies[run[0]].steps_as(strategy, &settings.timestep)
        });
        match joins {
            Some(run) => run.push(index),
            None => runs.push(vec![index]),
        }
    }
    runs
}

/// A run's strategies and who watches each: the strategy run, those that follow its steps
/// and those that take them while they agree (twins).
pub(super) struct Watched<'a, O> {
    /// The strategy run.
    pub(super) run: (Strategy, &'a mut O),
    /// The strategies that follow its steps.
    pub(super) followers: Vec<(Strategy, &'a mut O)>,
    /// The strategies taking its steps while they agree.
    pub(super) twins: Vec<(Strategy, &'a mut O)>,
}

/// A run's strategies, as indexes: the first of `members` runs, the others follow its
/// steps; `twins` take them while they agree (see `twins.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct RunPlan {
    /// The strategy run, then those that follow its steps.
    pub(super) members: Vec<usize>,
    /// The strategies taking its steps while they agree.
    pub(super) twins: Vec<usize>,
}

impl RunPlan {
    /// Every strategy of the run: the members, then the twins.
    pub(super) fn all(&self) -> impl Iterator<Item = usize> + '_ {
        self.members.iter().chain(&self.twins).copied()
    }
}

/// `strategies` in runs ([`runs_of`]), and each run of one lab strategy whose rule takes a
/// short frame whole ([`StepRule::steps_short_frames_whole`]) made a twin of the first run
/// before it with such a rule and the same drawing. Never with scripted inputs (each
/// strategy measures them by what it draws), nor over more than [`SHARED_RUN_FRAMES`]
/// frames (a twin that parts runs again from the start beside its run: two runs' slowest
/// frames at once).
pub(super) fn plan(
    strategies: &[Strategy],
    settings: &BenchSettings,
    frame_count: u64,
) -> Vec<RunPlan> {
    let twins_allowed = settings.input.is_none() && frame_count <= SHARED_RUN_FRAMES;
    let short_frames_whole = |strategy: Strategy| {
        strategy.preset().is_none()
            && strategy
                .step_rule(&settings.timestep)
                .steps_short_frames_whole()
    };
    let mut plans: Vec<RunPlan> = Vec::new();
    for members in runs_of(strategies, settings) {
        let strategy = strategies[members[0]];
        let twin_of = (twins_allowed && members.len() == 1 && short_frames_whole(strategy))
            .then(|| {
                plans.iter().position(|plan| {
                    let leader = strategies[plan.members[0]];
                    short_frames_whole(leader) && leader.view() == strategy.view()
                })
            })
            .flatten();
        match twin_of {
            Some(plan) => plans[plan].twins.push(members[0]),
            None => plans.push(RunPlan {
                members,
                twins: Vec::new(),
            }),
        }
    }
    plans
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
    let mut observers: Vec<Option<&mut O>> = observers.iter_mut().map(Some).collect();
    let mut watcher = |index: usize| {
        let observer = observers[index].take().expect("one run each");
        (strategies[index], observer)
    };
    let mut runs: Vec<StrategyRun<'_, O>> = Vec::new();
    for plan in plan(strategies, settings, frame_count) {
        let watched = Watched {
            run: watcher(plan.members[0]),
            followers: plan.members[1..]
                .iter()
                .map(|&index| watcher(index))
                .collect(),
            twins: plan.twins.iter().map(|&index| watcher(index)).collect(),
        };
        runs.push(StrategyRun::new(
            watched,
            settings,
            display_times,
            frame_count,
        ));
    }
    let mut truths = TruthMemo::default();
    for (i, trace_frame) in frame_times.frame_times().enumerate() {
        let mut running = false;
        for run in &mut runs {
            running |= run.frame(i, trace_frame, &mut truths);
        }
        // A twin that parted at this frame runs on its own from the start up to it, and on
        // beside the others.
        if runs.iter().any(StrategyRun::any_parted) {
            let parted: Vec<_> = runs.iter_mut().flat_map(StrategyRun::take_parted).collect();
            for parted in parted {
                let mut run = StrategyRun::resumed(
                    (parted.strategy, parted.observer),
                    settings,
                    display_times,
                    frame_count,
                    (parted.at, parted.screen_told),
                );
                let mut replayed = TruthMemo::default();
                let mut frames = frame_times.frame_times().take(i + 1).enumerate();
                running |= frames.all(|(j, trace_frame)| run.frame(j, trace_frame, &mut replayed));
                runs.push(run);
            }
        }
        if !running {
            break;
        }
    }
    // Each result to its strategy's place (the first place not yet filled, should a
    // strategy be given twice).
    let mut results: Vec<(usize, BenchResult)> = Vec::with_capacity(strategies.len());
    for result in runs.into_iter().flat_map(StrategyRun::finish) {
        let index = (0..strategies.len())
            .find(|&index| {
                strategies[index] == result.strategy
                    && results.iter().all(|&(filled, _)| filled != index)
            })
            .expect("a result for each strategy");
        results.push((index, result));
    }
    results.sort_by_key(|&(index, _)| index);
    results.into_iter().map(|(_, result)| result).collect()
}

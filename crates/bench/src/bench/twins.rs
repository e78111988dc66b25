//! Strategies that take a run's steps while they happen to agree with it.
//!
//! Strategies whose rules differ can still take the same steps frame after frame: on frames
//! no longer than `dt`, `variable`, `semi-fixed` and `equal-substeps` each take one step of
//! the frame's time. While a strategy's rule, given the run's ledger, takes the run's steps
//! to the same ledger ([`Engine::steps_alike`](crate::timestep::Engine::steps_alike): its
//! engine would keep the run's ledger and report each frame as the run's) and it draws as
//! the run does, its whole run is the run's (the same load, display, scene and
//! measurements), so it is not run: it is the run's twin, and its rule alone is asked each
//! frame. At the first frame that parts them the twin is run on its own from the start of
//! the trace up to that frame ([`StrategyRun::resumed`](super::strategy_run::StrategyRun)),
//! and on from there beside the others; its observer is told nothing twice. A twin never
//! parted takes the run's totals as its own.

use super::{BenchFrame, BenchResult, FrameObserver};
use crate::drive::PaneFrame;
use crate::metrics::ScreenFrame;
use crate::run::PaneRun;
use crate::timestep::{FrameReport, StepRule, Strategy};

/// A strategy taking a run's steps, and who watches it.
struct Twin<'o, O> {
    /// The strategy.
    strategy: Strategy,
    /// Its rule, asked of each frame the run takes.
    rule: StepRule,
    /// Who watches its frames.
    observer: &'o mut O,
    /// The last frame at the screen its observer was told of.
    screen_told: Option<u64>,
}

impl<O: FrameObserver> Twin<'_, O> {
    /// Tells the observer of the run's frame at the screen, if one came.
    fn tell_screen(&mut self, screen: Option<&ScreenFrame>) {
        if let Some(screen) = screen {
            self.observer.screen(screen);
            self.screen_told = Some(screen.frame);
        }
    }
}

/// A twin that parted from its run at trace frame `at`: its observer has been told of the
/// frames before `at` and of the frames at the screen up to `screen_told`.
pub(super) struct Parted<'o, O> {
    /// The strategy.
    pub(super) strategy: Strategy,
    /// Who watches it.
    pub(super) observer: &'o mut O,
    /// The first trace frame its observer was not told of.
    pub(super) at: u64,
    /// The last frame at the screen its observer was told of.
    pub(super) screen_told: Option<u64>,
}

/// The strategies taking a run's steps (see the module doc).
pub(super) struct Twins<'o, O> {
    /// In the order of the strategies.
    twins: Vec<Twin<'o, O>>,
    /// Those that parted from the run, for the caller to run on their own.
    parted: Vec<Parted<'o, O>>,
}

impl<'o, O: FrameObserver> Twins<'o, O> {
    /// `strategies` taking `run`'s steps from its first frame, each watched by its observer.
    pub(super) fn new(run: &PaneRun, watched: impl Iterator<Item = (Strategy, &'o mut O)>) -> Self {
        let timestep = *run.sim().engine().config();
        let twins = watched
            .map(|(strategy, observer)| Twin {
                strategy,
                rule: strategy.step_rule(&timestep),
                observer,
                screen_told: None,
            })
            .collect();
        Self {
            twins,
            parted: Vec::new(),
        }
    }

    /// Asks each twin's rule of the frame `run` has just run (trace frame `index`): a twin
    /// whose rule took the run's steps to the run's ledger is told of the frame as its
    /// strategy drew it; any other parts.
    pub(super) fn ran(&mut self, run: &PaneRun, index: u64, frame: &PaneFrame<'_>) {
        if self.twins.is_empty() {
            return;
        }
        let engine = run.sim().engine();
        let mut at = 0;
        while at < self.twins.len() {
            let twin = &mut self.twins[at];
            if let Some(steps) = engine.steps_alike(&mut twin.rule) {
                twin.observer.frame(&BenchFrame {
                    index,
                    frame_time: frame.input.interval,
                    report: &FrameReport {
                        strategy: twin.strategy,
                        steps,
                        ..*frame.report
                    },
                    scene: run.sim().scene(),
                });
                twin.tell_screen(frame.screen.as_ref());
                at += 1;
            } else {
                let twin = self.twins.remove(at);
                self.parted.push(Parted {
                    strategy: twin.strategy,
                    observer: twin.observer,
                    at: index,
                    screen_told: twin.screen_told,
                });
            }
        }
    }

    /// The run's frame at the screen, told to every twin.
    pub(super) fn settled(&mut self, screen: Option<&ScreenFrame>) {
        for twin in &mut self.twins {
            twin.tell_screen(screen);
        }
    }

    /// Whether a twin has parted since last asked.
    pub(super) fn any_parted(&self) -> bool {
        !self.parted.is_empty()
    }

    /// The twins that have parted since last asked.
    pub(super) fn take_parted(&mut self) -> Vec<Parted<'o, O>> {
        std::mem::take(&mut self.parted)
    }

    /// Each twin's totals, the run's `result` under its strategy; the observers are told.
    pub(super) fn finish(self, result: &BenchResult) -> Vec<BenchResult> {
        self.twins
            .into_iter()
            .map(|twin| {
                let result = BenchResult {
                    strategy: twin.strategy,
                    ..*result
                };
                twin.observer.finish(&result);
                result
            })
            .collect()
    }
}

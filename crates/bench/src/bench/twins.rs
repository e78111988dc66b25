//! Strategies that take a run's steps while they happen to agree with it.
//!
//! Strategies whose rules differ can still take the same steps frame after frame: on frames
//! no longer than `dt`, `variable`, `semi-fixed` and `equal-substeps` each take one step of
//! the frame's time. While a strategy's engine, fed the run's frames, plans the same steps,
//! keeps the same ledger and draws the same state as the run's, its whole run is the run's
//! (the same load, display, scene and measurements), so it is not run: it is the run's
//! twin. At the first frame that parts them the twin is run on its own from the start of
//! the trace up to that frame ([`StrategyRun::resumed`](super::strategy_run::StrategyRun)),
//! and on from there beside the others; its observer is told nothing twice. A twin never
//! parted takes the run's totals as its own.

use super::{BenchFrame, BenchResult, FrameObserver};
use crate::drive::PaneFrame;
use crate::metrics::ScreenFrame;
use crate::run::PaneRun;
use crate::timestep::{Engine, FrameReport, Strategy};

/// A strategy taking a run's steps, and who watches it.
struct Twin<'o, O> {
    /// The strategy's engine, fed the run's frames.
    engine: Engine,
    /// Who watches its frames.
    observer: &'o mut O,
    /// The last frame at the screen its observer was told of.
    screen_told: Option<u64>,
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
                engine: Engine::new(strategy, timestep),
                observer,
                screen_told: None,
            })
            .collect();
        Self {
            twins,
            parted: Vec::new(),
        }
    }

    /// Feeds each twin's engine the frame `run` has just run (trace frame `index`): a twin
    /// that took the same steps to the same ledger and drew the same state is told of the
    /// frame as its strategy drew it; any other parts.
    pub(super) fn ran(&mut self, run: &PaneRun, index: u64, frame: &PaneFrame<'_>) {
        if self.twins.is_empty() {
            return;
        }
        let engine = run.sim().engine();
        let delay = frame.timing.and_then(|timing| timing.predicted_delay());
        let mut at = 0;
        while at < self.twins.len() {
            let twin = &mut self.twins[at];
            let report = twin
                .engine
                .advance_to_display(frame.report.frame_time, delay);
            if stepped_alike(&report, frame.report) && twin.engine.ledger_eq(engine) {
                twin.observer.frame(&BenchFrame {
                    index,
                    frame_time: frame.input.interval,
                    report: &report,
                    scene: run.sim().scene(),
                });
                if let Some(screen) = &frame.screen {
                    twin.observer.screen(screen);
                    twin.screen_told = Some(screen.frame);
                }
                at += 1;
            } else {
                let twin = self.twins.remove(at);
                self.parted.push(Parted {
                    strategy: twin.engine.strategy(),
                    observer: twin.observer,
                    at: index,
                    screen_told: twin.screen_told,
                });
            }
        }
    }

    /// The run's frame at the screen, told to every twin.
    pub(super) fn settled(&mut self, screen: Option<&ScreenFrame>) {
        if let Some(screen) = screen {
            for twin in &mut self.twins {
                twin.observer.screen(screen);
                twin.screen_told = Some(screen.frame);
            }
        }
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
                    strategy: twin.engine.strategy(),
                    ..*result
                };
                twin.observer.finish(&result);
                result
            })
            .collect()
    }
}

/// Whether two strategies took a frame alike: the same steps (however their plans write
/// them) and the same report otherwise, but for the strategy.
fn stepped_alike(a: &FrameReport, b: &FrameReport) -> bool {
    a.steps.iter().eq(b.steps.iter())
        && FrameReport {
            strategy: b.strategy,
            steps: b.steps,
            ..*a
        } == *b
}

//! The strategies that follow a bench run's steps ([`FollowerRun`]), and which of them are
//! measured once.
//!
//! Followers that draw every frame exactly alike (the same report but for the strategy's
//! name) measure exactly alike too: a follower whose first frame is drawn as an earlier
//! one's is its twin, and is not measured while they keep drawing alike; it takes the
//! earlier one's measurements when a frame first differs, and at the end. `display-time`
//! with no display time to predict (the `cpu` display) draws as `interpolated` does, frame
//! for frame; on a display it parts from it once the forecast has frames to go on.

use super::{BenchFrame, BenchResult, FrameObserver};
use crate::display::DisplayEvent;
use crate::drive::PaneFrame;
use crate::metrics::{ScreenFrame, TruthMemo};
use crate::run::{FollowerRun, PaneRun};
use crate::timestep::{FrameReport, Strategy};

/// One follower and who watches it.
struct Follower<'o, O> {
    /// The run.
    run: FollowerRun,
    /// Who watches its frames.
    observer: &'o mut O,
    /// The earlier follower it draws alike, whose measurements are its own meanwhile.
    twin: Option<usize>,
    /// The last frame as it drew it.
    report: Option<FrameReport>,
    /// That frame at the screen, or the last display event's frame, when known.
    screen: Option<ScreenFrame>,
}

/// The strategies that follow a bench run's steps (see the module doc).
pub(super) struct Followers<'o, O> {
    /// In the order of the strategies.
    followers: Vec<Follower<'o, O>>,
}

impl<'o, O: FrameObserver> Followers<'o, O> {
    /// `strategies` following `run` from its first frame, each watched by its observer.
    pub(super) fn new(run: &PaneRun, watched: impl Iterator<Item = (Strategy, &'o mut O)>) -> Self {
        let followers = watched
            .map(|(strategy, observer)| Follower {
                run: run.follower(strategy),
                observer,
                twin: None,
                report: None,
                screen: None,
            })
            .collect();
        Self { followers }
    }

    /// Draws and measures the frame `run` has just run (`frame`, trace frame `index`),
    /// telling each observer.
    pub(super) fn ran(
        &mut self,
        run: &PaneRun,
        trace_index: u64,
        frame: &PaneFrame<'_>,
        truths: &mut TruthMemo,
    ) {
        let first = self
            .followers
            .iter()
            .all(|follower| follower.report.is_none());
        for follower in &mut self.followers {
            follower.report = Some(follower.run.draw(run, frame.timing));
        }
        for index in 0..self.followers.len() {
            let (earlier, rest) = self.followers.split_at_mut(index);
            let follower = &mut rest[0];
            let drawn_as = |other: &Follower<'_, O>| drawn_alike(&other.report, &follower.report);
            if first {
                follower.twin = earlier
                    .iter()
                    .position(|other| other.twin.is_none() && drawn_as(other));
            } else if let Some(twin) = follower.twin
                && !drawn_as(&earlier[twin])
            {
                follower.run.measured_as(&earlier[twin].run);
                follower.twin = None;
            }
        }
        for index in 0..self.followers.len() {
            let (earlier, rest) = self.followers.split_at_mut(index);
            let follower = &mut rest[0];
            let report = follower.report.as_ref().expect("drawn above");
            follower.screen = match follower.twin {
                Some(twin) => earlier[twin].screen,
                None => follower.run.measure(run, report, frame.timing, truths),
            };
            let watched = BenchFrame {
                index: trace_index,
                frame_time: frame.input.interval,
                report,
                scene: run.sim().scene(),
            };
            tell(follower.observer, &watched, follower.screen.as_ref());
        }
    }

    /// Takes a display event for a frame drawn earlier.
    pub(super) fn settled(&mut self, event: &DisplayEvent) {
        for index in 0..self.followers.len() {
            let (earlier, rest) = self.followers.split_at_mut(index);
            let follower = &mut rest[0];
            follower.screen = match follower.twin {
                Some(twin) => earlier[twin].screen,
                None => follower.run.settle(event),
            };
            if let Some(screen) = &follower.screen {
                follower.observer.screen(screen);
            }
        }
    }

    /// Each follower's totals: `result`, the run's, with the follower's strategy and
    /// metrics; the observers are told.
    pub(super) fn finish(mut self, run: &PaneRun, result: &BenchResult) -> Vec<BenchResult> {
        for index in 0..self.followers.len() {
            let (earlier, rest) = self.followers.split_at_mut(index);
            if let Some(twin) = rest[0].twin {
                rest[0].run.measured_as(&earlier[twin].run);
            }
        }
        self.followers
            .into_iter()
            .map(|follower| {
                let result = BenchResult {
                    strategy: follower.run.strategy(),
                    metrics: follower.run.metrics(run),
                    ..*result
                };
                follower.observer.finish(&result);
                result
            })
            .collect()
    }
}

/// Whether two followers drew a frame alike: the same report but for the strategy.
fn drawn_alike(a: &Option<FrameReport>, b: &Option<FrameReport>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            FrameReport {
                strategy: b.strategy,
                ..*a
            } == *b
        }
        _ => false,
    }
}

/// Tells `observer` of a frame that ran, and of it at the screen when that is known.
fn tell(observer: &mut impl FrameObserver, frame: &BenchFrame<'_>, screen: Option<&ScreenFrame>) {
    observer.frame(frame);
    if let Some(screen) = screen {
        observer.screen(screen);
    }
}

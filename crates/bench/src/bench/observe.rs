//! Watching a bench run frame by frame. The reports that need more than a run's totals
//! (`--csv`, `--plot`) are observers of the one bench loop, so they see exactly the frames
//! the metrics measured, and none of them keeps a loop of its own.

use super::BenchResult;
use crate::metrics::ScreenFrame;
use crate::scene::{Scene, ShownScene};
use crate::timestep::{FrameReport, Nanos, Strategy};

/// One frame of a bench run, as the loop ran it.
#[derive(Clone, Copy, Debug)]
pub struct BenchFrame<'a> {
    /// Its index in the trace (and its sequence number on the display).
    pub index: u64,
    /// The frame time the loop measured: the trace's, the load model's and any time
    /// blocked presenting, before the filters.
    pub frame_time: Nanos,
    /// What the engine did with it (after the filters and the guards).
    pub report: &'a FrameReport,
    /// The scene after the frame's steps, for the exact values beside what was drawn
    /// ([`Scene::true_spring`]).
    pub scene: &'a Scene,
}

impl BenchFrame<'_> {
    /// What was drawn, built from the report on asking (a run nobody watches never
    /// builds it).
    pub fn shown(&self) -> ShownScene {
        self.scene.shown(self.report)
    }

    /// The spring's drawn displacement, m (the part of [`Self::shown`] the metrics judge).
    pub fn drawn_spring_m(&self) -> f64 {
        self.scene.drawn_spring(self.report.drawn).x
    }
}

/// Told about every frame of a bench run as it runs. Every method does nothing unless
/// implemented.
pub trait FrameObserver {
    /// A strategy's run begins.
    fn start(&mut self, _strategy: Strategy) {}

    /// A frame ran.
    fn frame(&mut self, _frame: &BenchFrame<'_>) {}

    /// A frame reached the screen: right after it ran on the `cpu` display, later on the
    /// others (at a later present, or when the run finishes), in the order the frames ran.
    /// A frame never shown is never told.
    fn screen(&mut self, _screen: &ScreenFrame) {}

    /// The strategy's run is over: every frame that will reach the screen has.
    fn finish(&mut self, _result: &BenchResult) {}
}

/// No observer: the run reports its totals only.
impl FrameObserver for () {}

/// An observer that may be absent (`--csv` or `--plot` not asked for).
impl<T: FrameObserver> FrameObserver for Option<T> {
    fn start(&mut self, strategy: Strategy) {
        if let Some(observer) = self {
            observer.start(strategy);
        }
    }

    fn frame(&mut self, frame: &BenchFrame<'_>) {
        if let Some(observer) = self {
            observer.frame(frame);
        }
    }

    fn screen(&mut self, screen: &ScreenFrame) {
        if let Some(observer) = self {
            observer.screen(screen);
        }
    }

    fn finish(&mut self, result: &BenchResult) {
        if let Some(observer) = self {
            observer.finish(result);
        }
    }
}

/// Two observers of the same run, told in turn.
impl<A: FrameObserver, B: FrameObserver> FrameObserver for (A, B) {
    fn start(&mut self, strategy: Strategy) {
        self.0.start(strategy);
        self.1.start(strategy);
    }

    fn frame(&mut self, frame: &BenchFrame<'_>) {
        self.0.frame(frame);
        self.1.frame(frame);
    }

    fn screen(&mut self, screen: &ScreenFrame) {
        self.0.screen(screen);
        self.1.screen(screen);
    }

    fn finish(&mut self, result: &BenchResult) {
        self.0.finish(result);
        self.1.finish(result);
    }
}

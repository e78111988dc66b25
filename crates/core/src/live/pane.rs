//! One pane of the live loop: a [`PaneRun`] (the same unit `bench` runs) with what the
//! window shows of it: the trail, the recent frames and their readouts.

use super::history::{FrameSample, History, OnScreen, READOUT_SPAN, SpanStats};
use super::load::LoadSpent;
use crate::display::DisplayEvent;
use crate::drive::{DrivenPane, PaneFrame};
use crate::input::InputStats;
use crate::metrics::{Metrics, ScreenFrame, TruthMemo};
use crate::run::PaneRun;
use crate::scene::{SceneConfig, ShownScene};
use crate::sim::Simulation;
use crate::timestep::{FrameReport, Nanos, Strategy, TimestepConfig};
use crate::view::{PaneView, Trail};

/// One frame's outcome, for the shell to draw and the panel to show.
#[derive(Clone, Copy, Debug)]
pub struct LiveFrame {
    /// What the engine did.
    pub report: FrameReport,
    /// What to draw.
    pub shown: ShownScene,
    /// What the artificial load spent (the same for every pane of a frame).
    pub load: LoadSpent,
}

/// One pane: a strategy driving its own scene, with its own trail, metrics, spiral
/// detector, history and readouts. Every pane of a loop is fed the same frame times.
#[derive(Clone, Debug)]
pub struct Pane {
    /// Simulation, metrics and spiral detection.
    run: PaneRun,
    /// Recent drawn sphere positions.
    trail: Trail,
    /// Recent frames.
    history: History,
    /// The last frame's outcome.
    last: Option<LiveFrame>,
    /// A resync's shift of `T` not yet recorded in the history (see
    /// [`FrameSample::rebase`]).
    rebase: i64,
}

/// A pane's frame keeps the trail and the history. A frame not `recorded` (paused,
/// delivering no time) runs but leaves the history's frames as they were, so paused time
/// does not scroll the recent frames away. The load is spent after every pane has run and
/// is recorded with `Pane::set_load`.
impl DrivenPane for Pane {
    fn run_mut(&mut self) -> &mut PaneRun {
        &mut self.run
    }

    fn ran(&mut self, frame: PaneFrame<'_>, _truths: &mut TruthMemo) {
        let PaneFrame {
            input,
            timing,
            judged,
            report,
            ..
        } = frame;
        let shown = self.run.shown(report);
        if report.frame_time > 0 || self.trail.is_empty() {
            self.trail
                .push((shown.sphere_position.as_vec3(), shown.real_time));
        }
        if input.time.is_some() {
            self.history.push(FrameSample {
                wall: input.start,
                real_frame: input.interval,
                fed: report.frame_time,
                owed: report.owed,
                steps: u32::try_from(report.steps.len()).unwrap_or(u32::MAX),
                alpha: report.alpha as f32,
                dropped: report.dropped,
                presented_time: report.presented_time,
                shown_time: report.shown_time,
                latest_time: report.latest_time,
                judged,
                accumulator: report.accumulator,
                frame: timing.map_or(0, |timing| timing.frame),
                screen: OnScreen::Pending,
                rebase: std::mem::take(&mut self.rebase),
            });
        }
        self.last = Some(LiveFrame {
            report: *report,
            shown,
            load: LoadSpent::default(),
        });
    }

    /// What the screen did with an earlier frame: its display time joins its history
    /// entry.
    fn settled(&mut self, event: &DisplayEvent, screen: Option<ScreenFrame>) {
        match *event {
            DisplayEvent::Shown { frame, at } => {
                if let Some(screen) = screen {
                    self.history.settle(
                        frame,
                        OnScreen::Shown {
                            at,
                            display_time: screen.display_time,
                        },
                    );
                }
            }
            DisplayEvent::Dropped { frame } => self.history.settle(frame, OnScreen::Dropped),
            DisplayEvent::Repeated { .. } | DisplayEvent::Torn { .. } => {}
        }
    }
}

impl Pane {
    /// A pane at time zero.
    pub(super) fn new(strategy: Strategy, timestep: TimestepConfig, scene: SceneConfig) -> Self {
        Self {
            run: PaneRun::new(strategy, timestep, scene),
            trail: Trail::default(),
            history: History::default(),
            last: None,
            rebase: 0,
        }
    }

    /// Counts shown frames in whole refreshes of `unit` ns, the screen's (0: it has none),
    /// as `bench` does on the same display. A new unit starts the counts over: refreshes of
    /// two lengths do not add up (one refined by a few nanoseconds is the same refresh:
    /// [`crate::display::same_refresh`]).
    pub(super) fn count_refreshes(&mut self, unit: Nanos) {
        let counted = self.run.refresh_unit().unwrap_or(0);
        if !crate::display::same_refresh(counted, unit) {
            self.run.count_refreshes(unit);
        }
    }

    /// Records what the load spent in the frame just run.
    pub(super) fn set_load(&mut self, load: LoadSpent) {
        if let Some(last) = &mut self.last {
            last.load = load;
        }
    }

    /// Back to time zero, forgetting the previous state so nothing smears across the jump.
    pub(super) fn reset(&mut self) {
        self.run.reset();
        self.trail.clear();
        self.history.clear();
        self.last = None;
        self.rebase = 0;
    }

    /// Takes new timestep and scene settings, and this pane's strategy (leaving `fixed`
    /// resyncs real time to the simulation, see [`PaneRun::apply`]).
    pub(super) fn apply(
        &mut self,
        strategy: Strategy,
        timestep: TimestepConfig,
        scene: SceneConfig,
    ) {
        let shift = self.run.apply(strategy, timestep, scene);
        self.rebase = self.rebase.saturating_add(shift);
    }

    /// Buffers a kick for the next step.
    pub(super) fn kick(&mut self) {
        self.run.kick();
    }

    /// The strategy this pane runs.
    pub fn strategy(&self) -> Strategy {
        self.run.strategy()
    }

    /// The engine and the scene.
    pub fn sim(&self) -> &Simulation {
        self.run.sim()
    }

    /// Recent frames.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The last frame's outcome, `None` before the first frame or after a reset.
    pub fn last(&self) -> Option<&LiveFrame> {
        self.last.as_ref()
    }

    /// Metrics since the start or the last reset, exactly as `bench` computes them.
    pub fn run_metrics(&self) -> Metrics {
        self.run.metrics()
    }

    /// Every input policy's measurements in this pane since the start or the last reset.
    pub fn input_stats(&self) -> InputStats {
        self.sim().input_stats()
    }

    /// Whether this pane's owed time is running away.
    pub fn spiralling(&self) -> bool {
        self.run.spiralling()
    }

    /// Whether this pane's spring has exploded.
    pub fn exploded(&self) -> bool {
        self.sim().scene().exploded()
    }

    /// Readouts over the last second of the history, computed now: its frames as of the
    /// last one that ran, with their screen outcomes as settled since.
    ///
    /// They cost every frame in that second, so a frame never computes them: a loop at
    /// 1000 frames a second that did would walk 1000 frames each frame, and a headless
    /// `render` of an hour would pay for them 3.6 million times to read them once. The
    /// window reads them once per drawn frame.
    pub fn window_stats(&self) -> SpanStats {
        self.history.stats(READOUT_SPAN)
    }

    /// What to draw for the last frame; `None` before the first frame or after a reset.
    pub fn pane_view(&self) -> Option<PaneView<'_>> {
        let frame = self.last.as_ref()?;
        let scene = self.sim().scene();
        Some(PaneView::new(
            &frame.shown,
            scene.config(),
            scene.exploded(),
            &self.trail,
        ))
    }
}

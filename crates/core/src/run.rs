//! One pane's run: a strategy's simulation with its metrics and its spiral detection, fed
//! one frame time at a time. `bench` runs one per strategy over a trace; the live loop runs
//! one per pane on the clock. Both advance it through [`crate::drive::FrameDriver`], so
//! they measure the same thing by construction, to the last bit.

use crate::display::DisplayEvent;
use crate::input::InputEvent;
use crate::metrics::{
    DisplayTiming, Metrics, MetricsRecorder, ScreenFrame, SpiralDetector, TruthMemo,
};
use crate::scene::Scene;
use crate::scene::{SceneConfig, ShownScene};
use crate::sim::{FrameWall, Simulation};
use crate::timestep::{
    Drawing, FrameReport, Nanos, RangeError, Strategy, TimestepConfig, ns_from_ms,
};

/// Largest artificial per-step or per-frame cost, ms: the bench's load model and the live
/// loop's load take the same costs, with the same limit.
pub const MAX_COST_MS: f64 = 1000.0;

/// `step_cost_ms` and `render_cost_ms` in nanoseconds, each checked against
/// [`MAX_COST_MS`]; the first out of range is named.
pub fn costs_ns(step_cost_ms: f64, render_cost_ms: f64) -> Result<(Nanos, Nanos), RangeError> {
    for (name, ms) in [("step cost", step_cost_ms), ("render cost", render_cost_ms)] {
        if !(0.0..=MAX_COST_MS).contains(&ms) {
            return Err(RangeError {
                name,
                value: format!("{} ms", crate::text::number(ms)),
                allowed: format!("0 to {MAX_COST_MS} ms"),
            });
        }
    }
    Ok((ns_from_ms(step_cost_ms), ns_from_ms(render_cost_ms)))
}

/// Simulation speed (simulated time over real time) below which a run has broken: the
/// onset of the spiral of death is the lowest load at which a run falls below it or spirals.
/// `sweep` and the window's ramp judge by it. One percent is well above what the uneven
/// split of frames into steps leaves over a run (the remainder an accumulator carries is
/// under one step).
pub const ONSET_SPEED: f64 = 0.99;

/// Whether a run at `sim_speed` of real time, `spiral` or not, has broken (see
/// [`ONSET_SPEED`]).
pub fn broken(sim_speed: f64, spiral: bool) -> bool {
    spiral || sim_speed < ONSET_SPEED
}

/// A frame whose carried load (step work owed from the previous frame) exceeds this has
/// frozen the loop: `bench` stops there and counts a spiral, the live loop raises the alarm
/// and caps what it carries. A minute is far beyond any hitch a trace records and keeps the
/// number of steps a runaway run computes bounded.
pub const FROZEN_LOAD: Nanos = 60_000_000_000;

/// Whether a frame carrying `load` of work has frozen the loop (see [`FROZEN_LOAD`]).
pub fn freezes(load: Nanos) -> bool {
    load > FROZEN_LOAD
}

/// A strategy driving its scene, with the metrics `bench` reports and spiral detection.
#[derive(Clone, Debug)]
pub struct PaneRun {
    /// The engine and the scene.
    sim: Simulation,
    /// Metrics since the start or the last reset.
    recorder: MetricsRecorder,
    /// Whether owed time is running away.
    spiral: SpiralDetector,
}

impl PaneRun {
    /// A run at time zero.
    pub fn new(strategy: Strategy, timestep: TimestepConfig, scene: SceneConfig) -> Self {
        let sim = Simulation::new(strategy, timestep, scene);
        let dt = sim.engine().dt();
        Self {
            sim,
            recorder: MetricsRecorder::default(),
            spiral: SpiralDetector::new(dt),
        }
    }

    /// Advances one render frame of `frame_time`: plans and takes the steps, records the
    /// metrics, and tells the spiral detector what the steps cost (`step_work` of the
    /// number of steps, in the simulation's time base). `display` places the frame on a
    /// display's clock, whose events [`Self::settle`] then takes; `None` shows it at `T_i`
    /// (the `cpu` display), and the frame comes back measured at once. Returns what the
    /// engine did, what to draw, and the frame at the screen when it is known now.
    pub fn frame(
        &mut self,
        frame_time: Nanos,
        step_work: impl FnOnce(u64) -> Nanos,
        display: Option<DisplayTiming>,
    ) -> (FrameReport, ShownScene, Option<ScreenFrame>) {
        let (report, screen) = self.advance(
            frame_time,
            &[],
            FrameWall::default(),
            step_work,
            display,
            &mut TruthMemo::default(),
        );
        let shown = self.sim.scene().shown(&report);
        (report, shown, screen)
    }

    /// [`Self::frame`] for a frame that read `events`, received up to `wall.now` on the
    /// stopwatch (they are routed to the steps, and their latency is measured when the
    /// frames that show them reach the screen), without saying what to draw
    /// ([`Self::shown`] says it, when it is wanted): the bench measures every frame and
    /// draws none. `truths` answers where the spring truly is (shared by the panes that run
    /// frame by frame together).
    pub fn advance(
        &mut self,
        frame_time: Nanos,
        events: &[InputEvent],
        wall: FrameWall,
        step_work: impl FnOnce(u64) -> Nanos,
        display: Option<DisplayTiming>,
        truths: &mut TruthMemo,
    ) -> (FrameReport, Option<ScreenFrame>) {
        let delay = display.and_then(|timing| timing.predicted_delay());
        let report = self.sim.advance(frame_time, events, wall, delay);
        let screen = measure(
            &mut self.recorder,
            self.sim.scene(),
            &report,
            display,
            truths,
        );
        if let Some(screen) = &screen {
            self.sim.input_shown(screen.display_time, screen.shown_time);
        }
        let work = step_work(report.steps.len());
        self.spiral.record(report.owed, work, report.used);
        (report, screen)
    }

    /// `strategy` following this run's steps, which it must take as the run's strategy
    /// does ([`Strategy::steps_as`]): see [`FollowerRun`]. Call it before the first frame;
    /// the follower measures as the run was set up to (its screen's anchor, the refreshes
    /// counted).
    pub fn follower(&self, strategy: Strategy) -> FollowerRun {
        debug_assert_eq!(
            self.sim.engine().frames(),
            0,
            "followed from the first frame"
        );
        FollowerRun {
            drawing: Drawing::new(strategy),
            recorder: self.recorder.clone(),
        }
    }

    /// What to draw for the frame `report` describes, the last one run.
    pub fn shown(&self, report: &FrameReport) -> ShownScene {
        self.sim.scene().shown(report)
    }

    /// The run starts from a shown frame, which reached the screen at `at` on the display's
    /// clock (a capture's first row: see [`crate::metrics::ScreenRecorder::anchor`]). Call
    /// it before the first frame.
    pub fn anchor_screen(&mut self, at: Nanos) {
        self.recorder.anchor_screen(at);
    }

    /// Counts shown frames in whole refreshes of `unit` ns (a display with refreshes: see
    /// [`crate::metrics::RefreshHistograms`]).
    pub fn count_refreshes(&mut self, unit: Nanos) {
        self.recorder.count_refreshes(unit);
    }

    /// The refresh shown frames are counted in, ns; `None` when they are not counted.
    pub fn refresh_unit(&self) -> Option<Nanos> {
        self.recorder.refresh_unit()
    }

    /// Takes a display event for a frame run earlier: a shown frame is measured (display
    /// latency and judder) and returned.
    pub fn settle(&mut self, event: &DisplayEvent) -> Option<ScreenFrame> {
        let screen = self.recorder.settle(event);
        if let Some(screen) = &screen {
            self.sim.input_shown(screen.display_time, screen.shown_time);
        }
        screen
    }

    /// Back to time zero with fresh metrics, forgetting the previous state and the
    /// accumulator.
    pub fn reset(&mut self) {
        self.sim.reset();
        self.recorder = MetricsRecorder::default();
        self.spiral.reset(self.sim.engine().dt());
    }

    /// Takes a strategy and new timestep and scene settings from the next frame on,
    /// without losing or inventing time. A new step size restarts spiral detection.
    /// Leaving `fixed` or an engine preset resyncs real time to the simulation (see
    /// [`crate::timestep::Engine::resync`]): the strategy that follows real time does not
    /// inherit the lag (or lead) they built up. Returns that shift of `T`, ns.
    pub fn apply(
        &mut self,
        strategy: Strategy,
        timestep: TimestepConfig,
        scene: SceneConfig,
    ) -> i64 {
        let engine = self.sim.engine_mut();
        let before = (engine.strategy(), engine.dt());
        let leaving =
            before.0 != strategy && (before.0 == Strategy::Fixed || before.0.preset().is_some());
        engine.set_strategy(strategy);
        engine.set_config(timestep);
        let shift = if leaving { engine.resync() } else { 0 };
        if engine.dt() != before.1 {
            self.spiral.reset(engine.dt());
        }
        self.recorder.rebase(shift);
        self.sim.input_rebase(shift);
        self.sim.set_scene_config(scene);
        shift
    }

    /// Buffers a kick for the next step.
    pub fn kick(&mut self) {
        self.sim.kick();
    }

    /// The metrics since the start or the last reset.
    pub fn metrics(&self) -> Metrics {
        self.recorder.metrics(self.sim.scene())
    }

    /// Whether the next frame will be judged by the smoothness metrics (a step happened in
    /// an earlier frame).
    pub fn judging(&self) -> bool {
        self.recorder.judging()
    }

    /// Whether owed time is running away.
    pub fn spiralling(&self) -> bool {
        self.spiral.spiralling()
    }

    /// The engine and the scene.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.sim.engine().strategy()
    }
}

/// Records a frame `report` describes, drawn from `scene`, in `recorder`: the spring drawn
/// against the truth, and the frame at the screen when it is known now.
fn measure(
    recorder: &mut MetricsRecorder,
    scene: &Scene,
    report: &FrameReport,
    display: Option<DisplayTiming>,
    truths: &mut TruthMemo,
) -> Option<ScreenFrame> {
    let drawn = scene.drawn_spring(report.drawn).x;
    recorder.record(report, drawn, scene, display, truths)
}

/// Another strategy following a [`PaneRun`]'s steps ([`PaneRun::follower`]). Strategies
/// that step alike ([`Strategy::steps_as`]: the accumulator family, say) take the same steps
/// from the same frames and differ only in what they draw, so a follower draws the run's
/// frames its own way and measures what it draws, without stepping: what it measures is
/// what a run of its own strategy would, to the bit. It measures no inputs (a run routes
/// them to its steps and measures them for its own strategy only), and the run must take
/// no kick or change of settings (the bench's runs take none).
#[derive(Clone, Debug)]
pub struct FollowerRun {
    /// The strategy and how it draws the steps.
    drawing: Drawing,
    /// Its metrics.
    recorder: MetricsRecorder,
}

impl FollowerRun {
    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.drawing.strategy()
    }

    /// The frame `run` has just run as this strategy draws it, placed on the display as
    /// it was (`display`); [`Self::measure`] measures it.
    pub fn draw(&mut self, run: &PaneRun, display: Option<DisplayTiming>) -> FrameReport {
        let delay = display.and_then(|timing| timing.predicted_delay());
        run.sim.engine().drawn(&mut self.drawing, delay)
    }

    /// Measures the frame `run` has just run as this strategy drew it (`report`, from
    /// [`Self::draw`]), asking `truths` where the spring truly is. Returns the frame at the
    /// screen when it is known now.
    pub fn measure(
        &mut self,
        run: &PaneRun,
        report: &FrameReport,
        display: Option<DisplayTiming>,
        truths: &mut TruthMemo,
    ) -> Option<ScreenFrame> {
        measure(&mut self.recorder, run.sim.scene(), report, display, truths)
    }

    /// Takes over `other`'s measurements so far: for a follower that has drawn every frame
    /// so far exactly as `other` did, and so would have measured what it measured (the
    /// bench measures such strategies once while they draw alike).
    pub fn measured_as(&mut self, other: &FollowerRun) {
        self.recorder.clone_from(&other.recorder);
    }

    /// Takes a display event for a frame it drew earlier (see [`PaneRun::settle`]).
    pub fn settle(&mut self, event: &DisplayEvent) -> Option<ScreenFrame> {
        self.recorder.settle(event)
    }

    /// The metrics since the start, of `run`'s steps as this strategy drew them.
    pub fn metrics(&self, run: &PaneRun) -> Metrics {
        self.recorder.metrics(run.sim.scene())
    }
}

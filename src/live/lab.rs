//! The live loop: real (or virtual) time in, every lane (pane) advanced on the same frame
//! time, load spent once, readouts kept. The window drives it once per redraw and draws
//! what it says.

use super::history::{FrameSample, History, READOUT_WINDOW, WindowStats};
use super::load::{LoadModel, LoadSpent};
use super::settings::{LiveSettings, MAX_PANES};
use super::stopwatch::Stopwatch;
use crate::metrics::{Metrics, MetricsRecorder, SpiralDetector};
use crate::ring::Ring;
use crate::scene::{SceneConfig, ShownScene};
use crate::sim::Simulation;
use crate::timestep::{
    FrameClock, FrameReport, NANOS_PER_SECOND, Nanos, RangeError, Strategy, TimestepConfig,
};
use crate::view::{PaneView, Trail};

/// Presents the present-rate estimate keeps.
const PRESENT_RING: usize = 256;

/// One frame's outcome, for the shell to draw and the panel to show.
#[derive(Clone, Copy, Debug)]
pub struct LiveFrame {
    /// What the engine did.
    pub report: FrameReport,
    /// What to draw.
    pub shown: ShownScene,
    /// What the artificial load spent.
    pub load: LoadSpent,
}

/// One pane of the loop: a strategy driving its own scene, with its own trail, metrics,
/// spiral detector and history. Every lane of a loop is fed the same frame times.
#[derive(Clone, Debug)]
pub struct Lane {
    /// The engine and the scene.
    sim: Simulation,
    /// Recent drawn sphere positions.
    trail: Trail,
    /// Metrics since the start or the last reset (the same recorder `bench` uses).
    recorder: MetricsRecorder,
    /// Spiral detection over recent frames.
    spiral: SpiralDetector,
    /// Recent frames.
    history: History,
    /// The last frame's outcome.
    last: Option<LiveFrame>,
}

impl Lane {
    /// A lane at time zero.
    fn new(strategy: Strategy, timestep: TimestepConfig, scene: SceneConfig) -> Self {
        Self {
            sim: Simulation::new(strategy, timestep, scene),
            trail: Trail::default(),
            recorder: MetricsRecorder::default(),
            spiral: SpiralDetector::new(timestep.dt_ns()),
            history: History::default(),
            last: None,
        }
    }

    /// Runs the strategy and the scene on one frame time (the load is spent after every
    /// lane has stepped; [`Self::finish_frame`] records it).
    fn step_frame(&mut self, frame_time: Nanos) -> (FrameReport, ShownScene) {
        let (report, shown) = self.sim.frame(frame_time);
        if report.frame_time > 0 || self.trail.is_empty() {
            self.trail
                .push(shown.sphere_position.as_vec3(), shown.real_time);
        }
        (report, shown)
    }

    /// Records the frame [`Self::step_frame`] ran: metrics, spiral detection, history.
    /// `step_work` is what this lane's steps cost, in the simulation's time base.
    fn finish_frame(
        &mut self,
        (report, shown): (FrameReport, ShownScene),
        load: LoadSpent,
        step_work: Nanos,
        wall: Nanos,
        real_frame: Nanos,
    ) {
        let judged = self.recorder.judging();
        self.recorder.record(&report, &shown, self.sim.scene());
        self.spiral.record(report.owed, step_work, report.used);
        self.history.push(FrameSample {
            wall,
            real_frame,
            fed: report.frame_time,
            owed: report.owed,
            steps: u32::try_from(report.steps.len()).unwrap_or(u32::MAX),
            alpha: report.alpha as f32,
            dropped: report.dropped,
            presented_time: report.presented_time,
            shown_time: report.shown_time,
            latest_time: report.latest_time,
            judged,
        });
        self.last = Some(LiveFrame {
            report,
            shown,
            load,
        });
    }

    /// Back to time zero, forgetting the previous state so nothing smears across the jump.
    fn reset(&mut self) {
        self.sim.reset();
        self.trail.clear();
        self.recorder = MetricsRecorder::default();
        self.spiral.reset(self.sim.engine().config().dt_ns());
        self.history.clear();
        self.last = None;
    }

    /// Takes new timestep and scene settings, and this lane's strategy.
    fn apply(&mut self, strategy: Strategy, timestep: TimestepConfig, scene: SceneConfig) {
        if timestep.dt != self.sim.engine().config().dt {
            self.spiral.reset(timestep.dt_ns());
        }
        let engine = self.sim.engine_mut();
        engine.set_strategy(strategy);
        engine.set_config(timestep);
        self.sim.scene_mut().set_config(scene);
    }

    /// The strategy this lane runs.
    pub fn strategy(&self) -> Strategy {
        self.sim.engine().strategy()
    }

    /// The engine and the scene.
    pub fn sim(&self) -> &Simulation {
        &self.sim
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
        self.recorder.metrics(self.sim.scene())
    }

    /// Whether this lane's owed time is running away.
    pub fn spiralling(&self) -> bool {
        self.spiral.spiralling()
    }

    /// Whether this lane's spring has exploded.
    pub fn exploded(&self) -> bool {
        self.sim.scene().exploded()
    }

    /// Readouts over the last second; `scratch` is reused for the percentiles.
    pub fn window_stats(&self, scratch: &mut Vec<Nanos>) -> WindowStats {
        self.history.stats(READOUT_WINDOW, scratch)
    }

    /// What to draw for the last frame; `None` before the first frame or after a reset.
    pub fn pane_view(&self) -> Option<PaneView<'_>> {
        let frame = self.last.as_ref()?;
        let scene = self.sim.scene();
        Some(PaneView::new(
            &frame.shown,
            scene.config(),
            scene.exploded(),
            &self.trail,
        ))
    }
}

/// The simulations behind the window, driven by one stopwatch: one lane, or a lane per
/// comparison pane. Each frame reads the clock once, feeds every lane the same frame time,
/// and spends the artificial load once (the per-step cost for the focused lane's steps).
#[derive(Debug)]
pub struct LiveLoop<S: Stopwatch> {
    /// Where time comes from and where load is spent.
    stopwatch: S,
    /// The settings in force.
    settings: LiveSettings,
    /// Pause, single step, time scale.
    clock: FrameClock,
    /// Artificial load.
    load: LoadModel,
    /// The panes' simulations; never more than [`MAX_PANES`], allocated up front.
    lanes: Vec<Lane>,
    /// Stopwatch time the last frame started; `None` before the first.
    last_frame_start: Option<Nanos>,
    /// Times of recent presents.
    presents: Ring<Nanos>,
    /// Scratch for percentiles.
    scratch: Vec<Nanos>,
}

impl<S: Stopwatch> LiveLoop<S> {
    /// A loop at time zero with checked settings.
    pub fn new(stopwatch: S, settings: LiveSettings) -> Result<Self, RangeError> {
        settings.validate()?;
        let timestep = settings.timestep()?;
        let scene = settings.scene(&SceneConfig::new())?;
        let mut clock = FrameClock::default();
        clock.set_time_scale(settings.time_scale)?;
        let mut lanes = Vec::with_capacity(MAX_PANES);
        lanes.extend(
            settings
                .lane_strategies()
                .iter()
                .map(|&strategy| Lane::new(strategy, timestep, scene)),
        );
        Ok(Self {
            stopwatch,
            settings,
            clock,
            load: LoadModel::new(settings.load),
            lanes,
            last_frame_start: None,
            presents: Ring::new(PRESENT_RING),
            scratch: Vec::with_capacity(super::history::HISTORY_CAPACITY),
        })
    }

    /// The settings in force.
    pub fn settings(&self) -> &LiveSettings {
        &self.settings
    }

    /// Takes new settings from the next frame on; a bad value is named and nothing changes.
    /// Switching the single pane's strategy or the step neither loses nor invents time.
    /// Turning the comparison on or off, or changing its panes (their number or a pane's
    /// strategy), restarts every pane at time zero together, so all panes start from the
    /// same state.
    pub fn apply(&mut self, settings: LiveSettings) -> Result<(), RangeError> {
        if settings == self.settings {
            return Ok(());
        }
        settings.validate()?;
        let timestep = settings.timestep()?;
        let scene = settings.scene(self.lanes[0].sim.scene().config())?;
        self.clock.set_time_scale(settings.time_scale)?;
        let strategies = settings.lane_strategies();
        // Comparison panes must start from one state to be comparable: any change to them
        // restarts them all. The single pane switches strategy in place.
        let restart = settings.compare != self.settings.compare
            || strategies.len() != self.lanes.len()
            || (settings.compare && settings.panes != self.settings.panes);
        if restart {
            self.lanes.truncate(strategies.len());
            while self.lanes.len() < strategies.len() {
                self.lanes
                    .push(Lane::new(strategies[self.lanes.len()], timestep, scene));
            }
        }
        for (lane, &strategy) in self.lanes.iter_mut().zip(strategies) {
            lane.apply(strategy, timestep, scene);
        }
        self.load.set_settings(settings.load);
        self.settings = settings;
        if restart {
            self.reset();
        }
        Ok(())
    }

    /// Advances one render frame: reads the stopwatch once, feeds the same frame time to
    /// every lane, spends the artificial load once, and records the frame in every lane.
    pub fn frame(&mut self) -> LiveFrame {
        let now = self.stopwatch.now();
        let measured = self
            .last_frame_start
            .map_or(0, |start| now.saturating_sub(start));
        self.last_frame_start = Some(now);
        let real_frame = measured.saturating_add(self.load.take_debt());
        let frame_time = self.clock.tick(real_frame);
        let mut stepped = [None; MAX_PANES];
        for (lane, slot) in self.lanes.iter_mut().zip(&mut stepped) {
            *slot = Some(lane.step_frame(frame_time));
        }
        let focus = self.settings.focus_index();
        let focus_steps = stepped[focus].map_or(0, |(report, _)| report.steps.len());
        let load = self.load.spend(&mut self.stopwatch, now, focus_steps);
        let time_scale = self.clock.time_scale();
        for (lane, slot) in self.lanes.iter_mut().zip(stepped) {
            let Some(frame) = slot else { continue };
            // The detector compares step work with the frame time it simulated: both in
            // the simulation's time base, so a time scale above 1 that makes the loop
            // spiral counts. Each lane is judged on what its own steps would cost.
            let work = self.load.step_work(frame.0.steps.len());
            let scaled_work = (work as f64 * time_scale).round() as Nanos;
            lane.finish_frame(frame, load, scaled_work, now, real_frame);
        }
        self.lanes[focus]
            .last
            .expect("every lane recorded this frame")
    }

    /// Notes that a frame was handed to the display now (for the measured present rate).
    pub fn record_present(&mut self) {
        self.presents.push(self.stopwatch.now());
    }

    /// Frames handed to the display per second over the last second, from
    /// [`Self::record_present`]. Under vsync a present blocks until the display takes the
    /// frame, so this is the display's rate; without vsync it equals fps.
    pub fn present_rate_hz(&self) -> f64 {
        let Some(&newest) = self.presents.latest() else {
            return 0.0;
        };
        let from = newest.saturating_sub(NANOS_PER_SECOND);
        let count = self
            .presents
            .iter_from(0)
            .rev()
            .take_while(|&&t| t >= from)
            .count();
        let first = self
            .presents
            .iter_from(self.presents.len() - count)
            .next()
            .copied()
            .unwrap_or(newest);
        if count > 1 && newest > first {
            (count - 1) as f64 * 1e9 / (newest - first) as f64
        } else {
            0.0
        }
    }

    /// Sleeps until the frame cap's next frame is due (no-op when the cap is off).
    pub fn pace(&mut self) {
        if self.settings.frame_cap_hz > 0.0
            && let Some(start) = self.last_frame_start
        {
            let period = (1e9 / self.settings.frame_cap_hz).round() as Nanos;
            self.stopwatch.sleep_until(start.saturating_add(period));
        }
    }

    /// Back to time zero: every lane's scene, engine, metrics, trail and history, and the
    /// carried load; the previous states are forgotten so nothing is smeared across the
    /// jump. Settings and pause stay.
    pub fn reset(&mut self) {
        for lane in &mut self.lanes {
            lane.reset();
        }
        self.load.reset();
    }

    /// Buffers a kick for the next step of every lane.
    pub fn kick(&mut self) {
        for lane in &mut self.lanes {
            lane.sim.kick();
        }
    }

    /// Whether time is stopped.
    pub fn paused(&self) -> bool {
        self.clock.paused()
    }

    /// Stops or restarts time (for every lane: they share the clock).
    pub fn set_paused(&mut self, paused: bool) {
        self.clock.set_paused(paused);
    }

    /// Pauses and advances every lane exactly one frame of the single-step length on the
    /// next frame.
    pub fn single_step(&mut self) {
        self.clock.single_step();
    }

    /// Whether the focused lane is spiralling now, or the carried load froze.
    pub fn spiralling(&self) -> bool {
        self.focus().spiralling() || self.load.frozen()
    }

    /// Whether the last frame carried more load than the frozen limit (a frozen game).
    pub fn frozen(&self) -> bool {
        self.load.frozen()
    }

    /// Whether any lane's spring has exploded.
    pub fn exploded(&self) -> bool {
        self.lanes.iter().any(Lane::exploded)
    }

    /// The lanes, in pane order.
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// The focused lane: the one whose steps the load costs and the readouts show.
    pub fn focus(&self) -> &Lane {
        &self.lanes[self.settings.focus_index()]
    }

    /// The focused lane's simulation.
    pub fn sim(&self) -> &Simulation {
        &self.focus().sim
    }

    /// The stopwatch (tests advance a virtual one between frames).
    pub fn stopwatch_mut(&mut self) -> &mut S {
        &mut self.stopwatch
    }

    /// The stopwatch.
    pub fn stopwatch(&self) -> &S {
        &self.stopwatch
    }

    /// The focused lane's recent frames.
    pub fn history(&self) -> &History {
        &self.focus().history
    }

    /// The focused lane's last frame, `None` before the first frame or after a reset.
    pub fn last(&self) -> Option<&LiveFrame> {
        self.focus().last()
    }

    /// The focused lane's metrics since the start or the last reset, exactly as `bench`
    /// computes them.
    pub fn run_metrics(&self) -> Metrics {
        self.focus().run_metrics()
    }

    /// The focused lane's readouts over the last second.
    pub fn window_stats(&mut self) -> WindowStats {
        self.lane_stats(self.settings.focus_index())
    }

    /// Lane `index`'s readouts over the last second (default stats past the last lane).
    pub fn lane_stats(&mut self, index: usize) -> WindowStats {
        self.lanes
            .get(index)
            .map(|lane| lane.window_stats(&mut self.scratch))
            .unwrap_or_default()
    }

    /// What to draw for the focused lane's last frame; `None` before the first frame or
    /// after a reset.
    pub fn pane_view(&self) -> Option<PaneView<'_>> {
        self.focus().pane_view()
    }
}

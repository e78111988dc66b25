//! The live loop: real (or virtual) time in, one simulation advanced, load spent, readouts
//! kept. The window drives it once per redraw and draws what it says.

use super::history::{FrameSample, History, READOUT_WINDOW, WindowStats};
use super::load::{LoadModel, LoadSpent};
use super::settings::LiveSettings;
use super::stopwatch::Stopwatch;
use crate::metrics::{Metrics, MetricsRecorder, SpiralDetector};
use crate::ring::Ring;
use crate::scene::{SceneConfig, ShownScene};
use crate::sim::Simulation;
use crate::timestep::{FrameClock, FrameReport, NANOS_PER_SECOND, Nanos, RangeError};
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

/// A simulation driven by a stopwatch, with load, metrics and history.
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
    /// Stopwatch time the last frame started; `None` before the first.
    last_frame_start: Option<Nanos>,
    /// The last frame's outcome.
    last: Option<LiveFrame>,
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
        Ok(Self {
            stopwatch,
            settings,
            clock,
            load: LoadModel::new(settings.load),
            sim: Simulation::new(settings.strategy, timestep, scene),
            trail: Trail::default(),
            recorder: MetricsRecorder::default(),
            spiral: SpiralDetector::new(timestep.dt_ns()),
            history: History::default(),
            last_frame_start: None,
            last: None,
            presents: Ring::new(PRESENT_RING),
            scratch: Vec::with_capacity(super::history::HISTORY_CAPACITY),
        })
    }

    /// The settings in force.
    pub fn settings(&self) -> &LiveSettings {
        &self.settings
    }

    /// Takes new settings from the next frame on; a bad value is named and nothing changes.
    /// Switching strategy or step neither loses nor invents time.
    pub fn apply(&mut self, settings: LiveSettings) -> Result<(), RangeError> {
        if settings == self.settings {
            return Ok(());
        }
        settings.validate()?;
        let timestep = settings.timestep()?;
        let scene = settings.scene(self.sim.scene().config())?;
        self.clock.set_time_scale(settings.time_scale)?;
        if timestep.dt != self.sim.engine().config().dt {
            self.spiral.reset(timestep.dt_ns());
        }
        let engine = self.sim.engine_mut();
        engine.set_strategy(settings.strategy);
        engine.set_config(timestep);
        self.sim.scene_mut().set_config(scene);
        self.load.set_settings(settings.load);
        self.settings = settings;
        Ok(())
    }

    /// Advances one render frame: reads the stopwatch, runs the strategy and the scene,
    /// spends the artificial load, and records the frame.
    pub fn frame(&mut self) -> LiveFrame {
        let now = self.stopwatch.now();
        let measured = self
            .last_frame_start
            .map_or(0, |start| now.saturating_sub(start));
        self.last_frame_start = Some(now);
        let real_frame = measured.saturating_add(self.load.take_debt());
        let frame_time = self.clock.tick(real_frame);
        let (report, shown) = self.sim.frame(frame_time);
        let judged = self.recorder.judging();
        self.recorder.record(&report, &shown, self.sim.scene());
        if report.frame_time > 0 || self.trail.is_empty() {
            self.trail
                .push(shown.sphere_position.as_vec3(), shown.real_time);
        }
        let load = self
            .load
            .spend(&mut self.stopwatch, now, report.steps.len());
        // The detector compares step work with the frame time it simulated: both in the
        // simulation's time base, so a time scale above 1 that makes the loop spiral counts.
        let scaled_work = (load.step_work as f64 * self.clock.time_scale()).round() as Nanos;
        self.spiral.record(report.owed, scaled_work, report.used);
        self.history.push(FrameSample {
            wall: now,
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
        let frame = LiveFrame {
            report,
            shown,
            load,
        };
        self.last = Some(frame);
        frame
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

    /// Back to time zero: scene, engine, metrics, trail and history; the previous state is
    /// forgotten so nothing is smeared across the jump. Settings and pause stay.
    pub fn reset(&mut self) {
        self.sim.reset();
        self.trail.clear();
        self.recorder = MetricsRecorder::default();
        self.spiral.reset(self.sim.engine().config().dt_ns());
        self.history.clear();
        self.load.reset();
        self.last = None;
    }

    /// Buffers a kick for the next step.
    pub fn kick(&mut self) {
        self.sim.kick();
    }

    /// Whether time is stopped.
    pub fn paused(&self) -> bool {
        self.clock.paused()
    }

    /// Stops or restarts time.
    pub fn set_paused(&mut self, paused: bool) {
        self.clock.set_paused(paused);
    }

    /// Pauses and advances exactly one frame of the single-step length on the next frame.
    pub fn single_step(&mut self) {
        self.clock.single_step();
    }

    /// Whether the loop is spiralling now, or its carried load froze.
    pub fn spiralling(&self) -> bool {
        self.spiral.spiralling() || self.load.frozen()
    }

    /// Whether the last frame carried more load than the frozen limit (a frozen game).
    pub fn frozen(&self) -> bool {
        self.load.frozen()
    }

    /// Whether the spring has exploded.
    pub fn exploded(&self) -> bool {
        self.sim.scene().exploded()
    }

    /// The simulation.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The stopwatch (tests advance a virtual one between frames).
    pub fn stopwatch_mut(&mut self) -> &mut S {
        &mut self.stopwatch
    }

    /// The stopwatch.
    pub fn stopwatch(&self) -> &S {
        &self.stopwatch
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

    /// Readouts over the last second.
    pub fn window_stats(&mut self) -> WindowStats {
        self.history.stats(READOUT_WINDOW, &mut self.scratch)
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

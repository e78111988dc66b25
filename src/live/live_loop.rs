//! The live loop: real (or virtual) time in, every pane advanced on the same frame time,
//! load spent once, readouts kept. The window drives it once per redraw and draws the
//! [`Snapshot`] it ends each frame with.

use super::history::{HISTORY_CAPACITY, History, WindowStats};
use super::load::LoadModel;
use super::pane::{LiveFrame, Pane, PaneInput};
use super::readouts::Readouts;
use super::screen::{LiveScreen, ScreenFacts};
use super::settings::{LiveSettings, MAX_PANES};
use super::snapshot::{PaneSnapshot, Snapshot};
use super::stopwatch::Stopwatch;
use crate::metrics::DisplayTiming;
use crate::metrics::Metrics;
use crate::ring::Ring;
use crate::scene::SceneConfig;
use crate::sim::Simulation;
use crate::timestep::{FrameClock, FrameFilters, NANOS_PER_SECOND, Nanos, RangeError};
use crate::view::PaneView;

/// Presents the present-rate estimate keeps.
const PRESENT_RING: usize = 256;

/// The simulations behind the window, driven by one stopwatch: one pane, or 2 to
/// [`MAX_PANES`] comparison panes. Each frame reads the clock once, feeds every pane the
/// same frame time, and spends the artificial load once (the per-step cost for the focused
/// pane's steps).
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
    /// The panes; never more than [`MAX_PANES`], allocated up front.
    panes: Vec<Pane>,
    /// Stopwatch time the last frame started; `None` before the first.
    last_frame_start: Option<Nanos>,
    /// Times of recent presents.
    presents: Ring<Nanos>,
    /// The modeled screen.
    screen: LiveScreen,
    /// The frame-time filters, built for the screen's refresh period.
    filters: FrameFilters,
    /// The refresh period the filters were built for.
    filters_period: Nanos,
    /// Whether a frame has run that the screen has not been given yet.
    unpresented: bool,
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
        let mut panes = Vec::with_capacity(MAX_PANES);
        panes.extend(
            settings
                .pane_strategies()
                .iter()
                .map(|&strategy| Pane::new(strategy, timestep, scene)),
        );
        let mut live = Self {
            stopwatch,
            settings,
            clock,
            load: LoadModel::new(settings.load),
            panes,
            last_frame_start: None,
            presents: Ring::new(PRESENT_RING),
            screen: LiveScreen::new(settings.refresh_override_hz),
            filters: FrameFilters::default(),
            filters_period: 0,
            unpresented: false,
            scratch: Vec::with_capacity(HISTORY_CAPACITY),
        };
        live.rebuild_filters();
        Ok(live)
    }

    /// Builds fresh filters for the filter setting and the modeled refresh period.
    fn rebuild_filters(&mut self) {
        self.filters_period = self.screen.refresh_period();
        self.filters = self
            .settings
            .filter
            .build((self.filters_period > 0).then_some(self.filters_period));
    }

    /// Takes what the window knows about its screen (present mode in force, the monitor's
    /// refresh rate); the screen model starts over when it changed.
    pub fn set_screen(&mut self, facts: ScreenFacts) {
        self.screen.set(facts, self.settings.refresh_override_hz);
        if self.screen.refresh_period() != self.filters_period {
            self.rebuild_filters();
        }
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
        let scene = settings.scene(self.panes[0].sim().scene().config())?;
        self.clock.set_time_scale(settings.time_scale)?;
        let strategies = settings.pane_strategies();
        // Comparison panes must start from one state to be comparable: any change to them
        // restarts them all. The single pane switches strategy in place.
        let restart = settings.compare != self.settings.compare
            || strategies.len() != self.panes.len()
            || (settings.compare && settings.panes != self.settings.panes);
        if restart {
            self.panes.truncate(strategies.len());
            while self.panes.len() < strategies.len() {
                self.panes
                    .push(Pane::new(strategies[self.panes.len()], timestep, scene));
            }
        }
        for (pane, &strategy) in self.panes.iter_mut().zip(strategies) {
            pane.apply(strategy, timestep, scene);
        }
        self.load.set_settings(settings.load);
        let filter_changed = settings.filter != self.settings.filter;
        self.settings = settings;
        let facts = self.screen.facts();
        self.screen.set(facts, settings.refresh_override_hz);
        if filter_changed || self.screen.refresh_period() != self.filters_period {
            self.rebuild_filters();
        }
        if restart {
            self.reset();
        }
        Ok(())
    }

    /// Advances one render frame: reads the stopwatch once, feeds the same frame time to
    /// every pane, spends the artificial load once, and returns the focused pane's frame.
    pub fn frame(&mut self) -> LiveFrame {
        let now = self.stopwatch.now();
        // The frame run last reached the display at its present: settle what the screen
        // did with it (and with earlier ones) in every pane.
        if self.unpresented {
            let panes = &mut self.panes;
            self.screen.present(now, |event| {
                for pane in panes.iter_mut() {
                    pane.settle(event);
                }
            });
        }
        self.unpresented = true;
        let measured = self
            .last_frame_start
            .map_or(0, |start| now.saturating_sub(start));
        self.last_frame_start = Some(now);
        let real_frame = measured.saturating_add(self.load.take_debt());
        let ticked = self.clock.tick(real_frame);
        // A paused frame that delivers no time is not a frame of the run: it neither passes
        // through the filters (which would pay out what they hold) nor scrolls the history.
        let idle = self.clock.paused() && ticked == 0;
        let frame_time = if idle { 0 } else { self.filters.apply(ticked) };
        let display = DisplayTiming {
            frame: self.screen.next_frame(),
            wall: now,
            held: self.filters.held(),
        };
        let time_scale = self.clock.time_scale();
        let load = &self.load;
        // The spiral detector compares step work with the frame time it simulated: both in
        // the simulation's time base, so a time scale above 1 that makes the loop spiral
        // counts. Each pane is judged on what its own steps would cost.
        let step_work = |steps: u64| (load.step_work(steps) as f64 * time_scale).round() as Nanos;
        let input = PaneInput {
            frame_time,
            wall: now,
            real_frame,
            display,
            recorded: !idle,
        };
        for pane in &mut self.panes {
            pane.frame(input, step_work, &mut self.scratch);
        }
        let focus = self.settings.focus_index();
        let focus_steps = self.panes[focus].last().map_or(0, |f| f.report.steps.len());
        let spent = self.load.spend(&mut self.stopwatch, now, focus_steps);
        for pane in &mut self.panes {
            pane.set_load(spent);
        }
        self.panes[focus]
            .last()
            .copied()
            .expect("every pane ran this frame")
    }

    /// Notes that the window handed the last frame to the display now, after acquiring
    /// its image blocked for `acquire_wait` (for the measured present rate, and as the
    /// present time the screen model takes).
    pub fn record_present(&mut self, acquire_wait: Nanos) {
        let now = self.stopwatch.now();
        self.presents.push(now);
        self.screen.record_present(now, acquire_wait);
    }

    /// The modeled screen.
    pub fn screen(&self) -> &LiveScreen {
        &self.screen
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

    /// Back to time zero: every pane's scene, engine, metrics, trail and history, and the
    /// carried load; the previous states are forgotten so nothing is smeared across the
    /// jump. Settings and pause stay.
    pub fn reset(&mut self) {
        for pane in &mut self.panes {
            pane.reset();
        }
        self.load.reset();
        self.screen.clear_marks();
        self.rebuild_filters();
    }

    /// Buffers a kick for the next step of every pane.
    pub fn kick(&mut self) {
        for pane in &mut self.panes {
            pane.kick();
        }
    }

    /// Whether time is stopped.
    pub fn paused(&self) -> bool {
        self.clock.paused()
    }

    /// Stops or restarts time (for every pane: they share the clock).
    pub fn set_paused(&mut self, paused: bool) {
        self.clock.set_paused(paused);
    }

    /// Pauses and advances every pane exactly one frame of the single-step length on the
    /// next frame.
    pub fn single_step(&mut self) {
        self.clock.single_step();
    }

    /// Whether the focused pane is spiralling now, or the carried load froze.
    pub fn spiralling(&self) -> bool {
        self.focus().spiralling() || self.load.frozen()
    }

    /// Whether the last frame carried more load than the frozen limit (a frozen game).
    pub fn frozen(&self) -> bool {
        self.load.frozen()
    }

    /// Whether any pane's spring has exploded.
    pub fn exploded(&self) -> bool {
        self.panes.iter().any(Pane::exploded)
    }

    /// The panes, in order.
    pub fn panes(&self) -> &[Pane] {
        &self.panes
    }

    /// The focused pane: the one whose steps the load costs and the readouts show.
    pub fn focus(&self) -> &Pane {
        &self.panes[self.settings.focus_index()]
    }

    /// The focused pane's simulation.
    pub fn sim(&self) -> &Simulation {
        self.focus().sim()
    }

    /// The stopwatch (tests advance a virtual one between frames).
    pub fn stopwatch_mut(&mut self) -> &mut S {
        &mut self.stopwatch
    }

    /// The stopwatch.
    pub fn stopwatch(&self) -> &S {
        &self.stopwatch
    }

    /// The focused pane's recent frames.
    pub fn history(&self) -> &History {
        self.focus().history()
    }

    /// The focused pane's last frame, `None` before the first frame or after a reset.
    pub fn last(&self) -> Option<&LiveFrame> {
        self.focus().last()
    }

    /// The focused pane's metrics since the start or the last reset, exactly as `bench`
    /// computes them.
    pub fn run_metrics(&self) -> Metrics {
        self.focus().run_metrics()
    }

    /// The focused pane's readouts over the last second.
    pub fn window_stats(&self) -> WindowStats {
        self.focus().window_stats()
    }

    /// Pane `index`'s readouts over the last second (default stats past the last pane).
    pub fn pane_stats(&self, index: usize) -> WindowStats {
        self.panes
            .get(index)
            .map(Pane::window_stats)
            .unwrap_or_default()
    }

    /// What to draw for the focused pane's last frame; `None` before the first frame or
    /// after a reset.
    pub fn pane_view(&self) -> Option<PaneView<'_>> {
        self.focus().pane_view()
    }

    /// What the shell shows of the last frame: the settings in force, the readouts, and
    /// each pane's label, history and drawing. The shell only reads it.
    pub fn snapshot(&self) -> Snapshot<'_> {
        let mut panes = [None; MAX_PANES];
        for (slot, pane) in panes.iter_mut().zip(&self.panes) {
            *slot = Some(PaneSnapshot {
                strategy: pane.strategy(),
                dt: pane.sim().engine().dt(),
                history: pane.history(),
                view: pane.pane_view(),
            });
        }
        Snapshot {
            settings: self.settings,
            readouts: Readouts::gather(self),
            panes,
            refreshes: self.screen.marks(),
        }
    }
}

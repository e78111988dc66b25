//! The live loop: real (or virtual) time in, every pane advanced on the same frame time,
//! load spent once, readouts kept. The window drives it once per redraw and draws the
//! [`Snapshot`] it ends each frame with.

use super::frame_spans::FrameSpans;
use super::history::{History, SpanStats};
use super::load::LoadModel;
use super::pane::{LiveFrame, Pane};
use super::ramp::{Ramp, RampCancel};
use super::recorder::{Recorder, RecordingStatus};
use super::recording::{LiveRequest, RecordingHeader, RecordingSink};
use super::screen::{LiveDisplay, MeasuredFacts, ScreenFacts};
use super::settings::{LiveSettings, MAX_PANES};
use super::snapshot::{PaneSnapshot, Snapshot};
use super::stopwatch::Stopwatch;
use crate::display::same_refresh;
use crate::drive::{FrameDriver, FrameInput};
use crate::input::{InputEvent, InputKind};
use crate::metrics::{Metrics, TruthMemo};
use crate::ring::Ring;
use crate::scene::SceneConfig;
use crate::sim::Simulation;
use crate::timestep::{FrameClock, NANOS_PER_SECOND, Nanos, RangeError};
use crate::view::PaneView;

mod feedback;
mod ramp_control;
mod readouts;

pub use feedback::Present;

/// Presents the present-rate estimate keeps.
const PRESENT_RING: usize = 256;

/// Inputs a frame has room for without allocating: far more key presses and releases than
/// arrive between two frames (mouse turns between two frames are merged into one).
const FRAME_INPUTS: usize = 256;

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
    screen: LiveDisplay,
    /// Runs each frame on the panes and the screen model, with the frame-time filters
    /// built for the screen's refresh period.
    driver: FrameDriver,
    /// Where the spring truly is, asked by every pane's metrics (see [`TruthMemo`]).
    truths: TruthMemo,
    /// The refresh period the filters were built for.
    filters_period: Nanos,
    /// Whether a frame has run that the screen has not been given yet.
    unpresented: bool,
    /// The real frame times over the frame statistics' windows.
    frame_spans: FrameSpans,
    /// The recording being written, if one is.
    recorder: Recorder,
    /// While frames are replayed: the recorded stopwatch time of the last one's start.
    replay_clock: Option<Nanos>,
    /// The person's inputs received since the last frame, in order.
    inputs: Vec<InputEvent>,
    /// The load ramp running, or the last one's curves until the next ramp or a reset.
    ramp: Option<Ramp>,
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
            screen: LiveDisplay::new(settings.refresh_override_hz),
            driver: FrameDriver::default(),
            truths: TruthMemo::default(),
            filters_period: 0,
            unpresented: false,
            frame_spans: FrameSpans::new(),
            recorder: Recorder::default(),
            replay_clock: None,
            inputs: Vec::with_capacity(FRAME_INPUTS),
            ramp: None,
        };
        live.rebuild_filters();
        Ok(live)
    }

    /// Builds fresh filters for the filter setting and the modeled refresh period.
    fn rebuild_filters(&mut self) {
        self.filters_period = self.screen.refresh_period();
        self.driver.set_filters(
            self.settings
                .filter
                .build((self.filters_period > 0).then_some(self.filters_period)),
        );
    }

    /// Takes what the window knows about its screen (present mode in force, the monitor's
    /// refresh rate); the screen model starts over when it changed.
    pub(crate) fn set_screen(&mut self, facts: ScreenFacts) {
        if facts != self.screen.facts() {
            self.note(LiveRequest::Screen(facts));
        }
        self.screen.set(facts, self.settings.refresh_override_hz);
        if !same_refresh(self.screen.refresh_period(), self.filters_period) {
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
    ///
    /// A change during a ramp stops it: a per-step load set by hand stays, any other
    /// change puts back the load the ramp started from.
    pub(crate) fn apply(&mut self, settings: LiveSettings) -> Result<(), RangeError> {
        if settings == self.settings {
            return Ok(());
        }
        settings.validate()?;
        let timestep = settings.timestep()?;
        let scene = settings.scene(self.panes[0].sim().scene().config())?;
        self.clock.set_time_scale(settings.time_scale)?;
        let mut settings = settings;
        if let Some(ramp) = self.ramp.as_mut().filter(|ramp| ramp.running()) {
            let by_hand = settings.load.step_cost_ms != self.settings.load.step_cost_ms;
            if by_hand {
                ramp.cancel(RampCancel::LoadSetByHand);
            } else {
                ramp.cancel(RampCancel::SettingsChanged);
                settings.load.step_cost_ms = ramp.base_step_cost_ms();
            }
        }
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
        if filter_changed || !same_refresh(self.screen.refresh_period(), self.filters_period) {
            self.rebuild_filters();
        }
        self.note(LiveRequest::Settings(settings));
        if restart {
            self.reset_panes();
        }
        Ok(())
    }

    /// Advances one render frame: reads the stopwatch's frame start once, feeds the same frame time to
    /// every pane, spends the artificial load once, and returns the focused pane's frame.
    pub fn frame(&mut self) -> LiveFrame {
        let now = self.stopwatch.frame_start();
        if let Some(load_ms) = self.ramp.as_mut().and_then(|ramp| ramp.load_at(now)) {
            self.set_step_cost(load_ms);
        }
        let measured = self
            .last_frame_start
            .map_or(0, |start| now.saturating_sub(start));
        let carried = self.load.take_debt();
        let real_frame = measured.saturating_add(carried);
        self.replay_clock = None;
        let frame = self.run_frame(now, real_frame, carried, true);
        self.observe_ramp(real_frame, frame.report.frame_time);
        frame
    }

    /// Runs a recorded frame: started at `now` on the recording's stopwatch, `real_frame`
    /// long (measured plus the load carried in, as [`Self::frame`] found it). The
    /// artificial load is not spent: the recorded frame times hold it already.
    pub fn replay_frame(&mut self, now: Nanos, real_frame: Nanos) -> LiveFrame {
        self.end_ramp(RampCancel::Replay);
        self.replay_clock = Some(now);
        self.load.take_debt();
        self.run_frame(now, real_frame, 0, false)
    }

    /// The body of a frame that started at `now` and is `real_frame` long (`carried` of
    /// it load carried in); `live` spends the artificial load after it.
    fn run_frame(
        &mut self,
        now: Nanos,
        real_frame: Nanos,
        carried: Nanos,
        live: bool,
    ) -> LiveFrame {
        self.recorder.frame_started(now, real_frame, carried);
        // Every pane counts its shown frames in the screen's refreshes, as the bench does:
        // from its first frame, and again from a reset or a new refresh rate.
        let unit = self.screen.refresh_unit();
        for pane in &mut self.panes {
            pane.count_refreshes(unit);
        }
        // The frame run last reached the display at its present: settle what the screen
        // did with it (and with earlier ones) in every pane.
        if self.unpresented {
            self.driver.present(&mut self.screen, &mut self.panes, now);
        }
        self.unpresented = true;
        self.last_frame_start = Some(now);
        let ticked = self.clock.tick(real_frame);
        // A paused frame that delivers no time is not a frame of the run: it neither passes
        // through the filters (which would pay out what they hold) nor scrolls the history.
        let idle = self.clock.paused() && ticked == 0;
        if !idle {
            self.frame_spans.record(now, real_frame);
        }
        let time_scale = self.clock.time_scale();
        let load = &self.load;
        // The spiral detector compares step work with the frame time it simulated: both in
        // the simulation's time base, so a time scale above 1 that makes the loop spiral
        // counts. Each pane is judged on what its own steps would cost.
        let step_work = |steps: u64| (load.step_work(steps) as f64 * time_scale).round() as Nanos;
        let input = FrameInput {
            start: now,
            interval: real_frame,
            time: (!idle).then_some(ticked),
            events: &self.inputs,
        };
        self.driver.frame(
            &mut self.screen,
            &mut self.panes,
            input,
            step_work,
            &mut self.truths,
        );
        self.inputs.clear();
        let focus = self.settings.focus_index();
        let focus_steps = self.panes[focus].last().map_or(0, |f| f.report.steps.len());
        if live {
            let spent = self.load.spend(&mut self.stopwatch, now, focus_steps);
            for pane in &mut self.panes {
                pane.set_load(spent);
            }
            self.recorder.spent(spent);
        }
        self.panes[focus]
            .last()
            .copied()
            .expect("every pane ran this frame")
    }

    /// Notes that the window handed the last frame to the display now, after acquiring
    /// its image blocked for `acquire_wait` (for the measured present rate, and as the
    /// present time the screen model takes). Returns the present's surface generation and
    /// number for its feedback to name, when the screen is measured.
    pub fn record_present(&mut self, acquire_wait: Nanos) -> Option<(u32, u64)> {
        let now = self.stopwatch.now();
        self.record_present_at(now, acquire_wait);
        self.screen.note_present(now, true)
    }

    /// [`Self::record_present`] at a given stopwatch time, unnumbered (a recorded present,
    /// replayed).
    pub fn record_present_at(&mut self, now: Nanos, acquire_wait: Nanos) {
        self.presents.push(now);
        self.screen.record_present(now, acquire_wait);
        self.recorder.presented(now, acquire_wait);
    }

    /// Whether the last frame was a replayed one.
    pub fn replaying(&self) -> bool {
        self.replay_clock.is_some()
    }

    /// Stopwatch time now: while frames are replayed, the recorded start of the last one.
    pub fn now(&self) -> Nanos {
        self.replay_clock.unwrap_or_else(|| self.stopwatch.now())
    }

    /// Starts recording every frame and request from the next frame on into the sink that
    /// `open` makes from the recording's header (naming `adapter`): every pane restarts from
    /// time zero (a reset) and the screen model starts over, so that the recording replays
    /// from a state it describes. A recording already running is finished first. Fails if
    /// `open` does (the header could not be written).
    pub fn start_recording(
        &mut self,
        adapter: &str,
        open: impl FnOnce(&RecordingHeader) -> std::io::Result<Box<dyn RecordingSink>>,
    ) -> std::io::Result<()> {
        self.stop_recording()?;
        let header = RecordingHeader {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            adapter: adapter.to_owned(),
            settings: self.settings,
            paused: self.clock.paused(),
            screen: self.screen.facts(),
            measured: self.screen.measured_facts(),
        };
        let writer = open(&header)?;
        self.reset_panes();
        self.restart_screen();
        self.recorder.start(writer);
        Ok(())
    }

    /// Finishes the recording: writes the last frame and flushes. Returns the frames
    /// written (0 when none was running).
    pub fn stop_recording(&mut self) -> std::io::Result<u64> {
        self.recorder.stop()
    }

    /// The recording in progress, if any.
    pub fn recording(&self) -> Option<RecordingStatus> {
        self.recorder.status()
    }

    /// Takes the error that stopped the recording, if one did since the last call.
    pub fn take_recording_error(&mut self) -> Option<String> {
        self.recorder.take_error()
    }

    /// Notes a request for the recording, if one is running.
    fn note(&mut self, event: LiveRequest) {
        self.recorder.note(event);
    }

    /// The screen model from scratch, with what the window said last.
    fn restart_screen(&mut self) {
        let facts = self.screen.facts();
        let mut screen = LiveDisplay::new(self.settings.refresh_override_hz);
        screen.take_measurement(&mut self.screen);
        self.screen = screen;
        self.screen.set(facts, self.settings.refresh_override_hz);
        self.unpresented = false;
        self.rebuild_filters();
    }

    /// Starts a replay of frames recorded from `paused` with `settings` and `screen`: the
    /// settings, pause and screen as the recording's header says, every pane and the screen
    /// model from time zero. Stops a recording (a replay is not recorded).
    pub fn begin_replay(
        &mut self,
        settings: LiveSettings,
        paused: bool,
        screen: ScreenFacts,
        measured: Option<MeasuredFacts>,
    ) -> Result<(), RangeError> {
        let _ = self.stop_recording();
        self.apply(settings)?;
        self.clock = FrameClock::default();
        self.clock.set_time_scale(settings.time_scale)?;
        self.clock.set_paused(paused);
        self.screen.set(screen, settings.refresh_override_hz);
        self.reset_panes();
        self.restart_screen();
        self.set_measured(measured);
        self.last_frame_start = None;
        Ok(())
    }

    /// Ends a replay: the next frame measures time on the stopwatch again, from zero, on
    /// the screen as the window's own feedback measures it.
    pub fn end_replay(&mut self) {
        self.replay_clock = None;
        self.last_frame_start = None;
        self.reset_panes();
        self.screen.forget_answers();
        let own = self.screen.measured().map(|measured| MeasuredFacts {
            source: measured.source(),
            refresh: None,
            vblank: false,
        });
        self.set_measured(own);
    }

    /// The modeled screen.
    pub fn screen(&self) -> &LiveDisplay {
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

    /// Takes one request: the value the shell sends (the panel's settings, a kick, a
    /// reset, pause and single step, a key, the screen's facts) is the value a recording
    /// holds of it and a replay gives back, so the three cannot take a request differently.
    /// New settings the loop refuses are named, and the settings in force stay; every
    /// other request is always taken.
    pub fn request(&mut self, request: LiveRequest) -> Result<(), RangeError> {
        match request {
            LiveRequest::Settings(settings) => return self.apply(settings),
            LiveRequest::Reset => self.reset(),
            LiveRequest::Kick => self.kick(),
            LiveRequest::Pause => self.set_paused(true),
            LiveRequest::Resume => self.set_paused(false),
            LiveRequest::SingleStep => self.single_step(),
            LiveRequest::Screen(facts) => self.set_screen(facts),
            LiveRequest::Input(input) => self.input_at(input.at, input.kind),
            // What the screen showed settles the frames (a replay: as it did when they
            // were recorded).
            LiveRequest::Displayed { frame, at } => self.displayed(frame, at),
            LiveRequest::Measured(facts) => self.set_measured(facts),
            LiveRequest::GaveUp(_) => self.set_measured(None),
        }
        Ok(())
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
    pub(crate) fn reset(&mut self) {
        self.note(LiveRequest::Reset);
        self.reset_panes();
        self.ramp = None;
    }

    /// [`Self::reset`] without noting it for a recording (a reset that follows from a
    /// request already noted).
    fn reset_panes(&mut self) {
        self.end_ramp(RampCancel::Reset);
        for pane in &mut self.panes {
            pane.reset();
        }
        self.load.reset();
        self.frame_spans.clear();
        self.screen.clear_marks();
        self.rebuild_filters();
    }

    /// The request for an input the person gives now (on the stopwatch), to hand to
    /// [`Self::request`]: the next frame reads it. Mouse turns arriving faster than frames
    /// are one turn, stamped when the first arrived.
    pub fn input_now(&self, kind: InputKind) -> LiveRequest {
        LiveRequest::Input(InputEvent {
            at: self.stopwatch.now(),
            kind,
        })
    }

    /// Takes an input received at stopwatch time `at` (a recorded one): the next frame
    /// reads it.
    pub(crate) fn input_at(&mut self, at: Nanos, kind: InputKind) {
        let event = InputEvent { at, kind };
        self.note(LiveRequest::Input(event));
        if let Some(last) = self.inputs.last_mut()
            && let Some(merged) = last.kind.merged(kind)
        {
            last.kind = merged;
            return;
        }
        self.inputs.push(event);
    }

    /// Buffers a kick for the next step of every pane.
    pub(crate) fn kick(&mut self) {
        self.note(LiveRequest::Kick);
        for pane in &mut self.panes {
            pane.kick();
        }
    }

    /// Whether time is stopped.
    pub fn paused(&self) -> bool {
        self.clock.paused()
    }

    /// Stops or restarts time (for every pane: they share the clock).
    pub(crate) fn set_paused(&mut self, paused: bool) {
        if paused != self.clock.paused() {
            self.note(LiveRequest::paused(paused));
        }
        if paused {
            self.end_ramp(RampCancel::Paused);
        }
        self.clock.set_paused(paused);
    }

    /// Pauses and advances every pane exactly one frame of the single-step length on the
    /// next frame.
    pub(crate) fn single_step(&mut self) {
        self.note(LiveRequest::SingleStep);
        self.end_ramp(RampCancel::Paused);
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
    pub fn window_stats(&self) -> SpanStats {
        self.focus().window_stats()
    }

    /// Pane `index`'s readouts over the last second (default stats past the last pane).
    pub fn pane_stats(&self, index: usize) -> SpanStats {
        self.panes
            .get(index)
            .map(Pane::window_stats)
            .unwrap_or_default()
    }

    /// The real frame times over the last second, ten seconds and the session.
    pub fn frame_spans(&self) -> &FrameSpans {
        &self.frame_spans
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
            readouts: self.readouts(),
            panes,
            refreshes: self.screen.marks(),
            measured: self.screen.measured(),
            frame_spans: &self.frame_spans,
            ramp: self.ramp.as_ref(),
        }
    }
}

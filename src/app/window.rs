//! The winit application: one window whose redraws run the live loop, build the panel and
//! present the frame. What the window does besides is elsewhere: its GPU side in `active`
//! and `surface`, the keyboard and mouse in `hands`, recording files in `recording`, replay
//! control in the live loop (`live::ReplayControl`), automation for tests in `automation`,
//! the exit report in `summary` and the window system's errors in words in `os_errors`.

use web_time::Instant;

use anyhow::anyhow;
use winit::application::ApplicationHandler;
use winit::dpi::LogicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::{Fullscreen, WindowId};

use super::Clock;
use super::active::{Active, Opening, Picture};
use super::automation::Automation;
use super::feedback::PresentWatch;
use super::gpu_start::GpuStart;
use super::hands::Hands;
use super::os_errors::no_window_error;
use super::recording::Recorder;
use super::summary::WindowSummary;
use super::surface::MINIMISED_POLL;
use super::tour::WindowTour;
use super::ui_pass::{UiPass, snapshot_panes};
use super::wake::Wake;
use crate::live::{
    LiveLoop, LiveRequest, Present, PresentModeId, RampRequest, Replay, ReplayControl, ScreenFacts,
    Stopwatch as _,
};
use crate::options::{KeepSettings, WindowOptions};
use crate::remembered::{Remembered, save};
use crate::render::adapter_summary;
use crate::timestep::Nanos;
use crate::tour::TourRequest;
use crate::ui::{
    DisplayStatus, PanelState, RecordReplayRequest, RecordReplayStatus, ShellStatus, UiOutput,
};

/// What the window reports when its run ends: the summary of what ran, what failed, or
/// both: a run that ended and then could not save its settings or finish its recording
/// still has its summary (the state hashes), printed before the error.
#[derive(Debug)]
pub struct WindowOutcome {
    /// What the run measured; none where it failed before it ran or while it ran.
    pub summary: Option<WindowSummary>,
    /// What failed: the error that ended the run, or what failed as it ended.
    pub error: Option<anyhow::Error>,
}

impl WindowOutcome {
    /// A run that failed and has nothing to summarise.
    pub fn failed(error: anyhow::Error) -> Self {
        Self {
            summary: None,
            error: Some(error),
        }
    }
}

/// How often a page polls the GPU while it waits for the screenshot's readback.
const SHOT_POLL: std::time::Duration = std::time::Duration::from_millis(5);

/// Runs the window until it closes, and hands `report` the outcome once, as soon as the run
/// ends: inside winit's `exiting`, however the application was ended (its window closed,
/// Esc, `--frames`, the macOS menu's Quit, the system ending the session), or after the
/// event loop returns where it failed before that. On macOS the menu's Quit ends the process
/// inside `exiting` (AppKit's `applicationWillTerminate`) and the event loop never returns,
/// so everything the end does (the settings saved, a recording finished and flushed, the
/// summary) happens there, on every platform alike.
pub fn run_window(options: WindowOptions, report: impl FnOnce(WindowOutcome) + 'static) {
    let event_loop = match EventLoop::<Wake>::with_user_event().build() {
        Ok(event_loop) => event_loop,
        Err(error) => return report(WindowOutcome::failed(no_window_error(error))),
    };
    let live = match LiveLoop::new(Clock::default(), options.settings) {
        Ok(live) => live,
        Err(error) => return report(WindowOutcome::failed(error.into())),
    };
    let wake = event_loop.create_proxy();
    #[cfg(not(target_arch = "wasm32"))]
    super::signals::end_on_signals(wake.clone());
    let app = App::new(options, live, wake, Box::new(report));
    // A page's event loop runs on the browser's: this returns at once, and the outcome is
    // reported in `exiting`.
    #[cfg(target_arch = "wasm32")]
    winit::platform::web::EventLoopExtWebSys::spawn_app(event_loop, app);
    #[cfg(not(target_arch = "wasm32"))]
    run_to_end(event_loop, app);
}

/// Runs `app` until the event loop returns, and reports its outcome if `exiting` did not.
#[cfg(not(target_arch = "wasm32"))]
fn run_to_end(event_loop: EventLoop<Wake>, mut app: App) {
    let outcome = event_loop.run_app(&mut app);
    match (outcome, app.report.take()) {
        (Ok(()), Some(report)) => report(app.end()),
        (Err(error), Some(report)) => report(WindowOutcome::failed(
            anyhow::Error::new(error).context("the event loop failed"),
        )),
        (Ok(()), None) => {}
        // The run was reported as it ended; what failed afterwards is said too.
        (Err(error), None) => eprintln!(
            "timestep-lab: the event loop failed after the window closed: {}",
            crate::text::escape(&error.to_string())
        ),
    }
}

impl App {
    /// The application for `options`, `live` its loop, `report` what gets the outcome.
    fn new(
        options: WindowOptions,
        mut live: LiveLoop<Clock>,
        wake: EventLoopProxy<Wake>,
        report: Box<dyn FnOnce(WindowOutcome)>,
    ) -> Self {
        // Only new settings can be refused.
        let _ = live.request(LiveRequest::paused(options.paused));
        let panel = PanelState {
            visible: options.panel,
            timeline: options.timeline,
            tour_offer: options.tour_offer,
            fills_panels: false,
            ..PanelState::default()
        };
        let shell = ShellStatus {
            display: DisplayStatus {
                requested: options.present_mode,
                ..DisplayStatus::default()
            },
            ..ShellStatus::default()
        };
        let replay = options.replay.clone().map(|recording| {
            let mut replay = Replay::new(recording);
            replay.set_speed(options.replay_speed);
            replay
        });
        let tour_resume = options.tour_resume;
        Self {
            automation: Automation::new(&options),
            replay: ReplayControl::new(replay, options.quit_after_replay),
            recorder: Recorder::default(),
            options,
            live,
            panel,
            shell,
            active: None,
            starting: None,
            wake,
            summary: WindowSummary::default(),
            error: None,
            pending_textures: egui::TexturesDelta::default(),
            hands: Hands::default(),
            present_watch: PresentWatch::default(),
            configurations: 0,
            tour: WindowTour::new(tour_resume),
            report: Some(report),
            awaiting_shot: false,
        }
    }

    /// Ends the run: the loop's end state, the recording finished and flushed, the
    /// settings saved; the summary, or the error that ended the run.
    fn end(&mut self) -> WindowOutcome {
        // Texture changes of a last frame that was never drawn are of no use any more.
        self.pending_textures.clear();
        // A ramp still rising puts its load back: nothing half-set is reported or saved.
        // Stopping a ramp is never refused.
        let _ = self.live.request_ramp(RampRequest::Stop);
        self.summary.take_end_state(&self.live);
        self.summary
            .display_times
            .extend(self.present_watch.cost_summary());
        self.summary.replayed = self.replay.progress();
        self.summary.replay_error = self.replay.error();
        self.summary.key_inputs = self.hands.key_inputs();
        self.summary.look_inputs = self.hands.look_inputs();
        // The recording running at the end is finished (the last frame, the flush).
        self.recorder.stop(&mut self.live);
        self.summary.recorded = self.recorder.recorded().to_vec();
        self.summary.tour = self.tour.summary();
        if let Some(error) = self.error.take() {
            return WindowOutcome::failed(error);
        }
        // The run itself ended well: what fails from here on is said after its summary. A
        // recording that failed leaves the settings as they were.
        let error = match self.recorder.error() {
            Some(error) => Some(anyhow!(error.to_owned())),
            None => self.keep_settings().err(),
        };
        WindowOutcome {
            summary: Some(std::mem::take(&mut self.summary)),
            error,
        }
    }

    /// Keeps the settings where the options say (a file, a page's local storage, nowhere)
    /// for the next run, and notes a saved file in the summary.
    fn keep_settings(&mut self) -> anyhow::Result<()> {
        let remembered = Remembered {
            settings: self.tour.resting_settings(self.live.resting_settings()),
            present_mode: self.shell.display.requested,
            panel: self.panel.visible,
            timeline: self.panel.timeline,
            tour_chapter: u32::try_from(self.tour.resume_at() + 1).unwrap_or(1),
        };
        match &self.options.keep_settings {
            KeepSettings::Nowhere => {}
            KeepSettings::File(path) => {
                save(path, &remembered)?;
                self.summary.saved = Some(path.clone());
            }
            // Only a page's options keep them in the browser's local storage.
            KeepSettings::LocalStorage => {
                #[cfg(target_arch = "wasm32")]
                super::page::keep_settings(&crate::remembered::to_toml(&remembered))
                    .map_err(|error| anyhow!("cannot keep the settings: {error}"))?;
            }
        }
        Ok(())
    }
}

/// The application state winit drives.
struct App {
    /// Start-up options.
    options: WindowOptions,
    /// What the run does for tests and scripts: frames, screenshot, resizes, mode cycling.
    automation: Automation,
    /// The live loop.
    live: LiveLoop<Clock>,
    /// The replay driving the loop instead of the clock, if one does.
    replay: ReplayControl,
    /// The recording, if one runs, and what came of the ones before.
    recorder: Recorder,
    /// What the panel remembers between frames.
    panel: PanelState,
    /// What the panel shows of the window: the display (adapter, offered, requested and
    /// active modes), the recording or replay, the tour.
    shell: ShellStatus,
    /// The window and GPU state, once created.
    active: Option<Active>,
    /// The window while its GPU is being connected.
    starting: Option<GpuStart>,
    /// Wakes the event loop when the GPU is connected (on a page, later).
    wake: EventLoopProxy<Wake>,
    /// What happened, for the exit report.
    summary: WindowSummary,
    /// The error that ended the run, if any.
    error: Option<anyhow::Error>,
    /// egui texture changes not yet uploaded (a frame that could not be drawn keeps them).
    pending_textures: egui::TexturesDelta,
    /// The person's hands on the scene: keys held, the mouse dragging the view.
    hands: Hands,
    /// The platform's presentation feedback, read every frame.
    present_watch: PresentWatch,
    /// The surface configurations the loop knows of (each a new swap chain).
    configurations: u64,
    /// The guided tour, and where the reader left it.
    tour: WindowTour,
    /// What gets the outcome when the run ends (taken when it has).
    report: Option<Box<dyn FnOnce(WindowOutcome)>>,
    /// Whether the run waits for the screenshot's readback to end (on a page).
    awaiting_shot: bool,
}

impl ApplicationHandler<Wake> for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.active.is_some() || self.starting.is_some() {
            return;
        }
        let (size, backend) = (self.options.size, self.options.backend);
        match Opening::new(event_loop, size) {
            Ok(opening) => {
                self.starting = Some(GpuStart::begin(opening, backend, self.wake.clone()));
                self.finish_start(event_loop);
            }
            Err(error) => {
                self.error = Some(error);
                event_loop.exit();
            }
        }
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, wake: Wake) {
        match wake {
            Wake::Connected => self.finish_start(event_loop),
            #[cfg(not(target_arch = "wasm32"))]
            Wake::Signalled => event_loop.exit(),
            #[cfg(target_arch = "wasm32")]
            Wake::Opened(opened) => self.open_replay(opened),
            #[cfg(target_arch = "wasm32")]
            Wake::Shot(shot) => {
                self.show_screenshot(shot);
                event_loop.exit();
            }
            #[cfg(target_arch = "wasm32")]
            Wake::Shown { hidden_s } => {
                super::page::say_hidden(hidden_s, self.live.settings(), self.live.paused());
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(active) = self.active.as_mut() else {
            return;
        };
        // egui sees every event first (it handles the keyboard shortcuts too).
        let _ = active.egui_state.on_window_event(&active.window, &event);
        self.hands
            .window_event(&event, &mut self.live, &active.egui_ctx);
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => active.surface.resize(&active.gpu, size),
            WindowEvent::Moved(_) | WindowEvent::ScaleFactorChanged { .. } => {
                active.update_monitor_hz();
            }
            WindowEvent::Occluded(occluded) => active.occluded = occluded,
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        // Drop the window state now, not after `run_app` returns: by then the event loop
        // has closed its display connection, and egui-winit's Wayland clipboard, whose
        // worker thread destroys its objects on that connection when dropped, would crash
        // the process at exit (egui issue 7660). The presentation watch speaks on that
        // connection and through the window's surface: it goes first.
        self.present_watch.stop();
        if let Some(active) = self.active.take() {
            self.summary.configure_errors = active.surface.configure_errors().to_vec();
            // A page's GPU objects stay until the tab closes: the last frame stays on the
            // canvas.
            #[cfg(target_arch = "wasm32")]
            std::mem::forget(active);
        }
        if let Some(report) = self.report.take() {
            report(self.end());
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(active) = self.active.as_ref() else {
            return;
        };
        if self.awaiting_shot {
            // The last frame is drawn: nothing more until the readback answers, which the
            // browser's WebGPU does by itself and wgpu's WebGL2 backend on a poll.
            let _ = active.gpu.device.poll(wgpu::PollType::Poll);
            event_loop.set_control_flow(ControlFlow::WaitUntil(Instant::now() + SHOT_POLL));
            return;
        }
        let now = Instant::now();
        let idle = active.surface.idle_until().filter(|&until| until > now);
        if active.is_minimised() || active.occluded || idle.is_some() {
            // Nothing to draw: wait instead of spinning; time keeps running in the loop
            // and the first frame back is clamped by the guards like any long frame.
            let until = idle.unwrap_or(now + MINIMISED_POLL);
            event_loop.set_control_flow(ControlFlow::WaitUntil(until));
        } else {
            // A page's frames come from the browser's animation frames (which a redraw
            // request waits for): polling as well would keep its thread from anything else.
            let flow = if cfg!(target_arch = "wasm32") {
                ControlFlow::Wait
            } else {
                ControlFlow::Poll
            };
            event_loop.set_control_flow(flow);
            active.window.request_redraw();
        }
    }
}

impl App {
    /// Makes the window's GPU side once its GPU is connected (at once natively, when the
    /// browser answers on a page).
    fn finish_start(&mut self, event_loop: &ActiveEventLoop) {
        let Some((window, connected)) = self.starting.as_ref().and_then(GpuStart::take) else {
            return;
        };
        self.starting = None;
        let (msaa, requested) = (self.options.msaa, self.shell.display.requested);
        let active = connected
            .and_then(|connected| Active::new(event_loop, window, connected, msaa, requested));
        match active {
            Ok(mut active) => {
                let adapter = adapter_summary(&active.gpu.adapter.get_info());
                let offered = active.surface.offered().to_vec();
                self.shell.display.adapter = adapter.clone();
                self.shell.display.drawing = (active.quality.describe(), active.quality.why());
                self.summary.drawing = active.quality.summary();
                self.shell.display.offered = offered.clone();
                self.summary.adapter = adapter;
                self.summary.offered = offered;
                if !active.is_minimised() {
                    let mode = self.requested_mode(&active);
                    self.configure(&mut active, mode);
                }
                let (watch, event) = PresentWatch::start(&active.window, self.live.stopwatch());
                self.present_watch = watch;
                self.live.feedback(event);
                // A page replays what is opened on it, and says when its tab was hidden,
                // once the lab runs.
                #[cfg(target_arch = "wasm32")]
                {
                    super::page::watch_files(self.wake.clone());
                    super::page::watch_visibility(self.wake.clone());
                }
                active.window.request_redraw();
                self.active = Some(active);
            }
            Err(error) => {
                self.error = Some(error);
                event_loop.exit();
            }
        }
    }

    /// The present mode the person asked for, as the surface offers it.
    fn requested_mode(&self, active: &Active) -> PresentModeId {
        self.shell
            .display
            .requested
            .resolve(active.surface.offered())
    }

    /// Configures the surface with present mode `mode`. On failure the request goes back to
    /// the mode in force, so a refused mode is not retried every frame.
    fn configure(&mut self, active: &mut Active, mode: PresentModeId) {
        if active.surface.configure_mode(&active.gpu, mode) {
            self.summary.configured.push(mode);
            self.shell.display.active = Some(mode);
        } else {
            self.shell.display.requested = self.shell.display.active.unwrap_or(PresentModeId::Fifo);
        }
    }

    /// One frame: advance the loop, build the panel, draw, present, apply what the person
    /// asked for.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let Some(mut active) = self.active.take() else {
            return;
        };
        // A lost device draws nothing: the run ends saying so rather than counting frames
        // that never reached the screen.
        if let Some(why) = active.gpu.lost() {
            self.error = Some(anyhow!("the GPU device was lost: {why}"));
            self.active = Some(active);
            event_loop.exit();
            return;
        }
        if !active.is_minimised() {
            if !active.surface.is_configured() {
                // Never configured (created minimised) or a configure failed: try again.
                let mode = self.requested_mode(&active);
                self.configure(&mut active, mode);
            }
            if active.surface.is_configured() {
                self.frame(event_loop, &mut active);
            }
        }
        self.active = Some(active);
    }

    /// The body of [`Self::redraw`] for a visible window.
    fn frame(&mut self, event_loop: &ActiveEventLoop, active: &mut Active) {
        let started = web_time::Instant::now();
        self.tick(active);
        let raw_input = active.egui_state.take_egui_input(&active.window);
        let size = active.surface.size();
        self.shell.session = self.record_replay_status();
        self.tour.show_status(&mut self.shell.tour);
        let snapshot = self.live.snapshot();
        if let Some(offer) = snapshot.readouts.slow_loop {
            self.summary.slow_loop = Some(offer);
        }
        let UiPass {
            primitives,
            textures,
            platform_output,
            pixels_per_point,
            viewports,
            backdrop,
            output,
        } = UiPass::run(
            &active.egui_ctx,
            raw_input,
            &mut self.panel,
            &snapshot,
            &self.shell,
            size,
        );
        active
            .egui_state
            .handle_platform_output(&active.window, platform_output);
        self.pending_textures.append(textures);
        let last_frame = self.automation.is_last_frame(self.summary.frames);
        let panes = snapshot_panes(&snapshot, &viewports);
        self.hands.set_scene(output.scene, pixels_per_point);
        let picture = Picture {
            panes: &panes,
            primitives: &primitives,
            pixels_per_point,
            backdrop,
        };
        #[cfg(not(target_arch = "wasm32"))]
        if last_frame && let Some(path) = self.automation.screenshot() {
            match super::screenshot::write(active, &mut self.pending_textures, &picture, path) {
                Ok(()) => {
                    self.summary.screenshot =
                        Some((path.to_owned(), size, active.window.scale_factor()));
                }
                Err(error) => self.error = Some(error),
            }
        }
        // On a page the run ends when the browser has answered the readback (`Wake::Shot`).
        #[cfg(target_arch = "wasm32")]
        if last_frame && self.automation.screenshot().is_some() {
            let (pending, wake) = (&mut self.pending_textures, self.wake.clone());
            match super::screenshot::begin(active, pending, &picture, wake) {
                Ok(()) => self.awaiting_shot = true,
                Err(error) => self.error = Some(error),
            }
        }
        let configurations = active.surface.configurations();
        let presenting = self.live.stopwatch().now();
        self.present_watch.before_present();
        let waits = active.present(&mut self.pending_textures, &picture);
        // A swap chain made since the last present numbers its presents afresh, from this
        // one: feedback for the old one is stale. (One made while presenting, after this
        // present, counts from the next.)
        let new_surface = configurations != self.configurations;
        self.configurations = configurations;
        let numbers = self.live.presented(Present {
            began: presenting,
            new_surface,
            acquire_wait: waits
                .map(|waits| Nanos::try_from(waits.acquire.as_nanos()).unwrap_or(Nanos::MAX)),
        });
        let drawn = waits.is_some();
        if drawn {
            self.present_watch.presented(numbers);
            self.summary.frames += 1;
            self.summary.presented_at(self.live.stopwatch().now());
            #[cfg(target_arch = "wasm32")]
            if self.summary.frames == 1 {
                super::page::mark_first_frame();
            }
        }
        let polling = Instant::now();
        for event in self.present_watch.poll(self.live.stopwatch()) {
            self.live.feedback(event);
        }
        self.present_watch.handed(polling.elapsed());
        self.apply(active, &output);
        if let Some(waits) = waits.filter(|_| self.summary.screenshot.is_none()) {
            let work = started
                .elapsed()
                .saturating_sub(waits.acquire + waits.present);
            self.summary.main_thread.record(work);
        }
        self.summary.spiral = self.live.spiralling();
        let ended = last_frame && drawn && !self.awaiting_shot;
        if ended || self.error.is_some() || output.actions.quit || self.replay.done() {
            event_loop.exit();
        }
        // The frame cap is for modes without vsync; under vsync the display paces.
        if !self
            .shell
            .display
            .active
            .is_some_and(PresentModeId::is_vsync)
        {
            self.live.pace();
        }
    }

    /// On a page: shows the last frame, read back, as the screenshot (or says why there
    /// is none).
    #[cfg(target_arch = "wasm32")]
    fn show_screenshot(&mut self, shot: Result<image::RgbaImage, String>) {
        self.awaiting_shot = false;
        let (Some(active), Some(path)) = (&self.active, self.automation.screenshot()) else {
            return;
        };
        let shown = shot.and_then(|image| {
            super::screenshot::show(&image, &path.display().to_string())?;
            Ok(image.dimensions())
        });
        match shown {
            Ok(size) => {
                self.summary.screenshot =
                    Some((path.to_owned(), size, active.window.scale_factor()));
            }
            Err(error) => self.error = Some(anyhow!(error)),
        }
    }

    /// Runs the loop's frames for one window frame: one from the clock (recorded from the
    /// first frame when `--record` asks), or, while replaying, the recorded frames whose
    /// time has come.
    fn tick(&mut self, active: &mut Active) {
        match self.replay.frame(&mut self.live, Instant::now()) {
            Ok(true) => return,
            Ok(false) => {}
            Err(error) => {
                self.error = Some(anyhow!(error).context("the replay's settings"));
                return;
            }
        }
        // A page is told no refresh rate: it is measured from the browser's frame stamps.
        #[cfg(target_arch = "wasm32")]
        if self.summary.frames.is_multiple_of(30) {
            active.monitor_hz = self.live.stopwatch().refresh_hz();
        }
        // Facts are always taken.
        let _ = self.live.request(LiveRequest::Screen(ScreenFacts {
            present_mode: self.shell.display.active,
            monitor_hz: active.monitor_hz,
        }));
        if self.summary.frames == 0
            && !self.recorder.is_recording()
            && let Some(path) = self.options.record.clone()
        {
            self.recorder
                .start(&mut self.live, Some(path), &self.shell.display.adapter);
        }
        if let Some(chapter) = self.options.tour.take() {
            self.tour = WindowTour::new(chapter.unwrap_or(self.options.tour_resume));
            self.tour.request(TourRequest::Start, &mut self.live);
        }
        // After the recording starts (which resets the panes, ending any ramp).
        if let Some(ramp) = self.options.ramp.take() {
            // The panel's fields show the ramp under way, and the next starts from them.
            self.panel.ramp = ramp;
            if let Err(error) = self.live.request_ramp(RampRequest::Start(ramp)) {
                self.error = Some(anyhow!(error).context("--ramp"));
            }
        }
        self.live.frame();
        self.tour.observe(&mut self.live);
        self.recorder.check(&mut self.live);
    }

    /// What the panel's session row shows.
    fn record_replay_status(&self) -> RecordReplayStatus {
        RecordReplayStatus {
            recording: self.recorder.status(&self.live),
            replay: self.replay.status(),
            notice: self
                .replay
                .error()
                .or_else(|| self.recorder.notice().map(str::to_owned)),
        }
    }

    /// Replays a file opened on the page instead of the clock, as `--replay` does from the
    /// start (a recording running ends first, downloaded: recording and replay do not mix,
    /// as `--record` and `--replay` do not); or says why the file cannot be replayed.
    #[cfg(target_arch = "wasm32")]
    fn open_replay(&mut self, opened: Result<crate::live::Recording, String>) {
        match opened {
            Ok(recording) => {
                super::page::opened(&recording);
                self.recorder.stop(&mut self.live);
                let mut replay = Replay::new(recording.into());
                replay.set_speed(self.options.replay_speed);
                self.replay = ReplayControl::new(Some(replay), self.options.quit_after_replay);
            }
            Err(message) => super::page::show_error(&message),
        }
    }

    /// Takes a recording or replay request from the panel.
    fn record_replay_request(&mut self, request: RecordReplayRequest) {
        let live = &mut self.live;
        match request {
            RecordReplayRequest::StartRecording => {
                self.recorder.start(live, None, &self.shell.display.adapter)
            }
            RecordReplayRequest::StopRecording => self.recorder.stop(live),
            RecordReplayRequest::StopReplay => self.replay.stop(live),
            RecordReplayRequest::Play(playing) => self.replay.set_playing(playing),
            RecordReplayRequest::Speed(speed) => self.replay.set_speed(speed),
            RecordReplayRequest::Loop(looping) => self.replay.set_looping(looping),
            RecordReplayRequest::Seek(frame) => {
                if let Err(error) = self.replay.seek(live, frame) {
                    self.error = Some(anyhow!(error).context("the replay's settings"));
                }
            }
        }
    }

    /// Applies what the person asked for after a frame, then what automation asks for.
    fn apply(&mut self, active: &mut Active, output: &UiOutput) {
        if let Some(request) = output.session {
            self.record_replay_request(request);
        }
        let mut actions = output.actions;
        // While replaying, pause and single step work the replay's time.
        if actions.toggle_pause && self.replay.toggle_pause() {
            actions.toggle_pause = false;
        }
        if actions.single_step && self.replay.single_step(&mut self.live) {
            actions.single_step = false;
        }
        if let Some(settings) = output.settings {
            self.replay.settings_chosen(&settings, self.live.settings());
        }
        // Settings first: a fix offered with a reset (the explosion banner's) restarts
        // under the fixed settings.
        if let Some(settings) = output.settings
            && let Err(error) = self.live.request(LiveRequest::Settings(settings))
        {
            // The panel's ranges lie inside the allowed ones; should one not, say so: the
            // settings in force stay, and the next frame's snapshot shows them.
            eprintln!("timestep-lab: setting refused: {error}");
        }
        // A replay runs the recording's settings: the tour waits for its end.
        if let Some(request) = output.tour
            && !self.replay.is_replaying()
        {
            self.tour.request(request, &mut self.live);
        }
        // After the settings: a ramp starts from the load they set.
        if let Some(request) = output.ramp
            && let Err(error) = self.live.request_ramp(request)
        {
            eprintln!("timestep-lab: ramp refused: {error}");
        }
        let pause = if self.live.paused() {
            LiveRequest::Resume
        } else {
            LiveRequest::Pause
        };
        let requests = [
            actions.reset.then_some(LiveRequest::Reset),
            actions.kick.then_some(LiveRequest::Kick),
            actions.toggle_pause.then_some(pause),
            actions.single_step.then_some(LiveRequest::SingleStep),
        ];
        for request in requests.into_iter().flatten() {
            // Only new settings can be refused.
            let _ = self.live.request(request);
        }
        if actions.toggle_fullscreen {
            let fullscreen = match active.window.fullscreen() {
                Some(_) => None,
                None => Some(Fullscreen::Borderless(None)),
            };
            active.window.set_fullscreen(fullscreen);
        }
        if let Some(mode) = output.present_mode {
            self.shell.display.requested = mode;
        }
        let drawn = self.summary.frames;
        if let Some((width, height)) = self.automation.resize(drawn) {
            let _ = active
                .window
                .request_inner_size(LogicalSize::new(width, height));
        }
        let offered = active.surface.offered();
        if let Some(mode) =
            self.automation
                .next_present_mode(drawn, self.shell.display.active, offered)
        {
            self.shell.display.requested = mode;
        }
        let wanted = self.requested_mode(active);
        if self.shell.display.active != Some(wanted) {
            self.configure(active, wanted);
        }
    }
}

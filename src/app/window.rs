//! The winit application: one window, the live loop, the renderer and the panel.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, anyhow};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Fullscreen, Window, WindowId};

use super::compose::{FrameComposer, UiFrame};
use super::png::write_png;
use super::present_mode::WgpuPresentMode as _;
use super::ui_pass::{UiPass, snapshot_panes};
use crate::input::{InputKind, KeySet, MoveKey};
use crate::live::{LiveLoop, PresentModeId, RealStopwatch, Replay, ScreenFacts, SlowLoop};
use crate::options::WindowOptions;
use crate::recording::SessionWriter;
use crate::remembered::{Remembered, save};
use crate::render::{
    DeviceError, GpuContext, Offscreen, Pane, adapter_summary, catch_errors, request_adapter,
};
use crate::timestep::Strategy;
use crate::ui::{DisplayStatus, PanelState, SessionRequest, SessionStatus, UiOutput};

/// `path` as messages show it: control characters escaped.
fn shown_path(path: &std::path::Path) -> String {
    crate::trace::escaped(&path.display().to_string())
}

/// How long to wait between checks while the window is minimised, hidden or its surface
/// cannot be configured: no busy spin, and the window comes back within a tenth of a second.
const MINIMISED_POLL: Duration = Duration::from_millis(100);

/// Configuration errors kept for the exit report (each one is also printed when it happens).
const MAX_RECORDED_ERRORS: usize = 32;

/// What a window run did, printed on exit for people and tests.
#[derive(Clone, Debug, Default)]
pub struct WindowSummary {
    /// Frames drawn.
    pub frames: u64,
    /// Present modes the surface reported.
    pub offered: Vec<PresentModeId>,
    /// Every present mode the surface was configured with, in order.
    pub configured: Vec<PresentModeId>,
    /// Errors reported while configuring the surface.
    pub configure_errors: Vec<String>,
    /// The adapter.
    pub adapter: String,
    /// The strategy of each pane at the end, in pane order.
    pub panes: Vec<Strategy>,
    /// Whether the spiral banner was up at the end.
    pub spiral: bool,
    /// The screenshot written, if any.
    pub screenshot: Option<PathBuf>,
    /// Where the settings were saved on closing, if they were.
    pub saved: Option<PathBuf>,
    /// The last slow-loop offer the panel made (see [`SlowLoop`]), if it made one.
    pub slow_loop: Option<SlowLoop>,
    /// Recordings written: the file and its frames.
    pub recorded: Vec<(PathBuf, u64)>,
    /// The replay at the end: frames run and frames in it.
    pub replayed: Option<(usize, usize)>,
    /// The final `state_hash` of each pane, in pane order.
    pub state_hashes: Vec<u64>,
    /// Movement key presses and releases sent to the loop.
    pub key_inputs: u64,
    /// Mouse turns sent to the loop.
    pub look_inputs: u64,
    /// The focused pane's player at the end: yaw and pitch (degrees), where it stands.
    pub player: Option<(f64, f64, glam::DVec3)>,
}

impl std::fmt::Display for WindowSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids =
            |modes: &[PresentModeId]| modes.iter().map(|m| m.id()).collect::<Vec<_>>().join(",");
        writeln!(f, "adapter: {}", self.adapter)?;
        writeln!(f, "frames: {}", self.frames)?;
        writeln!(f, "present modes offered: {}", ids(&self.offered))?;
        writeln!(f, "present modes configured: {}", ids(&self.configured))?;
        writeln!(f, "configure errors: {}", self.configure_errors.len())?;
        for error in &self.configure_errors {
            writeln!(f, "  {error}")?;
        }
        let panes: Vec<&str> = self.panes.iter().map(|s| s.id()).collect();
        writeln!(f, "panes: {}", panes.join(","))?;
        writeln!(f, "spiral: {}", if self.spiral { "yes" } else { "no" })?;
        match self.slow_loop {
            Some(offer) => writeln!(
                f,
                "slow renderer offer: {:.1} fps, time scale {:.3}",
                offer.fps, offer.time_scale
            )?,
            None => writeln!(f, "slow renderer offer: none")?,
        }
        if let Some(path) = &self.screenshot {
            writeln!(f, "screenshot: {}", path.display())?;
        }
        if let Some(path) = &self.saved {
            writeln!(f, "settings saved: {}", path.display())?;
        }
        for (path, frames) in &self.recorded {
            writeln!(f, "recorded: {frames} frames to {}", path.display())?;
        }
        if let Some((frame, frames)) = self.replayed {
            writeln!(f, "replayed: {frame} of {frames} frames")?;
        }
        let hashes: Vec<String> = self
            .state_hashes
            .iter()
            .map(|hash| format!("{hash:016x}"))
            .collect();
        writeln!(f, "state hashes: {}", hashes.join(","))?;
        writeln!(
            f,
            "inputs: {} key presses and releases, {} mouse turns",
            self.key_inputs, self.look_inputs
        )?;
        if let Some((yaw, pitch, eye)) = self.player {
            writeln!(
                f,
                "player: yaw {yaw:.1} deg, pitch {pitch:.1} deg, at x {:.3} z {:.3} m",
                eye.x, eye.z
            )?;
        }
        Ok(())
    }
}

/// Opens the window and runs until it is closed (or `frames` have run).
pub fn run_window(options: WindowOptions) -> anyhow::Result<WindowSummary> {
    let event_loop = EventLoop::new().map_err(no_window_error)?;
    let mut live = LiveLoop::new(RealStopwatch::default(), options.settings)?;
    live.set_paused(options.paused);
    let panel = PanelState {
        visible: options.panel,
        timeline: options.timeline,
        ..PanelState::default()
    };
    let display = DisplayStatus {
        requested: options.present_mode,
        ..DisplayStatus::default()
    };
    let replay = options.replay.clone().map(|recording| {
        let mut replay = Replay::new(recording);
        replay.set_speed(options.replay_speed);
        replay
    });
    let mut app = App {
        options,
        live,
        replay,
        replay_begun: false,
        last_tick: None,
        recording_path: None,
        notice: None,
        recording_error: None,
        panel,
        display,
        active: None,
        summary: WindowSummary::default(),
        error: None,
        pending_textures: egui::TexturesDelta::default(),
        hands: Hands::default(),
    };
    let outcome = event_loop.run_app(&mut app);
    app.summary.panes = app
        .live
        .panes()
        .iter()
        .map(|pane| pane.strategy())
        .collect();
    // Texture changes of a last frame that was never drawn are of no use any more.
    app.pending_textures.clear();
    app.summary.state_hashes = app
        .live
        .panes()
        .iter()
        .map(|pane| pane.run_metrics().state_hash)
        .collect();
    let player = app.live.sim().scene().current().player;
    app.summary.player = Some((
        player.look.yaw.to_degrees(),
        player.look.pitch.to_degrees(),
        player.eye,
    ));
    app.summary.replayed = app.replay.as_ref().map(|replay| {
        let status = replay.status();
        (status.frame, status.frames)
    });
    // The recording running at the end is finished (the last frame, the flush).
    app.stop_recording();
    outcome.context("the event loop failed")?;
    if let Some(error) = app.error {
        return Err(error);
    }
    if let Some(error) = app.recording_error {
        return Err(anyhow!(error));
    }
    if let Some(path) = &app.options.remember {
        let remembered = Remembered {
            settings: *app.live.settings(),
            present_mode: app.display.requested,
            panel: app.panel.visible,
            timeline: app.panel.timeline,
        };
        save(path, &remembered)?;
        app.summary.saved = Some(path.clone());
    }
    Ok(app.summary)
}

/// Everything that exists only while the window does. It is dropped in
/// [`App::exiting`], while the event loop and its connection to the display still exist.
struct Active {
    /// egui's window integration. It owns the clipboard, which on Wayland runs a thread
    /// holding objects on the event loop's display connection; first field, so it goes
    /// first.
    egui_state: egui_winit::State,
    /// The window.
    window: Arc<Window>,
    /// Instance, adapter, device, queue.
    gpu: GpuContext,
    /// The window's surface.
    surface: wgpu::Surface<'static>,
    /// How the surface is configured.
    config: wgpu::SurfaceConfiguration,
    /// Present modes the surface supports.
    offered: Vec<PresentModeId>,
    /// Draws scene and panel.
    composer: FrameComposer,
    /// egui's context.
    egui_ctx: egui::Context,
    /// Whether the surface is configured now (acquiring from one that is not panics).
    configured: bool,
    /// Whether the window is fully hidden (nothing it draws would be seen).
    occluded: bool,
    /// No frame before this instant (after an occluded acquire or a failed configure).
    idle_until: Option<Instant>,
    /// Every surface configuration that failed, the first [`MAX_RECORDED_ERRORS`].
    configure_errors: Vec<String>,
    /// The refresh rate of the monitor the window is on, Hz, as the window system
    /// reports it (updated when the window moves).
    monitor_hz: Option<f64>,
}

/// The application state winit drives.
struct App {
    /// Start-up and automation options.
    options: WindowOptions,
    /// The live loop.
    live: LiveLoop<RealStopwatch>,
    /// The replay driving the loop instead of the clock, if one is.
    replay: Option<Replay>,
    /// Whether the replay has put the loop in its starting state.
    replay_begun: bool,
    /// When the last frame ran, for pacing the replay in real time.
    last_tick: Option<Instant>,
    /// The file being recorded to.
    recording_path: Option<PathBuf>,
    /// What the session row says: a recording written, or why one stopped.
    notice: Option<String>,
    /// Why a recording failed, for the exit status.
    recording_error: Option<String>,
    /// What the panel remembers between frames.
    panel: PanelState,
    /// The display as the panel shows it: adapter, offered, requested and active modes.
    display: DisplayStatus,
    /// The window and GPU state, once created.
    active: Option<Active>,
    /// What happened, for the exit report.
    summary: WindowSummary,
    /// The error that ended the run, if any.
    error: Option<anyhow::Error>,
    /// egui texture changes not yet uploaded (a frame that could not be drawn keeps them).
    pending_textures: egui::TexturesDelta,
    /// The person's hands on the scene: keys held, the mouse dragging the view.
    hands: Hands,
}

/// Radians the view turns per pixel the mouse moves: a 1000-pixel drag turns about 230°.
const LOOK_RAD_PER_PIXEL: f64 = 0.004;

/// What the person is doing with the keyboard and mouse over the scene, so that each
/// press is sent once and each release matches a press.
#[derive(Debug, Default)]
struct Hands {
    /// Movement keys sent as pressed and not yet released.
    held: KeySet,
    /// The cursor, physical pixels.
    cursor: Option<(f64, f64)>,
    /// Whether the left button went down over the scene and is still down.
    dragging: bool,
    /// The rectangle of the scene (points) and the pixels per point, as last laid out.
    scene: Option<(egui::Rect, f32)>,
}

/// The movement key a keyboard key walks with: WASD or the arrows.
fn move_key(key: PhysicalKey) -> Option<MoveKey> {
    match key {
        PhysicalKey::Code(KeyCode::KeyW | KeyCode::ArrowUp) => Some(MoveKey::Forward),
        PhysicalKey::Code(KeyCode::KeyS | KeyCode::ArrowDown) => Some(MoveKey::Back),
        PhysicalKey::Code(KeyCode::KeyA | KeyCode::ArrowLeft) => Some(MoveKey::Left),
        PhysicalKey::Code(KeyCode::KeyD | KeyCode::ArrowRight) => Some(MoveKey::Right),
        _ => None,
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.active.is_some() {
            return;
        }
        match self.create_active(event_loop) {
            Ok(active) => self.active = Some(active),
            Err(error) => {
                self.error = Some(error);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(active) = self.active.as_mut() else {
            return;
        };
        // egui sees every event first (it handles the keyboard shortcuts too).
        let _ = active.egui_state.on_window_event(&active.window, &event);
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => active.resize(size),
            WindowEvent::Moved(_) | WindowEvent::ScaleFactorChanged { .. } => {
                active.monitor_hz = monitor_refresh_hz(&active.window);
            }
            WindowEvent::Occluded(occluded) => active.occluded = occluded,
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            WindowEvent::KeyboardInput { event, .. } if !event.repeat => {
                let typing = active.egui_ctx.egui_wants_keyboard_input();
                if let Some(key) = move_key(event.physical_key) {
                    let down = event.state == ElementState::Pressed;
                    self.hand_key(key, down && !typing);
                }
            }
            WindowEvent::Focused(false) => {
                // Keys released while the window is away never reach it: let go of all.
                for key in MoveKey::ALL {
                    self.hand_key(key, false);
                }
                self.hands.dragging = false;
            }
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => {
                // Over the scene and no window of the panel's over it (the pane labels,
                // a banner, a drop-down): the panels and the scene share the background.
                let over_scene = self.hands.cursor.zip(self.hands.scene).is_some_and(
                    |((x, y), (rect, per_point))| {
                        let point = egui::pos2(x as f32 / per_point, y as f32 / per_point);
                        rect.contains(point)
                            && active
                                .egui_ctx
                                .layer_id_at(point)
                                .is_none_or(|layer| layer.order == egui::Order::Background)
                    },
                );
                self.hands.dragging = state == ElementState::Pressed
                    && over_scene
                    && !active.egui_ctx.egui_is_using_pointer();
            }
            WindowEvent::CursorMoved { position, .. } => {
                let now = (position.x, position.y);
                if self.hands.dragging
                    && let Some((x, y)) = self.hands.cursor
                {
                    let (dx, dy) = (now.0 - x, now.1 - y);
                    if dx != 0.0 || dy != 0.0 {
                        self.live.input(InputKind::Look {
                            yaw_rad: dx * LOOK_RAD_PER_PIXEL,
                            pitch_rad: -dy * LOOK_RAD_PER_PIXEL,
                        });
                        self.summary.look_inputs += 1;
                    }
                }
                self.hands.cursor = Some(now);
            }
            WindowEvent::CursorLeft { .. } => self.hands.cursor = None,
            _ => {}
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        // Drop the window state now, not after `run_app` returns: by then the event loop
        // has closed its display connection, and egui-winit's Wayland clipboard, whose
        // worker thread destroys its objects on that connection when dropped, would crash
        // the process at exit (egui issue 7660).
        if let Some(active) = self.active.take() {
            self.summary.configure_errors = active.configure_errors.clone();
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(active) = self.active.as_ref() else {
            return;
        };
        let now = Instant::now();
        let idle = active.idle_until.filter(|&until| until > now);
        if active.is_minimised() || active.occluded || idle.is_some() {
            // Nothing to draw: wait instead of spinning; time keeps running in the loop
            // and the first frame back is clamped by the guards like any long frame.
            let until = idle.unwrap_or(now + MINIMISED_POLL);
            event_loop.set_control_flow(ControlFlow::WaitUntil(until));
        } else {
            event_loop.set_control_flow(ControlFlow::Poll);
            active.window.request_redraw();
        }
    }
}

impl App {
    /// A movement key went down (`down`) or up: the loop gets the press once and the
    /// release only for a key it got the press of.
    fn hand_key(&mut self, key: MoveKey, down: bool) {
        if down == self.hands.held.contains(key) {
            return;
        }
        self.hands.held = self.hands.held.with(key, down);
        self.live.input(if down {
            InputKind::Press(key)
        } else {
            InputKind::Release(key)
        });
        self.summary.key_inputs += 1;
    }

    /// Creates the window, the GPU context and the surface.
    fn create_active(&mut self, event_loop: &ActiveEventLoop) -> anyhow::Result<Active> {
        let (width, height) = self.options.size;
        let attributes = Window::default_attributes()
            .with_title("timestep-lab")
            .with_inner_size(PhysicalSize::new(width.max(1), height.max(1)));
        let window = Arc::new(event_loop.create_window(attributes).map_err(|error| {
            anyhow!(
                "cannot create the window: {}",
                without_source_location(&error.to_string())
            )
        })?);
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
                Box::new(event_loop.owned_display_handle()),
            ));
        let surface = instance
            .create_surface(window.clone())
            .context("cannot create a drawing surface for the window")?;
        let adapter = pollster::block_on(request_adapter(&instance, Some(&surface)))?;
        let gpu = pollster::block_on(GpuContext::with_adapter(instance, adapter))?;
        let capabilities = surface.get_capabilities(&gpu.adapter);
        let format = capabilities
            .formats
            .iter()
            .copied()
            .find(wgpu::TextureFormat::is_srgb)
            .or_else(|| capabilities.formats.first().copied())
            .ok_or_else(|| {
                anyhow!(
                    "the surface of adapter {} reports no texture format it can present",
                    adapter_summary(&gpu.adapter.get_info())
                )
            })?;
        let offered: Vec<PresentModeId> = capabilities
            .present_modes
            .iter()
            .map(|&mode| PresentModeId::from_wgpu(mode))
            .collect();
        let size = window.inner_size();
        let present_mode = self.display.requested.resolve(&offered);
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: present_mode.to_wgpu(),
            desired_maximum_frame_latency: 2,
            alpha_mode: capabilities
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
            color_space: Default::default(),
        };
        let adapter_text = adapter_summary(&gpu.adapter.get_info());
        self.display.adapter = adapter_text.clone();
        self.display.offered = offered.clone();
        self.summary.adapter = adapter_text;
        self.summary.offered = offered.clone();
        let composer = FrameComposer::new(
            &gpu.device,
            format,
            (config.width, config.height),
            self.options.msaa,
        );
        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            event_loop,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        let mut active = Active {
            egui_state,
            window,
            gpu,
            surface,
            config,
            offered,
            composer,
            egui_ctx,
            configured: false,
            occluded: false,
            idle_until: None,
            configure_errors: Vec::new(),
            monitor_hz: None,
        };
        active.monitor_hz = monitor_refresh_hz(&active.window);
        if !active.is_minimised() {
            self.configure(&mut active, present_mode);
        }
        Ok(active)
    }

    /// Configures the surface with present mode `mode`. On failure the request goes back to
    /// the mode in force, so a refused mode is not retried every frame.
    fn configure(&mut self, active: &mut Active, mode: PresentModeId) {
        let previous = active.config.present_mode;
        active.config.present_mode = mode.to_wgpu();
        if active.configure().is_ok() {
            self.summary.configured.push(mode);
            self.display.active = Some(mode);
        } else {
            active.config.present_mode = previous;
            self.display.requested = self.display.active.unwrap_or(PresentModeId::Fifo);
        }
    }

    /// One frame: advance the loop, build the panel, draw, present, apply what the person
    /// asked for.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let Some(mut active) = self.active.take() else {
            return;
        };
        if !active.is_minimised() {
            if !active.configured {
                // Never configured (created minimised) or a configure failed: try again.
                let mode = self.display.requested.resolve(&active.offered);
                self.configure(&mut active, mode);
            }
            if active.configured {
                self.frame(event_loop, &mut active);
            }
        }
        self.active = Some(active);
    }

    /// The body of [`Self::redraw`] for a visible window.
    fn frame(&mut self, event_loop: &ActiveEventLoop, active: &mut Active) {
        self.tick(active);
        let raw_input = active.egui_state.take_egui_input(&active.window);
        let size = (active.config.width, active.config.height);
        self.display.session = self.session_status();
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
            output,
        } = UiPass::run(
            &active.egui_ctx,
            raw_input,
            &mut self.panel,
            &snapshot,
            &self.display,
            size,
        );
        active
            .egui_state
            .handle_platform_output(&active.window, platform_output);
        self.pending_textures.append(textures);
        let last_frame = self
            .options
            .frames
            .is_some_and(|frames| self.summary.frames + 1 >= frames);
        let panes = snapshot_panes(&snapshot, &viewports);
        self.hands.scene = Some((output.scene, pixels_per_point));
        let textures = &mut self.pending_textures;
        if last_frame && let Some(path) = self.options.screenshot.clone() {
            let shot = screenshot(
                active,
                textures,
                &panes,
                &primitives,
                pixels_per_point,
                &path,
            );
            match shot {
                Ok(()) => self.summary.screenshot = Some(path),
                Err(error) => self.error = Some(error),
            }
        }
        let acquire_wait = present(active, textures, &panes, &primitives, pixels_per_point);
        let drawn = acquire_wait.is_some();
        if let Some(wait) = acquire_wait {
            // A replay presents what was recorded, not what this window does.
            if self.replay.is_none() {
                self.live
                    .record_present(u64::try_from(wait.as_nanos()).unwrap_or(u64::MAX));
            }
            self.summary.frames += 1;
        }
        self.apply(active, &output);
        self.summary.spiral = self.live.spiralling();
        let replay_done = self.options.quit_after_replay
            && self
                .replay
                .as_ref()
                .is_some_and(|replay| replay.status().finished);
        if last_frame && drawn || self.error.is_some() || output.actions.quit || replay_done {
            event_loop.exit();
        }
        // The frame cap is for modes without vsync; under vsync the display paces.
        if !self.display.active.is_some_and(PresentModeId::is_vsync) {
            self.live.pace();
        }
    }

    /// Runs the loop's frames for one window frame: one from the clock, or, while
    /// replaying, the recorded frames whose time has come.
    fn tick(&mut self, active: &Active) {
        let now = Instant::now();
        let real = self.last_tick.map_or(0, |last| {
            u64::try_from(now.duration_since(last).as_nanos()).unwrap_or(u64::MAX)
        });
        self.last_tick = Some(now);
        if let Some(replay) = &mut self.replay {
            let outcome = if self.replay_begun {
                replay.advance(&mut self.live, real).map(|_| ())
            } else {
                self.replay_begun = true;
                replay
                    .begin(&mut self.live)
                    .and_then(|()| replay.advance(&mut self.live, 0).map(|_| ()))
            };
            if let Err(error) = outcome {
                self.error = Some(anyhow!(error).context("the replay's settings"));
            }
            return;
        }
        self.live.set_screen(ScreenFacts {
            present_mode: self.display.active,
            monitor_hz: active.monitor_hz,
        });
        if self.summary.frames == 0
            && self.recording_path.is_none()
            && let Some(path) = self.options.record.clone()
        {
            self.start_recording(Some(path));
        }
        self.live.frame();
        if let Some(error) = self.live.take_recording_error() {
            self.recording_failed(error);
        }
    }

    /// What the panel's session row shows.
    fn session_status(&self) -> SessionStatus {
        SessionStatus {
            recording: self
                .live
                .recording()
                .zip(self.recording_path.as_ref())
                .map(|(status, path)| (shown_path(path), status.frames)),
            replay: self.replay.as_ref().map(|replay| {
                (
                    crate::trace::escaped(&replay.recording().source),
                    replay.status(),
                )
            }),
            notice: self.notice.clone(),
        }
    }

    /// Starts recording to `path`, or to the first free `timestep-lab-recording-N.csv` in
    /// the current directory. The file is created new: nothing is overwritten.
    fn start_recording(&mut self, path: Option<PathBuf>) {
        let (path, file) = match path {
            Some(path) => {
                let file = std::fs::File::create_new(&path);
                (path, file)
            }
            None => {
                let mut n = 1;
                loop {
                    let path = PathBuf::from(format!("timestep-lab-recording-{n}.csv"));
                    match std::fs::File::create_new(&path) {
                        Err(error)
                            if error.kind() == std::io::ErrorKind::AlreadyExists && n < 10_000 =>
                        {
                            n += 1;
                        }
                        file => break (path, file),
                    }
                }
            }
        };
        let started = file.and_then(|file| {
            self.live.start_recording(&self.display.adapter, |header| {
                let writer = SessionWriter::new(std::io::BufWriter::new(file), header)?;
                Ok(Box::new(writer))
            })
        });
        match started {
            Ok(()) => {
                self.notice = None;
                self.recording_path = Some(path);
            }
            Err(error) => {
                self.recording_failed(format!("cannot record to {}: {error}", shown_path(&path)));
            }
        }
    }

    /// Finishes the recording running, if one is.
    fn stop_recording(&mut self) {
        let Some(path) = self.recording_path.take() else {
            return;
        };
        match self.live.stop_recording() {
            Ok(frames) => {
                self.notice = Some(format!("recorded {frames} frames to {}", shown_path(&path)));
                self.summary.recorded.push((path, frames));
            }
            Err(error) => {
                self.recording_failed(format!(
                    "the recording to {} failed: {error}",
                    shown_path(&path)
                ));
            }
        }
    }

    /// A recording that stopped on an error: said now, in the panel, and at exit.
    fn recording_failed(&mut self, error: String) {
        eprintln!("timestep-lab: {error}");
        self.recording_path = None;
        self.notice = Some(error.clone());
        self.recording_error = Some(error);
    }

    /// Takes a recording or replay request from the panel.
    fn session_request(&mut self, request: SessionRequest) {
        match request {
            SessionRequest::StartRecording => self.start_recording(None),
            SessionRequest::StopRecording => self.stop_recording(),
            SessionRequest::StopReplay => {
                self.replay = None;
                self.replay_begun = false;
                self.live.end_replay();
            }
            request => {
                let Some(replay) = &mut self.replay else {
                    return;
                };
                let outcome = match request {
                    SessionRequest::Play(playing) => {
                        replay.set_playing(playing);
                        Ok(())
                    }
                    SessionRequest::Speed(speed) => {
                        replay.set_speed(speed);
                        Ok(())
                    }
                    SessionRequest::Loop(looping) => {
                        replay.set_looping(looping);
                        Ok(())
                    }
                    SessionRequest::Seek(frame) => {
                        let outcome = replay.seek(&mut self.live, frame);
                        replay.set_playing(true);
                        outcome
                    }
                    _ => Ok(()),
                };
                if let Err(error) = outcome {
                    self.error = Some(anyhow!(error).context("the replay's settings"));
                }
            }
        }
    }

    /// Applies what the person asked for after a frame.
    fn apply(&mut self, active: &mut Active, output: &UiOutput) {
        if let Some(request) = output.session {
            self.session_request(request);
        }
        let mut actions = output.actions;
        if let Some(replay) = &mut self.replay {
            // While replaying, pause and single step work the replay's time.
            if std::mem::take(&mut actions.toggle_pause) {
                let playing = replay.status().playing;
                replay.set_playing(!playing);
            }
            if std::mem::take(&mut actions.single_step) {
                replay.set_playing(false);
                replay.step(&mut self.live);
            }
            if let Some(settings) = output.settings {
                let now = self.live.settings();
                if settings.strategy != now.strategy
                    || settings.compare != now.compare
                    || settings.panes != now.panes
                    || settings.focus != now.focus
                {
                    replay.keep_own_strategies(&settings);
                }
            }
        }
        // Settings first: a fix offered with a reset (the explosion banner's) restarts
        // under the fixed settings.
        if let Some(settings) = output.settings
            && let Err(error) = self.live.apply(settings)
        {
            // The panel's ranges lie inside the allowed ones; should one not, say so: the
            // settings in force stay, and the next frame's snapshot shows them.
            eprintln!("timestep-lab: setting refused: {error}");
        }
        if actions.reset {
            self.live.reset();
        }
        if actions.kick {
            self.live.kick();
        }
        if actions.toggle_pause {
            self.live.set_paused(!self.live.paused());
        }
        if actions.single_step {
            self.live.single_step();
        }
        if actions.toggle_fullscreen {
            let fullscreen = match active.window.fullscreen() {
                Some(_) => None,
                None => Some(Fullscreen::Borderless(None)),
            };
            active.window.set_fullscreen(fullscreen);
        }
        if let Some(mode) = output.present_mode {
            self.display.requested = mode;
        }
        if let Some((frame, (width, height))) = self.options.resize_at
            && self.summary.frames == frame
        {
            let _ = active
                .window
                .request_inner_size(PhysicalSize::new(width, height));
        }
        if let Some(every) = self.options.cycle_present_modes
            && every > 0
            && self.summary.frames > 0
            && self.summary.frames.is_multiple_of(every)
        {
            let current = self.display.active;
            let offered = &active.offered;
            let next = current
                .and_then(|mode| offered.iter().position(|&m| m == mode))
                .map_or(0, |i| (i + 1) % offered.len().max(1));
            if let Some(&mode) = offered.get(next) {
                self.display.requested = mode;
            }
        }
        let wanted = self.display.requested.resolve(&active.offered);
        if self.display.active != Some(wanted) {
            self.configure(active, wanted);
        }
    }
}

impl Active {
    /// Whether there is nothing to draw into.
    fn is_minimised(&self) -> bool {
        let size = self.window.inner_size();
        size.width == 0 || size.height == 0 || self.window.is_minimized() == Some(true)
    }

    /// Follows a new window size; a zero size is never configured.
    fn resize(&mut self, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            return;
        }
        // Outcome recorded by `configure`.
        let _ = self.configure();
    }

    /// Configures the surface at the window's current size, catching its errors.
    /// A failure is printed, recorded for the exit report, and leaves the surface marked
    /// unconfigured so that no frame is acquired from it until a retry succeeds.
    fn configure(&mut self) -> Result<(), DeviceError> {
        let size = self.window.inner_size();
        if size.width > 0 && size.height > 0 {
            self.config.width = size.width;
            self.config.height = size.height;
        }
        let outcome = catch_errors(&self.gpu.device, || {
            self.surface.configure(&self.gpu.device, &self.config);
        });
        self.configured = outcome.is_ok();
        if let Err(error) = &outcome {
            let mode = PresentModeId::from_wgpu(self.config.present_mode);
            let text = format!(
                "{mode} at {}x{}: {error}",
                self.config.width, self.config.height
            );
            eprintln!("timestep-lab: configuring the surface failed: {text}");
            if self.configure_errors.len() < MAX_RECORDED_ERRORS {
                self.configure_errors.push(text);
            }
            self.idle_until = Some(Instant::now() + MINIMISED_POLL);
        }
        outcome
    }

    /// Makes a new surface for the window after the old one was lost, and configures it
    /// (a configuration failure is recorded by [`Self::configure`]).
    fn recreate_surface(&mut self) -> anyhow::Result<()> {
        let surface = self.gpu.instance.create_surface(self.window.clone());
        match surface {
            Ok(surface) => {
                self.surface = surface;
                self.configured = false;
                let _ = self.configure();
                Ok(())
            }
            Err(error) => {
                self.idle_until = Some(Instant::now() + MINIMISED_POLL);
                Err(error).context("cannot recreate the lost surface")
            }
        }
    }
}

/// Acquires the surface texture, draws into it and presents. Returns whether a frame
/// reached the display; every other outcome is handled here.
fn present(
    active: &mut Active,
    pending_textures: &mut egui::TexturesDelta,
    panes: &[Pane<'_>],
    primitives: &[egui::ClippedPrimitive],
    pixels_per_point: f32,
) -> Option<Duration> {
    // Under FIFO, acquiring blocks while every image waits for the display: the one
    // present timing wgpu lets the lab measure.
    let acquiring = Instant::now();
    let acquired = active.surface.get_current_texture();
    let acquire_wait = acquiring.elapsed();
    let (texture, suboptimal) = match acquired {
        wgpu::CurrentSurfaceTexture::Success(texture) => (texture, false),
        wgpu::CurrentSurfaceTexture::Suboptimal(texture) => (texture, true),
        // The acquire itself waited; try again next frame.
        wgpu::CurrentSurfaceTexture::Timeout => return None,
        wgpu::CurrentSurfaceTexture::Occluded => {
            active.idle_until = Some(Instant::now() + MINIMISED_POLL);
            return None;
        }
        wgpu::CurrentSurfaceTexture::Outdated => {
            // Outcome recorded by `configure`.
            let _ = active.configure();
            return None;
        }
        wgpu::CurrentSurfaceTexture::Lost => {
            if let Err(error) = active.recreate_surface() {
                eprintln!("timestep-lab: {error:#}");
            }
            return None;
        }
        wgpu::CurrentSurfaceTexture::Validation => {
            eprintln!("timestep-lab: acquiring the frame failed validation; skipping it");
            return None;
        }
    };
    let view = texture
        .texture
        .create_view(&wgpu::TextureViewDescriptor::default());
    draw(
        active,
        pending_textures,
        &view,
        panes,
        primitives,
        pixels_per_point,
    );
    active.window.pre_present_notify();
    active.gpu.queue.present(texture);
    let size = active.window.inner_size();
    if suboptimal && (size.width, size.height) != (active.config.width, active.config.height) {
        // Outcome recorded by `configure`.
        let _ = active.configure();
    }
    Some(acquire_wait)
}

/// Draws the frame into an offscreen texture of the surface's size and format and
/// writes it to `path`.
fn screenshot(
    active: &mut Active,
    pending_textures: &mut egui::TexturesDelta,
    panes: &[Pane<'_>],
    primitives: &[egui::ClippedPrimitive],
    pixels_per_point: f32,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    let (width, height) = (active.config.width, active.config.height);
    let offscreen = Offscreen::new(&active.gpu.device, width, height, active.config.format);
    // Texture uploads are applied here; the window's frame then finds them in place.
    draw(
        active,
        pending_textures,
        offscreen.view(),
        panes,
        primitives,
        pixels_per_point,
    );
    let device = &active.gpu.device;
    let image = offscreen
        .read_rgba(device, &active.gpu.queue)
        .context("reading the screenshot back from the GPU")?;
    write_png(&image, path)
}

/// Draws the scene panes and the panel into `target` (the surface's size), uploading the
/// pending egui textures.
fn draw(
    active: &mut Active,
    pending_textures: &mut egui::TexturesDelta,
    target: &wgpu::TextureView,
    panes: &[Pane<'_>],
    primitives: &[egui::ClippedPrimitive],
    pixels_per_point: f32,
) {
    active.composer.render(
        &active.gpu.device,
        &active.gpu.queue,
        target,
        (active.config.width, active.config.height),
        panes,
        Some(UiFrame {
            primitives,
            textures: std::mem::take(pending_textures),
            pixels_per_point,
        }),
    );
}

/// The refresh rate of the monitor `window` is on, Hz, if the window system says.
fn monitor_refresh_hz(window: &Window) -> Option<f64> {
    let millihertz = window.current_monitor()?.refresh_rate_millihertz()?;
    Some(f64::from(millihertz) / 1000.0)
}

/// Why the event loop could not start, in words for a person: with no display at all, how
/// to get one; otherwise the display tried and what the window system said, without the
/// source location winit puts in front (a path into the dependency registry).
fn no_window_error(error: winit::error::EventLoopError) -> anyhow::Error {
    let set = |name: &str| std::env::var_os(name).is_some_and(|value| !value.is_empty());
    let wayland = set("WAYLAND_DISPLAY") || set("WAYLAND_SOCKET");
    let x11 = set("DISPLAY");
    let free_unix = cfg!(any(
        target_os = "linux",
        target_os = "dragonfly",
        target_os = "freebsd",
        target_os = "netbsd",
        target_os = "openbsd"
    ));
    if free_unix && !wayland && !x11 {
        return anyhow!(
            "cannot open a window: no display was found (neither DISPLAY nor WAYLAND_DISPLAY \
             is set). Run it in a desktop session, or start a virtual X server: \
             `Xvfb :99 -screen 0 1280x800x24 &` then `DISPLAY=:99 timestep-lab ...` \
             (or `xvfb-run -a timestep-lab ...`; Debian and Ubuntu: apt-get install xvfb). \
             bench, render and bench-render need no display."
        );
    }
    let display = match (std::env::var("WAYLAND_DISPLAY"), std::env::var("DISPLAY")) {
        (Ok(name), _) if wayland && !name.is_empty() => format!(" on Wayland display {name}"),
        (_, Ok(name)) if x11 => format!(" on X display {name}"),
        _ => String::new(),
    };
    anyhow!(
        "cannot open a window{display}: {}",
        without_source_location(&error.to_string())
    )
}

/// winit's message without the `os error at FILE:LINE: ` it starts OS errors with.
fn without_source_location(message: &str) -> &str {
    message
        .strip_prefix("os error at ")
        .and_then(|rest| rest.split_once(": "))
        .map_or(message, |(_, reason)| reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_location_is_cut_from_os_errors_only() {
        assert_eq!(
            without_source_location(
                "os error at /home/me/.cargo/registry/src/winit-0.30.13/src/x.rs:788: \
                 Failed to open connection to X server"
            ),
            "Failed to open connection to X server"
        );
        assert_eq!(
            without_source_location("EventLoop can't be recreated"),
            "EventLoop can't be recreated"
        );
    }
}

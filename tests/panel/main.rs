//! The egui panel, driven like a person would: a snapshot of it after a scripted run, and
//! its buttons and keys doing what they say.
//!
//! This file sets the harness up (the loop after a scripted run, and the window's side of
//! the panel); the tests are in the modules below, one part of the panel each.

#[path = "../common/mod.rs"]
mod common;

mod banners;
mod controls;
mod layout;
mod ramp;
mod readouts;
mod session;
mod snapshots;
mod strategies;
mod tour;

use egui_kittest::Harness;
use timestep_lab::live::{LiveLoop, LiveSettings, PresentModeId, Readouts, VirtualStopwatch};
use timestep_lab::tour::{Tour, TourRequest};
use timestep_lab::ui::{
    DisplayStatus, PanelActions, PanelState as UiState, RecordReplayRequest, ShellStatus, lab_ui,
};

/// What the harness plays: the loop after a scripted run, and the window's side of the
/// panel (the settings in force with every request the panel returned applied, the
/// display it shows, the actions it asked for so far).
struct PanelState {
    /// The window's side.
    model: Model,
    /// The readouts the panel is shown (the loop's, or edited by a test).
    readouts: Readouts,
    /// The loop the panel shows.
    live: LiveLoop<VirtualStopwatch>,
    /// Every action asked for so far.
    actions: PanelActions,
    /// Every recording or replay request so far.
    requests: Vec<RecordReplayRequest>,
}

/// The window's side of the panel, as the harness plays it.
struct Model {
    /// The settings in force: the loop's, with every change the panel asked for.
    settings: LiveSettings,
    /// What the panel shows of the window: the display, the recording, the tour.
    shell: ShellStatus,
    /// What the panel remembers between frames.
    panel: UiState,
    /// The guided tour, while it runs (the window's part, played with the core's tour).
    tour: Option<Tour>,
}

impl Model {
    /// Takes a tour request as the window does: the settings it gives run.
    fn tour_request(&mut self, request: TourRequest) {
        let settings = match (request, self.tour.as_mut()) {
            (TourRequest::Start, None) => {
                let (tour, setup) = Tour::start(0, &self.settings);
                self.tour = Some(tour);
                Some(setup)
            }
            (TourRequest::Leave, Some(tour)) => {
                let saved = *tour.saved();
                self.tour = None;
                Some(saved)
            }
            (request, Some(tour)) => tour.navigate(request),
            (_, None) => None,
        };
        if let Some(settings) = settings {
            self.settings = settings;
        }
        self.shell.tour = self.tour.as_ref().map(Tour::status);
    }
}

/// The panel after two seconds of a 60 Hz loop under the default settings, with lavapipe's
/// present modes: the numbers are exact, so the picture is reproducible.
fn scripted_state() -> PanelState {
    scripted_state_with(LiveSettings::default())
}

/// [`scripted_state`] under `settings`.
fn scripted_state_with(settings: LiveSettings) -> PanelState {
    let mut live =
        LiveLoop::new(VirtualStopwatch::default(), settings).expect("the settings are valid");
    live.frame();
    for _ in 0..120 {
        live.stopwatch_mut().advance(16_666_667);
        live.frame();
        live.record_present(0);
    }
    state_of(live)
}

/// The panel showing `live` after its run, with lavapipe's present modes.
fn state_of(live: LiveLoop<VirtualStopwatch>) -> PanelState {
    let display = DisplayStatus {
        adapter: "test adapter".into(),
        offered: vec![
            PresentModeId::Immediate,
            PresentModeId::Mailbox,
            PresentModeId::Fifo,
            PresentModeId::FifoRelaxed,
        ],
        requested: PresentModeId::default(),
        active: Some(PresentModeId::FifoRelaxed),
        drawing: Default::default(),
    };
    PanelState {
        model: Model {
            settings: *live.settings(),
            shell: ShellStatus {
                display,
                ..ShellStatus::default()
            },
            panel: UiState::default(),
            tour: None,
        },
        readouts: live.snapshot().readouts,
        live,
        actions: PanelActions::default(),
        requests: Vec::new(),
    }
}

fn harness(state: PanelState) -> Harness<'static, PanelState> {
    build(Harness::builder(), state)
}

/// The whole UI in a 720 × 1100 harness made by `builder`. Each frame the panel is shown
/// the settings in force and the readouts, and what it returns is applied as the window
/// would.
fn build(
    builder: egui_kittest::HarnessBuilder<PanelState>,
    state: PanelState,
) -> Harness<'static, PanelState> {
    build_sized(builder.with_size(egui::vec2(720.0, 1100.0)), state)
}

/// [`build`] at the size `builder` says.
fn build_sized(
    builder: egui_kittest::HarnessBuilder<PanelState>,
    state: PanelState,
) -> Harness<'static, PanelState> {
    builder.build_ui_state(
        |ui, state: &mut PanelState| {
            let mut snapshot = state.live.snapshot();
            snapshot.settings = state.model.settings;
            snapshot.readouts = state.readouts;
            let model = &mut state.model;
            let output = lab_ui(ui, &mut model.panel, &snapshot, &model.shell);
            state.actions |= output.actions;
            state.requests.extend(output.session);
            if let Some(settings) = output.settings {
                model.settings = settings;
            }
            if let Some(mode) = output.present_mode {
                model.shell.display.requested = mode;
            }
            if let Some(request) = output.tour {
                model.tour_request(request);
            }
        },
        state,
    )
}

/// 10 s of 60 Hz frames, then 1 s of 30 Hz frames: each frame-statistics window reads
/// differently.
fn sixty_then_thirty_hz() -> PanelState {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
        .expect("the default settings are valid");
    live.frame();
    for frame in std::iter::repeat_n(16_666_667, 600).chain(std::iter::repeat_n(33_333_333, 30)) {
        live.stopwatch_mut().advance(frame);
        live.frame();
        live.record_present(0);
    }
    state_of(live)
}

//! What the panel and its sections share: the state the panel keeps between frames
//! ([`PanelState`]), what the window tells it ([`DisplayStatus`], [`RecordReplayStatus`]),
//! the edits one frame makes and the requests they become ([`Edits`], [`PanelActions`],
//! [`RecordReplayRequest`]), and the small pieces every section draws with (the slider
//! clamping, the alarm colour, a reserved control, milliseconds). The panel (`panel.rs`)
//! and each section import from here, and nothing here imports back.

use egui::Color32;

use crate::live::{
    LiveSettings, PresentModeId, RampRequest, RampSettings, ReplayStatus, StatsSpan,
};
use crate::tour::{TourRequest, TourStatus};

/// What the window says about recording and replaying.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordReplayStatus {
    /// The recording running: the file (as shown) and the frames written.
    pub recording: Option<(String, u64)>,
    /// The replay running: what is replayed (as shown) and where it is.
    pub replay: Option<(String, ReplayStatus)>,
    /// The last thing to tell the person: a recording written, or why one stopped.
    pub notice: Option<String>,
}

/// What the person asked for in the session row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RecordReplayRequest {
    /// Start recording (from a reset).
    StartRecording,
    /// Finish the recording.
    StopRecording,
    /// Replay time runs (`true`) or stops.
    Play(bool),
    /// Recorded time per real time.
    Speed(f64),
    /// Start over at the end.
    Loop(bool),
    /// Continue from this frame.
    Seek(usize),
    /// Back to the live clock.
    StopReplay,
}

/// Sliders keep a value given on the command line even when it lies outside their range
/// (the range is what is comfortable to drag, not what is allowed); edits stay inside it.
pub(super) const KEEP_GIVEN: egui::SliderClamping = egui::SliderClamping::Edits;

/// Colour of alarms (spiral, explosion).
pub(super) const ALARM: Color32 = Color32::from_rgb(200, 40, 40);

/// What the panel itself remembers between frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelState {
    /// Whether the side panel is shown (H toggles).
    pub visible: bool,
    /// Whether the frame timeline is shown under the scene (T toggles).
    pub timeline: bool,
    /// Whether the person turned the slow-loop offer down.
    pub slow_offer_dismissed: bool,
    /// Whether the panel offers the guided tour (a first launch, until taken or turned
    /// down).
    pub tour_offer: bool,
    /// Whether the key and concept overlay is open (? or F1 toggles).
    pub help: bool,
    /// The window the frame statistics and their plots are over.
    pub stats_window: StatsSpan,
    /// The load ramp the Ramp button starts: its maximum and duration.
    pub ramp: RampSettings,
    /// Whether egui fills the side panel's and the timeline's backgrounds. The window and
    /// `bench-render` paint them themselves, as one flat fill per region, which a CPU
    /// rasterizer does for a fraction of what egui's textured, blended triangles cost
    /// (`render::Backdrop`); `UiOutput::backdrop` then says in which colour.
    pub fills_panels: bool,
}

impl Default for PanelState {
    fn default() -> Self {
        Self {
            visible: true,
            timeline: true,
            slow_offer_dismissed: false,
            tour_offer: false,
            help: false,
            stats_window: StatsSpan::default(),
            ramp: RampSettings::default(),
            fills_panels: true,
        }
    }
}

/// The display as the window knows it, for the panel to show: plain values the window
/// owns and passes down each frame.
#[derive(Clone, Debug, PartialEq)]
pub struct DisplayStatus {
    /// The GPU adapter, in words.
    pub adapter: String,
    /// How finely frames are drawn on it, in words, and why (empty until known).
    pub drawing: (String, String),
    /// Present modes the surface reports (concrete ones).
    pub offered: Vec<PresentModeId>,
    /// The present mode asked for (may be an `auto-*` one).
    pub requested: PresentModeId,
    /// The mode the surface is configured with now.
    pub active: Option<PresentModeId>,
}

impl Default for DisplayStatus {
    fn default() -> Self {
        Self {
            adapter: String::new(),
            drawing: (String::new(), String::new()),
            offered: vec![PresentModeId::Fifo],
            requested: PresentModeId::default(),
            active: None,
        }
    }
}

/// What the shell (the window, or a headless command) tells the panel each frame: the
/// display, the recording or replay it runs, and the guided tour while it runs one. Plain
/// values the shell owns and passes down.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShellStatus {
    /// The display.
    pub display: DisplayStatus,
    /// The recording or replay.
    pub session: RecordReplayStatus,
    /// The guided tour, while the shell runs it.
    pub tour: Option<TourStatus>,
}

/// What the person asked for this frame, besides settings edits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PanelActions {
    /// Kick the spring (Space).
    pub kick: bool,
    /// Reset the scene (R).
    pub reset: bool,
    /// Pause or resume (P).
    pub toggle_pause: bool,
    /// Advance one frame while paused (.).
    pub single_step: bool,
    /// Toggle fullscreen (F11).
    pub toggle_fullscreen: bool,
    /// Close the window (Esc).
    pub quit: bool,
}

impl std::ops::BitOrAssign for PanelActions {
    /// Adds the actions of a later frame (for a caller that applies several frames at once).
    fn bitor_assign(&mut self, other: Self) {
        self.kick |= other.kick;
        self.reset |= other.reset;
        self.toggle_pause |= other.toggle_pause;
        self.single_step |= other.single_step;
        self.toggle_fullscreen |= other.toggle_fullscreen;
        self.quit |= other.quit;
    }
}

/// The values one frame of the panel edits: copies of what is in force, returned as
/// requests when they differ.
pub(super) struct Edits {
    /// The loop's settings.
    pub(super) settings: LiveSettings,
    /// The present mode asked for.
    pub(super) present_mode: PresentModeId,
    /// Actions.
    pub(super) actions: PanelActions,
    /// A recording or replay request.
    pub(super) session: Option<RecordReplayRequest>,
    /// A load ramp request.
    pub(super) ramp: Option<RampRequest>,
    /// A move in the guided tour.
    pub(super) tour: Option<TourRequest>,
}

/// A control that only applies while `on`: shown live when on, greyed out with `off_value`
/// when off, so switching it never moves the rows below it.
pub(super) fn reserved_ui<T>(
    ui: &mut egui::Ui,
    on: bool,
    value: &mut T,
    off_value: T,
    add: impl FnOnce(&mut egui::Ui, &mut T),
) {
    if on {
        add(ui, value);
    } else {
        let mut shown = off_value;
        ui.add_enabled_ui(false, |ui| add(ui, &mut shown));
    }
}

/// Milliseconds for a readout: two decimals, none once the value has five digits (a
/// spiralling loop's frame times), so the column keeps its width.
pub(super) fn ms(value: f64) -> String {
    if value.abs() >= 1000.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    }
}

//! What the window and the headless drawing commands are asked to do, as plain values: the
//! command line fills them in (and checks them), the shell reads them. Neither side sees
//! the other's types, and a build without the window still checks every option.

use std::path::PathBuf;

use std::sync::Arc;

use crate::live::{LiveSettings, PresentModeId, RampSettings, Recording};

/// How the window starts and, for automation, when it stops.
#[derive(Clone, Debug)]
pub struct WindowOptions {
    /// The live loop's starting settings.
    pub settings: LiveSettings,
    /// Where to keep the settings when the window closes, for the next run.
    pub keep_settings: KeepSettings,
    /// The present mode to start with.
    pub present_mode: PresentModeId,
    /// Window size, logical points: times the window's scale factor in physical pixels.
    pub size: (u32, u32),
    /// MSAA samples of the scene (1 or 4); `None` chooses for the adapter (4 on a GPU, 1
    /// on a CPU rasterizer).
    pub msaa: Option<u32>,
    /// The graphics API to draw with (`--backend`); `None`: `WGPU_BACKEND`'s, else any.
    pub backend: Option<GpuBackend>,
    /// Run this many frames, then exit.
    pub frames: Option<u64>,
    /// Write the last frame (scene and panel) to this PNG.
    pub screenshot: Option<PathBuf>,
    /// Whether the side panel starts visible.
    pub panel: bool,
    /// Whether the frame timeline starts visible.
    pub timeline: bool,
    /// Start paused.
    pub paused: bool,
    /// Automation: switch to the next present mode the surface offers every this many
    /// frames, as a person would in the panel (tests of live reconfiguration).
    pub cycle_present_modes: Option<u64>,
    /// Automation: after this many frames, ask for this window size (tests of resizing).
    pub resize_at: Option<(u64, (u32, u32))>,
    /// Record the session from the first frame to this file (checked: it does not exist
    /// yet, and its directory does).
    pub record: Option<PathBuf>,
    /// Replay this recording (or trace) instead of the clock, read before the window opens.
    pub replay: Option<Arc<Recording>>,
    /// The replay's speed: recorded time per real time.
    pub replay_speed: f64,
    /// Automation: close the window when the replay has run its last frame.
    pub quit_after_replay: bool,
    /// Start a load ramp with the first frame (checked).
    pub ramp: Option<RampSettings>,
    /// Start the guided tour with the first frame: at this chapter (0-based, checked), or
    /// `Some(None)` at the one the reader was last on.
    pub tour: Option<Option<usize>>,
    /// The guided tour's chapter the reader was last on (0-based).
    pub tour_resume: usize,
    /// Offer the guided tour in the panel (the window's first run here).
    pub tour_offer: bool,
}

/// Where the window keeps its settings when it closes, for the next run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeepSettings {
    /// Nowhere: `--no-config` (a page's `no-config`), or a settings file that could not be
    /// read, left as it is.
    Nowhere,
    /// In this settings file.
    File(PathBuf),
    /// In the browser's local storage (a page).
    LocalStorage,
}

/// What `render` draws: the loop run headless at a display rate, then one frame to a PNG.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// The live loop's settings.
    pub settings: LiveSettings,
    /// The PNG file to write.
    pub out: PathBuf,
    /// Image size, pixels.
    pub size: (u32, u32),
    /// Real time to run before the frame is drawn, seconds.
    pub time_s: f64,
    /// Display rate the loop runs at until then, Hz.
    pub display_hz: f64,
    /// The graphics API to draw with (`--backend`); `None`: `WGPU_BACKEND`'s, else any.
    pub backend: Option<GpuBackend>,
}

/// What `bench-render` measures.
#[derive(Clone, Copy, Debug)]
pub struct BenchRenderOptions {
    /// Frames to measure (after a warm-up).
    pub frames: u32,
    /// Target size, pixels.
    pub size: (u32, u32),
    /// Scene panes, each running the next strategy (1 to [`crate::live::MAX_PANES`]).
    pub panes: u32,
    /// MSAA samples of the scene (1 or 4); `None` chooses for the adapter, as the window
    /// does.
    pub msaa: Option<u32>,
    /// The graphics API to draw with (`--backend`); `None`: `WGPU_BACKEND`'s, else any.
    pub backend: Option<GpuBackend>,
    /// Print JSON instead of the table.
    pub json: bool,
    /// Parts of the frame left out, to measure what each costs.
    pub without: FrameParts,
}

/// A part of the frame `bench-render --without` leaves out: a thing in the scene, or a
/// part of the window's UI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FramePart {
    /// The ground grid.
    Grid,
    /// The orbiting sphere.
    Sphere,
    /// The translucent ghost (the true position).
    Ghost,
    /// The trail of shown positions.
    Trail,
    /// The pivot ball and post, the spring's plate and mass, the player.
    Props,
    /// The spring's coil.
    Coil,
    /// The side panel (hidden: the scene takes its room).
    Panel,
    /// The frame timeline (hidden: the scene takes its room).
    Timeline,
    /// The whole UI pass (laid out, not drawn).
    Ui,
}

impl FramePart {
    /// Every part, in the order help lists them.
    pub const ALL: [Self; 9] = [
        Self::Grid,
        Self::Sphere,
        Self::Ghost,
        Self::Trail,
        Self::Props,
        Self::Coil,
        Self::Panel,
        Self::Timeline,
        Self::Ui,
    ];

    /// The part's name on the command line and in reports.
    pub fn id(self) -> &'static str {
        match self {
            Self::Grid => "grid",
            Self::Sphere => "sphere",
            Self::Ghost => "ghost",
            Self::Trail => "trail",
            Self::Props => "props",
            Self::Coil => "coil",
            Self::Panel => "panel",
            Self::Timeline => "timeline",
            Self::Ui => "ui",
        }
    }
}

timestep_lab_core::stable_ids!(FramePart, UnknownFramePart, "part of the frame");

/// A set of [`FramePart`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameParts(u16);

impl FrameParts {
    /// No part.
    pub const NONE: Self = Self(0);

    /// The set with `part` added.
    #[must_use]
    pub fn with(self, part: FramePart) -> Self {
        Self(self.0 | 1 << part as u16)
    }

    /// Whether `part` is in the set.
    pub fn contains(self, part: FramePart) -> bool {
        self.0 & 1 << part as u16 != 0
    }

    /// The parts in the set, in [`FramePart::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = FramePart> {
        FramePart::ALL
            .into_iter()
            .filter(move |&part| self.contains(part))
    }
}

impl FromIterator<FramePart> for FrameParts {
    fn from_iter<I: IntoIterator<Item = FramePart>>(parts: I) -> Self {
        parts.into_iter().fold(Self::NONE, Self::with)
    }
}

/// The graphics API a drawing command renders with (`--backend`). Without one, the
/// `WGPU_BACKEND` variable chooses, else the first adapter of any API the platform has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuBackend {
    /// Vulkan (Linux, Windows; Mesa's lavapipe renders it on the CPU).
    Vulkan,
    /// Direct3D 12 (Windows).
    Dx12,
    /// Metal (macOS).
    Metal,
    /// OpenGL or OpenGL ES (Linux and Windows through EGL or WGL; a downlevel API: fewer
    /// texture views, FIFO only).
    Gl,
    /// WebGPU, the browser's (on a page; its WebGL2 is `Gl`).
    WebGpu,
}

impl GpuBackend {
    /// Every backend, in the order help lists them.
    pub const ALL: [Self; 5] = [
        Self::Vulkan,
        Self::Dx12,
        Self::Metal,
        Self::Gl,
        Self::WebGpu,
    ];

    /// The backends a page can draw with: the browser's WebGPU and WebGL2.
    pub const ON_A_PAGE: [Self; 2] = [Self::WebGpu, Self::Gl];

    /// The backends the desktop application can draw with (wgpu has each where the
    /// platform does).
    pub const NATIVE: [Self; 4] = [Self::Vulkan, Self::Dx12, Self::Metal, Self::Gl];

    /// The backends this build can draw with: [`Self::NATIVE`], or on a page
    /// [`Self::ON_A_PAGE`].
    pub fn here() -> &'static [Self] {
        if cfg!(target_arch = "wasm32") {
            &Self::ON_A_PAGE
        } else {
            &Self::NATIVE
        }
    }

    /// The backend's name on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Self::Vulkan => "vulkan",
            Self::Dx12 => "dx12",
            Self::Metal => "metal",
            Self::Gl => "gl",
            Self::WebGpu => "webgpu",
        }
    }

    /// The API's own name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Vulkan => "Vulkan",
            Self::Dx12 => "Direct3D 12",
            Self::Metal => "Metal",
            Self::Gl => "OpenGL",
            Self::WebGpu => "WebGPU",
        }
    }
}

timestep_lab_core::stable_ids!(GpuBackend, UnknownGpuBackend, "graphics backend");

//! The window's, `render`'s and `bench-render`'s options, and the simulation options they
//! share with `bench`.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;

use super::ranges::{
    CYCLE_FRAMES, FOCUS, IMAGE_SIZE, PANES, RENDER_FRAMES, WINDOW_FRAMES, WINDOW_SIZE, whole,
};
use crate::bench::{BenchSettings, same_file, same_output};
use crate::input::InputPolicy;
use crate::live::{
    LiveSettings, LoadSettings, MAX_PANES, MIN_COMPARE_PANES, Panes, PresentModeId, RampSettings,
    ScenePreset,
};
use crate::options::{
    BenchRenderOptions, FramePart, GpuBackend, KeepSettings, RenderOptions, WindowOptions,
};
use crate::remembered::Remembered;
use crate::scene::{CameraDriver, CameraView, Integrator, SceneConfig};
use crate::timestep::MAX_STEPS;
use crate::timestep::{FilterSpec, Strategy, TimestepConfig};

use super::*;

/// Scene and loop settings the window and `render` share (besides [`SimArgs`]).
#[derive(Debug, Clone, Args)]
pub struct LiveArgs {
    /// Timestep strategy: one of the lab's, or an engine preset (the ids come from the
    /// strategy table).
    #[arg(
        long,
        default_value = "interpolated",
        value_name = "ID",
        help = format!(
            "Timestep strategy: {}; or an engine's own loop: {}",
            strategy_ids(),
            preset_ids()
        )
    )]
    pub strategy: Strategy,
    /// Start in comparison mode, one pane per strategy (the bounds come from the live loop).
    #[arg(
        long,
        value_name = "LIST",
        help = format!(
            "Start in comparison mode, one pane per strategy: `all` (the lab's {MAX_PANES}), or \
             {MIN_COMPARE_PANES} to {MAX_PANES} comma-separated strategy or engine preset ids \
             (e.g. fixed,accumulator,interpolated). All panes get the same frames."
        )
    )]
    pub compare: Option<String>,
    /// With --compare: the focused pane, 1 to the number of panes (its steps carry the
    /// per-step load; the readouts, plots and timeline show it). Default: the accumulator's
    /// pane, else the first.
    #[arg(long, value_name = "N", value_parser = whole::<usize>(FOCUS))]
    pub focus: Option<usize>,
    /// Scene preset: together, or camera-vs-sphere (the camera moves per render frame, the
    /// sphere per fixed step; compares accumulator with interpolated unless --compare
    /// names the panes). Sets the camera driver, so --camera is refused beside it; --strategy
    /// is the single pane's, shown when comparison is switched off.
    #[arg(long, value_name = "ID", conflicts_with = "camera")]
    pub preset: Option<ScenePreset>,
    /// Camera driver: per-frame, per-step or smoothed. In the player view it moves the
    /// look too: per-frame turns with the mouse every frame, per-step and smoothed turn
    /// with the player's steps (smoothed through the strategy's interpolation).
    #[arg(long, default_value = "smoothed", value_name = "ID")]
    pub camera: CameraDriver,
    /// Camera view: orbit (circling the pivot; the player is a marker on the ground) or
    /// player (first person: WASD or the arrows walk, dragging the mouse over the scene
    /// looks around).
    #[arg(long, default_value = "orbit", value_name = "ID")]
    pub view: CameraView,
    /// How key presses and mouse turns reach the fixed steps: every-step (applied to
    /// every step of the frame that read them: duplicated), first-step (the frame's first
    /// step only: lost on frames without one), buffered (queued until a step takes them),
    /// or timestamped (applied inside the step whose simulated interval holds their time).
    #[arg(long, default_value = "buffered", value_name = "ID")]
    pub input_policy: InputPolicy,
    /// Time scale, 0.05 to 2 (slow motion below 1).
    #[arg(long, default_value_t = 1.0, value_name = "X")]
    pub time_scale: f64,
    /// Frame-time filter before the strategies: none, snap (to whole refresh periods,
    /// within an eighth of one), snap:TOL_MS, or average:N (2 to 32 frames).
    #[arg(long, default_value = "none", value_name = "SPEC", value_parser = FilterSpec::parse)]
    pub filter: FilterSpec,
    /// Refresh rate the screen model and the snap filter use, Hz (1 to 1000); 0 = the
    /// monitor's, as the window system reports it (60 Hz when it does not).
    #[arg(long, default_value_t = 0.0, value_name = "HZ")]
    pub refresh: f64,
    /// Simulation settings.
    #[command(flatten)]
    pub sim: SimArgs,
}

impl LiveArgs {
    /// The live loop's settings, checked; a bad value is named with its allowed range.
    pub fn settings(&self) -> anyhow::Result<LiveSettings> {
        let sim = &self.sim;
        let mut settings = LiveSettings {
            strategy: self.strategy,
            compare: false,
            panes: Panes::default(),
            focus: 0,
            rate_hz: sim.hz,
            max_frame_time_ms: sim.max_frame_time,
            max_steps: sim.max_steps,
            integrator: sim.integrator,
            spring_hz: sim.spring_hz,
            damping: sim.damping,
            camera: self.camera,
            view: self.view,
            input_policy: self.input_policy,
            time_scale: self.time_scale,
            load: LoadSettings {
                step_cost_ms: sim.step_cost,
                render_cost_ms: sim.render_cost,
                jitter_ms: sim.jitter,
                hitch_ms: sim.hitch,
                hitch_every_s: sim.hitch_every,
            },
            frame_cap_hz: 0.0,
            filter: self.filter,
            refresh_override_hz: self.refresh,
        };
        if let Some(preset) = self.preset {
            preset.apply(&mut settings);
        }
        if let Some(list) = &self.compare {
            let strategies = Strategy::parse_list(list).context("--compare")?;
            settings.panes = Panes::new(&strategies).context("--compare")?;
            settings.compare = false;
            settings.set_compare(true);
        }
        if let Some(focus) = self.focus {
            let panes = settings.pane_strategies().len();
            if !(1..=panes).contains(&focus) {
                anyhow::bail!(
                    "--focus {focus} is out of range (allowed 1 to {panes}: the number of panes)"
                );
            }
            settings.focus = focus - 1;
        }
        settings.validate().map_err(flagged)?;
        Ok(settings)
    }
}

/// The window's options (used when no subcommand is given).
#[derive(Debug, Clone, Args)]
pub struct WindowArgs {
    /// Present mode: fifo, fifo-relaxed, mailbox, immediate, auto-vsync or auto-no-vsync
    /// (one the surface does not offer falls back to fifo).
    #[arg(long, default_value = "auto-vsync", value_name = "ID")]
    pub present_mode: PresentModeId,
    /// Frame cap for non-vsync present modes, fps (5 to 1000; 0 = off).
    #[arg(long, default_value_t = 0.0, value_name = "FPS")]
    pub frame_cap: f64,
    /// Window width, logical points (the screen's scale factor times this in pixels: 1280
    /// is 2560 pixels on a 2x Retina or high-DPI screen).
    #[arg(long, default_value_t = 1280, value_name = "PX", value_parser = whole::<u32>(WINDOW_SIZE))]
    pub width: u32,
    /// Window height, logical points (the scale factor times this in pixels).
    #[arg(long, default_value_t = 800, value_name = "PX", value_parser = whole::<u32>(WINDOW_SIZE))]
    pub height: u32,
    /// MSAA samples of the scene: 4 (smooth edges) or 1 (cheaper on a software
    /// rasterizer); by default 4 on a GPU, 1 on a CPU rasterizer.
    #[arg(long, value_name = "N", value_parser = parse_msaa)]
    pub msaa: Option<u32>,
    /// Graphics API to draw with: vulkan, dx12, metal or gl; on a page webgpu or gl (default:
    /// the WGPU_BACKEND variable's, else the first the platform has; on a page WebGPU where
    /// the browser has it, else WebGL2). One this machine lacks is refused with the adapters
    /// it has.
    #[arg(long, value_name = "API", value_parser = parse_backend)]
    pub backend: Option<GpuBackend>,
    /// Run this many frames, print a summary (adapter, present modes, spiral), then exit.
    #[arg(long, value_name = "N", value_parser = whole::<u64>(WINDOW_FRAMES))]
    pub frames: Option<u64>,
    /// Write the last frame (scene and panel) to this PNG file.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
    /// Start with the side panel hidden (H shows it).
    #[arg(long)]
    pub no_panel: bool,
    /// Start with the frame timeline hidden (T shows it).
    #[arg(long)]
    pub no_timeline: bool,
    /// Start paused (P resumes, . steps one frame).
    #[arg(long)]
    pub paused: bool,
    /// Neither restore the settings saved when the window last closed nor save them when
    /// it closes.
    #[arg(
        long,
        help = format!(
            "Neither restore the settings saved when the window last closed nor save them \
             when it closes (settings.toml, in {}; the {} variable names another folder)",
            crate::remembered::CONFIG_DIRS,
            crate::remembered::CONFIG_DIR_VARIABLE
        )
    )]
    pub no_config: bool,
    /// Record the session from its first frame to FILE (a lab CSV: the frame times, the
    /// load, every change, kick, reset and pause at its frame, the adapter, present mode,
    /// refresh rate and settings). `bench --trace FILE` measures it, `--replay FILE` plays
    /// it back. An existing file is never overwritten. The panel's Record button does the
    /// same at any time, into timestep-lab-recording-N.csv in the current directory, or
    /// where it takes no file, in the platform's recordings folder.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "replay",
        help = format!(
            "Record the session from its first frame to FILE (a lab CSV: the frame times, the \
             load, every change, kick, reset and pause at its frame, the adapter, present \
             mode, refresh rate and settings). `bench --trace FILE` measures it, `--replay \
             FILE` plays it back. An existing file is never overwritten. The panel's Record \
             button does the same at any time, into timestep-lab-recording-N.csv in the \
             current directory, or where that takes no file (an application started from \
             Finder or Explorer), in {}",
            crate::remembered::RECORDINGS_DIRS
        )
    )]
    pub record: Option<PathBuf>,
    /// Replay FILE instead of the clock, paced in real time (pause, speed, loop and seek in
    /// the panel): a recording made with --record (its settings, inputs and presents
    /// replay too, to the same final state), or any trace `bench --trace` reads (the lab's
    /// CSV, PresentMon, MangoHud, plain). The file is checked whole before the window
    /// opens; a recording is then read again as it replays, never held.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// PresentMon replay: the application whose rows to use (default: the one with most
    /// rows). An error for other kinds of trace.
    #[arg(long, value_name = "NAME", requires = "replay")]
    pub process: Option<String>,
    /// PresentMon replay: the swap chain of that application whose rows to use, by its
    /// SwapChainAddress, or ADDR@PID where processes share it (default: the one with most
    /// rows). An error for other kinds of trace.
    #[arg(long, value_name = "ADDR", requires = "replay")]
    pub swap_chain: Option<String>,
    /// Replay speed: recorded time per real time, 0.05 to 8 (below 1 is slow motion).
    #[arg(long, value_name = "X", default_value_t = 1.0, requires = "replay")]
    pub replay_speed: f64,
    /// Automation: close the window when the replay has run its last frame.
    #[arg(long, hide = true, requires = "replay")]
    pub quit_after_replay: bool,
    /// Start a load ramp with the first frame, as the panel's Ramp button does: the
    /// per-step load rises from 0 to MAX_MS (0.000001, one nanosecond, to 1000) over SECONDS (1 to 600),
    /// or until every pane has broken, then goes back.
    #[arg(
        long,
        value_name = "MAX_MS:SECONDS",
        value_parser = parse_ramp,
        conflicts_with_all = ["replay", "paused"]
    )]
    pub ramp: Option<RampSettings>,
    /// Start the guided tour: at chapter N (1 to the number of chapters, or its id: fixed,
    /// variable, ...), or without N where you left off. G starts or leaves it in the window.
    #[arg(
        long,
        value_name = "N",
        num_args = 0..=1,
        value_parser = parse_tour_chapter,
        conflicts_with_all = ["replay", "ramp"]
    )]
    pub tour: Option<Option<usize>>,
    /// Automation: switch to the next present mode the surface offers every N frames.
    #[arg(long, value_name = "N", hide = true, value_parser = whole::<u64>(CYCLE_FRAMES))]
    pub cycle_present_modes: Option<u64>,
    /// Automation: after N frames, resize the window to W×H (`N:WxH`).
    #[arg(long, value_name = "N:WxH", hide = true, value_parser = parse_resize)]
    pub resize_at: Option<(u64, (u32, u32))>,
    /// Loop and scene settings.
    #[command(flatten)]
    pub live: LiveArgs,
}

impl WindowArgs {
    /// The window's options, checked.
    pub fn options(&self) -> anyhow::Result<WindowOptions> {
        if cfg!(target_os = "linux") {
            check_x11_scale_factor(std::env::var_os(X11_SCALE_FACTOR).as_deref())?;
        }
        let mut settings = self.live.settings()?;
        settings.frame_cap_hz = self.frame_cap;
        settings.validate().map_err(flagged)?;
        if let Some(path) = &self.screenshot {
            check_png_path(path)?;
        }
        if let Some(path) = &self.record {
            check_new_file("--record", path)?;
        }
        // Every input against every output, by what the file is (a link or a hard link is
        // the same file), and the two outputs against each other.
        if let Some(shot) = &self.screenshot {
            if let Some(record) = self.record.as_deref().filter(|&r| same_output(shot, r)) {
                anyhow::bail!(
                    "--screenshot and --record both name {}: name two files",
                    record.display()
                );
            }
            if let Some(replay) = self.replay.as_deref().filter(|&r| same_file(shot, r)) {
                anyhow::bail!(
                    "--screenshot {} is the file --replay reads; name another file",
                    replay.display()
                );
            }
        }
        if !crate::live::REPLAY_SPEEDS.contains(&self.replay_speed) {
            anyhow::bail!(
                "--replay-speed {} is out of range (allowed {} to {})",
                crate::text::number(self.replay_speed),
                crate::live::REPLAY_SPEEDS.start(),
                crate::live::REPLAY_SPEEDS.end()
            );
        }
        let replay = self
            .replay
            .as_deref()
            .map(|path| {
                let options = crate::trace::LoadOptions {
                    process: self.process.clone(),
                    swap_chain: self.swap_chain.clone(),
                };
                load_replay(path, &options)
            })
            .transpose()
            .context("--replay")?
            .map(std::sync::Arc::new);
        Ok(WindowOptions {
            settings,
            keep_settings: KeepSettings::Nowhere,
            present_mode: self.present_mode,
            size: (self.width, self.height),
            msaa: self.msaa,
            backend: self.backend,
            frames: self.frames,
            screenshot: self.screenshot.clone(),
            panel: !self.no_panel,
            timeline: !self.no_timeline,
            paused: self.paused,
            cycle_present_modes: self.cycle_present_modes,
            resize_at: self.resize_at,
            record: self.record.clone(),
            replay,
            replay_speed: self.replay_speed,
            quit_after_replay: self.quit_after_replay,
            ramp: self.ramp,
            tour: self.tour,
            tour_resume: 0,
            tour_offer: false,
        })
    }
}

impl WindowArgs {
    /// The window's options on top of `remembered` (saved when it last closed): each option
    /// given on the command line (as `matches` tell) overrides the remembered value, the
    /// rest are remembered ones. `--strategy` alone leaves a remembered comparison;
    /// `--compare` starts one.
    pub fn options_over(
        &self,
        matches: &clap::ArgMatches,
        remembered: &Remembered,
    ) -> anyhow::Result<WindowOptions> {
        let mut options = self.options()?;
        let given = options.settings;
        let explicit =
            |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        let mut settings = remembered.settings;
        macro_rules! take {
            ($($id:literal => $($field:ident).+),* $(,)?) => {
                $(if explicit($id) {
                    settings.$($field).+ = given.$($field).+;
                })*
            };
        }
        take!(
            "hz" => rate_hz,
            "max_frame_time" => max_frame_time_ms,
            "max_steps" => max_steps,
            "integrator" => integrator,
            "spring_hz" => spring_hz,
            "damping" => damping,
            "camera" => camera,
            "view" => view,
            "input_policy" => input_policy,
            "time_scale" => time_scale,
            "step_cost" => load.step_cost_ms,
            "render_cost" => load.render_cost_ms,
            "jitter" => load.jitter_ms,
            "hitch" => load.hitch_ms,
            "hitch_every" => load.hitch_every_s,
            "filter" => filter,
            "refresh" => refresh_override_hz,
            "frame_cap" => frame_cap_hz,
        );
        if explicit("strategy") {
            settings.strategy = given.strategy;
            settings.compare = false;
        }
        if explicit("compare") {
            settings.compare = given.compare;
            settings.panes = given.panes;
            settings.focus = given.focus;
        }
        if explicit("focus") {
            settings.focus = given.focus;
        }
        if let Some(preset) = self.live.preset {
            // A preset sets the camera (over --camera) and perhaps the panes, over what
            // was remembered.
            preset.apply(&mut settings);
        }
        settings
            .validate()
            .context("the remembered settings with the command line's")?;
        options.settings = settings;
        if !explicit("present_mode") {
            options.present_mode = remembered.present_mode;
        }
        options.tour_resume = (remembered.tour_chapter as usize).saturating_sub(1);
        options.panel &= remembered.panel || explicit("no_panel");
        options.timeline &= remembered.timeline || explicit("no_timeline");
        Ok(options)
    }
}

/// The variable winit's X11 backend takes the window's scale factor from.
pub const X11_SCALE_FACTOR: &str = "WINIT_X11_SCALE_FACTOR";

/// The scale factors [`X11_SCALE_FACTOR`] may set: below a tenth nothing is legible, and
/// above 16 a window of the smallest size is wider than any screen.
pub const X11_SCALE_FACTORS: std::ops::RangeInclusive<f64> = 0.1..=16.0;

/// Checks `value`, what [`X11_SCALE_FACTOR`] holds: unset, empty, `randr` (the screen's
/// own size in millimetres) or a number in [`X11_SCALE_FACTORS`]. winit would end the
/// program with a panic on a value it cannot take (0, NaN, a word); the lab says what is
/// wrong before any window opens.
pub fn check_x11_scale_factor(value: Option<&std::ffi::OsStr>) -> anyhow::Result<()> {
    let Some(value) = value.filter(|value| !value.is_empty()) else {
        return Ok(());
    };
    let text = value.to_string_lossy();
    // Read as winit reads it (its X11 backend panics on what it cannot take): lowercased
    // for randr, the number untrimmed, so " 2" is refused here rather than there.
    if text.to_lowercase() == "randr" {
        return Ok(());
    }
    match text.parse::<f64>() {
        Ok(scale) if X11_SCALE_FACTORS.contains(&scale) => Ok(()),
        _ => anyhow::bail!(
            "{X11_SCALE_FACTOR}={}: not a scale factor the window can take (allowed: a \
             number from {} to {}, such as 2 or 1.5, or randr); unset it to use the \
             screen's own",
            crate::text::escape(&text),
            X11_SCALE_FACTORS.start(),
            X11_SCALE_FACTORS.end()
        ),
    }
}

/// Arguments of `timestep-lab render`.
#[derive(Debug, Clone, Args)]
pub struct RenderArgs {
    /// The PNG file to write.
    #[arg(long, value_name = "FILE.png")]
    pub out: PathBuf,
    /// Image width, pixels.
    #[arg(long, default_value_t = 1280, value_name = "PX", value_parser = whole::<u32>(IMAGE_SIZE))]
    pub width: u32,
    /// Image height, pixels.
    #[arg(long, default_value_t = 720, value_name = "PX", value_parser = whole::<u32>(IMAGE_SIZE))]
    pub height: u32,
    /// Real time to run before the frame is drawn, seconds (0 to 3600).
    #[arg(long, default_value_t = 2.0, value_name = "S")]
    pub time: f64,
    /// Display rate the loop runs at until then, Hz (1 to 1000).
    #[arg(long, default_value_t = 60.0, value_name = "HZ")]
    pub display_hz: f64,
    /// Graphics API to draw with: vulkan, dx12, metal or gl; on a page webgpu or gl (default:
    /// the WGPU_BACKEND variable's, else the first the platform has; on a page WebGPU where
    /// the browser has it, else WebGL2). One this machine lacks is refused with the adapters
    /// it has.
    #[arg(long, value_name = "API", value_parser = parse_backend)]
    pub backend: Option<GpuBackend>,
    /// Loop and scene settings.
    #[command(flatten)]
    pub live: LiveArgs,
}

impl RenderArgs {
    /// Checks every value; returns what to render.
    pub fn options(&self) -> anyhow::Result<RenderOptions> {
        check_png_path(&self.out)?;
        let settings = self.live.settings()?;
        if !(0.0..=3600.0).contains(&self.time) {
            anyhow::bail!(
                "--time {} s is out of range (allowed 0 to 3600 s)",
                crate::text::number(self.time)
            );
        }
        if !(1.0..=1000.0).contains(&self.display_hz) {
            anyhow::bail!(
                "--display-hz {} Hz is out of range (allowed 1 to 1000 Hz)",
                crate::text::number(self.display_hz)
            );
        }
        Ok(RenderOptions {
            settings,
            out: self.out.clone(),
            size: (self.width, self.height),
            time_s: self.time,
            display_hz: self.display_hz,
            backend: self.backend,
        })
    }
}

/// Arguments of `timestep-lab bench-render`.
#[derive(Debug, Clone, Args)]
pub struct BenchRenderArgs {
    /// Frames to measure (after a short warm-up).
    #[arg(long, default_value_t = 600, value_name = "N", value_parser = whole::<u32>(RENDER_FRAMES))]
    pub frames: u32,
    /// Target width, pixels.
    #[arg(long, default_value_t = 1280, value_name = "PX", value_parser = whole::<u32>(WINDOW_SIZE))]
    pub width: u32,
    /// Target height, pixels.
    #[arg(long, default_value_t = 720, value_name = "PX", value_parser = whole::<u32>(WINDOW_SIZE))]
    pub height: u32,
    /// Scene panes side by side, each running the next strategy (1 to the window's most).
    #[arg(
        long,
        default_value_t = 1,
        value_name = "N",
        value_parser = whole::<u32>(PANES),
        help = format!(
            "Scene panes side by side, each running the next strategy (1 to {MAX_PANES}, as \
             in the window)"
        )
    )]
    pub panes: u32,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// MSAA samples of the scene: 4 (smooth edges) or 1 (cheaper on a software
    /// rasterizer); by default 4 on a GPU, 1 on a CPU rasterizer.
    #[arg(long, value_name = "N", value_parser = parse_msaa)]
    pub msaa: Option<u32>,
    /// Graphics API to draw with: vulkan, dx12, metal or gl; on a page webgpu or gl (default:
    /// the WGPU_BACKEND variable's, else the first the platform has; on a page WebGPU where
    /// the browser has it, else WebGL2). One this machine lacks is refused with the adapters
    /// it has.
    #[arg(long, value_name = "API", value_parser = parse_backend)]
    pub backend: Option<GpuBackend>,
    /// Parts of the frame to leave out, to measure what each costs.
    #[arg(
        long,
        value_name = "PARTS",
        value_delimiter = ',',
        help = format!(
            "Parts of the frame to leave out, to measure what each costs: a comma list of {}",
            FramePart::ALL.map(FramePart::id).join(", ")
        )
    )]
    pub without: Vec<FramePart>,
}

impl BenchRenderArgs {
    /// What to measure (clap has checked every value).
    pub fn options(&self) -> BenchRenderOptions {
        BenchRenderOptions {
            frames: self.frames,
            size: (self.width, self.height),
            panes: self.panes,
            msaa: self.msaa,
            backend: self.backend,
            json: self.json,
            without: self.without.iter().copied().collect(),
        }
    }
}

/// Simulation settings shared by every command that runs the engine.
#[derive(Debug, Clone, Args)]
pub struct SimArgs {
    /// Physics rate in Hz (1 to 1000); dt = round(1e9 / hz) ns. Engine presets keep their
    /// own.
    #[arg(long, default_value_t = crate::timestep::DEFAULT_RATE_HZ, value_name = "HZ")]
    pub hz: f64,
    /// Clamp each frame's time to this many ms before it is consumed; 0 = off. Engine
    /// presets keep their own.
    #[arg(long, default_value_t = 250.0, value_name = "MS")]
    pub max_frame_time: f64,
    /// Cap on steps per frame; owed whole steps beyond it are dropped. 0 = off. Engine
    /// presets keep their own.
    #[arg(long, default_value_t = 0, value_name = "N", value_parser = whole::<u32>(MAX_STEPS))]
    pub max_steps: u32,
    /// Spring integrator: explicit-euler, semi-implicit-euler, verlet or rk4.
    #[arg(long, default_value = "semi-implicit-euler", value_name = "ID")]
    pub integrator: Integrator,
    /// Spring natural frequency in Hz (0.01 to 200).
    #[arg(long, default_value_t = 1.0, value_name = "HZ")]
    pub spring_hz: f64,
    /// Spring damping ratio (0 = undamped, 1 = critical; up to 10).
    #[arg(long, default_value_t = 0.0, value_name = "RATIO")]
    pub damping: f64,
    /// Load model: real ms each physics step costs (0 to 1000). Above dt, the loop spirals.
    #[arg(long, default_value_t = 0.0, value_name = "MS")]
    pub step_cost: f64,
    /// Load model: real ms each render frame costs on top of its own time (for bench, the
    /// trace's frame) (0 to 1000).
    #[arg(long, default_value_t = 0.0, value_name = "MS")]
    pub render_cost: f64,
    /// Load model: standard deviation of a random extra cost per frame, ms (0 to 100;
    /// half-normal, with a fixed seed).
    #[arg(long, default_value_t = 0.0, value_name = "MS")]
    pub jitter: f64,
    /// Load model: length of a periodic hitch added to one frame, ms (0 to 1000; 0 = none).
    #[arg(long, default_value_t = 0.0, value_name = "MS")]
    pub hitch: f64,
    /// Load model: seconds between hitches (0.1 to 60).
    #[arg(long, default_value_t = 2.0, value_name = "S")]
    pub hitch_every: f64,
}

impl SimArgs {
    /// The bench settings these arguments describe, or an error naming the bad value.
    pub fn settings(&self) -> anyhow::Result<BenchSettings> {
        let timestep = TimestepConfig::default()
            .with_rate_hz(self.hz)
            .and_then(|t| t.with_max_frame_time_ms(self.max_frame_time))
            .and_then(|t| t.with_max_steps(self.max_steps))
            .map_err(flagged)?;
        let mut scene = SceneConfig::new();
        scene.integrator = self.integrator;
        scene.spring.natural_hz = self.spring_hz;
        scene.spring.damping_ratio = self.damping;
        scene.validate().map_err(flagged)?;
        let settings = BenchSettings {
            timestep,
            scene,
            ..BenchSettings::default()
        };
        settings
            .with_load(LoadSettings {
                step_cost_ms: self.step_cost,
                render_cost_ms: self.render_cost,
                jitter_ms: self.jitter,
                hitch_ms: self.hitch,
                hitch_every_s: self.hitch_every,
            })
            .map_err(flagged)
    }
}

/// `--tour`'s chapter: its number (1-based) or id, as a 0-based index.
fn parse_tour_chapter(text: &str) -> Result<usize, String> {
    use crate::tour::{CHAPTERS, chapter_by_id};
    let ids: Vec<&str> = CHAPTERS.iter().map(|chapter| chapter.id).collect();
    let allowed = || format!("allowed: 1 to {} or {}", CHAPTERS.len(), ids.join(", "));
    let text = text.trim();
    if let Ok(number) = text.parse::<u64>() {
        return usize::try_from(number)
            .ok()
            .filter(|n| (1..=CHAPTERS.len()).contains(n))
            .map(|n| n - 1)
            .ok_or_else(|| format!("chapter {number} does not exist ({})", allowed()));
    }
    chapter_by_id(text).ok_or_else(|| {
        format!(
            "unknown chapter \"{}\" ({})",
            crate::text::escape(text),
            allowed()
        )
    })
}

//! The command line: `timestep-lab [OPTIONS]` opens the window; `bench`, `render` and
//! `bench-render` run headless.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand};

use crate::bench::plot::{self, PlotError};
use crate::bench::{
    self, BenchReport, BenchSettings, FrameCsv, FrameStatsJson, PlotRecorder, Progress, TraceJson,
};
use crate::display::DisplaySpec;
use crate::input::{InputPolicy, InputScript};
use crate::live::{LiveSettings, LoadSettings, Panes, PresentModeId, ScenePreset};
use crate::metrics::FrameStats;
use crate::options::{BenchRenderOptions, RenderOptions, WindowOptions};
use crate::remembered::Remembered;
use crate::scene::{CameraDriver, CameraView, Integrator, SceneConfig};
use crate::timestep::{EnginePreset, FilterSpec, RangeError, Strategy, TimestepConfig};
use crate::trace::{self, FrameSource, FrameTrace, GeneratedFrames, GeneratedTrace, LoadOptions};

/// See, measure and understand game-loop timesteps.
#[derive(Debug, Parser)]
#[command(
    name = "timestep-lab",
    version,
    about,
    long_about = None,
    args_conflicts_with_subcommands = true,
    allow_negative_numbers = true
)]
pub struct Cli {
    /// What to do; with none, the interactive window opens.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The window's starting values.
    #[command(flatten)]
    pub window: WindowArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run strategies over a frame-time trace and print a comparison table.
    #[command(allow_negative_numbers = true)]
    Bench(BenchArgs),
    /// Render one frame of the scene headless (no window) to a PNG.
    #[command(allow_negative_numbers = true)]
    Render(RenderArgs),
    /// Render frames headless and report the CPU cost per frame, split by stage.
    #[command(name = "bench-render", allow_negative_numbers = true)]
    BenchRender(BenchRenderArgs),
}

/// Scene and loop settings the window and `render` share (besides [`SimArgs`]).
#[derive(Debug, Clone, Args)]
pub struct LiveArgs {
    /// Timestep strategy: fixed, variable, semi-fixed, accumulator, interpolated or
    /// extrapolated.
    #[arg(long, default_value = "interpolated", value_name = "ID")]
    pub strategy: Strategy,
    /// Start in comparison mode, one pane per strategy: `all`, or 2 to 6 comma-separated
    /// strategy ids (e.g. fixed,accumulator,interpolated). All panes get the same frames.
    #[arg(long, value_name = "LIST")]
    pub compare: Option<String>,
    /// With --compare: the focused pane, 1 to the number of panes (its steps carry the
    /// per-step load; the readouts, plots and timeline show it). Default: the accumulator's
    /// pane, else the first.
    #[arg(long, value_name = "N")]
    pub focus: Option<usize>,
    /// Scene preset: together, or camera-vs-sphere (the camera moves per render frame, the
    /// sphere per fixed step; compares accumulator with interpolated unless --compare
    /// names the panes). Sets the camera driver, overriding --camera.
    #[arg(long, value_name = "ID")]
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
    /// Artificial load: standard deviation of a random extra cost per frame, ms (0 to 100).
    #[arg(long, default_value_t = 0.0, value_name = "MS")]
    pub jitter: f64,
    /// Artificial load: length of a periodic hitch, ms (0 to 1000; 0 = none).
    #[arg(long, default_value_t = 0.0, value_name = "MS")]
    pub hitch: f64,
    /// Artificial load: seconds between hitches (0.1 to 60).
    #[arg(long, default_value_t = 2.0, value_name = "S")]
    pub hitch_every: f64,
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
                jitter_ms: self.jitter,
                hitch_ms: self.hitch,
                hitch_every_s: self.hitch_every,
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

/// The option that sets the value a [`RangeError`] names, for the message.
fn flag_of(error: &RangeError) -> Option<&'static str> {
    Some(match error.name {
        "physics rate" => "--hz",
        "max frame time" => "--max-frame-time",
        "max steps" => "--max-steps",
        "spring frequency" => "--spring-hz",
        "damping ratio" => "--damping",
        "step cost" => "--step-cost",
        "render cost" => "--render-cost",
        "time scale" => "--time-scale",
        "jitter" => "--jitter",
        "hitch length" => "--hitch",
        "hitch period" => "--hitch-every",
        "refresh rate" => "--refresh",
        "frame cap" => "--frame-cap",
        "averaged frames" => "--filter",
        _ => return None,
    })
}

/// A range error as an option's error: prefixed with the flag that set the value.
fn flagged(error: RangeError) -> anyhow::Error {
    match flag_of(&error) {
        Some(flag) => anyhow::anyhow!("{flag}: {error}"),
        None => error.into(),
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
    /// Window width, physical pixels.
    #[arg(long, default_value_t = 1280, value_name = "PX", value_parser = clap::value_parser!(u32).range(64..=16384))]
    pub width: u32,
    /// Window height, physical pixels.
    #[arg(long, default_value_t = 800, value_name = "PX", value_parser = clap::value_parser!(u32).range(64..=16384))]
    pub height: u32,
    /// MSAA samples of the scene: 4 (smooth edges) or 1 (cheaper on a software rasterizer).
    #[arg(long, default_value_t = 4, value_name = "N", value_parser = parse_msaa)]
    pub msaa: u32,
    /// Run this many frames, print a summary (adapter, present modes, spiral), then exit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
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
    /// it closes (they live in the platform's config directory, e.g.
    /// ~/.config/timestep-lab/settings.toml).
    #[arg(long)]
    pub no_config: bool,
    /// Record the session from its first frame to FILE (a lab CSV: the frame times, the
    /// load, every change, kick, reset and pause at its frame, the adapter, present mode,
    /// refresh rate and settings). `bench --trace FILE` measures it, `--replay FILE` plays
    /// it back. An existing file is never overwritten. The panel's Record button does the
    /// same at any time.
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    pub record: Option<PathBuf>,
    /// Replay FILE instead of the clock, paced in real time (pause, speed, loop and seek in
    /// the panel): a recording made with --record (its settings, inputs and presents
    /// replay too, to the same final state), or any trace `bench --trace` reads (the lab's
    /// CSV, PresentMon, MangoHud, plain). The file is read once, before the window opens.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Replay speed: recorded time per real time, 0.05 to 8 (below 1 is slow motion).
    #[arg(long, value_name = "X", default_value_t = 1.0, requires = "replay")]
    pub replay_speed: f64,
    /// Automation: close the window when the replay has run its last frame.
    #[arg(long, hide = true, requires = "replay")]
    pub quit_after_replay: bool,
    /// Automation: switch to the next present mode the surface offers every N frames.
    #[arg(long, value_name = "N", hide = true)]
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
        let mut settings = self.live.settings()?;
        settings.frame_cap_hz = self.frame_cap;
        settings.validate().map_err(flagged)?;
        if let Some(path) = &self.screenshot {
            check_png_path(path)?;
        }
        if let Some(path) = &self.record {
            check_new_file("--record", path)?;
        }
        if !crate::live::REPLAY_SPEEDS.contains(&self.replay_speed) {
            anyhow::bail!(
                "--replay-speed {} is out of range (allowed {} to {})",
                self.replay_speed,
                crate::live::REPLAY_SPEEDS.start(),
                crate::live::REPLAY_SPEEDS.end()
            );
        }
        let replay = self
            .replay
            .as_deref()
            .map(load_recording)
            .transpose()
            .context("--replay")?
            .map(std::sync::Arc::new);
        Ok(WindowOptions {
            settings,
            remember: None,
            present_mode: self.present_mode,
            size: (self.width, self.height),
            msaa: self.msaa,
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
        options.panel &= remembered.panel || explicit("no_panel");
        options.timeline &= remembered.timeline || explicit("no_timeline");
        Ok(options)
    }
}

/// Arguments of `timestep-lab render`.
#[derive(Debug, Clone, Args)]
pub struct RenderArgs {
    /// The PNG file to write.
    #[arg(long, value_name = "FILE.png")]
    pub out: PathBuf,
    /// Image width, pixels.
    #[arg(long, default_value_t = 1280, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub width: u32,
    /// Image height, pixels.
    #[arg(long, default_value_t = 720, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub height: u32,
    /// Real time to run before the frame is drawn, seconds (0 to 3600).
    #[arg(long, default_value_t = 2.0, value_name = "S")]
    pub time: f64,
    /// Display rate the loop runs at until then, Hz (1 to 1000).
    #[arg(long, default_value_t = 60.0, value_name = "HZ")]
    pub display_hz: f64,
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
                self.time
            );
        }
        if !(1.0..=1000.0).contains(&self.display_hz) {
            anyhow::bail!(
                "--display-hz {} Hz is out of range (allowed 1 to 1000 Hz)",
                self.display_hz
            );
        }
        Ok(RenderOptions {
            settings,
            out: self.out.clone(),
            size: (self.width, self.height),
            time_s: self.time,
            display_hz: self.display_hz,
        })
    }
}

/// Arguments of `timestep-lab bench-render`.
#[derive(Debug, Clone, Args)]
pub struct BenchRenderArgs {
    /// Frames to measure (after a short warm-up).
    #[arg(long, default_value_t = 600, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub frames: u32,
    /// Target width, pixels.
    #[arg(long, default_value_t = 1280, value_name = "PX", value_parser = clap::value_parser!(u32).range(64..=16384))]
    pub width: u32,
    /// Target height, pixels.
    #[arg(long, default_value_t = 720, value_name = "PX", value_parser = clap::value_parser!(u32).range(64..=16384))]
    pub height: u32,
    /// Scene panes side by side, each running the next strategy (1 to 6).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=6))]
    pub panes: u32,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// MSAA samples of the scene: 4 (smooth edges) or 1 (cheaper on a software rasterizer).
    #[arg(long, default_value_t = 4, value_name = "N", value_parser = parse_msaa)]
    pub msaa: u32,
}

impl BenchRenderArgs {
    /// What to measure (clap has checked every value).
    pub fn options(&self) -> BenchRenderOptions {
        BenchRenderOptions {
            frames: self.frames,
            size: (self.width, self.height),
            panes: self.panes,
            msaa: self.msaa,
            json: self.json,
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
    #[arg(long, default_value_t = 0, value_name = "N")]
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
            .with_costs_ms(self.step_cost, self.render_cost)
            .map_err(flagged)
    }
}

/// Arguments of `timestep-lab bench`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Strategies to run: `all` (the default unless --preset is given), or a comma list of
    /// fixed, variable, semi-fixed, accumulator, interpolated, extrapolated,
    /// velocity-extrapolated, hermite, equal-substeps (or engine preset ids).
    #[arg(long, value_name = "LIST")]
    pub strategy: Option<String>,
    /// An engine's own loop, run as its own row after the strategies (repeatable): godot,
    /// godot-interpolated, bevy, bevy-interpolated, unity, unity-interpolate,
    /// unity-extrapolate, unreal-substep, unreal, unreal-async, fiedler, glaiel, matterjs,
    /// matterjs-0.19.
    ///
    /// A preset keeps its engine's own step and guards: --hz, --max-frame-time and
    /// --max-steps do not apply to it; the trace, the load model (--step-cost,
    /// --render-cost), the display, --gpu-cost, --filter and the scene (--integrator,
    /// --spring-hz, --damping) do. Godot, Bevy, Glaiel, Matter.js and Fiedler follow their
    /// source or published code. Unity and Unreal are closed. Unity, documented: Fixed
    /// Timestep 0.02 s, maximumDeltaTime 1/3 s bounding Time.deltaTime and the fixed
    /// updates a frame, fixed time caught up to Time.time, Interpolate one update behind,
    /// Extrapolate along the velocity; the lab's model: the loop `while F + fdt <= T` and
    /// alpha `(T - F) / fdt`. Unreal, documented: substeps of equal size no longer than Max
    /// Substep Delta Time (1/60 s), at most Max Substeps (6); from third-party copies of the
    /// code, the lab's model: the world's 0.5 ms to 0.4 s frame clamp, one step of at most
    /// MaxPhysicsDeltaTime (1/30 s) without substepping, and async physics in 1/30 s steps
    /// drawn two steps behind. docs/engines.md: "Engine presets".
    #[arg(long = "preset", value_name = "ID")]
    pub presets: Vec<EnginePreset>,
    /// Frame-time trace: plain ms per line, a CSV with a frame_time_ms column, PresentMon
    /// or MangoHud CSV (detected from the content).
    #[arg(long, value_name = "FILE", conflicts_with = "generate")]
    pub trace: Option<PathBuf>,
    /// PresentMon: the application whose rows to use (default: the one with most rows). An
    /// error for other kinds of trace.
    #[arg(long, value_name = "NAME", requires = "trace")]
    pub process: Option<String>,
    /// PresentMon: the swap chain of that application whose rows to use, by its
    /// SwapChainAddress (default: the one with most rows). An error for other kinds of trace.
    #[arg(long, value_name = "ADDR", requires = "trace")]
    pub swap_chain: Option<String>,
    /// Generated trace: steady:HZ, jitter:HZ:SD_MS (or jitter:HZ:SD_MS:SEED),
    /// hitch:HZ:SPIKE_MS:EVERY_S, ramp:FROM_HZ:TO_HZ. The default when no --trace is given is
    /// steady:60.
    #[arg(long, value_name = "SPEC")]
    pub generate: Option<String>,
    /// Length of a generated trace, seconds.
    #[arg(
        long,
        default_value_t = 10.0,
        value_name = "S",
        conflicts_with = "trace"
    )]
    pub duration: f64,
    /// The display the frames are shown on: cpu (each frame at its CPU start, the default),
    /// fifo:HZ[:QUEUE] (vsync; QUEUE frames may wait for the screen before a present
    /// blocks, default 2), mailbox:HZ, immediate[:HZ], vrr:MIN_HZ-MAX_HZ (e.g. vrr:48-144),
    /// or trace (a PresentMon capture's own display times).
    #[arg(long, default_value = "cpu", value_name = "SPEC", value_parser = DisplaySpec::parse)]
    pub display: DisplaySpec,
    /// GPU time per frame, ms (0 to 1000): delays when each image is ready without costing
    /// CPU time. Needs a modeled display (fifo, mailbox, immediate or vrr).
    #[arg(long, default_value_t = 0.0, value_name = "MS")]
    pub gpu_cost: f64,
    /// Frame-time filter before the strategy: none, snap (to whole refresh periods within
    /// an eighth of one, the difference carried), snap:TOL_MS, or average:N (2 to 32 frames).
    #[arg(long, default_value = "none", value_name = "SPEC", value_parser = FilterSpec::parse)]
    pub filter: FilterSpec,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write one CSV row per frame and strategy to this file, as the frames run
    /// (columns: docs/bench.md, "Per-frame CSV and plot").
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also draw the run to this PNG: the trace's frame times, per strategy T - S and the
    /// animation error at the screen, and the latency and judder of every strategy.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
    /// Size of the --plot image, pixels: WxH, from 960x720 to 8192x8192.
    #[arg(
        long,
        value_name = "WxH",
        default_value = "1600x1200",
        value_parser = parse_plot_size,
        requires = "plot"
    )]
    pub plot_size: (u32, u32),
    /// Run a recorded session (`--record`) as a plain trace of its frame times under the
    /// bench's model, instead of replaying it as recorded.
    #[arg(long, requires = "trace")]
    pub as_trace: bool,
    /// Scripted inputs: every:S[:HOLD_MS] presses a movement key every S seconds (0.001 to
    /// 3600) and holds it HOLD_MS ms (default 100, or half the period if shorter), forward
    /// and back in turn. Each strategy's row then measures every input policy: latency from
    /// the event to the screen showing the whole first step that used it, inputs lost and
    /// duplicated, and how far each hold walked the player off speed x hold.
    #[arg(long, value_name = "SPEC", value_parser = parse_input_script)]
    pub input: Option<InputScript>,
    /// The input policy that moves the player (and so the state hash): every-step,
    /// first-step, buffered or timestamped. All four are measured either way.
    #[arg(long, default_value = "buffered", value_name = "ID")]
    pub input_policy: InputPolicy,
    /// Simulation settings.
    #[command(flatten)]
    pub sim: SimArgs,
}

impl BenchArgs {
    /// The bench settings, checked: the simulation's, the display, the GPU cost and the
    /// filter.
    pub fn settings(&self) -> anyhow::Result<BenchSettings> {
        let mut settings = self.sim.settings()?;
        if !(0.0..=bench::MAX_COST_MS).contains(&self.gpu_cost) {
            anyhow::bail!(
                "--gpu-cost {} ms is out of range (allowed 0 to {} ms)",
                self.gpu_cost,
                bench::MAX_COST_MS
            );
        }
        if self.gpu_cost > 0.0 && !self.display.is_modeled() {
            anyhow::bail!(
                "--gpu-cost needs a modeled display (--display fifo:HZ, mailbox:HZ, immediate or \
                 vrr:MIN-MAX): the {} display does not model when images are ready",
                self.display
            );
        }
        settings.display = self.display;
        settings.gpu_cost = crate::timestep::ns_from_ms(self.gpu_cost);
        settings.filter = self.filter;
        settings.input = self.input;
        settings.scene.player.policy = self.input_policy;
        Ok(settings)
    }

    /// Everything [`run_bench`] checks before it reads, generates or writes anything: the
    /// strategies, the [settings](Self::settings) and the `--csv` and `--plot` paths (which
    /// are only looked at). Returns the strategies and the settings. The `options` fuzz
    /// target (`fuzz/`) calls it to check a command line without running it.
    pub fn check(&self) -> anyhow::Result<(Vec<Strategy>, BenchSettings)> {
        let strategies = bench_strategies(self)?;
        let settings = self.settings()?;
        check_report_paths(self)?;
        Ok((strategies, settings))
    }
}

/// The trace `bench` runs over: read from a file, its frames held in memory, or generated,
/// its frames made anew on each pass and never all held.
#[derive(Clone, Debug)]
pub enum BenchTrace {
    /// Read from `--trace`.
    Read(FrameTrace),
    /// Made by `--generate` (by default `steady:60`).
    Generated(GeneratedTrace),
}

impl BenchTrace {
    /// Where the frames came from: the file, or the spec with its duration.
    pub fn source(&self) -> &str {
        match self {
            Self::Read(trace) => &trace.source,
            Self::Generated(trace) => trace.source(),
        }
    }

    /// What the reader or the generator wants the user to know.
    pub fn notes(&self) -> &[String] {
        match self {
            Self::Read(trace) => &trace.notes,
            Self::Generated(trace) => trace.notes(),
        }
    }

    /// The capture's display times, when it has them (see [`FrameTrace::display_ns`]).
    pub fn display_ns(&self) -> Option<&[Option<u64>]> {
        match self {
            Self::Read(trace) => trace.display_ns.as_deref(),
            Self::Generated(_) => None,
        }
    }

    /// Sum of the frame times in seconds.
    pub fn wall_time_s(&self) -> f64 {
        match self {
            Self::Read(trace) => trace.wall_time_s(),
            Self::Generated(trace) => trace.wall_time_s(),
        }
    }
}

impl FrameSource for BenchTrace {
    fn frame_count(&self) -> u64 {
        match self {
            Self::Read(trace) => trace.len() as u64,
            Self::Generated(trace) => trace.len(),
        }
    }

    fn frame_times(&self) -> impl Iterator<Item = u64> + '_ {
        match self {
            Self::Read(trace) => BenchFrames::Read(trace.frame_times_ns.iter().copied()),
            Self::Generated(trace) => BenchFrames::Generated(trace.frames()),
        }
    }
}

/// A pass over a [`BenchTrace`]'s frames.
enum BenchFrames<'a> {
    /// Over the frames in memory.
    Read(std::iter::Copied<std::slice::Iter<'a, u64>>),
    /// Making the frames.
    Generated(GeneratedFrames),
}

impl Iterator for BenchFrames<'_> {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        match self {
            Self::Read(frames) => frames.next(),
            Self::Generated(frames) => frames.next(),
        }
    }
}

/// The trace `bench` runs over: the file, or the generator (default `steady:60`).
pub fn bench_trace(args: &BenchArgs) -> anyhow::Result<BenchTrace> {
    match &args.trace {
        Some(path) => {
            let options = LoadOptions {
                process: args.process.clone(),
                swap_chain: args.swap_chain.clone(),
            };
            // A named pipe with no writer blocks the read; say why nothing happens.
            let waiting = |path: &str| eprintln!("note: waiting for data on {path} …");
            Ok(BenchTrace::Read(trace::load_with_wait_notice(
                path, &options, waiting,
            )?))
        }
        None => {
            let spec = args.generate.as_deref().unwrap_or("steady:60");
            if !(args.duration > 0.0 && args.duration <= trace::MAX_DURATION_S) {
                anyhow::bail!(
                    "--duration {} s is out of range (allowed more than 0 up to {} s)",
                    args.duration,
                    trace::MAX_DURATION_S
                );
            }
            let generated = GeneratedTrace::new(spec, args.duration).context("--generate")?;
            Ok(BenchTrace::Generated(generated))
        }
    }
}

/// An output file that could not be created or written: the command ran and failed (exit
/// status 1, where a bad value given is 2). Says the path and what the system said.
#[derive(Debug, thiserror::Error)]
#[error("{option} {}: {error}", path.display())]
pub struct WriteError {
    /// The option that named it (`--csv`, `--plot`).
    pub option: &'static str,
    /// The file.
    pub path: PathBuf,
    /// What the system said.
    pub error: std::io::Error,
}

/// Runs `bench` and returns what it prints on stdout (notes about the trace go to `notes`).
/// `--csv` and `--plot` are written before it returns; a file that cannot be written is a
/// [`WriteError`].
pub fn run_bench(args: &BenchArgs, notes: &mut Vec<String>) -> anyhow::Result<String> {
    let (strategies, settings) = args.check()?;
    if let Some(path) = &args.trace
        && !args.as_trace
        && trace::is_session(path)
    {
        return run_bench_session(args, path, &settings, &strategies, notes);
    }
    if args.plot.is_some() {
        plot::load_font(&font_path())?;
    }
    let trace = bench_trace(args)?;
    notes.extend(trace.notes().iter().cloned());
    if settings.display == DisplaySpec::Trace && trace.display_ns().is_none() {
        anyhow::bail!(
            "--display trace needs a capture with display times (PresentMon's MsUntilDisplayed \
             or DisplayLatency column); {} has none: use a modeled display such as \
             --display fifo:60",
            trace.source()
        );
    }
    for (flag, output) in [("--csv", &args.csv), ("--plot", &args.plot)] {
        if let (Some(output), Some(input)) = (output, &args.trace)
            && same_file(output, input)
        {
            anyhow::bail!(
                "{flag} {} is the trace being read; name another file",
                output.display()
            );
        }
    }
    // Both files are created before the runs, so a file that cannot be is known at once.
    let csv = args
        .csv
        .as_deref()
        .map(|path| create("--csv", path).map(|file| FrameCsv::new(std::io::BufWriter::new(file))))
        .transpose()?;
    let plot_file = args
        .plot
        .as_deref()
        .map(|path| create("--plot", path))
        .transpose()?;
    let plot = plot_file
        .as_ref()
        .map(|_| PlotRecorder::new(&trace, settings.display, args.plot_size))
        .transpose()?;
    let progress = Progress::on_stderr(trace.frame_count(), strategies.len() as u64);
    let mut observers = ((csv, plot), progress);
    let results = bench::run_observed(
        &trace,
        trace.display_ns(),
        &strategies,
        &settings,
        &mut observers,
    );
    // The bar, if shown, stays until the report is ready and is cleared when dropped.
    let ((csv, plot), progress) = observers;
    if let (Some(csv), Some(path)) = (csv, &args.csv) {
        let written = csv.close().and_then(|out| {
            out.into_inner()
                .map_err(|error| csv::Error::from(error.into_error()))
        });
        written.map_err(|error| write_error(path, error.into_kind()))?;
    }
    if let (Some(plot), Some(file), Some(path)) = (plot, plot_file, &args.plot) {
        progress.working_on("plot");
        let title = plot_title(trace.source(), trace.frame_count(), &settings);
        plot.write_png(&title, std::io::BufWriter::new(file))
            .map_err(|error| match error {
                PlotError::Write(error) => WriteError {
                    option: "--plot",
                    path: path.clone(),
                    error,
                }
                .into(),
                other => anyhow::Error::new(other).context(format!("--plot {}", path.display())),
            })?;
    }
    // Passes over the trace, not a sorted copy: a long trace is never held twice, and a
    // generated one not even once.
    progress.working_on("statistics");
    let stats = FrameStats::from_passes(|| trace.frame_times());
    drop(progress);
    Ok(report_text(
        args,
        &BenchReport::new(
            TraceJson {
                source: trace.source().to_owned(),
                frames: usize::try_from(trace.frame_count()).unwrap_or(usize::MAX),
                wall_time_s: trace.wall_time_s(),
                stats: stats.as_ref().map(FrameStatsJson::from),
            },
            &settings,
            &results,
        ),
    ))
}

/// What `bench` prints of `report`: JSON with `--json`, else the table.
fn report_text(args: &BenchArgs, report: &BenchReport) -> String {
    if args.json {
        let mut json = report.to_json();
        json.push('\n');
        json
    } else {
        report.table()
    }
}

/// `--input`'s value parser.
fn parse_input_script(spec: &str) -> Result<InputScript, String> {
    InputScript::parse(spec).map_err(|error| error.problem)
}

/// `bench` over a recorded session: replayed as recorded, once per strategy (see
/// [`bench::run_recording`]).
fn run_bench_session(
    args: &BenchArgs,
    path: &std::path::Path,
    settings: &BenchSettings,
    strategies: &[Strategy],
    notes: &mut Vec<String>,
) -> anyhow::Result<String> {
    let shown = trace::escaped(&path.display().to_string());
    let as_trace = "add --as-trace to run its frame times through the bench's model instead";
    if *settings != BenchSettings::default() {
        anyhow::bail!(
            "{shown} is a recorded session: it replays with the settings, requests and \
             presents it recorded, so the bench's model options (--hz, --max-frame-time, \
             --max-steps, --integrator, --spring-hz, --damping, --step-cost, --render-cost, \
             --display, --gpu-cost, --filter, --input, --input-policy) do not apply; its \
             own inputs replay; {as_trace}"
        );
    }
    for (flag, given) in [
        ("--csv", args.csv.is_some()),
        ("--plot", args.plot.is_some()),
        ("--process", args.process.is_some()),
        ("--swap-chain", args.swap_chain.is_some()),
    ] {
        if given {
            anyhow::bail!(
                "{flag} does not apply to a replayed session such as {shown}; {as_trace}"
            );
        }
    }
    let file = trace::load_session(path)?;
    let recording = std::sync::Arc::new(crate::live::Recording::from_session(file)?);
    let header = recording
        .header
        .as_ref()
        .context("a session recording has a header")?;
    let start = header.settings;
    let mut recorded = BenchSettings {
        timestep: start.timestep().map_err(flagged)?,
        scene: start
            .scene(&crate::scene::SceneConfig::new())
            .map_err(flagged)?,
        filter: start.filter,
        ..BenchSettings::default()
    }
    .with_costs_ms(start.load.step_cost_ms, start.load.render_cost_ms)
    .map_err(flagged)?;
    let results = bench::run_recording(&recording, strategies).map_err(flagged)?;
    let mut screen = crate::live::LiveScreen::new(start.refresh_override_hz);
    screen.set(header.screen, start.refresh_override_hz);
    recorded.display = screen.spec();
    notes.push(format!(
        "{}: a recorded session ({} on {}), replayed as recorded: {} request{} at their \
         frames, its presents on a modeled {} screen; each row runs one strategy throughout",
        recording.source,
        crate::trace::escaped(&header.version),
        crate::trace::escaped(&header.adapter),
        recording.events.len(),
        if recording.events.len() == 1 { "" } else { "s" },
        recorded.display,
    ));
    let mut frame_times: Vec<_> = recording.frames.iter().map(|f| f.frame_time).collect();
    let frames = frame_times.len();
    let wall_time_s = frame_times.iter().sum::<u64>() as f64 / 1e9;
    let stats = FrameStats::from_frame_times_in_place(&mut frame_times);
    Ok(report_text(
        args,
        &BenchReport::new(
            TraceJson {
                source: recording.source.clone(),
                frames,
                wall_time_s,
                stats: stats.as_ref().map(FrameStatsJson::from),
            },
            &recorded,
            &results,
        ),
    ))
}

/// What `bench` runs, in order: the `--strategy` list (all strategies when neither it nor
/// `--preset` is given), then each `--preset` not already in it.
fn bench_strategies(args: &BenchArgs) -> anyhow::Result<Vec<Strategy>> {
    let list = match (&args.strategy, args.presets.is_empty()) {
        (Some(list), _) => list.as_str(),
        (None, true) => "all",
        (None, false) => "",
    };
    let mut strategies = if list.is_empty() {
        Vec::new()
    } else {
        Strategy::parse_list(list).context("--strategy")?
    };
    for &preset in &args.presets {
        let strategy = Strategy::Preset(preset);
        if !strategies.contains(&strategy) {
            strategies.push(strategy);
        }
    }
    Ok(strategies)
}

/// The font file the plot's text uses: `TIMESTEP_LAB_FONT`, else DejaVu Sans where Debian
/// puts it.
fn font_path() -> PathBuf {
    std::env::var_os(plot::FONT_ENV)
        .filter(|path| !path.is_empty())
        .map_or_else(|| PathBuf::from(plot::DEFAULT_FONT_PATH), PathBuf::from)
}

/// The plot's title: the trace and what it ran under.
fn plot_title(source: &str, frames: u64, settings: &BenchSettings) -> String {
    let dt_ms = crate::timestep::ms_from_ns(settings.timestep.dt_ns());
    format!(
        "timestep-lab bench: {source}, {frames} frames | dt {dt_ms} ms | display {} | filter {}",
        settings.display, settings.filter
    )
}

/// Checks `--csv` and `--plot` before any work is done, so a typo does not cost a whole
/// run: each names a file (not a directory) in a directory that exists, the plot's ends in
/// `.png`, and they are not the same file.
fn check_report_paths(args: &BenchArgs) -> anyhow::Result<()> {
    if let Some(path) = &args.csv {
        check_output_path(path, "frames.csv").context("--csv")?;
    }
    if let Some(path) = &args.plot {
        check_output_path(path, "bench.png").context("--plot")?;
        check_png_path(path).context("--plot")?;
    }
    if let (Some(csv), Some(plot)) = (&args.csv, &args.plot)
        && (csv == plot || same_file(csv, plot))
    {
        anyhow::bail!(
            "--csv and --plot both name {}: name two files",
            csv.display()
        );
    }
    Ok(())
}

/// Checks that an output path names a file, not a directory, in a directory that exists
/// (`example` is a file name to suggest).
fn check_output_path(path: &std::path::Path, example: &str) -> anyhow::Result<()> {
    if names_a_directory(path) {
        anyhow::bail!(
            "{} is a directory; name the file to write (e.g. {})",
            path.display(),
            path.join(example).display()
        );
    }
    check_parent_directory(path)
}

/// Whether `path` is a directory, or is written as one (ends in a separator).
fn names_a_directory(path: &std::path::Path) -> bool {
    path.is_dir()
        || path
            .as_os_str()
            .to_string_lossy()
            .ends_with(std::path::is_separator)
}

/// Checks that the directory an output file goes into exists (and is one).
fn check_parent_directory(path: &std::path::Path) -> anyhow::Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        if parent.exists() {
            anyhow::bail!(
                "{}: {} is not a directory",
                path.display(),
                parent.display()
            );
        }
        anyhow::bail!(
            "{}: the directory {} does not exist",
            path.display(),
            parent.display()
        );
    }
    Ok(())
}

/// Checks that `path` can become a new file: it does not exist (nothing is overwritten),
/// is not a directory, and its directory exists.
pub fn check_new_file(option: &str, path: &std::path::Path) -> anyhow::Result<()> {
    if names_a_directory(path) {
        anyhow::bail!("{option} {}: is a directory; name a file", path.display());
    }
    if path.exists() {
        anyhow::bail!(
            "{option} {}: the file exists and is not overwritten; remove it or name another",
            path.display()
        );
    }
    check_parent_directory(path).with_context(|| option.to_owned())
}

/// Reads what `--replay` plays: a session recording, or any trace the bench reads.
pub fn load_recording(path: &std::path::Path) -> anyhow::Result<crate::live::Recording> {
    if trace::is_session(path) {
        Ok(crate::live::Recording::from_session(trace::load_session(
            path,
        )?)?)
    } else {
        let trace = trace::load(path, &LoadOptions::default())?;
        for note in &trace.notes {
            eprintln!("note: {note}");
        }
        Ok(crate::live::Recording::from_trace(&trace))
    }
}

/// Whether two paths name one existing file.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Creates (or truncates) the output file `option` names.
fn create(option: &'static str, path: &std::path::Path) -> Result<std::fs::File, WriteError> {
    std::fs::File::create(path).map_err(|error| WriteError {
        option,
        path: path.to_owned(),
        error,
    })
}

/// A CSV writer's error as a [`WriteError`] (one that is not the system's cannot happen
/// with the rows written here, and is reported as an I/O error all the same).
fn write_error(path: &std::path::Path, kind: csv::ErrorKind) -> WriteError {
    let error = match kind {
        csv::ErrorKind::Io(error) => error,
        other => std::io::Error::other(format!("{other:?}")),
    };
    WriteError {
        option: "--csv",
        path: path.to_owned(),
        error,
    }
}

/// Checks that an output path names a PNG file in a directory that exists, before any
/// work is done, so a typo does not cost a whole run.
pub fn check_png_path(path: &std::path::Path) -> anyhow::Result<()> {
    if names_a_directory(path) {
        anyhow::bail!(
            "{}: names a directory, not the image file to write (e.g. {})",
            path.display(),
            path.join("frame.png").display()
        );
    }
    let is_png = path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("png"));
    if !is_png {
        anyhow::bail!("{}: the image file must end in .png", path.display());
    }
    check_parent_directory(path)
}

/// Parses an MSAA sample count: 1 or 4, the counts every wgpu adapter supports.
fn parse_msaa(value: &str) -> Result<u32, String> {
    match value {
        "1" => Ok(1),
        "4" => Ok(4),
        _ => Err(format!(
            "{value} is not an MSAA sample count (allowed: 1, 4)"
        )),
    }
}

/// Parses the plot's `WxH`, each within [`plot::MIN_SIZE`] and [`plot::MAX_SIZE`].
fn parse_plot_size(value: &str) -> Result<(u32, u32), String> {
    let (min, max) = (plot::MIN_SIZE, plot::MAX_SIZE);
    let bad = || {
        format!(
            "{value:?} is not WxH from {}x{} to {}x{} (e.g. 1600x1200)",
            min.0, min.1, max.0, max.1
        )
    };
    let (width, height) = value.split_once('x').ok_or_else(bad)?;
    let width: u32 = width.parse().map_err(|_| bad())?;
    let height: u32 = height.parse().map_err(|_| bad())?;
    if !(min.0..=max.0).contains(&width) || !(min.1..=max.1).contains(&height) {
        return Err(bad());
    }
    Ok((width, height))
}

/// Parses `N:WxH` (frame, width, height).
fn parse_resize(value: &str) -> Result<(u64, (u32, u32)), String> {
    let bad = || format!("{value:?} is not N:WxH (e.g. 30:640x360)");
    let (frame, size) = value.split_once(':').ok_or_else(bad)?;
    let (width, height) = size.split_once('x').ok_or_else(bad)?;
    let number = |text: &str| {
        text.parse::<u32>()
            .ok()
            .filter(|&n| (1..=16384).contains(&n))
    };
    Ok((
        frame.parse().map_err(|_| bad())?,
        (
            number(width).ok_or_else(bad)?,
            number(height).ok_or_else(bad)?,
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(args: &[&str]) -> anyhow::Result<WindowOptions> {
        let cli = Cli::try_parse_from(std::iter::once("timestep-lab").chain(args.iter().copied()))?;
        cli.window.options()
    }

    /// The window's options for `args` over `remembered`.
    fn options_over(args: &[&str], remembered: &Remembered) -> anyhow::Result<WindowOptions> {
        use clap::{CommandFactory as _, FromArgMatches as _};
        let matches = Cli::command()
            .try_get_matches_from(std::iter::once("timestep-lab").chain(args.iter().copied()))?;
        Cli::from_arg_matches(&matches)?
            .window
            .options_over(&matches, remembered)
    }

    #[test]
    fn options_given_override_the_remembered_ones_and_the_rest_are_kept() {
        let mut remembered = Remembered {
            present_mode: PresentModeId::Mailbox,
            timeline: false,
            ..Remembered::default()
        };
        remembered.settings.strategy = Strategy::Fixed;
        remembered.settings.rate_hz = 120.0;
        remembered.settings.load.hitch_ms = 300.0;
        remembered.settings.time_scale = 0.5;
        // Nothing given: all remembered.
        let kept = options_over(&[], &remembered).expect("valid");
        assert_eq!(kept.settings, remembered.settings);
        assert_eq!(kept.present_mode, PresentModeId::Mailbox);
        assert!(!kept.timeline && kept.panel);
        // Given: those win, even when equal to their defaults.
        let given = options_over(
            &["--hz", "50", "--time-scale", "1", "--present-mode", "fifo"],
            &remembered,
        )
        .expect("valid");
        assert_eq!(given.settings.rate_hz, 50.0);
        assert_eq!(given.settings.time_scale, 1.0);
        assert_eq!(given.present_mode, PresentModeId::Fifo);
        assert_eq!(
            given.settings.strategy,
            Strategy::Fixed,
            "not given: remembered"
        );
        assert_eq!(given.settings.load.hitch_ms, 300.0);
        // --strategy leaves a remembered comparison; --compare starts one.
        remembered.settings.set_compare(true);
        let single = options_over(&["--strategy", "variable"], &remembered).expect("valid");
        assert!(!single.settings.compare);
        assert_eq!(single.settings.strategy, Strategy::Variable);
        let compared =
            options_over(&["--compare", "fixed,variable"], &Remembered::default()).expect("ok");
        assert_eq!(
            compared.settings.pane_strategies(),
            [Strategy::Fixed, Strategy::Variable]
        );
    }

    #[test]
    fn compare_focus_and_preset_reach_the_settings() {
        let settings = options(&[
            "--compare",
            "fixed,accumulator,interpolated",
            "--focus",
            "2",
        ])
        .expect("valid")
        .settings;
        assert!(settings.compare);
        assert_eq!(
            settings.panes.as_slice(),
            [
                Strategy::Fixed,
                Strategy::Accumulator,
                Strategy::Interpolated
            ]
        );
        assert_eq!(settings.focus, 1);
        let settings = options(&["--preset", "camera-vs-sphere"])
            .expect("valid")
            .settings;
        assert_eq!(settings.camera, CameraDriver::PerFrame);
        assert_eq!(
            settings.pane_strategies(),
            [Strategy::Accumulator, Strategy::Interpolated]
        );
        // --compare names the panes the preset compares.
        let settings = options(&["--preset", "camera-vs-sphere", "--compare", "all"])
            .expect("valid")
            .settings;
        assert_eq!(settings.pane_strategies(), Strategy::ALL);
        let settings = options(&[]).expect("valid").settings;
        assert!(!settings.compare);
        assert_eq!(settings.focus, 0);
        // Without --focus, the accumulator's pane is focused.
        let settings = options(&["--compare", "all"]).expect("valid").settings;
        assert_eq!(settings.focus, 3);
        let settings = options(&["--compare", "fixed,variable"])
            .expect("valid")
            .settings;
        assert_eq!(settings.focus, 0);
        // Engine presets mix with the strategies.
        let settings = options(&["--compare", "accumulator,godot,unity-interpolate"])
            .expect("valid")
            .settings;
        assert_eq!(
            settings.panes.as_slice(),
            [
                Strategy::Accumulator,
                Strategy::Preset(EnginePreset::Godot),
                Strategy::Preset(EnginePreset::UnityInterpolate)
            ]
        );
        let settings = options(&["--strategy", "matterjs"])
            .expect("valid")
            .settings;
        assert_eq!(settings.strategy, Strategy::Preset(EnginePreset::Matterjs));
    }
}

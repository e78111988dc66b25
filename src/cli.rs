//! The command line: `timestep-lab [OPTIONS]` opens the window; `bench`, `render` and
//! `bench-render` run headless.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand};

use crate::bench::plot::{self, PlotError};
use crate::bench::{
    self, BenchReport, BenchSettings, FrameCsv, FrameStatsJson, PlotRecorder, TraceJson,
};
use crate::display::DisplaySpec;
use crate::live::{LiveSettings, LoadSettings, Panes, PresentModeId, ScenePreset};
use crate::metrics::FrameStats;
use crate::options::{BenchRenderOptions, RenderOptions, WindowOptions};
use crate::remembered::Remembered;
use crate::scene::{CameraDriver, Integrator, SceneConfig};
use crate::timestep::{FilterSpec, RangeError, Strategy, TimestepConfig};
use crate::trace::{self, FrameTrace, LoadOptions};

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
    /// Camera driver: per-frame, per-step or smoothed.
    #[arg(long, default_value = "smoothed", value_name = "ID")]
    pub camera: CameraDriver,
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
    /// Physics rate in Hz (1 to 1000); dt = round(1e9 / hz) ns.
    #[arg(long, default_value_t = crate::timestep::DEFAULT_RATE_HZ, value_name = "HZ")]
    pub hz: f64,
    /// Clamp each frame's time to this many ms before it is consumed; 0 = off.
    #[arg(long, default_value_t = 250.0, value_name = "MS")]
    pub max_frame_time: f64,
    /// Cap on steps per frame; owed whole steps beyond it are dropped. 0 = off.
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
    /// Strategies to run: `all`, or a comma list of fixed, variable, semi-fixed,
    /// accumulator, interpolated, extrapolated.
    #[arg(long, default_value = "all", value_name = "LIST")]
    pub strategy: String,
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
    /// (columns: README, "Per-frame CSV").
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
        Ok(settings)
    }

    /// Everything [`run_bench`] checks before it reads, generates or writes anything: the
    /// strategies, the [settings](Self::settings) and the `--csv` and `--plot` paths (which
    /// are only looked at). Returns the strategies and the settings. The `options` fuzz
    /// target (`fuzz/`) calls it to check a command line without running it.
    pub fn check(&self) -> anyhow::Result<(Vec<Strategy>, BenchSettings)> {
        let strategies = Strategy::parse_list(&self.strategy).context("--strategy")?;
        let settings = self.settings()?;
        check_report_paths(self)?;
        Ok((strategies, settings))
    }
}

/// The trace `bench` runs over: the file, or the generator (default `steady:60`).
pub fn bench_trace(args: &BenchArgs) -> anyhow::Result<FrameTrace> {
    match &args.trace {
        Some(path) => {
            let options = LoadOptions {
                process: args.process.clone(),
                swap_chain: args.swap_chain.clone(),
            };
            // A named pipe with no writer blocks the read; say why nothing happens.
            let waiting = |path: &str| eprintln!("note: waiting for data on {path} …");
            Ok(trace::load_with_wait_notice(path, &options, waiting)?)
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
            trace::generate(spec, args.duration).context("--generate")
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
    if args.plot.is_some() {
        plot::load_font(&font_path())?;
    }
    let mut trace = bench_trace(args)?;
    notes.extend(trace.notes.iter().cloned());
    if settings.display == DisplaySpec::Trace && trace.display_ns.is_none() {
        anyhow::bail!(
            "--display trace needs a capture with display times (PresentMon's MsUntilDisplayed \
             or DisplayLatency column); {} has none: use a modeled display such as \
             --display fifo:60",
            trace.source
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
        .map(|_| PlotRecorder::new(&trace.frame_times_ns, settings.display, args.plot_size))
        .transpose()?;
    let mut observers = (csv, plot);
    let results = bench::run_observed(
        &trace.frame_times_ns,
        trace.display_ns.as_deref(),
        &strategies,
        &settings,
        &mut observers,
    );
    let (csv, plot) = observers;
    if let (Some(csv), Some(path)) = (csv, &args.csv) {
        let written = csv.close().and_then(|out| {
            out.into_inner()
                .map_err(|error| csv::Error::from(error.into_error()))
        });
        written.map_err(|error| write_error(path, error.into_kind()))?;
    }
    if let (Some(plot), Some(file), Some(path)) = (plot, plot_file, &args.plot) {
        let title = plot_title(&trace.source, trace.len(), &settings);
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
    let (frames, wall_time_s) = (trace.len(), trace.wall_time_s());
    // The runs are done with the trace's order: its statistics sort its frames in place
    // rather than a copy, which a long trace would double.
    let stats = FrameStats::from_frame_times_in_place(&mut trace.frame_times_ns);
    let report = BenchReport::new(
        TraceJson {
            source: trace.source,
            frames,
            wall_time_s,
            stats: stats.as_ref().map(FrameStatsJson::from),
        },
        &settings,
        &results,
    );
    Ok(if args.json {
        let mut json = report.to_json();
        json.push('\n');
        json
    } else {
        report.table()
    })
}

/// The font file the plot's text uses: `TIMESTEP_LAB_FONT`, else DejaVu Sans where Debian
/// puts it.
fn font_path() -> PathBuf {
    std::env::var_os(plot::FONT_ENV)
        .filter(|path| !path.is_empty())
        .map_or_else(|| PathBuf::from(plot::DEFAULT_FONT_PATH), PathBuf::from)
}

/// The plot's title: the trace and what it ran under.
fn plot_title(source: &str, frames: usize, settings: &BenchSettings) -> String {
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
    }
}

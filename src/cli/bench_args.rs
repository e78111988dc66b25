//! `bench`'s options, and the request they make of the bench crate.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;

use crate::bench::{self, BenchRequest, BenchSettings, PlotRequest, ReportFormat, TraceChoice};
use crate::display::DisplaySpec;
use crate::input::{InputPolicy, InputScript};
use crate::sweep::{LoadSweep, SweepRequest};
use crate::timestep::{EnginePreset, FilterSpec, Strategy};
use crate::trace::LoadOptions;

use super::*;

/// What `bench` and `sweep` run: the strategies, the trace and the model.
// The field comments are the command's --help, written for a terminal: their `[:X]`
// marks an optional part, not a link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Strategies to run: `all` or a comma list (the ids come from the strategy table).
    #[arg(
        long,
        value_name = "LIST",
        help = format!(
            "Strategies to run: `all` (the default unless --preset is given), or a comma list \
             of {} (or engine preset ids)",
            strategy_ids()
        )
    )]
    pub strategy: Option<String>,
    /// An engine's own loop, run as its own row after the strategies (repeatable): godot,
    /// godot-interpolated, bevy, bevy-interpolated, unity, unity-interpolate,
    /// unity-extrapolate, unreal-substep, unreal, unreal-async, fiedler, glaiel, matterjs,
    /// matterjs-0.19.
    ///
    /// A preset keeps its engine's own step and guards: --hz, --max-frame-time and
    /// --max-steps do not apply to it; the trace, the load model (--step-cost,
    /// --render-cost, --jitter, --hitch), the display, --gpu-cost, --filter and the scene
    /// (--integrator, --spring-hz, --damping) do. Godot, Bevy, Glaiel, Matter.js and Fiedler follow their
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
    /// SwapChainAddress, or ADDR@PID where processes share it (default: the one with most
    /// rows). An error for other kinds of trace.
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
    /// Run a recorded session (`--record`) as a plain trace of its frame times under the
    /// bench's model, instead of replaying it as recorded. A generated trace is one already:
    /// with --generate it is refused.
    #[arg(long, requires = "trace", conflicts_with = "generate")]
    pub as_trace: bool,
    /// Simulation settings.
    #[command(flatten)]
    pub sim: SimArgs,
}

/// Arguments of `timestep-lab bench`.
// The field comments are the command's --help, written for a terminal: their `[:X]`
// marks an optional part, not a link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// The strategies, the trace and the model.
    #[command(flatten)]
    pub run: RunArgs,
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
}

/// Arguments of `timestep-lab sweep`.
// The field comments are the command's --help, written for a terminal: their `[:X]`
// marks an optional part, not a link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Debug, Clone, Args)]
pub struct SweepArgs {
    /// The load to ramp: NAME:FROM..TO[:LEVELS], NAME one of step-cost, render-cost,
    /// jitter (standard deviation) or hitch (length, every --hitch-every seconds), FROM and
    /// TO in ms, LEVELS evenly spaced levels from FROM to TO (2 to 10000, default 21), e.g.
    /// step-cost:0..30:50. The load's own option (--step-cost, ...) is then left out.
    #[arg(long, value_name = "SPEC", value_parser = LoadSweep::parse)]
    pub load: LoadSweep,
    /// The strategies, the trace and the model.
    #[command(flatten)]
    pub run: RunArgs,
    /// Print one JSON object instead of the table: every level of every strategy.
    #[arg(long)]
    pub json: bool,
    /// Also write one CSV row per strategy and level to this file (columns: docs/sweep.md,
    /// "JSON and CSV").
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also draw the speed kept and the latency against the load to this PNG, one line per
    /// strategy, each onset marked.
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
}

impl RunArgs {
    /// The bench settings, checked: the simulation's, the display, the GPU cost and the
    /// filter.
    pub fn settings(&self) -> anyhow::Result<BenchSettings> {
        // clap's `requires` is skipped where an option that rules out --trace is given
        // (--duration): checked here too, so --as-trace is never dropped in silence.
        if self.as_trace && self.trace.is_none() {
            anyhow::bail!(
                "--as-trace needs --trace FILE: it runs a recorded session's frame times as a \
                 plain trace, and a generated trace is one already"
            );
        }
        let mut settings = self.sim.settings()?;
        if !(0.0..=bench::MAX_COST_MS).contains(&self.gpu_cost) {
            anyhow::bail!(
                "--gpu-cost {} ms is out of range (allowed 0 to {} ms)",
                crate::text::number(self.gpu_cost),
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

    /// The trace: the `--trace` file or the `--generate` spec (by default `steady:60`).
    pub fn trace(&self) -> TraceChoice {
        match &self.trace {
            Some(path) => TraceChoice::File {
                path: path.clone(),
                options: LoadOptions {
                    process: self.process.clone(),
                    swap_chain: self.swap_chain.clone(),
                },
                as_trace: self.as_trace,
            },
            None => TraceChoice::Generated {
                spec: self.generate.as_deref().unwrap_or("steady:60").to_owned(),
                duration_s: self.duration,
            },
        }
    }
}

impl BenchArgs {
    /// Everything [`run_bench`] checks before it reads, generates or writes anything: the
    /// strategies, the [settings](RunArgs::settings) and the `--csv` and `--plot` paths
    /// (which are only looked at). Returns the strategies and the settings. The `options`
    /// fuzz target (`fuzz/`) calls it to check a command line without running it.
    pub fn check(&self) -> anyhow::Result<(Vec<Strategy>, BenchSettings)> {
        let strategies = bench_strategies(&self.run)?;
        let mut settings = self.run.settings()?;
        settings.input = self.input;
        settings.scene.player.policy = self.input_policy;
        check_report_paths(
            self.csv.as_deref(),
            self.plot.as_deref(),
            ("frames.csv", "bench.png"),
        )?;
        Ok((strategies, settings))
    }

    /// What `bench` is asked to do, [checked](Self::check), for the bench crate to run.
    pub fn request(&self) -> anyhow::Result<BenchRequest> {
        let (strategies, settings) = self.check()?;
        Ok(BenchRequest {
            strategies,
            settings,
            trace: self.run.trace(),
            format: report_format(self.json),
            csv: self.csv.clone(),
            plot: plot_request(self.plot.as_ref(), self.plot_size),
        })
    }
}

impl SweepArgs {
    /// Everything [`run_sweep`] checks before it reads, generates or writes anything, as
    /// [`BenchArgs::check`] does; also that the swept load's own option is left out.
    pub fn check(&self) -> anyhow::Result<(Vec<Strategy>, BenchSettings)> {
        let strategies = bench_strategies(&self.run)?;
        let settings = self.run.settings()?;
        let kind = self.load.kind;
        let given = kind.value(&settings.load);
        if given != 0.0 {
            anyhow::bail!(
                "--{id} {given} and --load {id}:... both set the {what}: leave --{id} out, the \
                 sweep sets it at each level",
                id = kind.id(),
                what = kind.describe()
            );
        }
        check_report_paths(
            self.csv.as_deref(),
            self.plot.as_deref(),
            ("sweep.csv", "sweep.png"),
        )?;
        Ok((strategies, settings))
    }

    /// What `sweep` is asked to do, [checked](Self::check), for the bench crate to run.
    pub fn request(&self) -> anyhow::Result<SweepRequest> {
        let (strategies, settings) = self.check()?;
        Ok(SweepRequest {
            strategies,
            settings,
            load: self.load,
            trace: self.run.trace(),
            format: report_format(self.json),
            csv: self.csv.clone(),
            plot: plot_request(self.plot.as_ref(), self.plot_size),
        })
    }
}

/// The report's format: JSON (`--json`) or the table.
fn report_format(json: bool) -> ReportFormat {
    if json {
        ReportFormat::Json
    } else {
        ReportFormat::Table
    }
}

/// The `--plot` to draw, at its size, with the font `TIMESTEP_LAB_FONT` names.
fn plot_request(path: Option<&PathBuf>, size: (u32, u32)) -> Option<PlotRequest> {
    path.map(|path| PlotRequest {
        path: path.clone(),
        size,
        font: font_override(),
    })
}

impl RunArgs {
    /// Notes for the step options given with only engine presets to run: each preset keeps
    /// its engine's own step and guards, so `--hz`, `--max-frame-time` and `--max-steps`
    /// change nothing (a value other than the default is taken as given).
    pub fn unused_step_options(&self, strategies: &[Strategy]) -> Vec<String> {
        let only_presets = !strategies.is_empty()
            && strategies
                .iter()
                .all(|strategy| matches!(strategy, Strategy::Preset(_)));
        if !only_presets {
            return Vec::new();
        }
        let sim = &self.sim;
        [
            ("--hz", sim.hz != crate::timestep::DEFAULT_RATE_HZ, sim.hz),
            (
                "--max-frame-time",
                sim.max_frame_time != 250.0,
                sim.max_frame_time,
            ),
            ("--max-steps", sim.max_steps != 0, f64::from(sim.max_steps)),
        ]
        .into_iter()
        .filter(|&(_, given, _)| given)
        .map(|(option, _, value)| {
            format!(
                "{option} {value} does not apply: only engine presets run, and each keeps its \
                 engine's own step and guards (docs/engines.md, \"Engine presets\")"
            )
        })
        .collect()
    }
}

/// `--input`'s value parser.
pub(super) fn parse_input_script(spec: &str) -> Result<InputScript, String> {
    InputScript::parse(spec).map_err(|error| error.problem)
}

/// What `bench` runs, in order: the `--strategy` list (all strategies when neither it nor
/// `--preset` is given), then each `--preset` not already in it.
pub(super) fn bench_strategies(args: &RunArgs) -> anyhow::Result<Vec<Strategy>> {
    // A list given is always read, so an empty one is refused naming the ids, like any
    // unknown one.
    let mut strategies = match (&args.strategy, args.presets.is_empty()) {
        (Some(list), _) => Strategy::parse_list(list).context("--strategy")?,
        (None, true) => Strategy::ALL.to_vec(),
        (None, false) => Vec::new(),
    };
    for &preset in &args.presets {
        let strategy = Strategy::Preset(preset);
        if !strategies.contains(&strategy) {
            strategies.push(strategy);
        }
    }
    Ok(strategies)
}

//! The command line: `timestep-lab [bench ...]`.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand};

use crate::bench::{self, BenchReport, BenchSettings, TraceJson};
use crate::scene::{Integrator, SceneConfig};
use crate::timestep::{Strategy, TimestepConfig};
use crate::trace::{self, FrameTrace, LoadOptions};

/// See, measure and understand game-loop timesteps.
#[derive(Debug, Parser)]
#[command(name = "timestep-lab", version, about, long_about = None)]
pub struct Cli {
    /// What to do; with none, the interactive window opens.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run strategies over a frame-time trace and print a comparison table.
    #[command(allow_negative_numbers = true)]
    Bench(BenchArgs),
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
    /// Load model: real ms each render frame costs on top of the trace (0 to 1000).
    #[arg(long, default_value_t = 0.0, value_name = "MS")]
    pub render_cost: f64,
}

impl SimArgs {
    /// The bench settings these arguments describe, or an error naming the bad value.
    pub fn settings(&self) -> anyhow::Result<BenchSettings> {
        let timestep = TimestepConfig::default()
            .with_rate_hz(self.hz)?
            .with_max_frame_time_ms(self.max_frame_time)?
            .with_max_steps(self.max_steps)?;
        let mut scene = SceneConfig::new();
        scene.integrator = self.integrator;
        scene.spring.natural_hz = self.spring_hz;
        scene.spring.damping_ratio = self.damping;
        scene.validate()?;
        let settings = BenchSettings {
            timestep,
            scene,
            ..BenchSettings::default()
        };
        Ok(settings.with_costs_ms(self.step_cost, self.render_cost)?)
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
    /// PresentMon: the application whose rows to use (default: the one with most rows).
    #[arg(long, value_name = "NAME", requires = "trace")]
    pub process: Option<String>,
    /// Generated trace: steady:HZ, jitter:HZ:SD_MS[:SEED], hitch:HZ:SPIKE_MS:EVERY_S,
    /// ramp:FROM_HZ:TO_HZ. The default when no --trace is given is steady:60.
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
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Simulation settings.
    #[command(flatten)]
    pub sim: SimArgs,
}

/// The trace `bench` runs over: the file, or the generator (default `steady:60`).
pub fn bench_trace(args: &BenchArgs) -> anyhow::Result<FrameTrace> {
    match &args.trace {
        Some(path) => {
            let options = LoadOptions {
                process: args.process.clone(),
            };
            Ok(trace::load(path, &options)?)
        }
        None => {
            let spec = args.generate.as_deref().unwrap_or("steady:60");
            trace::generate(spec, args.duration).context("--generate")
        }
    }
}

/// Runs `bench` and returns what it prints on stdout (notes about the trace go to `notes`).
pub fn run_bench(args: &BenchArgs, notes: &mut Vec<String>) -> anyhow::Result<String> {
    let strategies = Strategy::parse_list(&args.strategy).context("--strategy")?;
    let settings = args.sim.settings()?;
    let trace = bench_trace(args)?;
    notes.extend(trace.notes.iter().cloned());
    let results = bench::run(&trace.frame_times_ns, &strategies, &settings);
    let report = BenchReport::new(
        TraceJson {
            source: trace.source.clone(),
            frames: trace.len(),
            wall_time_s: trace.wall_time_s(),
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

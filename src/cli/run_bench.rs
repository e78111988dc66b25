//! Running `bench` from its options: the trace, the runs, the report and the `--csv` and
//! `--plot` files.

use std::path::PathBuf;

use anyhow::Context as _;

use crate::bench::plot::{self, PlotError};
use crate::bench::{
    self, BenchReport, BenchSettings, FrameCsv, FrameStatsJson, PlotRecorder, Progress, TraceJson,
};
use crate::display::DisplaySpec;
use crate::metrics::FrameStats;
use crate::recording::read_recording;
use crate::timestep::Strategy;
use crate::trace::{self, FrameSource};

use super::*;

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
        && trace::is_recording(path)
    {
        return run_bench_recording(args, path, &settings, &strategies, notes);
    }
    if args.plot.is_some()
        && let Some(path) = font_override()
    {
        plot::load_font(&path)?;
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
pub(super) fn report_text(args: &BenchArgs, report: &BenchReport) -> String {
    if args.json {
        let mut json = report.to_json();
        json.push('\n');
        json
    } else {
        report.table()
    }
}

/// `bench` over a recorded session: replayed as recorded, once per strategy (see
/// [`bench::run_recording`]).
pub(super) fn run_bench_recording(
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
    let file = trace::load_recording_file(path)?;
    let recording = std::sync::Arc::new(read_recording(file)?);
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
    let mut screen = crate::live::LiveDisplay::new(start.refresh_override_hz);
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

/// The font file `TIMESTEP_LAB_FONT` names for the plot's text, if any (else the plot uses
/// its embedded font).
fn font_override() -> Option<PathBuf> {
    std::env::var_os(plot::FONT_ENV)
        .filter(|path| !path.is_empty())
        .map(PathBuf::from)
}

/// The plot's title: the trace and what it ran under.
pub(super) fn plot_title(source: &str, frames: u64, settings: &BenchSettings) -> String {
    let dt_ms = crate::timestep::ms_from_ns(settings.timestep.dt_ns());
    format!(
        "timestep-lab bench: {source}, {frames} frames | dt {dt_ms} ms | display {} | filter {}",
        settings.display, settings.filter
    )
}

//! Running `bench` as asked: the trace (or a recorded session replayed), the runs, the report
//! and the `--csv` and `--plot` files. The app turns its command line into a
//! [`BenchRequest`] and prints what [`BenchRequest::run`] returns.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::output::{close_csv, create};
use super::plot::{self, PlotError};
use super::{
    BenchReport, BenchSettings, BenchTrace, FrameCsv, FrameStatsJson, PlotRecorder, Progress,
    SharedProgress, TraceChoice, TraceJson, WriteError, same_file,
};
use crate::display::DisplaySpec;
use crate::live::ReplayError;
use crate::metrics::{FrameStats, PackedFrameTimes};
use crate::recording::load_recording_with;
use crate::timestep::{RangeError, Strategy};
use crate::trace::{self, FrameSource, LoadOptions, TraceError};
use timestep_lab_core::text::{escape, escape_path, number};

/// What a recorded session's errors suggest instead.
const AS_TRACE: &str = "add --as-trace to run its frame times through the bench's model instead";

/// One `bench` command: what to run, over which trace, and what to report and write.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRequest {
    /// The strategies (and engine presets) to run, one row each, in order.
    pub strategies: Vec<Strategy>,
    /// The model they run under (checked: every value within its range).
    pub settings: BenchSettings,
    /// The trace they run over.
    pub trace: TraceChoice,
    /// How the report is printed.
    pub format: ReportFormat,
    /// Where to write one CSV row per frame and strategy (`--csv`), if anywhere.
    pub csv: Option<PathBuf>,
    /// The PNG to draw (`--plot`), if any.
    pub plot: Option<PlotRequest>,
}

/// How a bench report is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportFormat {
    /// The table.
    #[default]
    Table,
    /// One JSON object (`--json`).
    Json,
}

impl ReportFormat {
    /// The report as printed: one line of `json` (with its line end), or the `table`.
    pub fn text(self, json: impl FnOnce() -> String, table: impl FnOnce() -> String) -> String {
        match self {
            ReportFormat::Json => {
                let mut json = json();
                json.push('\n');
                json
            }
            ReportFormat::Table => table(),
        }
    }
}

/// The PNG a bench run draws (`--plot`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotRequest {
    /// The file to write.
    pub path: PathBuf,
    /// Its size, pixels (within [`plot::MIN_SIZE`] and [`plot::MAX_SIZE`]).
    pub size: (u32, u32),
    /// A TrueType or OpenType file its text uses instead of the embedded font.
    pub font: Option<PathBuf>,
}

/// Why a bench run failed. The messages are the command's own: they name its options.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The trace or the recorded session could not be read.
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// The generator spec is not one.
    #[error("--generate")]
    Generate(#[source] TraceError),
    /// A generated trace's length is out of range.
    #[error(
        "--duration {} s is out of range (allowed more than 0 up to {max} s)",
        number(*duration_s),
        max = trace::MAX_DURATION_S
    )]
    Duration {
        /// The length asked for, seconds.
        duration_s: f64,
    },
    /// `--display trace` over a trace without display times.
    #[error(
        "--display trace needs display times: a PresentMon capture's MsUntilDisplayed or \
         DisplayLatency column, or a recording made where the window measured the screen \
         (Wayland presentation-time, X11 Present); {trace} has none: use a modeled display \
         such as --display fifo:60"
    )]
    NoDisplayTimes {
        /// The trace, as its report names it.
        trace: String,
    },
    /// A report file is the trace being read (under any name: a link, a hard link).
    #[error("{option} {} is the trace being read; name another file", path.display())]
    OutputIsTrace {
        /// The option that named it (`--csv`, `--plot`).
        option: &'static str,
        /// The file.
        path: PathBuf,
    },
    /// A report file is the plot's font (`TIMESTEP_LAB_FONT`), under any name.
    #[error(
        "{option} {} is the plot's font (TIMESTEP_LAB_FONT); name another file",
        path.display()
    )]
    OutputIsFont {
        /// The option that named it (`--csv`, `--plot`).
        option: &'static str,
        /// The file.
        path: PathBuf,
    },
    /// Model settings other than the defaults for a recorded session, which replays with
    /// its own.
    #[error(
        "{shown} is a recorded session: it replays with the settings, requests and \
         presents it recorded, so the bench's model options (--hz, --max-frame-time, \
         --max-steps, --integrator, --spring-hz, --damping, --step-cost, --render-cost, \
         --jitter, --hitch, --hitch-every, --display, --gpu-cost, --filter, --input, --input-policy) do not apply; its \
         own inputs replay; {AS_TRACE}"
    )]
    RecordingModelOptions {
        /// The recording's path, escaped for the terminal.
        shown: String,
    },
    /// An option that a replayed session cannot take.
    #[error("{option} does not apply to a replayed session such as {shown}; {AS_TRACE}")]
    RecordingOption {
        /// The option (`--csv`, `--plot`, `--process`, `--swap-chain`).
        option: &'static str,
        /// The recording's path, escaped for the terminal.
        shown: String,
    },
    /// A recorded session could not be read again for a replay (it changed or went away
    /// since it was checked); the message names it and the line.
    #[error("{0}")]
    ReplayRead(String),
    /// `sweep` over a recorded session, which replays with its own load.
    #[error(
        "{shown} is a recorded session: it replays with the load it recorded, which a sweep \
         cannot ramp; {AS_TRACE}"
    )]
    SweepRecording {
        /// The recording's path, escaped for the terminal.
        shown: String,
    },
    /// A recorded session read without its header.
    #[error("a session recording has a header")]
    RecordingWithoutHeader,
    /// A value out of range: a recorded session's settings. The message does not name the
    /// option that sets it; the command line can.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// A report file could not be created or written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The plot could not be started: no font, or a size out of range.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// The plot could not be drawn or encoded.
    #[error("--plot {}", path.display())]
    DrawPlot {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        error: PlotError,
    },
}

impl From<ReplayError> for BenchError {
    fn from(error: ReplayError) -> Self {
        match error {
            ReplayError::Range(error) => Self::Range(error),
            ReplayError::Read(error) => Self::ReplayRead(error),
        }
    }
}

impl BenchError {
    /// A plot to `path` that could not be written (a write error, exit 1 like any) or
    /// drawn.
    pub fn plot(path: &Path, error: PlotError) -> Self {
        match error {
            PlotError::Write(error) => Self::Write(WriteError {
                option: "--plot",
                path: path.to_owned(),
                error,
            }),
            error => Self::DrawPlot {
                path: path.to_owned(),
                error,
            },
        }
    }

    /// Whether the run was asked for well and failed while running (a report it could not
    /// write or draw), rather than asked for something it cannot do.
    pub fn failed_while_running(&self) -> bool {
        matches!(self, Self::Write(_) | Self::Plot(_) | Self::DrawPlot { .. })
    }
}

impl BenchRequest {
    /// Runs the bench and returns the report as printed (notes about the trace go to
    /// `notes`; `on_wait` is told a trace file's path when it has given no data for a
    /// second). The `--csv` and `--plot` files are written before it returns. A progress bar
    /// shows on stderr, if it is a terminal, while a long run works.
    pub fn run(
        &self,
        notes: &mut Vec<String>,
        on_wait: impl FnOnce(&str) + Send + 'static,
    ) -> Result<String, BenchError> {
        // A recorded session replays as recorded; measured at its own display times
        // (`--display trace`), or with `--as-trace`, it is a trace.
        if let TraceChoice::File {
            path,
            options,
            as_trace: false,
        } = &self.trace
            && self.settings.display != DisplaySpec::Trace
            && trace::is_recording(path)
        {
            return self.replay_recording(path, options, notes);
        }
        let settings = &self.settings;
        let (trace, csv_file, plot_file) = open_run(
            &self.trace,
            settings,
            &self.strategies,
            settings.load.hitch_ms > 0.0,
            (self.csv.as_deref(), self.plot.as_ref()),
            notes,
            on_wait,
        )?;
        let csv = csv_file.map(|file| FrameCsv::new(std::io::BufWriter::new(file)));
        let plot_path = self.plot.as_ref().map(|plot| &plot.path);
        let recorder = self
            .plot
            .as_ref()
            .map(|plot| PlotRecorder::new(&trace, settings.display, plot.size))
            .transpose()?;
        let progress = Progress::on_stderr(trace.frame_count(), self.strategies.len() as u64);
        // Passes over the trace, not a sorted copy: a long trace is never held twice, and a
        // generated one not even once.
        let trace_stats = || FrameStats::from_passes(|| trace.frame_times());
        // The strategies run side by side, unless a report watches their frames in order;
        // side by side, the trace's statistics are worked out beside them, on a core the
        // runs leave time on.
        let (results, (csv, recorder), progress, stats) = if csv.is_none() && recorder.is_none() {
            let label = match self.strategies.as_slice() {
                [one] => one.id(),
                _ => "strategies",
            };
            let shared = SharedProgress::new(progress.labelled(label));
            let (results, stats) = rayon::join(
                || {
                    super::run_parallel(
                        &trace,
                        trace.display_times(),
                        &self.strategies,
                        settings,
                        &shared,
                    )
                },
                trace_stats,
            );
            (results, (csv, recorder), shared.into_inner(), Some(stats))
        } else {
            let mut observers = ((csv, recorder), progress);
            let results = super::run_observed(
                &trace,
                trace.display_times(),
                &self.strategies,
                settings,
                &mut observers,
            );
            (results, observers.0, observers.1, None)
        };
        // The bar, if shown, stays until the report is ready and is cleared when dropped.
        if let (Some(csv), Some(path)) = (csv, &self.csv) {
            close_csv(csv.close(), path)?;
        }
        if let (Some(recorder), Some(file), Some(path)) = (recorder, plot_file, plot_path) {
            progress.working_on("plot");
            let title = plot_title(trace.source(), trace.frame_count(), settings);
            recorder
                .write_png(&title, std::io::BufWriter::new(file))
                .map_err(|error| BenchError::plot(path, error))?;
        }
        let stats = stats.unwrap_or_else(|| {
            progress.working_on("statistics");
            trace_stats()
        });
        drop(progress);
        Ok(self.report_text(&BenchReport::new(
            trace_json(&trace, stats.as_ref()),
            settings,
            &results,
        )))
    }

    /// What `bench` prints of `report`: JSON, or the table.
    fn report_text(&self, report: &BenchReport) -> String {
        self.format.text(|| report.to_json(), || report.table())
    }

    /// `bench` over a recorded session: replayed as recorded, once per strategy (see
    /// [`run_recording`](super::run_recording)).
    fn replay_recording(
        &self,
        path: &std::path::Path,
        options: &LoadOptions,
        notes: &mut Vec<String>,
    ) -> Result<String, BenchError> {
        let shown = escape_path(path);
        if self.settings != BenchSettings::default() {
            return Err(BenchError::RecordingModelOptions { shown });
        }
        for (option, given) in [
            ("--csv", self.csv.is_some()),
            ("--plot", self.plot.is_some()),
            ("--process", options.process.is_some()),
            ("--swap-chain", options.swap_chain.is_some()),
        ] {
            if given {
                return Err(BenchError::RecordingOption { option, shown });
            }
        }
        // The frame times are packed as the recording is checked, for the statistics.
        let mut frame_times = PackedFrameTimes::new();
        let recording = load_recording_with(path, |frame| frame_times.push(frame.frame_time))?;
        let recording = std::sync::Arc::new(recording);
        let header = recording
            .header
            .as_ref()
            .ok_or(BenchError::RecordingWithoutHeader)?;
        let start = header.settings;
        let mut recorded = BenchSettings {
            timestep: start.timestep()?,
            scene: start.scene(&crate::scene::SceneConfig::new())?,
            filter: start.filter,
            ..BenchSettings::default()
        }
        .with_load(start.load)?;
        let results = super::run_recording(&recording, &frame_times, &self.strategies)?;
        let mut screen = crate::live::LiveDisplay::new(start.refresh_override_hz);
        screen.set(header.screen, start.refresh_override_hz);
        screen.set_measured(header.measured);
        recorded.display = screen.spec();
        notes.extend(recording.notes.iter().cloned());
        let measured = measured_note(&recording.summary, header.measured);
        notes.push(format!(
            "{}: a recorded session ({} on {}), replayed as recorded: {} request{} at their \
             frames, its presents on a modeled {} screen{measured}; each row runs one strategy \
             throughout",
            recording.source,
            escape(&header.version),
            escape(&header.adapter),
            recording.summary.events,
            if recording.summary.events == 1 {
                ""
            } else {
                "s"
            },
            recorded.display,
        ));
        let frames = frame_times.len();
        let stats = FrameStats::from_passes(|| frame_times.iter());
        let wall_time_s = stats
            .as_ref()
            .map_or(0.0, |stats| stats.all.time as f64 / 1e9);
        Ok(self.report_text(&BenchReport::new(
            TraceJson {
                source: recording.source.clone(),
                frames,
                wall_time_s,
                stats: stats.as_ref().map(FrameStatsJson::from),
            },
            &recorded,
            &results,
        )))
    }
}

/// What `bench` and `sweep` do before their runs: the report files (`--csv`, `--plot`)
/// checked, before anything is read, not to be the trace or the plot's font under any name
/// (a link, a hard link: [`same_file`]), the plot's font loaded, the trace read
/// or made (its notes, and a note when `hitches` are asked for and none can land, go to
/// `notes`), `--display trace` checked against it, and the report files created, so that
/// one that cannot be is known before any run. Returns the trace and the two files.
pub(crate) fn open_run(
    choice: &TraceChoice,
    settings: &BenchSettings,
    strategies: &[Strategy],
    hitches: bool,
    (csv, plot): (Option<&Path>, Option<&PlotRequest>),
    notes: &mut Vec<String>,
    on_wait: impl FnOnce(&str) + Send + 'static,
) -> Result<(BenchTrace, Option<File>, Option<File>), BenchError> {
    let font = plot.and_then(|plot| plot.font.as_deref());
    let plot = plot.map(|plot| plot.path.as_path());
    // Every input against every output, by what the file is, not by its name.
    for (option, output) in [("--csv", csv), ("--plot", plot)] {
        let Some(output) = output else { continue };
        let path = output.to_owned();
        if let TraceChoice::File { path: input, .. } = choice
            && same_file(output, input)
        {
            return Err(BenchError::OutputIsTrace { option, path });
        }
        if font.is_some_and(|font| same_file(output, font)) {
            return Err(BenchError::OutputIsFont { option, path });
        }
    }
    if let Some(font) = font {
        plot::load_font(font)?;
    }
    let trace = choice.load(settings.display == DisplaySpec::Trace, on_wait)?;
    notes.extend(trace.notes().iter().cloned());
    notes.extend(hitch_note(&settings.load, hitches, trace.wall_time_s()));
    notes.extend(display_time_note(strategies, settings.display));
    if settings.display == DisplaySpec::Trace && trace.display_times().is_none() {
        return Err(BenchError::NoDisplayTimes {
            trace: trace.source().to_owned(),
        });
    }
    let csv = csv.map(|path| create("--csv", path)).transpose()?;
    let plot = plot.map(|path| create("--plot", path)).transpose()?;
    Ok((trace, csv, plot))
}

/// A note when `display-time` is asked for on the `cpu` display, which has no display time
/// to predict: it falls back to drawing at the CPU's time, and says so. `all` (the default)
/// runs it without the note, which would otherwise follow every plain `bench`.
pub(crate) fn display_time_note(strategies: &[Strategy], display: DisplaySpec) -> Option<String> {
    let asked = strategies.contains(&Strategy::DisplayTime) && strategies != Strategy::ALL;
    (display == DisplaySpec::Cpu && asked).then(|| {
        "display-time has no display time to predict on --display cpu (the default): it draws \
         at the CPU's time, as interpolated does; give it a screen with --display fifo:HZ, \
         mailbox:HZ, immediate[:HZ], vrr:MIN-MAX or trace"
            .to_owned()
    })
}

/// A note when hitches are asked for (`hitches`) but come no sooner than the trace ends:
/// the first lands `--hitch-every` into the run.
pub(crate) fn hitch_note(
    load: &crate::live::LoadSettings,
    hitches: bool,
    trace_s: f64,
) -> Option<String> {
    (hitches && load.hitch_every_s >= trace_s).then(|| {
        format!(
            "--hitch-every {} s is no shorter than the trace ({trace_s:.3} s): the first hitch \
             lands {} s into the run, so none does unless the load stretches the run that far",
            load.hitch_every_s, load.hitch_every_s
        )
    })
}

/// The report's account of the trace.
pub(crate) fn trace_json(trace: &BenchTrace, stats: Option<&FrameStats>) -> TraceJson {
    TraceJson {
        source: trace.source().to_owned(),
        frames: usize::try_from(trace.frame_count()).unwrap_or(usize::MAX),
        wall_time_s: trace.wall_time_s(),
        stats: stats.map(FrameStatsJson::from),
    }
}

/// The plot's title: the trace and what it ran under.
fn plot_title(source: &str, frames: u64, settings: &BenchSettings) -> String {
    let dt_ms = crate::timestep::ms_from_ns(settings.timestep.dt_ns());
    format!(
        "timestep-lab bench: {source}, {frames} frames | dt {dt_ms} ms | display {} | filter {}",
        settings.display, settings.filter
    )
}

/// How a recording's frames are settled at the screen, for its note: by the platform's
/// answers while they came (and until when, where the window gave up), else by the model,
/// saying why where the window began to measure and gave up before any answer.
fn measured_note(
    summary: &crate::live::RecordingSummary,
    measured: Option<crate::live::MeasuredFacts>,
) -> String {
    let source = measured.map(|measured| measured.source);
    let gave_up = |source| {
        summary.gave_up.map_or_else(String::new, |(frame, why)| {
            format!(
                " (the window gave up at frame {frame}: {})",
                why.describe(source)
            )
        })
    };
    match source {
        Some(source) if summary.answers > 0 => format!(
            ", its frames settled at the screen by the {} answers {} recorded while they \
             came{}",
            summary.answers,
            source.label(),
            gave_up(source)
        ),
        Some(source) => format!(
            ", its frames settled by the model: {} recorded no answer{}",
            source.label(),
            gave_up(source)
        ),
        None => String::new(),
    }
}

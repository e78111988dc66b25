//! Running `sweep` as asked: the trace, the levels, the report and the `--csv` and `--plot`
//! files. The app turns its command line into a [`SweepRequest`] and prints what
//! [`SweepRequest::run`] returns.

use std::path::PathBuf;

use super::report::{CSV_COLUMNS, screen};
use super::{LevelJson, LoadKind, LoadSweep, SweepPlot, SweepReport};
use crate::bench::{
    BenchError, BenchSettings, PlotRequest, Progress, ReportFormat, SharedProgress, TraceChoice,
    close_csv, csv_write_error, open_run, trace_json,
};
use crate::metrics::FrameStats;
use crate::timestep::Strategy;
use crate::trace::{self, FrameSource};
use timestep_lab_core::text::escape_path;

/// One `sweep` command: the load to ramp, what to run it on, and what to report.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRequest {
    /// The strategies (and engine presets), one row each, in order.
    pub strategies: Vec<Strategy>,
    /// The model every level runs under, but for the swept load (checked).
    pub settings: BenchSettings,
    /// The load and its levels.
    pub load: LoadSweep,
    /// The trace they run over.
    pub trace: TraceChoice,
    /// How the report is printed.
    pub format: ReportFormat,
    /// Where to write one CSV row per strategy and level (`--csv`), if anywhere.
    pub csv: Option<PathBuf>,
    /// The PNG to draw (`--plot`), if any.
    pub plot: Option<PlotRequest>,
}

impl SweepRequest {
    /// Runs the sweep and returns the report as printed (notes about the trace go to
    /// `notes`; `on_wait` as for [`BenchRequest::run`](crate::bench::BenchRequest::run)).
    /// The `--csv` and `--plot` files are written before it returns. A progress bar shows
    /// on stderr, if it is a terminal, while a long sweep works.
    pub fn run(
        &self,
        notes: &mut Vec<String>,
        on_wait: impl FnOnce(&str) + Send + 'static,
    ) -> Result<String, BenchError> {
        if let TraceChoice::File {
            path,
            as_trace: false,
            ..
        } = &self.trace
            && trace::is_recording(path)
        {
            return Err(BenchError::SweepRecording {
                shown: escape_path(path),
            });
        }
        let settings = &self.settings;
        let (trace, csv_file, plot_file) = open_run(
            &self.trace,
            settings,
            &self.strategies,
            settings.load.hitch_ms > 0.0 || self.load.kind == LoadKind::Hitch,
            (self.csv.as_deref(), self.plot.as_ref()),
            notes,
            on_wait,
        )?;
        let runs = self.strategies.len() as u64 * u64::from(self.load.levels);
        let progress = SharedProgress::new(
            Progress::on_stderr(trace.frame_count(), runs).labelled(self.load.kind.id()),
        );
        // Each level goes to the reports that want it as the sweep hands it on: a CSV row,
        // the plot's lines, the JSON's list (the JSON holds every level by its nature).
        let screen = screen(settings);
        let mut csv = csv_file.map(|file| csv::Writer::from_writer(std::io::BufWriter::new(file)));
        let mut csv_error = None;
        if let (Some(writer), Some(path)) = (csv.as_mut(), &self.csv) {
            csv_error = writer
                .write_record(CSV_COLUMNS)
                .err()
                .map(|error| csv_write_error(path, error.into_kind()));
        }
        let mut plot = self
            .plot
            .as_ref()
            .map(|plot| SweepPlot::new(self.strategies.len(), self.load.levels, plot.size));
        let json = self.format == ReportFormat::Json;
        let mut levels: Vec<Vec<LevelJson>> = vec![Vec::new(); self.strategies.len()];
        let sweeps = super::sweep(
            &trace,
            trace.display_times(),
            &self.strategies,
            settings,
            &self.load,
            &progress,
            |which, index, level| {
                if let Some(plot) = plot.as_mut() {
                    plot.record(which, index, level);
                }
                if !json && csv.is_none() {
                    return;
                }
                let row = LevelJson::new(level, screen);
                if let (Some(writer), Some(path), None) = (csv.as_mut(), &self.csv, &csv_error) {
                    let record = row.csv_row(self.strategies[which].id());
                    csv_error = writer
                        .write_record(&record)
                        .err()
                        .map(|error| csv_write_error(path, error.into_kind()));
                }
                if json {
                    levels[which].push(row);
                }
            },
        );
        let progress = progress.into_inner();
        if let Some(error) = csv_error {
            return Err(error.into());
        }
        if let (Some(writer), Some(path)) = (csv, &self.csv) {
            let written = writer
                .into_inner()
                .map_err(|error| csv::Error::from(error.into_error()));
            close_csv(written, path)?;
        }
        progress.working_on("statistics");
        let stats = FrameStats::from_passes(|| trace.frame_times());
        let report = SweepReport::new(
            trace_json(&trace, stats.as_ref()),
            settings,
            &self.load,
            &sweeps,
            levels,
        );
        if let (Some(file), Some(request), Some(plot)) = (plot_file, &self.plot, plot) {
            progress.working_on("plot");
            let report_settings = &report.settings;
            let guard = |value: Option<String>| value.unwrap_or_else(|| "off".to_owned());
            let title = format!(
                "timestep-lab sweep: {} | {} | dt {} ms | clamp {} | max steps {} | display {}",
                trace.source(),
                self.load,
                report_settings.dt_ms,
                guard(
                    report_settings
                        .max_frame_time_ms
                        .map(|ms| format!("{ms} ms"))
                ),
                guard(report_settings.max_steps.map(|steps| steps.to_string())),
                settings.display
            );
            plot.write_png(&report, &title, std::io::BufWriter::new(file))
                .map_err(|error| BenchError::plot(&request.path, error))?;
        }
        drop(progress);
        Ok(self.format.text(|| report.to_json(), || report.table()))
    }
}

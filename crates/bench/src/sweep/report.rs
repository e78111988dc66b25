//! A sweep's report: the table (one row per strategy: onset, breaking point, speed at the
//! top of the range), the JSON (every level of every strategy) and the CSV (one row per
//! strategy and level).

use std::fmt::Write as _;

use serde::Serialize;

use super::{Level, LoadSweep, StrategySweep};
use crate::bench::{BenchSettings, SettingsJson, TraceJson, header_lines, trim};
use crate::display::DisplaySpec;
use crate::run::ONSET_SPEED;
use crate::timestep::{ms_from_ns, secs_from_ns};

/// The whole report, as `--json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepReport {
    /// Format version of this JSON; bumped on any incompatible change.
    pub version: u32,
    /// The trace.
    pub trace: TraceJson,
    /// The settings every level shares (the swept load at its value outside the sweep).
    pub settings: SettingsJson,
    /// What was swept.
    pub load: LoadJson,
    /// Simulation speed below which a run has broken.
    pub onset_speed: f64,
    /// One entry per strategy, in the order asked.
    pub results: Vec<StrategySweepJson>,
}

/// The `load` object: the load swept and its levels.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoadJson {
    /// The load's id (`step-cost`, `render-cost`, `jitter`, `hitch`).
    pub name: String,
    /// The first level, ms.
    pub from_ms: f64,
    /// The last level, ms.
    pub to_ms: f64,
    /// How many levels.
    pub levels: u32,
    /// The distance between two levels, ms.
    pub spacing_ms: f64,
}

/// One strategy's sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrategySweepJson {
    /// Strategy id (an engine preset's id for a preset).
    pub strategy: String,
    /// The step it ran, ms.
    pub dt_ms: f64,
    /// The lowest load at which it broke, ms; `null` when it held over the range.
    pub onset_ms: Option<f64>,
    /// The lowest load at which it spiralled, ms; `null` when it never did.
    pub breaking_point_ms: Option<f64>,
    /// Whether the closed-loop model covers its rule (not an engine's own loop).
    pub model: bool,
    /// The lowest load at which the model says it breaks, ms; `null` when the model says
    /// it holds over the range, or there is no model.
    pub predicted_onset_ms: Option<f64>,
    /// Whether the measured and predicted onsets are more than one level apart.
    pub disagrees: bool,
    /// The speed kept at the top of the range.
    pub speed_at_top: f64,
    /// Every level, from the lowest load (kept for `--json` only).
    pub levels: Vec<LevelJson>,
    /// The last level (the table's columns at the top of the range).
    #[serde(skip)]
    pub top: Option<LevelJson>,
}

/// One strategy at one level; also one row of `--csv` (with the strategy).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelJson {
    /// The load, ms.
    pub load_ms: f64,
    /// Simulated time over real time, as `bench` reports it.
    pub sim_speed: f64,
    /// Simulated time plus what the loop carries into a next frame, over real time: the
    /// speed it kept, which the onset is judged by.
    pub kept_speed: f64,
    /// Whether it spiralled (or froze).
    pub spiral: bool,
    /// Whether the run stopped early, frozen.
    pub frozen: bool,
    /// Whether it broke: speed below the onset speed, or a spiral.
    pub broken: bool,
    /// Mean steps a frame.
    pub steps_per_frame_mean: f64,
    /// Most steps in one frame.
    pub steps_per_frame_max: u64,
    /// Mean `T - S`, ms.
    pub latency_ms: f64,
    /// RMS judder on the CPU's clock, ms.
    pub judder_ms: f64,
    /// Mean display latency, ms; `null` on the `cpu` display (it equals `latency_ms`).
    pub display_latency_ms: Option<f64>,
    /// RMS animation error at the screen, ms; `null` on the `cpu` display.
    pub display_judder_ms: Option<f64>,
    /// Time the guards dropped, s.
    pub dropped_time_s: f64,
    /// Real time of the run, s.
    pub wall_time_s: f64,
    /// 99th percentile of the frame times the loop ran, ms.
    pub frame_time_p99_ms: Option<f64>,
    /// Whether the spring exploded.
    pub exploded: bool,
    /// The model's simulation speed; `null` without a model.
    pub predicted_sim_speed: Option<f64>,
    /// Whether the model says it spirals; `null` without a model.
    pub predicted_spiral: Option<bool>,
    /// The model's steps a frame; `null` without a model or when it spirals.
    pub predicted_steps_per_frame: Option<f64>,
}

/// Whether the display shows frames later than the CPU runs them (not `cpu`): the screen's
/// latency and judder are then their own.
pub fn screen(settings: &BenchSettings) -> bool {
    settings.display != DisplaySpec::Cpu
}

/// The table's flags for a strategy's sweep.
fn flags(result: &StrategySweepJson) -> Vec<&'static str> {
    let mut flags = Vec::new();
    if result.disagrees {
        flags.push("DISAGREES");
    }
    if !result.model {
        flags.push("no-model");
    }
    if result.top.as_ref().is_some_and(|level| level.frozen) {
        flags.push("FROZE");
    }
    flags
}

/// Whether the table flags `result` with `flag`.
fn rows_flag(result: &StrategySweepJson, flag: &str) -> bool {
    flags(result).contains(&flag)
}

/// The columns of `--csv`: the strategy, then a level's fields as the JSON names them.
pub const CSV_COLUMNS: [&str; 20] = [
    "strategy",
    "load_ms",
    "sim_speed",
    "kept_speed",
    "spiral",
    "frozen",
    "broken",
    "steps_per_frame_mean",
    "steps_per_frame_max",
    "latency_ms",
    "judder_ms",
    "display_latency_ms",
    "display_judder_ms",
    "dropped_time_s",
    "wall_time_s",
    "frame_time_p99_ms",
    "exploded",
    "predicted_sim_speed",
    "predicted_spiral",
    "predicted_steps_per_frame",
];

impl LevelJson {
    /// The level as a `--csv` row of `strategy`, in the order of the CSV's columns; an absent
    /// value is an empty field.
    pub fn csv_row(&self, strategy: &str) -> [String; CSV_COLUMNS.len()] {
        fn text<T: ToString>(value: Option<T>) -> String {
            value.map_or_else(String::new, |value| value.to_string())
        }
        [
            strategy.to_owned(),
            self.load_ms.to_string(),
            self.sim_speed.to_string(),
            self.kept_speed.to_string(),
            self.spiral.to_string(),
            self.frozen.to_string(),
            self.broken.to_string(),
            self.steps_per_frame_mean.to_string(),
            self.steps_per_frame_max.to_string(),
            self.latency_ms.to_string(),
            self.judder_ms.to_string(),
            text(self.display_latency_ms),
            text(self.display_judder_ms),
            self.dropped_time_s.to_string(),
            self.wall_time_s.to_string(),
            text(self.frame_time_p99_ms),
            self.exploded.to_string(),
            text(self.predicted_sim_speed),
            text(self.predicted_spiral),
            text(self.predicted_steps_per_frame),
        ]
    }

    /// What the report says of one level; `screen` when the display is not `cpu`.
    pub fn new(level: &Level, screen: bool) -> Self {
        let result = &level.result;
        let metrics = &result.metrics;
        let predicted = level.predicted.as_ref();
        Self {
            load_ms: level.load_ms,
            sim_speed: result.sim_speed(),
            kept_speed: result.kept_speed(),
            spiral: result.spiral,
            frozen: result.frozen,
            broken: level.broken(),
            steps_per_frame_mean: metrics.steps_per_frame_mean,
            steps_per_frame_max: metrics.steps_per_frame_max,
            latency_ms: metrics.latency_ms,
            judder_ms: metrics.judder_ms,
            display_latency_ms: result
                .metrics
                .display_latency()
                .filter(|_| screen)
                .map(|(mean, _)| mean),
            display_judder_ms: result
                .metrics
                .display_judder()
                .filter(|_| screen)
                .map(|(rms, _)| rms),
            dropped_time_s: secs_from_ns(result.dropped),
            wall_time_s: secs_from_ns(result.wall_time),
            frame_time_p99_ms: result.frame_time_p99.map(ms_from_ns),
            exploded: metrics.exploded,
            predicted_sim_speed: predicted.map(|p| p.sim_speed),
            predicted_spiral: predicted.map(|p| p.spiral),
            predicted_steps_per_frame: predicted.and_then(|p| p.steps_per_frame),
        }
    }
}

impl SweepReport {
    /// Assembles the report of a sweep: what it kept of each strategy, and (for `--json`)
    /// every level of each, in order (empty lists for the table).
    pub fn new(
        trace: TraceJson,
        settings: &BenchSettings,
        load: &LoadSweep,
        sweeps: &[StrategySweep],
        levels: Vec<Vec<LevelJson>>,
    ) -> Self {
        let screen = screen(settings);
        let at = |index: Option<usize>| index.map(|index| load.level(index as u32));
        let results = sweeps
            .iter()
            .zip(levels.into_iter().chain(std::iter::repeat_with(Vec::new)))
            .map(|(sweep, levels)| {
                let top = sweep
                    .top
                    .as_ref()
                    .map(|level| LevelJson::new(level, screen));
                StrategySweepJson {
                    strategy: sweep.strategy.id().to_owned(),
                    dt_ms: ms_from_ns(sweep.strategy.dt(&settings.timestep)),
                    onset_ms: at(sweep.onset),
                    breaking_point_ms: at(sweep.breaking_point),
                    model: sweep.model,
                    predicted_onset_ms: at(sweep.predicted_onset),
                    disagrees: sweep.disagrees(),
                    speed_at_top: top.as_ref().map_or(0.0, |level| level.kept_speed),
                    levels,
                    top,
                }
            })
            .collect();
        Self {
            version: 1,
            trace,
            settings: SettingsJson::new(settings),
            load: LoadJson {
                name: load.kind.id().to_owned(),
                from_ms: load.from_ms,
                to_ms: load.to_ms,
                levels: load.levels,
                spacing_ms: load.spacing(),
            },
            onset_speed: ONSET_SPEED,
            results,
        }
    }

    /// The report as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|error| format!("{{\"error\":\"{error}\"}}"))
    }

    /// The report as an aligned table: one row per strategy.
    pub fn table(&self) -> String {
        let mut out = String::new();
        header_lines(&mut out, &self.trace, &self.settings);
        let load = &self.load;
        let _ = writeln!(
            out,
            "sweep: {} from {} to {} ms, {} levels {} ms apart",
            load.name,
            trim(load.from_ms),
            trim(load.to_ms),
            load.levels,
            trim(load.spacing_ms),
        );
        out.push('\n');
        let top = format!("kept at {} ms", trim(load.to_ms));
        let header = [
            "strategy",
            "onset ms",
            "predicted ms",
            "breaking ms",
            top.as_str(),
            "steps/frame",
            "latency ms",
            "flags",
        ];
        let shown = |ms: Option<f64>| ms.map_or_else(|| "-".to_owned(), |ms| format!("{ms:.3}"));
        let rows: Vec<[String; 8]> = self
            .results
            .iter()
            .map(|result| {
                let last = result.top.as_ref();
                let flags = flags(result);
                [
                    result.strategy.clone(),
                    shown(result.onset_ms),
                    if result.model {
                        shown(result.predicted_onset_ms)
                    } else {
                        "n/a".to_owned()
                    },
                    shown(result.breaking_point_ms),
                    format!("{:.3}", result.speed_at_top),
                    last.map_or_else(String::new, |level| {
                        format!("{:.2}", level.steps_per_frame_mean)
                    }),
                    last.map_or_else(String::new, |level| format!("{:.3}", level.latency_ms)),
                    flags.join(" "),
                ]
            })
            .collect();
        let mut widths = header.map(str::len);
        for row in &rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let line = |cells: &[&str]| {
            let mut text = String::new();
            for (i, (cell, width)) in cells.iter().zip(widths).enumerate() {
                if i == 0 {
                    let _ = write!(text, "{cell:<width$}");
                } else if i == cells.len() - 1 {
                    let _ = write!(text, "  {cell}");
                } else {
                    let _ = write!(text, "  {cell:>width$}");
                }
            }
            text.trim_end().to_owned()
        };
        let _ = writeln!(out, "{}", line(&header));
        for row in &rows {
            let cells: Vec<&str> = row.iter().map(String::as_str).collect();
            let _ = writeln!(out, "{}", line(&cells));
        }
        let _ = writeln!(
            out,
            "\nonset: the lowest load at which the speed kept falls below {}, or the loop\n\
             spirals; breaking: the lowest at which it spirals; predicted: the onset of the\n\
             closed-loop model; -: none in the range. steps/frame and latency: at the top of\n\
             the range. docs/sweep.md.",
            ONSET_SPEED
        );
        let flagged = |flag: &str| self.results.iter().any(|result| rows_flag(result, flag));
        if flagged("DISAGREES") {
            out.push_str("DISAGREES: measured and predicted onsets more than one level apart.\n");
        }
        if flagged("no-model") {
            out.push_str("no-model: an engine's own loop, which the model does not cover.\n");
        }
        if flagged("FROZE") {
            out.push_str(
                "FROZE: at the top of the range the run stopped, its frames grown past 60 s of \
                 load:\na spiral keeps simulated time level with real time, one ever longer \
                 frame at a time.\n",
            );
        }
        out
    }
}

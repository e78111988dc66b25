//! The bench report: an aligned table for people, one JSON object for programs.

use std::fmt::Write as _;

use serde::Serialize;

use super::{BenchResult, BenchSettings, cost_ms};
use crate::display::DisplaySpec;
use crate::display::RepeatCauses;
use crate::input::{InputPolicy, InputStats};
use crate::metrics::{ForecastErrors, FrameStats, HITCH_FACTOR, RefreshHistograms};
use crate::timestep::{FilterSpec, Strategy, ms_from_ns, secs_from_ns};

/// The `trace` object of the JSON report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceJson {
    /// Where the frame times came from.
    pub source: String,
    /// Frames in the trace.
    pub frames: usize,
    /// The trace's own total time, seconds.
    pub wall_time_s: f64,
    /// Statistics of the trace's own frame times; `null` for a trace without frames.
    pub stats: Option<FrameStatsJson>,
}

/// The `trace.stats` object of the JSON report: frame-time statistics (see
/// [`FrameStats`]). A rate over no time is `null`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameStatsJson {
    /// Frames over their total time, fps.
    pub average_fps: Option<f64>,
    /// Nearest-rank 50th percentile frame time, ms.
    pub frame_time_p50_ms: f64,
    /// Nearest-rank 90th percentile frame time, ms.
    pub frame_time_p90_ms: f64,
    /// Nearest-rank 95th percentile frame time, ms.
    pub frame_time_p95_ms: f64,
    /// Nearest-rank 99th percentile frame time, ms.
    pub frame_time_p99_ms: f64,
    /// Nearest-rank 99.9th percentile frame time, ms.
    pub frame_time_p99_9_ms: f64,
    /// The longest frame, ms.
    pub frame_time_max_ms: f64,
    /// The slowest 1% of the frames (at least one) over their total time, fps.
    pub one_percent_low_fps: Option<f64>,
    /// The slowest 0.1% of the frames (at least one) over their total time, fps.
    pub point_one_percent_low_fps: Option<f64>,
    /// Frames longer than this are hitches: twice the median frame time, ms; `null` when
    /// the median is zero (then there are none).
    pub hitch_threshold_ms: Option<f64>,
    /// Frames longer than the threshold.
    pub hitches: u64,
    /// The share of the total time spent in hitches, percent; `null` when no time passed.
    pub hitch_time_percent: Option<f64>,
}

impl From<&FrameStats> for FrameStatsJson {
    fn from(stats: &FrameStats) -> Self {
        Self {
            average_fps: stats.average_fps(),
            frame_time_p50_ms: ms_from_ns(stats.p50),
            frame_time_p90_ms: ms_from_ns(stats.p90),
            frame_time_p95_ms: ms_from_ns(stats.p95),
            frame_time_p99_ms: ms_from_ns(stats.p99),
            frame_time_p99_9_ms: ms_from_ns(stats.p99_9),
            frame_time_max_ms: ms_from_ns(stats.max),
            one_percent_low_fps: stats.one_percent_low_fps(),
            point_one_percent_low_fps: stats.point_one_percent_low_fps(),
            hitch_threshold_ms: stats.hitch_threshold.map(ms_from_ns),
            hitches: stats.hitches.frames,
            hitch_time_percent: stats.hitch_time_percent(),
        }
    }
}

/// The `settings` object of the JSON report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SettingsJson {
    /// The step, ms.
    pub dt_ms: f64,
    /// The frame-time clamp, ms; `null` when off.
    pub max_frame_time_ms: Option<f64>,
    /// The per-frame step cap; `null` when off.
    pub max_steps: Option<u32>,
    /// Load model: real time per step, ms.
    pub step_cost_ms: f64,
    /// Load model: real time per frame, ms.
    pub render_cost_ms: f64,
    /// Load model: standard deviation of the half-normal extra time per frame, ms.
    pub jitter_ms: f64,
    /// Load model: a hitch's length, ms (0: none).
    pub hitch_ms: f64,
    /// Load model: time between hitches, s.
    pub hitch_every_s: f64,
    /// The spring integrator's id.
    pub integrator: String,
    /// The display model (in the JSON as `--display` reads it: `cpu`, `fifo:60:2`, ...).
    #[serde(serialize_with = "timestep_lab_core::setting::display")]
    pub display: DisplaySpec,
    /// GPU time per frame, ms.
    pub gpu_cost_ms: f64,
    /// The frame-time filter (in the JSON as `--filter` reads it: `none`, `snap`, ...).
    #[serde(serialize_with = "timestep_lab_core::setting::display")]
    pub filter: FilterSpec,
}

impl SettingsJson {
    /// What a run's settings say in a report.
    pub fn new(settings: &BenchSettings) -> Self {
        let timestep = &settings.timestep;
        SettingsJson {
            dt_ms: ms_from_ns(timestep.dt_ns()),
            max_frame_time_ms: timestep.max_frame_time.map(|max| ms_from_ns(max.get())),
            max_steps: timestep.max_steps.map(|max| max.get()),
            step_cost_ms: settings.load.step_cost_ms,
            render_cost_ms: settings.load.render_cost_ms,
            jitter_ms: settings.load.jitter_ms,
            hitch_ms: settings.load.hitch_ms,
            hitch_every_s: settings.load.hitch_every_s,
            integrator: settings.scene.integrator.id().to_owned(),
            display: settings.display,
            gpu_cost_ms: cost_ms(settings.gpu_cost),
            filter: settings.filter,
        }
    }
}

/// Shown frames in whole refreshes, as the JSON report writes them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefreshHistogramsJson {
    /// One refresh, ms (VRR: its fastest).
    pub refresh_ms: f64,
    /// Shown frames by display latency from the frame's start, in refreshes rounded up:
    /// index `n` counts latencies over `n - 1` and up to `n` refreshes, the last all longer.
    pub latency: Vec<u64>,
    /// Shown frames by the gap from the previous shown one, in refreshes to the nearest,
    /// the last index all longer.
    pub gaps: Vec<u64>,
}

impl From<RefreshHistograms> for RefreshHistogramsJson {
    fn from(histograms: RefreshHistograms) -> Self {
        Self {
            refresh_ms: ms_from_ns(histograms.unit),
            latency: histograms.latency.to_vec(),
            gaps: histograms.gaps.to_vec(),
        }
    }
}

/// The `display_forecast` object of a result: how the forecast of display times that
/// `display-time` draws to did over the shown frames.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ForecastJson {
    /// Shown frames with a forecast.
    pub frames: u64,
    /// Of them, shown earlier than forecast.
    pub early: u64,
    /// Of them, shown later than forecast.
    pub late: u64,
    /// Mean magnitude of the error (shown less forecast), ms.
    pub mean_abs_error_ms: f64,
    /// The largest magnitude, ms.
    pub worst_error_ms: f64,
}

impl From<ForecastErrors> for ForecastJson {
    fn from(errors: ForecastErrors) -> Self {
        Self {
            frames: errors.frames,
            early: errors.early,
            late: errors.late,
            mean_abs_error_ms: errors.mean_abs_ms(),
            worst_error_ms: ms_from_ns(errors.worst),
        }
    }
}

/// One entry of the JSON report's `results`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultJson {
    /// The strategy (in the JSON its id; an engine preset's id for a preset).
    pub strategy: Strategy,
    /// The step the run took, ms: `settings.dt_ms`, or an engine preset's own.
    pub dt_ms: f64,
    /// Frames run (fewer than the trace's if the loop froze).
    pub frames: u64,
    /// Steps taken.
    pub steps: u64,
    /// Mean steps per frame.
    pub steps_per_frame_mean: f64,
    /// Most steps in one frame.
    pub steps_per_frame_max: u64,
    /// Nearest-rank 99th percentile of the frame times the loop ran (the trace's, the
    /// load model's and time blocked presenting), ms; `null` for no frames.
    pub frame_time_p99_ms: Option<f64>,
    /// The longest frame the loop ran, ms; `null` for no frames.
    pub frame_time_max_ms: Option<f64>,
    /// Real time including the load model and dropped time, seconds.
    pub wall_time_s: f64,
    /// Simulated time of the latest state, seconds.
    pub sim_time_s: f64,
    /// Time dropped by the guards, seconds.
    pub dropped_time_s: f64,
    /// Mean time the picture is behind reality, ms.
    pub latency_ms: f64,
    /// The worst frame's `T - S`: the one farthest from zero, with its sign, ms.
    pub latency_worst_ms: f64,
    /// RMS unevenness of shown motion against real time, ms.
    pub judder_ms: f64,
    /// The worst frame's judder: the largest `|(S_i - S_{i-1}) - (T_i - T_{i-1})|`, ms.
    pub judder_worst_ms: f64,
    /// Mean time from the shown state's simulated time to its image reaching the screen,
    /// ms, over shown frames (`D_i - S_i`). Equals `latency_ms` on the `cpu` display;
    /// `null` where no frame was shown.
    pub display_latency_ms: Option<f64>,
    /// The shown frame's `D_i - S_i` farthest from zero, with its sign, ms; `null` where
    /// no frame was shown.
    pub display_latency_worst_ms: Option<f64>,
    /// RMS animation error at the screen, ms: `(S_i - S_j) - (D_i - D_j)` over shown
    /// frames, `j` the previous shown one (PresentMon's `MsAnimationError`). Equals
    /// `judder_ms` on the `cpu` display; `null` where fewer than two frames were shown.
    pub display_judder_ms: Option<f64>,
    /// The largest animation error's magnitude over shown frames, ms; `null` where
    /// `display_judder_ms` is.
    pub display_judder_worst_ms: Option<f64>,
    /// Frames presented to the display (a modeled display never gets the last frame: its
    /// present lies past the end of the trace).
    pub presented: u64,
    /// Frames whose image reached the screen.
    pub shown: u64,
    /// Frames rendered and presented but never shown (replaced in a mailbox, or marked
    /// not displayed in a capture).
    pub dropped_frames: u64,
    /// Refreshes that showed the previous image again (FIFO, mailbox, immediate: on the
    /// refresh grid; VRR: low-framerate compensation). `null` on the `cpu` and `trace`
    /// displays, which have no refresh grid.
    pub repeated_refreshes: Option<u64>,
    /// The repeated refreshes by cause; `null` where `repeated_refreshes` is.
    pub repeated_by_cause: Option<RepeatCauses>,
    /// Frames shown later than the first refresh they could have made (queued behind
    /// earlier images); `null` where `repeated_refreshes` is.
    pub late_frames: Option<u64>,
    /// Shown frames in whole refreshes; `null` where `repeated_refreshes` is.
    pub refresh_histograms: Option<RefreshHistogramsJson>,
    /// How the forecast of each frame's display time did; `null` on the `cpu` display.
    pub display_forecast: Option<ForecastJson>,
    /// Refreshes that showed parts of two images (`immediate` only; otherwise 0).
    pub torn_refreshes: u64,
    /// New images per second on the screen.
    pub shown_fps: f64,
    /// Time the CPU spent blocked in present because the queue was full, seconds.
    pub present_blocked_s: f64,
    /// Largest spring position error, metres.
    pub position_error_max: f64,
    /// Spring energy error at the end over the start energy.
    pub energy_drift: f64,
    /// Simulated time over real time.
    pub sim_speed: f64,
    /// Whether the spring exploded.
    pub exploded: bool,
    /// Whether the loop was still falling behind at the end.
    pub spiral: bool,
    /// 16 hex digits: hash of the state after the last step.
    pub state_hash: String,
    /// What each input policy made of the inputs; `null` without inputs.
    pub input: Option<InputJson>,
}

/// The `input` object of a result: every policy measured on the same frames.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InputJson {
    /// The policy that drove the player (and so the state hash).
    pub policy: String,
    /// One entry per policy: every-step, first-step, buffered, timestamped.
    pub policies: Vec<PolicyJson>,
}

/// One policy's input measurements.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyJson {
    /// The policy's id.
    pub policy: String,
    /// Input events read (presses, releases, turns).
    pub inputs: u64,
    /// Events a step applied.
    pub applied: u64,
    /// Events no step applied.
    pub lost: u64,
    /// Applications beyond the first.
    pub duplicated: u64,
    /// Mean time from an event to the screen showing the whole first step that used it,
    /// ms; `null` when none was measured.
    pub latency_ms: Option<f64>,
    /// The largest such time, ms.
    pub latency_worst_ms: Option<f64>,
    /// Holds whose press and release were both applied.
    pub holds: u64,
    /// Mean `|simulated hold - real hold|` as distance walked, mm.
    pub hold_error_mm: Option<f64>,
    /// The hold error farthest from zero, with its sign (positive: walked too far), mm.
    pub hold_error_worst_mm: Option<f64>,
}

/// The `input` object for one run's measurements; `None` when no input was read.
fn input_json(stats: &InputStats, policy: InputPolicy, speed_mps: f64) -> Option<InputJson> {
    stats.any().then(|| InputJson {
        policy: policy.id().to_owned(),
        policies: InputPolicy::ALL
            .iter()
            .map(|&policy| {
                let p = stats.get(policy);
                PolicyJson {
                    policy: policy.id().to_owned(),
                    inputs: p.inputs,
                    applied: p.applied,
                    lost: p.lost,
                    duplicated: p.duplicated,
                    latency_ms: p.latency_mean_ms(),
                    latency_worst_ms: p.latency_worst_ms(),
                    holds: p.holds,
                    hold_error_mm: p.hold_error_mean_mm(speed_mps),
                    hold_error_worst_mm: p.hold_error_worst_mm(speed_mps),
                }
            })
            .collect(),
    })
}

/// A whole bench run: what went in and what came out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchReport {
    /// Format version of this JSON; bumped on any incompatible change.
    pub version: u32,
    /// The trace.
    pub trace: TraceJson,
    /// The settings.
    pub settings: SettingsJson,
    /// One entry per strategy, in the order run.
    pub results: Vec<ResultJson>,
}

impl BenchReport {
    /// Assembles the report of runs over a trace.
    pub fn new(trace: TraceJson, settings: &BenchSettings, results: &[BenchResult]) -> Self {
        Self {
            version: 1,
            trace,
            settings: SettingsJson::new(settings),
            results: results
                .iter()
                .map(|result| result_json(result, settings))
                .collect(),
        }
    }

    /// The report as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|error| format!("{{\"error\":\"{error}\"}}"))
    }
}

impl ResultJson {
    /// Whether the run stopped before the end of `trace` (a frame owed over 60 s of work).
    pub(crate) fn froze(&self, trace: &TraceJson) -> bool {
        usize::try_from(self.frames).is_ok_and(|frames| frames < trace.frames)
    }
}

impl BenchReport {
    /// The input table under the main one: each strategy under each input policy.
    pub(super) fn input_table(&self, out: &mut String) {
        let inputs: Vec<(&str, &InputJson)> = self
            .results
            .iter()
            .filter_map(|r| Some((r.strategy.id(), r.input.as_ref()?)))
            .collect();
        let Some((_, first)) = inputs.first() else {
            return;
        };
        let _ = writeln!(
            out,
            "\ninputs: {} events; the player moved by {} (--input-policy)",
            first.policies[0].inputs, first.policy
        );
        let header = [
            "strategy",
            "input policy",
            "latency ms",
            "worst",
            "lost",
            "duplicated",
            "hold err mm",
            "worst",
        ];
        let rows: Vec<Vec<String>> = inputs
            .iter()
            .flat_map(|&(strategy, input)| {
                input.policies.iter().map(move |p| {
                    vec![
                        strategy.to_owned(),
                        p.policy.clone(),
                        optional(p.latency_ms, 3),
                        optional(p.latency_worst_ms, 3),
                        p.lost.to_string(),
                        p.duplicated.to_string(),
                        optional(p.hold_error_mm, 2),
                        optional(p.hold_error_worst_mm, 2),
                    ]
                })
            })
            .collect();
        aligned(out, &header, &rows);
        out.push_str(
            "\ninput latency = from an event to the screen showing the whole first step that \
             used it; hold err = how far a held key walked the player off speed x hold; \
             docs/input.md: \"Your hands: input\".\n",
        );
    }
}

/// Writes `rows` under `header` in aligned columns: the first left-aligned, the last as
/// is, the others right-aligned.
pub(super) fn aligned(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.len());
        }
    }
    let last = header.len() - 1;
    let mut line = |cells: &[&str]| {
        let mut text = String::new();
        for (i, (cell, width)) in cells.iter().zip(&widths).enumerate() {
            let width = *width;
            if i == 0 {
                text.push_str(&format!("{cell:<width$}"));
            } else if i == last {
                text.push_str(&format!("  {cell}"));
            } else {
                text.push_str(&format!("  {cell:>width$}"));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(header);
    for row in rows {
        line(&row.iter().map(String::as_str).collect::<Vec<_>>());
    }
}

fn result_json(result: &BenchResult, settings: &BenchSettings) -> ResultJson {
    let timestep = &settings.timestep;
    let player = &settings.scene.player;
    let m = &result.metrics;
    let dt = result.strategy.dt(timestep);
    ResultJson {
        strategy: result.strategy,
        dt_ms: ms_from_ns(dt),
        frames: m.frames,
        steps: m.steps,
        steps_per_frame_mean: m.steps_per_frame_mean,
        steps_per_frame_max: m.steps_per_frame_max,
        frame_time_p99_ms: result.frame_time_p99.map(ms_from_ns),
        frame_time_max_ms: result.frame_time_max.map(ms_from_ns),
        wall_time_s: secs_from_ns(result.wall_time),
        sim_time_s: m.sim_time_s,
        dropped_time_s: secs_from_ns(result.dropped),
        latency_ms: m.latency_ms,
        latency_worst_ms: m.latency_worst_ms,
        judder_ms: m.judder_ms,
        judder_worst_ms: m.judder_worst_ms,
        display_latency_ms: result.metrics.display_latency().map(|(mean, _)| mean),
        display_latency_worst_ms: result.metrics.display_latency().map(|(_, worst)| worst),
        display_judder_ms: result.metrics.display_judder().map(|(rms, _)| rms),
        display_judder_worst_ms: result.metrics.display_judder().map(|(_, worst)| worst),
        presented: result.display.presented,
        shown: result.display.shown,
        dropped_frames: result.display.dropped,
        repeated_refreshes: result.refresh_grid.then_some(result.display.repeated),
        repeated_by_cause: result
            .refresh_grid
            .then_some(result.display.repeated_by_cause),
        late_frames: result.refresh_grid.then_some(result.display.late),
        refresh_histograms: m.refreshes.map(RefreshHistogramsJson::from),
        display_forecast: m.forecast.map(ForecastJson::from),
        torn_refreshes: result.display.torn,
        shown_fps: result.display.shown_fps(),
        present_blocked_s: secs_from_ns(result.display.blocked),
        position_error_max: m.position_error_max,
        energy_drift: m.energy_drift,
        sim_speed: result.sim_speed(),
        exploded: m.exploded,
        spiral: result.spiral,
        state_hash: format!("{:016x}", m.state_hash),
        input: input_json(&result.input, player.policy, player.speed_mps),
    }
}

/// The trace-statistics lines under the trace line: frame-time percentiles, then rates and
/// hitches.
/// The head of a report's table: the trace, its statistics and the settings, a line each.
pub(crate) fn header_lines(out: &mut String, trace: &TraceJson, settings: &SettingsJson) {
    let _ = writeln!(
        out,
        "trace: {}: {} frames, {:.3} s",
        trace.source, trace.frames, trace.wall_time_s
    );
    trace_stats_lines(out, trace.stats.as_ref());
    let guard = |value: Option<String>| value.unwrap_or_else(|| "off".into());
    let _ = writeln!(
        out,
        "dt {} ms ({:.4} Hz) | max frame time {} | max steps {} | step cost {} ms | render cost {} ms | {}",
        trim(settings.dt_ms),
        1000.0 / settings.dt_ms,
        guard(
            settings
                .max_frame_time_ms
                .map(|ms| format!("{} ms", trim(ms)))
        ),
        guard(settings.max_steps.map(|n| n.to_string())),
        trim(settings.step_cost_ms),
        trim(settings.render_cost_ms),
        settings.integrator,
    );
    if settings.jitter_ms > 0.0 || settings.hitch_ms > 0.0 {
        let _ = writeln!(
            out,
            "jitter {} ms | hitch {} ms every {} s",
            trim(settings.jitter_ms),
            trim(settings.hitch_ms),
            trim(settings.hitch_every_s)
        );
    }
    if settings.display != DisplaySpec::Cpu || settings.filter != FilterSpec::None {
        let _ = writeln!(
            out,
            "display {}{} | filter {}",
            settings.display,
            if settings.gpu_cost_ms > 0.0 {
                format!(" | gpu cost {} ms", trim(settings.gpu_cost_ms))
            } else {
                String::new()
            },
            settings.filter
        );
    }
}

fn trace_stats_lines(out: &mut String, stats: Option<&FrameStatsJson>) {
    let Some(stats) = stats else {
        out.push_str("trace frame times: none (no frames)\n");
        return;
    };
    let _ = writeln!(
        out,
        "trace frame times ms: p50 {:.3} | p90 {:.3} | p95 {:.3} | p99 {:.3} | p99.9 {:.3} | \
         max {:.3}",
        stats.frame_time_p50_ms,
        stats.frame_time_p90_ms,
        stats.frame_time_p95_ms,
        stats.frame_time_p99_ms,
        stats.frame_time_p99_9_ms,
        stats.frame_time_max_ms,
    );
    let hitches = match stats.hitch_threshold_ms {
        Some(threshold_ms) => format!(
            "hitches (> {HITCH_FACTOR}x median, {threshold_ms:.3} ms) {}, {} of the time",
            stats.hitches,
            optional(stats.hitch_time_percent, 2) + "%",
        ),
        None => "hitches none (median frame time 0)".to_owned(),
    };
    let _ = writeln!(
        out,
        "trace fps: average {} | 1% low {} | 0.1% low {} | {hitches}",
        optional(stats.average_fps, 2),
        optional(stats.one_percent_low_fps, 2),
        optional(stats.point_one_percent_low_fps, 2),
    );
}

/// An optional number with `decimals` decimals, `-` when absent.
pub(super) fn optional(value: Option<f64>, decimals: usize) -> String {
    value.map_or_else(|| "-".to_owned(), |value| format!("{value:.decimals$}"))
}

/// A float for a table cell: fixed point where readable, scientific for extremes.
pub(super) fn number(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude == 0.0 || (1e-3..1e5).contains(&magnitude) {
        format!("{value:.4}")
    } else {
        format!("{value:.3e}")
    }
}

/// A float without trailing zeros, for settings.
pub(crate) fn trim(value: f64) -> String {
    let text = format!("{value:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

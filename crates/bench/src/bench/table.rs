//! The bench's main table as a list of columns: each a header, the cell it shows for a
//! result, and when it is shown (always, with a display model, where a frame tore). The
//! table is the columns that apply to the run, over the typed results.

use std::fmt::Write as _;

use super::report::{
    BenchReport, ResultJson, TraceJson, aligned, header_lines, number, optional, trim,
};
use crate::display::DisplaySpec;

/// When a column is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shown {
    /// In every table.
    Always,
    /// Where frames go to a display model (not `--display cpu`).
    WithDisplay,
    /// With a display model, where some refresh showed parts of two frames.
    WhereTorn,
}

/// One column of the table.
struct Column {
    /// Its header.
    header: &'static str,
    /// When it is shown.
    shown: Shown,
    /// Its cell for a result of a run over `trace`.
    cell: fn(&ResultJson, &TraceJson) -> String,
}

/// A count, or `-` where the display model has none.
fn count(value: Option<u64>) -> String {
    value.map_or_else(|| "-".to_owned(), |n| n.to_string())
}

/// The flags a result raises: the loop spiralled, the simulation exploded, the run froze.
fn flags(result: &ResultJson, trace: &TraceJson) -> String {
    [
        (result.spiral, "SPIRAL"),
        (result.exploded, "EXPLODED"),
        (result.froze(trace), "FROZE"),
    ]
    .iter()
    .filter(|(raised, _)| *raised)
    .map(|(_, flag)| *flag)
    .collect::<Vec<_>>()
    .join(" ")
}

/// The table's columns, in order.
const COLUMNS: [Column; 22] = [
    Column {
        header: "strategy",
        shown: Shown::Always,
        cell: |r, _| r.strategy.id().to_owned(),
    },
    Column {
        header: "steps/frame",
        shown: Shown::Always,
        cell: |r, _| format!("{:.2}", r.steps_per_frame_mean),
    },
    Column {
        header: "max",
        shown: Shown::Always,
        cell: |r, _| r.steps_per_frame_max.to_string(),
    },
    Column {
        header: "frame p99 ms",
        shown: Shown::Always,
        cell: |r, _| optional(r.frame_time_p99_ms, 3),
    },
    Column {
        header: "latency ms",
        shown: Shown::Always,
        cell: |r, _| format!("{:.3}", r.latency_ms),
    },
    Column {
        header: "worst",
        shown: Shown::Always,
        cell: |r, _| format!("{:.3}", r.latency_worst_ms),
    },
    Column {
        header: "judder ms",
        shown: Shown::Always,
        cell: |r, _| format!("{:.3}", r.judder_ms),
    },
    Column {
        header: "worst",
        shown: Shown::Always,
        cell: |r, _| format!("{:.3}", r.judder_worst_ms),
    },
    Column {
        header: "screen lat ms",
        shown: Shown::WithDisplay,
        cell: |r, _| optional(r.display_latency_ms, 3),
    },
    Column {
        header: "screen judder ms",
        shown: Shown::WithDisplay,
        cell: |r, _| optional(r.display_judder_ms, 3),
    },
    Column {
        header: "shown",
        shown: Shown::WithDisplay,
        cell: |r, _| r.shown.to_string(),
    },
    Column {
        header: "dropped",
        shown: Shown::WithDisplay,
        cell: |r, _| r.dropped_frames.to_string(),
    },
    Column {
        header: "repeats",
        shown: Shown::WithDisplay,
        cell: |r, _| count(r.repeated_refreshes),
    },
    Column {
        header: "cpu/gpu/queue/vrr",
        shown: Shown::WithDisplay,
        cell: |r, _| {
            r.repeated_by_cause.map_or_else(
                || "-".to_owned(),
                |c| {
                    format!(
                        "{}/{}/{}/{}",
                        c.cpu_late, c.gpu_late, c.queue_full, c.display
                    )
                },
            )
        },
    },
    Column {
        header: "late",
        shown: Shown::WithDisplay,
        cell: |r, _| count(r.late_frames),
    },
    Column {
        header: "torn",
        shown: Shown::WhereTorn,
        cell: |r, _| r.torn_refreshes.to_string(),
    },
    Column {
        header: "shown fps",
        shown: Shown::WithDisplay,
        cell: |r, _| format!("{:.1}", r.shown_fps),
    },
    Column {
        header: "pos err m",
        shown: Shown::Always,
        cell: |r, _| number(r.position_error_max),
    },
    Column {
        header: "energy drift",
        shown: Shown::Always,
        cell: |r, _| number(r.energy_drift),
    },
    Column {
        header: "sim speed",
        shown: Shown::Always,
        cell: |r, _| format!("{:.3}", r.sim_speed),
    },
    Column {
        header: "dropped s",
        shown: Shown::Always,
        cell: |r, _| format!("{:.3}", r.dropped_time_s),
    },
    Column {
        header: "flags",
        shown: Shown::Always,
        cell: flags,
    },
];

impl BenchReport {
    /// The report as an aligned table with a short header and footnotes: the columns
    /// listed here, those shown that apply to this run.
    pub fn table(&self) -> String {
        let (trace, settings) = (&self.trace, &self.settings);
        let mut out = String::new();
        header_lines(&mut out, trace, settings);
        out.push('\n');
        let (header, rows) = main_table(self);
        aligned(&mut out, &header, &rows);
        out.push_str(
            "\nframe p99 = 99th-percentile frame time the loop ran (load included), latency \
             = mean T - S (picture behind real time), judder = RMS unevenness of the drawn \
             motion (0 = smooth), worst = the worst frame's, pos err = worst spring error, \
             sim speed = simulated / real time; docs/bench.md: \"Reading the table\".\n",
        );
        if settings.display != DisplaySpec::Cpu {
            out.push_str(
                "\nscreen lat/judder: display latency (D - S) and RMS animation error \
                 (PresentMon's MsAnimationError) over frames shown",
            );
            out.push_str(if settings.display == DisplaySpec::Trace {
                "; display times from the capture.\n"
            } else {
                "; the last frame is never presented (its present lies past the trace's \
                 end). Each repeated refresh is blamed on one cause: the CPU frame was late, \
                 the GPU was, the queue was full (the frame started late waiting for a free \
                 image), or VRR repeated it; late = frames shown after the first refresh \
                 they could have made.\n"
            });
        }
        self.input_table(&mut out);
        let presets: Vec<String> = self
            .results
            .iter()
            .filter_map(|r| {
                let preset = r.strategy.preset()?;
                Some(format!("{} {} ms", preset.id(), trim(r.dt_ms)))
            })
            .collect();
        if !presets.is_empty() {
            let _ = writeln!(
                out,
                "\nengine presets run their engine's own step and guards, not the dt, max frame \
                 time and max steps above: {}; docs/engines.md: \"Engine presets\".",
                presets.join(", ")
            );
        }
        if self.results.iter().any(|r| r.froze(trace)) {
            out.push_str(
                "\nFROZE: the run stopped early: one frame owed more than 60 s of step work. \
                 Its numbers cover only the frames before that: a game in this state shows \
                 one frame a minute, whatever its latency and sim speed read.\n",
            );
        }
        out
    }
}

/// The main table of `report`: the header and a row per result, of the columns shown.
pub(super) fn main_table(report: &BenchReport) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let display = report.settings.display != DisplaySpec::Cpu;
    let torn = display && report.results.iter().any(|r| r.torn_refreshes > 0);
    let columns: Vec<&Column> = COLUMNS
        .iter()
        .filter(|column| match column.shown {
            Shown::Always => true,
            Shown::WithDisplay => display,
            Shown::WhereTorn => torn,
        })
        .collect();
    let header = columns.iter().map(|column| column.header).collect();
    let rows = report
        .results
        .iter()
        .map(|result| {
            columns
                .iter()
                .map(|column| (column.cell)(result, &report.trace))
                .collect()
        })
        .collect();
    (header, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{BenchSettings, run};
    use crate::timestep::Strategy;

    /// The report of two strategies over half a second of 60 Hz frames on `display`.
    fn report_on(display: &str) -> BenchReport {
        let frames = vec![16_666_667; 30];
        let settings = BenchSettings {
            display: DisplaySpec::parse(display).expect("a display"),
            ..BenchSettings::default()
        };
        let strategies = [Strategy::Accumulator, Strategy::Interpolated];
        let results = run(frames.as_slice(), None, &strategies, &settings);
        let trace = TraceJson {
            source: "steady:60".into(),
            frames: frames.len(),
            wall_time_s: 0.5,
            stats: None,
        };
        BenchReport::new(trace, &settings, &results)
    }

    fn headers(shown: &[Shown]) -> Vec<&'static str> {
        COLUMNS
            .iter()
            .filter(|column| shown.contains(&column.shown))
            .map(|column| column.header)
            .collect()
    }

    #[test]
    fn the_columns_shown_are_the_ones_that_apply_to_the_run() {
        let (header, rows) = main_table(&report_on("cpu"));
        assert_eq!(header, headers(&[Shown::Always]));
        assert!(!header.contains(&"screen lat ms"));
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|row| row.len() == header.len()));
        assert_eq!(rows[1][0], "interpolated");

        let (header, rows) = main_table(&report_on("fifo:60"));
        assert_eq!(header, headers(&[Shown::Always, Shown::WithDisplay]));
        assert!(rows.iter().all(|row| row.len() == header.len()));

        // Immediate presents tear where a frame arrives mid-refresh: the torn column comes.
        let mut torn = report_on("immediate:60");
        torn.results[0].torn_refreshes = 3;
        let (header, rows) = main_table(&torn);
        assert_eq!(
            header,
            headers(&[Shown::Always, Shown::WithDisplay, Shown::WhereTorn])
        );
        let at = header
            .iter()
            .position(|&h| h == "torn")
            .expect("a torn column");
        assert_eq!(rows[0][at], "3");
        assert_eq!(header.last(), Some(&"flags"));
    }

    #[test]
    fn flags_name_what_went_wrong_in_order() {
        let mut report = report_on("cpu");
        let result = &mut report.results[0];
        assert_eq!(flags(result, &report.trace), "");
        result.spiral = true;
        result.exploded = true;
        result.frames = 10;
        assert_eq!(flags(result, &report.trace), "SPIRAL EXPLODED FROZE");
    }
}

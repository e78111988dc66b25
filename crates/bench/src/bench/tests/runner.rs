//! The `bench` command's runner: the report of each strategy asked for, in order; a
//! recorded session replayed only as recorded; and errors that say whether the run failed
//! while running or was asked for something it cannot do.

use std::path::{Path, PathBuf};

use super::*;
use crate::trace::LoadOptions;

/// Two strategies over a generated trace, reported as a table, no files.
fn generated(spec: &str, duration_s: f64) -> BenchRequest {
    BenchRequest {
        strategies: vec![Strategy::Fixed, Strategy::Accumulator],
        settings: BenchSettings::default(),
        trace: TraceChoice::Generated {
            spec: spec.to_owned(),
            duration_s,
        },
        format: ReportFormat::Table,
        csv: None,
        plot: None,
    }
}

/// The same request over a trace file.
fn over_file(path: &Path) -> BenchRequest {
    BenchRequest {
        trace: TraceChoice::File {
            path: path.to_owned(),
            options: LoadOptions::default(),
            as_trace: false,
        },
        ..generated("steady:60", 1.0)
    }
}

/// A shipped trace (`assets/traces/`).
fn asset(name: &str) -> PathBuf {
    [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "assets",
        "traces",
        name,
    ]
    .iter()
    .collect()
}

/// Runs `request`, waiting on nothing; returns the outcome and the notes.
fn run_request(request: &BenchRequest) -> (Result<String, BenchError>, Vec<String>) {
    let mut notes = Vec::new();
    let outcome = request.run(&mut notes, |_| {});
    (outcome, notes)
}

/// A file of its own in the system's temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("timestep-lab-runner-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).expect("the temporary directory is writable");
        Self(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_request_reports_each_strategy_in_order_as_table_or_json() {
    let mut request = generated("steady:60", 2.0);
    let (table, notes) = run_request(&request);
    let table = table.expect("runs");
    assert!(notes.is_empty(), "{notes:?}");
    request.format = ReportFormat::Json;
    let json = run_request(&request).0.expect("runs");
    assert!(json.ends_with("}\n"), "one JSON object and a line break");
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(report["trace"]["frames"], 120);
    let rows = report["results"].as_array().expect("a result per strategy");
    let ids: Vec<_> = rows.iter().map(|row| row["strategy"].clone()).collect();
    assert_eq!(ids, ["fixed", "accumulator"]);
    // The same rows, printed as the table.
    for strategy in &request.strategies {
        assert!(table.contains(strategy.id()), "{table}");
    }
}

#[test]
fn errors_say_whether_the_run_failed_while_running() {
    let missing = Path::new("/nonexistent-timestep-lab-dir/frames.csv");
    let request = BenchRequest {
        csv: Some(missing.to_owned()),
        ..generated("steady:60", 1.0)
    };
    let error = run_request(&request).0.expect_err("no such directory");
    assert!(matches!(error, BenchError::Write(_)), "{error:?}");
    assert!(error.failed_while_running());
    assert!(
        error
            .to_string()
            .starts_with("--csv /nonexistent-timestep-lab-dir/frames.csv: "),
        "{error}"
    );

    let error = run_request(&generated("steady:60", 0.0))
        .0
        .expect_err("no length");
    assert!(!error.failed_while_running());
    assert_eq!(
        error.to_string(),
        format!(
            "--duration 0 s is out of range (allowed more than 0 up to {} s)",
            crate::trace::MAX_DURATION_S
        )
    );

    let error = run_request(&generated("wobble:60", 1.0))
        .0
        .expect_err("no such generator");
    assert!(matches!(error, BenchError::Generate(_)), "{error:?}");
    assert_eq!(error.to_string(), "--generate");
    assert!(std::error::Error::source(&error).is_some(), "says why");
    assert!(!error.failed_while_running());

    let mut request = generated("steady:60", 1.0);
    request.settings.display = DisplaySpec::Trace;
    let error = run_request(&request).0.expect_err("no display times");
    assert!(
        matches!(error, BenchError::NoDisplayTimes { .. }),
        "{error:?}"
    );
    assert!(!error.failed_while_running());
}

#[test]
fn a_report_file_that_is_the_trace_is_refused_and_the_trace_kept() {
    let trace = TempFile::new("trace.txt", "16.7\n16.7\n16.7\n");
    let request = BenchRequest {
        csv: Some(trace.0.clone()),
        ..over_file(&trace.0)
    };
    let error = run_request(&request).0.expect_err("the trace itself");
    assert_eq!(
        error.to_string(),
        format!(
            "--csv {} is the trace being read; name another file",
            trace.0.display()
        )
    );
    assert!(!error.failed_while_running());
    assert_eq!(
        std::fs::read_to_string(&trace.0).expect("still there"),
        "16.7\n16.7\n16.7\n"
    );
}

/// A hard link is the trace under another name: no comparison of names sees it, and a run
/// once wrote its CSV over the trace through one. The same for `--plot`, and for the plot's
/// font, an input too.
#[test]
fn a_report_file_that_is_the_trace_or_the_font_under_another_name_is_refused() {
    let trace = TempFile::new("linked-trace.txt", "16.7\n16.7\n16.7\n");
    let link = TempFile(trace.0.with_file_name(format!(
        "timestep-lab-runner-{}-hard-link.png",
        std::process::id()
    )));
    let _ = std::fs::remove_file(&link.0);
    std::fs::hard_link(&trace.0, &link.0).expect("a hard link");
    let plot = |font: Option<PathBuf>| PlotRequest {
        path: link.0.clone(),
        size: (800, 600),
        font,
    };
    for (request, option) in [
        (
            BenchRequest {
                csv: Some(link.0.clone()),
                ..over_file(&trace.0)
            },
            "--csv",
        ),
        (
            BenchRequest {
                plot: Some(plot(None)),
                ..over_file(&trace.0)
            },
            "--plot",
        ),
    ] {
        let error = run_request(&request).0.expect_err("the trace itself");
        assert_eq!(
            error.to_string(),
            format!(
                "{option} {} is the trace being read; name another file",
                link.0.display()
            )
        );
        assert!(!error.failed_while_running());
    }
    let font = TempFile::new("font.ttf", "not read: refused first");
    let font_link = TempFile(font.0.with_extension("png"));
    let _ = std::fs::remove_file(&font_link.0);
    std::fs::hard_link(&font.0, &font_link.0).expect("a hard link");
    let request = BenchRequest {
        plot: Some(PlotRequest {
            path: font_link.0.clone(),
            ..plot(Some(font.0.clone()))
        }),
        ..generated("steady:60", 1.0)
    };
    let error = run_request(&request).0.expect_err("the font itself");
    assert!(
        error
            .to_string()
            .contains("is the plot's font (TIMESTEP_LAB_FONT)"),
        "{error}"
    );
    assert_eq!(
        std::fs::read_to_string(&trace.0).expect("still there"),
        "16.7\n16.7\n16.7\n"
    );
    assert_eq!(
        std::fs::read_to_string(&font.0).expect("still there"),
        "not read: refused first"
    );
}

#[test]
fn a_recorded_session_replays_only_as_recorded() {
    let session = asset("lab-session.csv");
    let (report, notes) = run_request(&over_file(&session));
    report.expect("replays");
    assert!(
        notes.iter().any(|note| note.contains("a recorded session")),
        "{notes:?}"
    );

    let with_csv = BenchRequest {
        csv: Some(std::env::temp_dir().join("never-written.csv")),
        ..over_file(&session)
    };
    let error = run_request(&with_csv).0.expect_err("no CSV of a replay");
    assert!(
        matches!(
            error,
            BenchError::RecordingOption {
                option: "--csv",
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .ends_with("add --as-trace to run its frame times through the bench's model instead")
    );

    let mut modeled = over_file(&session);
    modeled.settings.load.step_cost_ms = 1.0;
    let error = run_request(&modeled).0.expect_err("its own settings");
    assert!(
        matches!(error, BenchError::RecordingModelOptions { .. }),
        "{error:?}"
    );

    // As a trace, its frame times run through the model like any trace's.
    modeled.trace = TraceChoice::File {
        path: session,
        options: LoadOptions::default(),
        as_trace: true,
    };
    let (report, notes) = run_request(&modeled);
    report.expect("runs as a trace");
    assert!(
        !notes.iter().any(|note| note.contains("a recorded session")),
        "{notes:?}"
    );
}

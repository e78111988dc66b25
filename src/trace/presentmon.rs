//! PresentMon CSV: one row per present of every traced process, `MsBetweenPresents` being the
//! time since that swap chain's previous present.

use std::collections::HashMap;

use super::csv::{check_width, column, frame_time_ns, records, split_fields};
use super::{FrameTrace, LoadOptions, TraceError};

/// The frame-time column.
pub(super) const PRESENTS_COLUMN: &str = "MsBetweenPresents";
/// The process column: `Application` in PresentMon's own output, `ProcessName` in some other
/// versions and tools that write its layout.
const APPLICATION_COLUMNS: [&str; 2] = ["Application", "ProcessName"];
/// Optional column used to warn about interleaved swap chains.
const SWAP_CHAIN_COLUMN: &str = "SwapChainAddress";

/// One data row, kept until the application is chosen.
struct Row {
    /// Line number in the file (1-based), for messages.
    line: usize,
    /// The application (process name) that presented.
    application: String,
    /// The `MsBetweenPresents` field, unparsed.
    value: String,
    /// The swap chain address, when the file has that column.
    swap_chain: Option<String>,
}

/// Parses a PresentMon CSV whose header is the first non-comment line.
pub(super) fn parse(
    text: &str,
    origin: &str,
    options: &LoadOptions,
) -> Result<FrameTrace, TraceError> {
    let mut lines = records(text);
    let Some((header_line, header_text)) = lines.next() else {
        return Err(TraceError::Empty {
            origin: origin.to_owned(),
        });
    };
    let header = split_fields(header_text);
    let missing = |expected| TraceError::MissingColumn {
        origin: origin.to_owned(),
        line: header_line,
        format: "PresentMon",
        expected,
    };
    let application_column = column(&header, &APPLICATION_COLUMNS)
        .ok_or_else(|| missing("\"Application\" or \"ProcessName\""))?;
    let value_column =
        column(&header, &[PRESENTS_COLUMN]).ok_or_else(|| missing("\"MsBetweenPresents\""))?;
    let swap_chain_column = column(&header, &[SWAP_CHAIN_COLUMN]);

    let mut rows = Vec::new();
    let mut warnings = Vec::new();
    // Row counts per application, in order of first appearance so ties resolve the same way
    // every time.
    let mut applications: Vec<(String, usize)> = Vec::new();
    let mut application_index: HashMap<String, usize> = HashMap::new();
    for (line, text) in lines {
        // PresentMon 1.x appends "warning: N events were lost ..." lines when it falls behind.
        if text
            .get(..8)
            .is_some_and(|start| start.eq_ignore_ascii_case("warning:"))
        {
            warnings.push(format!("{origin}:{line}: PresentMon says: {text}"));
            continue;
        }
        let mut fields = split_fields(text);
        check_width(&fields, &header, origin, line, header_line)?;
        let application = std::mem::take(&mut fields[application_column]);
        let index = *application_index
            .entry(application.clone())
            .or_insert_with(|| {
                applications.push((application.clone(), 0));
                applications.len() - 1
            });
        applications[index].1 += 1;
        rows.push(Row {
            line,
            application,
            value: std::mem::take(&mut fields[value_column]),
            swap_chain: swap_chain_column.map(|column| std::mem::take(&mut fields[column])),
        });
    }

    let mut notes = warnings;
    let chosen = match &options.process {
        Some(requested) => find_application(&applications, requested).ok_or_else(|| {
            TraceError::UnknownProcess {
                origin: origin.to_owned(),
                requested: requested.clone(),
                available: if applications.is_empty() {
                    "none".to_owned()
                } else {
                    list(&applications, None)
                },
            }
        })?,
        None => {
            let Some(most) = most_rows(&applications) else {
                return Err(TraceError::Empty {
                    origin: origin.to_owned(),
                });
            };
            let (name, count) = &applications[most];
            notes.push(if applications.len() == 1 {
                format!(
                    "{origin}: using PresentMon rows of \"{name}\" ({count} rows), the only \
                     application in the file"
                )
            } else {
                format!(
                    "{origin}: using PresentMon rows of \"{name}\" ({count} rows), the \
                     application with the most rows; also present: {}; choose another with \
                     --process NAME",
                    list(&applications, Some(most))
                )
            });
            most
        }
    };
    let chosen_name = &applications[chosen].0;

    let mut frame_times_ns = Vec::new();
    let mut skipped = 0_usize;
    let mut swap_chains: Vec<&str> = Vec::new();
    for row in rows.iter().filter(|row| &row.application == chosen_name) {
        if let Some(chain) = row.swap_chain.as_deref()
            && !swap_chains.contains(&chain)
        {
            swap_chains.push(chain);
        }
        // PresentMon writes NA where there is no previous present to measure from.
        if row.value.is_empty() || row.value.eq_ignore_ascii_case("NA") {
            skipped += 1;
            continue;
        }
        frame_times_ns.push(frame_time_ns(&row.value, origin, row.line)?);
    }
    if skipped > 0 {
        notes.push(format!(
            "{origin}: skipped {skipped} row{} of \"{chosen_name}\" with no MsBetweenPresents \
             value (NA or empty)",
            if skipped == 1 { "" } else { "s" }
        ));
    }
    if swap_chains.len() > 1 {
        notes.push(format!(
            "{origin}: \"{chosen_name}\" presented to {} swap chains; MsBetweenPresents is \
             measured per swap chain, so their frame times are interleaved in this trace",
            swap_chains.len()
        ));
    }
    Ok(FrameTrace {
        source: origin.to_owned(),
        frame_times_ns,
        notes,
    })
}

/// The application named `requested`, ignoring ASCII case; `game` also finds `Game.exe`.
fn find_application(applications: &[(String, usize)], requested: &str) -> Option<usize> {
    let requested = requested.trim();
    let with_exe = format!("{requested}.exe");
    applications
        .iter()
        .position(|(name, _)| name.eq_ignore_ascii_case(requested))
        .or_else(|| {
            applications
                .iter()
                .position(|(name, _)| name.eq_ignore_ascii_case(&with_exe))
        })
}

/// The application with the most rows; the first one seen wins a tie.
fn most_rows(applications: &[(String, usize)]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (index, (_, count)) in applications.iter().enumerate() {
        if best.is_none_or(|best| *count > applications[best].1) {
            best = Some(index);
        }
    }
    best
}

/// `a.exe (12 rows), b.exe (1 row)`, most rows first, leaving out `except`.
fn list(applications: &[(String, usize)], except: Option<usize>) -> String {
    let mut others: Vec<&(String, usize)> = applications
        .iter()
        .enumerate()
        .filter(|(index, _)| Some(*index) != except)
        .map(|(_, application)| application)
        .collect();
    // Stable sort: equal counts keep file order.
    others.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    others
        .iter()
        .map(|(name, count)| format!("{name} ({count} row{})", if *count == 1 { "" } else { "s" }))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use crate::trace::{LoadOptions, TraceError, parse};

    const HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,\
                          PresentFlags,Dropped,TimeInSeconds,MsBetweenPresents,MsInPresentAPI";

    /// Two processes: Game.exe with 4 rows (the first NA), dwm.exe with 2.
    fn two_processes() -> String {
        [
            HEADER,
            "Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,0.016667,NA,0.210",
            "dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,0.016900,16.700,0.050",
            "Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,0.033334,16.667,0.198",
            "Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,0.066667,33.333,0.201",
            "dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,0.033600,16.633,0.051",
            "Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,0.083334,16.667,0.195",
        ]
        .join("\r\n")
    }

    fn options(process: Option<&str>) -> LoadOptions {
        LoadOptions {
            process: process.map(str::to_owned),
        }
    }

    #[test]
    fn application_with_most_rows_is_chosen_and_said_in_a_note() {
        let trace = parse(&two_processes(), "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, [16_667_000, 33_333_000, 16_667_000]);
        assert_eq!(
            trace.notes,
            [
                "pm.csv: using PresentMon rows of \"Game.exe\" (4 rows), the application with the most rows; \
                 also present: dwm.exe (2 rows); choose another with --process NAME",
                "pm.csv: skipped 1 row of \"Game.exe\" with no MsBetweenPresents value (NA or empty)",
            ]
        );
    }

    #[test]
    fn process_option_picks_an_application_ignoring_case() {
        let trace = parse(&two_processes(), "pm.csv", &options(Some("DWM.EXE"))).unwrap();
        assert_eq!(trace.frame_times_ns, [16_700_000, 16_633_000]);
        assert!(trace.notes.is_empty());
        let trace = parse(&two_processes(), "pm.csv", &options(Some("game"))).unwrap();
        assert_eq!(trace.len(), 3);
    }

    #[test]
    fn unknown_process_lists_the_applications_present() {
        let err = parse(&two_processes(), "pm.csv", &options(Some("notepad.exe"))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv: no PresentMon rows for application \"notepad.exe\"; \
             applications present: Game.exe (4 rows), dwm.exe (2 rows)"
        );
    }

    #[test]
    fn process_name_column_and_lowercase_ms_header_are_accepted() {
        let text =
            "ProcessName,msBetweenPresents\n\"Game, Deluxe.exe\",8.5\n\"Game, Deluxe.exe\",\n";
        let trace = parse(text, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, [8_500_000]);
        assert_eq!(
            trace.notes,
            [
                "pm.csv: using PresentMon rows of \"Game, Deluxe.exe\" (2 rows), the only application in the file",
                "pm.csv: skipped 1 row of \"Game, Deluxe.exe\" with no MsBetweenPresents value (NA or empty)",
            ]
        );
    }

    #[test]
    fn tie_goes_to_the_application_seen_first() {
        let text = "Application,MsBetweenPresents\nb.exe,1\na.exe,2\na.exe,3\nb.exe,4\n";
        let trace = parse(text, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, [1_000_000, 4_000_000]);
    }

    #[test]
    fn header_without_application_column_is_an_error() {
        let err = parse("MsBetweenPresents\n16.6\n", "pm.csv", &options(None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv:1: PresentMon header has no \"Application\" or \"ProcessName\" column"
        );
    }

    #[test]
    fn bad_value_of_the_chosen_application_names_line_and_value() {
        let text = "Application,MsBetweenPresents\ngame.exe,16.6\ngame.exe,fast\n";
        let err = parse(text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv:3: frame time \"fast\" is not a number"
        );
    }

    #[test]
    fn short_row_is_an_error_with_its_line() {
        let text = format!("{HEADER}\nGame.exe,4242,0x1,DXGI,1,0,0,0.016667\n");
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert!(matches!(
            err,
            TraceError::ColumnCount {
                line: 2,
                found: 8,
                expected: 10,
                header_line: 1,
                ..
            }
        ));
    }

    #[test]
    fn lost_event_warnings_become_notes() {
        let text = "Application,MsBetweenPresents\ngame.exe,16.6\nwarning: 3 events were lost; collected data may be unreliable.\n";
        let trace = parse(text, "pm.csv", &options(Some("game.exe"))).unwrap();
        assert_eq!(trace.frame_times_ns, [16_600_000]);
        assert_eq!(
            trace.notes,
            [
                "pm.csv:3: PresentMon says: warning: 3 events were lost; collected data may be unreliable."
            ]
        );
    }

    #[test]
    fn several_swap_chains_are_noted() {
        let text = "Application,SwapChainAddress,MsBetweenPresents\ng.exe,0x1,16\ng.exe,0x2,16\n";
        let trace = parse(text, "pm.csv", &options(Some("g.exe"))).unwrap();
        assert_eq!(trace.notes.len(), 1);
        assert!(trace.notes[0].starts_with("pm.csv: \"g.exe\" presented to 2 swap chains"));
    }

    #[test]
    fn only_na_rows_is_an_empty_trace() {
        let text = "Application,MsBetweenPresents\ngame.exe,NA\n";
        let err = parse(text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(err.to_string(), "pm.csv: the trace has no frame times");
    }
}

//! PresentMon CSV: one row per present of every traced process and swap chain.
//!
//! PresentMon measures everything per swap chain, so one application and then one of its swap
//! chains are chosen before any value is read. What a frame time is depends on the PresentMon
//! generation:
//!
//! - **2.x** (the header has `MsBetweenAppStart`): the interval between the CPU starts of two
//!   frames. `MsBetweenAppStart` on a row is the time from that frame's CPU start to the next
//!   frame's, so a frame's own time is the value on the swap chain's previous row, and the
//!   first row has none. The display delay counts from the CPU start: `DisplayLatency`, else
//!   `MsCPUBusy + MsUntilDisplayed`.
//! - **1.x**, or 2.x without `MsBetweenAppStart`: `MsBetweenPresents`, the interval between two
//!   `Present()` calls; the display delay is `MsUntilDisplayed`, from the `Present()` call.
//!
//! A frame was never shown when its display columns are `NA` or empty, or its `Dropped` is `1`
//! (1.x writes `MsUntilDisplayed` 0 for dropped frames, so `Dropped` wins).

use std::collections::HashMap;

use super::csv::{check_width, column, frame_time_ns, ns_from_ms, records, split_fields};
use super::error::quoted;
use super::{FrameTrace, LoadOptions, MAX_FRAME_TIME_MS, TraceError};

/// The frame-time column of PresentMon 1.x (and the column the format is recognised by).
pub(super) const PRESENTS_COLUMN: &str = "MsBetweenPresents";
/// PresentMon 2.x's frame-time column: from this frame's CPU start to the next frame's.
const APP_START_COLUMN: &str = "MsBetweenAppStart";
/// PresentMon 2.x: from the frame's CPU start to its `Present()` call.
const CPU_BUSY_COLUMN: &str = "MsCPUBusy";
/// From the `Present()` call to the display (1.x writes `msUntilDisplayed`).
const UNTIL_DISPLAYED_COLUMN: &str = "MsUntilDisplayed";
/// PresentMon 2.x: from the frame's CPU start to the display.
const DISPLAY_LATENCY_COLUMN: &str = "DisplayLatency";
/// PresentMon 1.x: `1` for a frame that was never shown.
const DROPPED_COLUMN: &str = "Dropped";
/// The process column: `Application` in PresentMon's own output, `ProcessName` in some other
/// versions and tools that write its layout.
const APPLICATION_COLUMNS: [&str; 2] = ["Application", "ProcessName"];
/// The swap chain column; only one swap chain's rows are used.
const SWAP_CHAIN_COLUMN: &str = "SwapChainAddress";

/// The event whose intervals the frame times measure, and from which display delays count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reference {
    /// The CPU starting work on a frame (PresentMon 2.x's `MsBetweenAppStart`).
    CpuStart,
    /// The `Present()` call (`MsBetweenPresents`).
    Present,
}

/// Which columns of a PresentMon file the frame times and display delays come from.
#[derive(Debug)]
struct Layout {
    /// What the frame times measure.
    reference: Reference,
    /// The frame-time column: `MsBetweenAppStart` or `MsBetweenPresents`.
    frame_column: usize,
    /// The columns whose sum is a frame's display delay; empty when the file has none.
    display_columns: Vec<usize>,
    /// Those columns' names for the note, e.g. `MsCPUBusy + MsUntilDisplayed`.
    display_names: &'static str,
    /// The `Dropped` column, when the file has one.
    dropped_column: Option<usize>,
    /// A column the file has that was not used, for the note.
    unused: Option<Unused>,
}

/// A PresentMon 2.x column that a file has but whose reference event its other columns cannot
/// match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unused {
    /// `MsBetweenAppStart` with `MsUntilDisplayed` but no `MsCPUBusy` (nor `DisplayLatency`):
    /// display delays only count from the `Present()` call, so frame times must too.
    AppStart,
    /// `DisplayLatency` without `MsBetweenAppStart` (nor `MsUntilDisplayed`): it counts from
    /// the CPU start, which the frame times cannot.
    DisplayLatency,
}

impl Layout {
    /// Decides from the header; `missing` words the error for a column that must be there.
    fn new(
        header: &[String],
        missing: impl Fn(&'static str) -> TraceError,
    ) -> Result<Layout, TraceError> {
        let app_start = column(header, &[APP_START_COLUMN]);
        let busy = column(header, &[CPU_BUSY_COLUMN]);
        let until = column(header, &[UNTIL_DISPLAYED_COLUMN]);
        let latency = column(header, &[DISPLAY_LATENCY_COLUMN]);
        let dropped_column = column(header, &[DROPPED_COLUMN]);
        if let Some(frame_column) = app_start {
            let display = match (latency, busy, until) {
                (Some(latency), _, _) => Some((vec![latency], "DisplayLatency")),
                (None, Some(busy), Some(until)) => {
                    Some((vec![busy, until], "MsCPUBusy + MsUntilDisplayed"))
                }
                (None, _, None) => Some((Vec::new(), "")),
                // MsUntilDisplayed without MsCPUBusy counts from the Present() call, so the
                // frame times have to as well.
                (None, None, Some(_)) => None,
            };
            if let Some((display_columns, display_names)) = display {
                return Ok(Layout {
                    reference: Reference::CpuStart,
                    frame_column,
                    display_columns,
                    display_names,
                    dropped_column,
                    unused: None,
                });
            }
        }
        let frame_column =
            column(header, &[PRESENTS_COLUMN]).ok_or_else(|| missing("\"MsBetweenPresents\""))?;
        let unused = if app_start.is_some() {
            Some(Unused::AppStart)
        } else if latency.is_some() && until.is_none() {
            Some(Unused::DisplayLatency)
        } else {
            None
        };
        Ok(Layout {
            reference: Reference::Present,
            frame_column,
            display_columns: until.into_iter().collect(),
            display_names: UNTIL_DISPLAYED_COLUMN,
            dropped_column,
            unused,
        })
    }

    /// The note on which columns were used, or `None` when the file is read as PresentMon 1.x
    /// files without display columns always were (nothing new to say).
    fn note(&self, origin: &str, display: Option<&[Option<u64>]>) -> Option<String> {
        let frames_from = match self.reference {
            Reference::CpuStart => "frame times from MsBetweenAppStart (CPU start to CPU start)",
            Reference::Present => "frame times from MsBetweenPresents (Present() to Present())",
        };
        let unused = match self.unused {
            Some(Unused::AppStart) => {
                ", not MsBetweenAppStart, because the file has no MsCPUBusy column to measure \
                 display times from the CPU start"
            }
            Some(Unused::DisplayLatency) | None => "",
        };
        let display = match display {
            Some(display) => {
                let never = display.iter().filter(|delay| delay.is_none()).count();
                format!(
                    ", display times from {}; {never} of {} frame{} never shown",
                    self.display_names,
                    display.len(),
                    if display.len() == 1 { "" } else { "s" }
                )
            }
            None if self.unused == Some(Unused::DisplayLatency) => {
                "; no display times: DisplayLatency counts from the CPU start, and the file has \
                 no MsBetweenAppStart column for frame times that do"
                    .to_owned()
            }
            None if self.reference == Reference::Present => return None,
            None => "; no display times (no MsUntilDisplayed or DisplayLatency column)".to_owned(),
        };
        Some(format!("{origin}: {frames_from}{unused}{display}"))
    }
}

/// One data row, kept until the application and swap chain are chosen.
struct Row {
    /// Line number in the file (1-based), for messages.
    line: usize,
    /// The application (process name) that presented.
    application: String,
    /// The swap chain address, when the file has that column.
    swap_chain: Option<String>,
    /// The frame-time field (`MsBetweenAppStart` or `MsBetweenPresents`), unparsed.
    frame: String,
    /// The display-delay fields, unparsed, in the order of [`Layout::display_columns`].
    display: Vec<String>,
    /// Whether the `Dropped` column says `1`.
    dropped: bool,
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
    let layout = Layout::new(&header, missing)?;
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
            swap_chain: swap_chain_column.map(|column| std::mem::take(&mut fields[column])),
            frame: std::mem::take(&mut fields[layout.frame_column]),
            display: layout
                .display_columns
                .iter()
                .map(|&column| std::mem::take(&mut fields[column]))
                .collect(),
            dropped: layout
                .dropped_column
                .is_some_and(|column| fields[column] == "1"),
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
    let of_application: Vec<&Row> = rows
        .iter()
        .filter(|row| &row.application == chosen_name)
        .collect();
    let swap_chain = choose_swap_chain(
        &of_application,
        options.swap_chain.as_deref(),
        chosen_name,
        origin,
        &mut notes,
    )?;
    let selected: Vec<&Row> = of_application
        .into_iter()
        .filter(|row| row.swap_chain.as_deref() == swap_chain)
        .collect();

    let mut frame_times_ns = Vec::new();
    let mut display_ns = Vec::new();
    let mut skipped = 0_usize;
    for (index, row) in selected.iter().enumerate() {
        // The row whose frame-time field measures this row's frame: itself for
        // MsBetweenPresents, the previous one for MsBetweenAppStart.
        let measured_on = match layout.reference {
            Reference::Present => Some(*row),
            Reference::CpuStart => index.checked_sub(1).map(|previous| selected[previous]),
        };
        // PresentMon writes NA where there is nothing to measure from.
        let Some(measured_on) = measured_on.filter(|source| !is_missing(&source.frame)) else {
            skipped += 1;
            continue;
        };
        frame_times_ns.push(frame_time_ns(&measured_on.frame, origin, measured_on.line)?);
        if !layout.display_columns.is_empty() {
            display_ns.push(display_delay_ns(row, origin)?);
        }
    }
    if skipped > 0 {
        let plural = if skipped == 1 { "" } else { "s" };
        notes.push(match layout.reference {
            Reference::Present => format!(
                "{origin}: skipped {skipped} row{plural} of \"{chosen_name}\" with no \
                 MsBetweenPresents value (NA or empty)"
            ),
            Reference::CpuStart => format!(
                "{origin}: skipped {skipped} row{plural} of \"{chosen_name}\" with no frame time: \
                 the swap chain's first row, or one whose previous row has no MsBetweenAppStart \
                 value (NA or empty)"
            ),
        });
    }
    let display_ns = (!layout.display_columns.is_empty()).then_some(display_ns);
    notes.extend(layout.note(origin, display_ns.as_deref()));
    Ok(FrameTrace {
        source: origin.to_owned(),
        frame_times_ns,
        display_ns,
        notes,
    })
}

/// Whether PresentMon left a field without a value (`NA`, or empty).
fn is_missing(value: &str) -> bool {
    value.is_empty() || value.eq_ignore_ascii_case("NA")
}

/// A row's display delay in ns (the sum of its display fields), or `None` when the frame was
/// never shown.
fn display_delay_ns(row: &Row, origin: &str) -> Result<Option<u64>, TraceError> {
    if row.dropped || row.display.iter().any(|value| is_missing(value)) {
        return Ok(None);
    }
    let out_of_range = |value: &str| TraceError::DisplayOutOfRange {
        origin: origin.to_owned(),
        line: row.line,
        value: quoted(value),
    };
    let mut total_ns = 0_u64;
    for value in &row.display {
        let ms = match value.parse::<f64>() {
            Ok(ms) if !ms.is_nan() => ms,
            _ => {
                return Err(TraceError::DisplayNotANumber {
                    origin: origin.to_owned(),
                    line: row.line,
                    value: quoted(value),
                });
            }
        };
        // The range check also rejects infinities.
        if !(0.0..=MAX_FRAME_TIME_MS).contains(&ms) {
            return Err(out_of_range(value));
        }
        total_ns += ns_from_ms(ms);
    }
    if total_ns > ns_from_ms(MAX_FRAME_TIME_MS) {
        return Err(out_of_range(&row.display.join(" + ")));
    }
    Ok(Some(total_ns))
}

/// Chooses the swap chain of `application` (whose rows are `rows`) to use: `requested`, else
/// the one with the most rows, said in a note when there are several. `None` when the file
/// has no swap chain column (its rows are used as they are).
fn choose_swap_chain<'a>(
    rows: &[&'a Row],
    requested: Option<&str>,
    application: &str,
    origin: &str,
    notes: &mut Vec<String>,
) -> Result<Option<&'a str>, TraceError> {
    // Row counts per swap chain, in order of first appearance.
    let mut chains: Vec<(String, usize)> = Vec::new();
    let mut firsts: Vec<&'a str> = Vec::new();
    for row in rows {
        let Some(chain) = row.swap_chain.as_deref() else {
            continue;
        };
        match firsts.iter().position(|&seen| seen == chain) {
            Some(index) => chains[index].1 += 1,
            None => {
                firsts.push(chain);
                chains.push((chain.to_owned(), 1));
            }
        }
    }
    if let Some(requested) = requested {
        return match firsts
            .iter()
            .position(|chain| same_swap_chain(chain, requested))
        {
            Some(index) => Ok(Some(firsts[index])),
            None => Err(TraceError::UnknownSwapChain {
                origin: origin.to_owned(),
                application: application.to_owned(),
                requested: requested.to_owned(),
                available: if chains.is_empty() {
                    "none (the file has no SwapChainAddress column)".to_owned()
                } else {
                    list(&chains, None)
                },
            }),
        };
    }
    let Some(most) = most_rows(&chains) else {
        return Ok(None);
    };
    if chains.len() > 1 {
        let (address, count) = &chains[most];
        notes.push(format!(
            "{origin}: using swap chain {address} of \"{application}\" ({count} rows), the one \
             with the most rows; also present: {}; PresentMon measures each swap chain on its \
             own, so only one is used; choose another with --swap-chain ADDR",
            list(&chains, Some(most))
        ));
    }
    Ok(Some(firsts[most]))
}

/// Whether two swap chain addresses are the same: equal ignoring ASCII case, or the same
/// number when both read as hexadecimal (`0x` prefix and leading zeros optional).
fn same_swap_chain(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
        || matches!((hex_address(a), hex_address(b)), (Some(a), Some(b)) if a == b)
}

/// A swap chain address read as a hexadecimal number, with or without `0x`.
fn hex_address(text: &str) -> Option<u128> {
    let text = text.trim();
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    // Leading zeros never overflow; more than 32 significant digits is no address.
    u128::from_str_radix(digits, 16).ok()
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

/// The entry (application or swap chain) with the most rows; the first one seen wins a tie.
fn most_rows(counts: &[(String, usize)]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (index, (_, count)) in counts.iter().enumerate() {
        if best.is_none_or(|best| *count > counts[best].1) {
            best = Some(index);
        }
    }
    best
}

/// `a.exe (12 rows), b.exe (1 row)`, most rows first, leaving out `except`.
fn list(counts: &[(String, usize)], except: Option<usize>) -> String {
    let mut others: Vec<&(String, usize)> = counts
        .iter()
        .enumerate()
        .filter(|(index, _)| Some(*index) != except)
        .map(|(_, entry)| entry)
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
            ..LoadOptions::default()
        }
    }

    fn swap_chain(address: &str) -> LoadOptions {
        LoadOptions {
            swap_chain: Some(address.to_owned()),
            ..LoadOptions::default()
        }
    }

    #[test]
    fn application_with_most_rows_is_chosen_and_said_in_a_note() {
        let trace = parse(&two_processes(), "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, [16_667_000, 33_333_000, 16_667_000]);
        // PresentMon 1.x with -simple has no display columns, so there are no display times
        // and no note about them.
        assert_eq!(trace.display_ns, None);
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
    fn only_na_rows_is_an_empty_trace() {
        let text = "Application,MsBetweenPresents\ngame.exe,NA\n";
        let err = parse(text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(err.to_string(), "pm.csv: the trace has no frame times");
    }

    // A PresentMon 2.x capture written by hand (also shipped as
    // assets/traces/presentmon2-display.csv): Game.exe at about 60 Hz with uneven CPU starts,
    // shown on a 60 Hz display, one frame never shown, and a few rows of dwm.exe.
    //
    // How the numbers were derived (all exact in units of 0.0001 ms, so every column is
    // written exactly with 4 decimals):
    //
    // - CPU starts: frame 1 starts at 1000 ms (CPUStartTime is in seconds, 1.0000000); the
    //   intervals alternate 15.0000 and 18.3333 ms (MsBetweenAppStart of frame k is
    //   CPUStart(k+1) - CPUStart(k)). An 11th frame (CPUStart 1166.6665) ends the capture
    //   before PresentMon wrote its row; it gives row 10 its MsBetweenAppStart and
    //   DisplayedTime. AnimationTime is CPUStart(k) - CPUStart(1).
    // - MsCPUBusy (CPU start to Present()) is chosen per frame, 9.85 to 12.15 ms. The next
    //   frame starts when Present() returns, so MsInPresentAPI = MsCPUWait =
    //   MsBetweenAppStart - MsCPUBusy. present(k) = CPUStart(k) + MsCPUBusy(k), and
    //   MsBetweenPresents = present(k) - present(k-1) (NA on the first row).
    // - Display: vblanks every 16.6667 ms from 0 (vblank n at n * 16.6667). The GPU finishes
    //   a frame 2.9 to 3.3 ms after its Present() (not a column here); the frame is shown at
    //   the first vblank after that: frames 1-5 at vblanks 61-65 (1016.6687 ... 1083.3355),
    //   frames 7-10 at 67-70 (1116.6689 ... 1166.6690), frame 11 at 71 (1183.3357).
    // - Frame 6 (line 9) is never shown: its GPU work took 9 ms and finished at 1100.9666,
    //   just after vblank 66 (1100.0022); frame 7 was finished (1113.2499) before vblank 67,
    //   so the compositor showed frame 7 there and frame 6 never reached the screen. Its
    //   display columns are NA, and frame 5 stays on screen for two refreshes.
    // - MsUntilDisplayed = display - present; DisplayLatency = display - CPUStart
    //   (= MsCPUBusy + MsUntilDisplayed); MsBetweenDisplayChange = display(k) - display(j)
    //   and DisplayedTime = display(next shown) - display(k), with j the previous shown frame;
    //   MsAnimationError = (CPUStart(k) - CPUStart(j)) - (display(k) - display(j)), which is
    //   PresentMon's simulation elapsed minus display elapsed with the simulation starting at
    //   the CPU start. NA where there is no previous shown frame or the frame was not shown.
    // - dwm.exe: 4 rows 50.0001 ms (3 refreshes) apart on its own swap chain, CPU start 3 ms
    //   before vblanks 61, 64, 67, 70, 1 ms busy, shown at those vblanks.
    //
    // Expected: Game.exe's rows 2 to 10 are frames (row 1 has no previous MsBetweenAppStart),
    // their times 15, 18.3333, 15, ... ms; their display delays are DisplayLatency, with
    // frame 6 (the 5th frame of the trace) never shown.
    const PRESENTMON2: &str = "\
Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,CPUStartTime,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsBetweenPresents,MsInPresentAPI,MsUntilDisplayed,MsBetweenDisplayChange,DisplayLatency,DisplayedTime,MsAnimationError,AnimationTime
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0000000,15.0000,11.2000,3.8000,NA,3.8000,5.4687,NA,16.6687,16.6667,NA,0.0000
dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,Hardware: Legacy Flip,1.0136687,50.0001,1.0000,49.0001,NA,49.0001,2.0000,NA,3.0000,50.0001,NA,0.0000
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0150000,18.3333,9.8500,8.4833,13.6500,8.4833,8.4854,16.6667,18.3354,16.6667,-1.6667,15.0000
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0333333,15.0000,12.1500,2.8500,20.6333,2.8500,4.5188,16.6667,16.6688,16.6667,1.6666,33.3333
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0483333,18.3333,10.4000,7.9333,13.2500,7.9333,7.9355,16.6667,18.3355,16.6667,-1.6667,48.3333
dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,Hardware: Legacy Flip,1.0636688,50.0001,1.0000,49.0001,50.0001,49.0001,2.0000,50.0001,3.0000,50.0001,0.0000,50.0001
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0666666,15.0000,11.7500,3.2500,19.6833,3.2500,4.9189,16.6667,16.6689,33.3334,1.6666,66.6666
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0816666,18.3333,10.3000,8.0333,13.5500,8.0333,NA,NA,NA,NA,NA,81.6666
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.0999999,15.0000,10.1000,4.9000,18.1333,4.9000,6.5690,33.3334,16.6690,16.6667,-0.0001,99.9999
dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,Hardware: Legacy Flip,1.1136689,50.0001,1.0000,49.0001,50.0001,49.0001,2.0000,50.0001,3.0000,50.0001,0.0000,100.0002
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.1149999,18.3333,11.5500,6.7833,16.4500,6.7833,6.7857,16.6667,18.3357,16.6667,-1.6667,114.9999
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.1333332,15.0000,9.9000,5.1000,16.6833,5.1000,6.7691,16.6667,16.6691,16.6667,1.6666,133.3332
Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,Composed: Flip,1.1483332,18.3333,10.8000,7.5333,15.9000,7.5333,7.5358,16.6667,18.3358,16.6667,-1.6667,148.3332
dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,Hardware: Legacy Flip,1.1636690,50.0001,1.0000,49.0001,50.0001,49.0001,2.0000,50.0001,3.0000,50.0001,0.0000,150.0003
";

    /// The fields of `name` on the rows of `application` in a CSV without quoted commas.
    fn column_of(text: &str, application: &str, name: &str) -> Vec<String> {
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let index = header.iter().position(|field| *field == name).unwrap();
        lines
            .map(|line| line.split(',').collect::<Vec<_>>())
            .filter(|fields| fields[0] == application)
            .map(|fields| fields[index].to_owned())
            .collect()
    }

    /// Milliseconds as written to whole nanoseconds; `None` for `NA`.
    fn ns(ms: &str) -> Option<u64> {
        (ms != "NA").then(|| (ms.parse::<f64>().unwrap() * 1e6).round() as u64)
    }

    /// `text` without the columns `names`.
    fn without(text: &str, names: &[&str]) -> String {
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        text.lines()
            .map(|line| {
                line.split(',')
                    .zip(&header)
                    .filter(|(_, name)| !names.contains(name))
                    .map(|(field, _)| field)
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `text` with the field of column `name` on (1-based) line `line` replaced by `value`.
    fn with_field(text: &str, line: usize, name: &str, value: &str) -> String {
        let index = text
            .lines()
            .next()
            .unwrap()
            .split(',')
            .position(|field| field == name)
            .unwrap();
        text.lines()
            .enumerate()
            .map(|(number, row)| {
                if number + 1 != line {
                    return row.to_owned();
                }
                let mut fields: Vec<&str> = row.split(',').collect();
                fields[index] = value;
                fields.join(",")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn shipped_presentmon2_trace_is_the_file_of_these_tests() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/traces/presentmon2-display.csv"
        );
        let shipped = std::fs::read_to_string(path).unwrap();
        assert_eq!(shipped.replace("\r\n", "\n"), PRESENTMON2);
    }

    #[test]
    fn presentmon2_frame_times_are_the_previous_rows_cpu_start_intervals() {
        let trace = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
        let app_start = column_of(PRESENTMON2, "Game.exe", "MsBetweenAppStart");
        assert_eq!(app_start.len(), 10);
        // Row k's frame time is row k-1's MsBetweenAppStart; row 1 has none.
        let expected: Vec<u64> = app_start[..9].iter().map(|ms| ns(ms).unwrap()).collect();
        assert_eq!(trace.frame_times_ns, expected);
        assert_eq!(
            &trace.frame_times_ns[..3],
            [15_000_000, 18_333_300, 15_000_000]
        );
        assert_eq!(
            trace.notes,
            [
                "pm.csv: using PresentMon rows of \"Game.exe\" (10 rows), the application with the \
                 most rows; also present: dwm.exe (4 rows); choose another with --process NAME",
                "pm.csv: skipped 1 row of \"Game.exe\" with no frame time: the swap chain's first \
                 row, or one whose previous row has no MsBetweenAppStart value (NA or empty)",
                "pm.csv: frame times from MsBetweenAppStart (CPU start to CPU start), display \
                 times from DisplayLatency; 1 of 9 frames never shown",
            ]
        );
    }

    #[test]
    fn presentmon2_display_times_are_display_latency_or_cpu_busy_plus_until_displayed() {
        let latency: Vec<Option<u64>> = column_of(PRESENTMON2, "Game.exe", "DisplayLatency")[1..]
            .iter()
            .map(|ms| ns(ms))
            .collect();
        let busy = column_of(PRESENTMON2, "Game.exe", "MsCPUBusy");
        let until = column_of(PRESENTMON2, "Game.exe", "MsUntilDisplayed");
        let busy_plus_until: Vec<Option<u64>> = (1..10)
            .map(|row| Some(ns(&busy[row])? + ns(&until[row])?))
            .collect();
        // The file is consistent: both ways give the same delays.
        assert_eq!(latency, busy_plus_until);
        assert_eq!(
            latency[4], None,
            "the 5th frame (row 6 of Game.exe) was never shown"
        );
        assert_eq!(latency.iter().filter(|delay| delay.is_none()).count(), 1);

        let trace = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.display_ns.as_ref(), Some(&latency));
        assert_eq!(
            &latency[..2],
            [Some(18_335_400), Some(16_668_800)],
            "delays from the CPU start"
        );

        let text = without(PRESENTMON2, &["DisplayLatency"]);
        let trace = parse(&text, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.display_ns, Some(busy_plus_until));
        assert_eq!(
            trace.notes.last().unwrap(),
            "pm.csv: frame times from MsBetweenAppStart (CPU start to CPU start), display times \
             from MsCPUBusy + MsUntilDisplayed; 1 of 9 frames never shown"
        );
    }

    #[test]
    fn presentmon2_display_delays_agree_with_the_files_animation_error() {
        // For shown frames j < k with none shown between, PresentMon's animation error is
        // (CPUStart(k) - CPUStart(j)) - (display(k) - display(j)), which is
        // -(delay(k) - delay(j)) when delays count from the CPU start.
        let trace = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
        let display = trace.display_ns.unwrap();
        let animation_error = &column_of(PRESENTMON2, "Game.exe", "MsAnimationError")[1..];
        let mut previous: Option<u64> = None;
        let mut checked = 0;
        for (delay, written) in display.iter().zip(animation_error) {
            let Some(delay) = *delay else {
                assert_eq!(written, "NA");
                continue;
            };
            if let Some(previous) = previous {
                let error_ms = -(delay as f64 - previous as f64) / 1e6;
                let written: f64 = written.parse().unwrap();
                assert!(
                    (error_ms - written).abs() < 1e-4,
                    "animation error {error_ms} ms from the delays, {written} ms in the file"
                );
                checked += 1;
            }
            previous = Some(delay);
        }
        assert_eq!(checked, 7);
    }

    #[test]
    fn presentmon2_dwm_is_still_chosen_by_process() {
        let trace = parse(PRESENTMON2, "pm.csv", &options(Some("dwm"))).unwrap();
        assert_eq!(trace.frame_times_ns, [50_000_100; 3]);
        assert_eq!(trace.display_ns, Some(vec![Some(3_000_000); 3]));
        assert_eq!(
            trace.notes,
            [
                "pm.csv: skipped 1 row of \"dwm.exe\" with no frame time: the swap chain's first \
                 row, or one whose previous row has no MsBetweenAppStart value (NA or empty)",
                "pm.csv: frame times from MsBetweenAppStart (CPU start to CPU start), display \
                 times from DisplayLatency; 0 of 3 frames never shown",
            ]
        );
    }

    #[test]
    fn presentmon2_row_after_a_missing_cpu_start_interval_is_skipped() {
        // Line 5 is Game.exe's 3rd row; its NA leaves the 4th row (line 6) without a time.
        let text = with_field(PRESENTMON2, 5, "MsBetweenAppStart", "NA");
        let trace = parse(&text, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.len(), 8);
        assert_eq!(
            &trace.frame_times_ns[..3],
            [15_000_000, 18_333_300, 18_333_300]
        );
        assert_eq!(trace.display_ns.unwrap().len(), 8);
        assert!(
            trace.notes[1].starts_with("pm.csv: skipped 2 rows of \"Game.exe\" with no frame time"),
            "{:?}",
            trace.notes
        );
        // A bad interval is reported on its own line, not the line of the frame it times.
        let text = with_field(PRESENTMON2, 5, "MsBetweenAppStart", "soon");
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv:5: frame time \"soon\" is not a number"
        );
    }

    #[test]
    fn presentmon2_without_cpu_busy_measures_from_the_present_call() {
        let text = without(PRESENTMON2, &["DisplayLatency", "MsCPUBusy"]);
        let trace = parse(&text, "pm.csv", &options(None)).unwrap();
        let presents: Vec<u64> = column_of(PRESENTMON2, "Game.exe", "MsBetweenPresents")[1..]
            .iter()
            .map(|ms| ns(ms).unwrap())
            .collect();
        assert_eq!(trace.frame_times_ns, presents);
        let until: Vec<Option<u64>> = column_of(PRESENTMON2, "Game.exe", "MsUntilDisplayed")[1..]
            .iter()
            .map(|ms| ns(ms))
            .collect();
        assert_eq!(trace.display_ns, Some(until));
        assert_eq!(
            trace.notes[1..],
            [
                "pm.csv: skipped 1 row of \"Game.exe\" with no MsBetweenPresents value (NA or \
                 empty)",
                "pm.csv: frame times from MsBetweenPresents (Present() to Present()), not \
                 MsBetweenAppStart, because the file has no MsCPUBusy column to measure display \
                 times from the CPU start, display times from MsUntilDisplayed; 1 of 9 frames \
                 never shown",
            ]
        );
    }

    #[test]
    fn presentmon2_without_display_columns_has_no_display_times() {
        let text = without(PRESENTMON2, &["DisplayLatency", "MsUntilDisplayed"]);
        let trace = parse(&text, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.len(), 9);
        assert_eq!(trace.display_ns, None);
        assert_eq!(
            trace.notes.last().unwrap(),
            "pm.csv: frame times from MsBetweenAppStart (CPU start to CPU start); no display \
             times (no MsUntilDisplayed or DisplayLatency column)"
        );
    }

    #[test]
    fn display_latency_without_cpu_start_intervals_is_not_used() {
        let text = "Application,MsBetweenPresents,DisplayLatency\ng.exe,16,20\n";
        let trace = parse(text, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, [16_000_000]);
        assert_eq!(trace.display_ns, None);
        assert_eq!(
            trace.notes[1],
            "pm.csv: frame times from MsBetweenPresents (Present() to Present()); no display \
             times: DisplayLatency counts from the CPU start, and the file has no \
             MsBetweenAppStart column for frame times that do"
        );
    }

    #[test]
    fn presentmon1_dropped_frames_are_never_shown() {
        // PresentMon 1.x writes msUntilDisplayed 0 for a dropped frame: Dropped wins.
        let text = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,\
                    AllowsTearing,PresentMode,Dropped,TimeInSeconds,msBetweenPresents,\
                    msBetweenDisplayChange,msInPresentAPI,msUntilRenderComplete,msUntilDisplayed\n\
                    Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,0,1.000000,NA,NA,0.2,2.1,5.467\n\
                    Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,0,1.016667,16.667,16.667,0.2,2.0,5.467\n\
                    Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,1,1.025000,8.333,0.000,0.2,2.2,0.000\n\
                    Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,0,1.033334,8.334,16.667,0.2,2.0,5.466\n\
                    Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,0,1.050000,16.666,NA,0.2,2.0,NA\n";
        let trace = parse(text, "pm.csv", &options(None)).unwrap();
        assert_eq!(
            trace.frame_times_ns,
            [16_667_000, 8_333_000, 8_334_000, 16_666_000]
        );
        assert_eq!(
            trace.display_ns,
            Some(vec![Some(5_467_000), None, Some(5_466_000), None])
        );
        assert_eq!(
            trace.notes[1..],
            [
                "pm.csv: skipped 1 row of \"Game.exe\" with no MsBetweenPresents value (NA or \
                 empty)",
                "pm.csv: frame times from MsBetweenPresents (Present() to Present()), display \
                 times from MsUntilDisplayed; 2 of 4 frames never shown",
            ]
        );
    }

    #[test]
    fn bad_display_value_names_line_and_value() {
        let text = with_field(PRESENTMON2, 4, "DisplayLatency", "soon");
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv:4: display delay \"soon\" is not a number"
        );
        let text = with_field(PRESENTMON2, 8, "DisplayLatency", "-0.5");
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv:8: display delay -0.5 ms is out of range (allowed 0 to 60000 ms)"
        );
        // Each part of a sum is in range, the sum is not.
        let text = without(PRESENTMON2, &["DisplayLatency"]);
        let text = with_field(&text, 4, "MsCPUBusy", "40000");
        let text = with_field(&text, 4, "MsUntilDisplayed", "30000");
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert!(matches!(err, TraceError::DisplayOutOfRange { line: 4, .. }));
        assert_eq!(
            err.to_string(),
            "pm.csv:4: display delay 40000 + 30000 ms is out of range (allowed 0 to 60000 ms)"
        );
        // A row that is not a frame (the swap chain's first) is not read.
        let text = with_field(PRESENTMON2, 2, "DisplayLatency", "soon");
        assert!(parse(&text, "pm.csv", &options(None)).is_ok());
    }

    /// g.exe on swap chain 0x1A (3 rows) and 0x2B (2 rows), interleaved.
    const TWO_SWAP_CHAINS: &str = "Application,SwapChainAddress,MsBetweenPresents,MsUntilDisplayed\n\
                                   g.exe,0x1A,NA,5\n\
                                   g.exe,0x2B,NA,7\n\
                                   g.exe,0x1A,16,6\n\
                                   g.exe,0x2B,33,NA\n\
                                   g.exe,0x1A,17,4\n";

    #[test]
    fn swap_chain_with_most_rows_is_chosen_and_said_in_a_note() {
        let trace = parse(TWO_SWAP_CHAINS, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, [16_000_000, 17_000_000]);
        assert_eq!(
            trace.display_ns,
            Some(vec![Some(6_000_000), Some(4_000_000)])
        );
        assert_eq!(
            trace.notes[1],
            "pm.csv: using swap chain 0x1A of \"g.exe\" (3 rows), the one with the most rows; \
             also present: 0x2B (2 rows); PresentMon measures each swap chain on its own, so only \
             one is used; choose another with --swap-chain ADDR"
        );
        // A tie goes to the swap chain seen first.
        let tie = "Application,SwapChainAddress,MsBetweenPresents\ng.exe,0x2,1\ng.exe,0x1,2\n";
        let trace = parse(tie, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, [1_000_000]);
    }

    #[test]
    fn swap_chain_option_picks_another_written_any_way() {
        for address in ["0x2B", "0x2b", "2b", "0X000000000000002B", "  0x02B "] {
            let trace = parse(TWO_SWAP_CHAINS, "pm.csv", &swap_chain(address)).unwrap();
            assert_eq!(trace.frame_times_ns, [33_000_000], "{address}");
            assert_eq!(trace.display_ns, Some(vec![None]), "{address}");
            // The application, skipped-row and columns notes; the choice was the user's.
            assert_eq!(trace.notes.len(), 3, "{:?}", trace.notes);
            assert!(!trace.notes.iter().any(|note| note.contains("--swap-chain")));
        }
    }

    #[test]
    fn unknown_swap_chain_lists_the_swap_chains_present() {
        let err = parse(TWO_SWAP_CHAINS, "pm.csv", &swap_chain("0x3C")).unwrap_err();
        assert!(matches!(err, TraceError::UnknownSwapChain { .. }));
        assert_eq!(
            err.to_string(),
            "pm.csv: no PresentMon rows of \"g.exe\" for swap chain \"0x3C\"; swap chains of \
             \"g.exe\": 0x1A (3 rows), 0x2B (2 rows)"
        );
        // The swap chain of another application is no swap chain of this one.
        let err = parse(PRESENTMON2, "pm.csv", &swap_chain("0x0000020F00AA1230")).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("swap chains of \"Game.exe\": 0x000001D2A3B4C5D0 (10 rows)"),
            "{err}"
        );
        let text = "Application,MsBetweenPresents\ng.exe,16\n";
        let err = parse(text, "pm.csv", &swap_chain("0x1")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv: no PresentMon rows of \"g.exe\" for swap chain \"0x1\"; swap chains of \
             \"g.exe\": none (the file has no SwapChainAddress column)"
        );
    }
}

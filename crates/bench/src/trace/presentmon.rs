//! PresentMon CSV: one row per present of every traced process and swap chain.
//!
//! PresentMon measures everything per swap chain, so one application and then one of its swap
//! chains are chosen before any value is used. The file is read once, row by row, and each
//! application's swap chains keep only their frames, as numbers: memory follows the frames,
//! not the size of the file. With `--process`, other applications' rows are only counted.
//!
//! What a frame time is depends on the PresentMon generation:
//!
//! - **2.x**: the interval between the CPU starts of two frames, written as
//!   `MsBetweenAppStart` (2.3 on), `FrameTime` (2.1 and 2.2, and 2.3 on with `--v2_metrics`)
//!   or only its parts `CPUBusy` and `CPUWait` (2.0). PresentMon computes it as the time from
//!   the frame's CPU start to its `Present()` call plus the time in `Present()`, when the next
//!   frame starts: the value on a row is the time from that frame's CPU start to the next
//!   frame's, so a frame's own time is the value on the swap chain's previous row, and the
//!   first row has none. The display delay counts from the CPU start: `DisplayLatency`, else
//!   `MsCPUBusy + MsUntilDisplayed`.
//! - **1.x** (and 2.x with `--v1_metrics`), or a 2.3 file without `MsCPUBusy`:
//!   `MsBetweenPresents`, the interval between two `Present()` calls; the display delay is
//!   `MsUntilDisplayed`, from the `Present()` call.
//!
//! A frame was never shown when its display columns are `NA` or empty, its `DisplayedTime` is
//! 0 (2.0 wrote zeros where later versions write `NA`), or its `Dropped` is `1` (1.x writes
//! `MsUntilDisplayed` 0 for dropped frames, so `Dropped` wins).

use std::collections::HashMap;
use std::io::BufRead;

use super::csv::{Header, Records, sum_ns};
use super::error::{Column, Place, Quantity, shown, shown_within};
use super::{FrameTrace, LoadOptions, TraceError};

/// Header fields only PresentMon (and tools that write its layout) write: a file whose first
/// line has one of them is read as PresentMon. `FrameTime` is not one: MangoHud's `frametime`
/// is the same word.
pub(super) const MARKERS: [&str; 6] = [
    "Application",
    "ProcessName",
    "ProcessID",
    SWAP_CHAIN_COLUMN,
    PRESENTS_COLUMN,
    APP_START_COLUMN,
];
/// The frame-time column of PresentMon 1.x: from one `Present()` call to the next.
const PRESENTS_COLUMN: &str = "MsBetweenPresents";
/// PresentMon 2.3 on: from this frame's CPU start to the next frame's.
const APP_START_COLUMN: &str = "MsBetweenAppStart";
/// PresentMon 2.1 and 2.2 (and 2.3 on with `--v2_metrics`): the same as `MsBetweenAppStart`.
const FRAME_TIME_COLUMN: &str = "FrameTime";
/// PresentMon 2.x before 2.3: from the frame's CPU start to its `Present()` call.
const CPU_BUSY_V2_COLUMN: &str = "CPUBusy";
/// PresentMon 2.x before 2.3: the time in `Present()`, after which the next frame starts.
const CPU_WAIT_V2_COLUMN: &str = "CPUWait";
/// PresentMon 2.3 on: from the frame's CPU start to its `Present()` call.
const CPU_BUSY_COLUMN: &str = "MsCPUBusy";
/// From the `Present()` call to the display (1.x writes `msUntilDisplayed`).
const UNTIL_DISPLAYED_COLUMN: &str = "MsUntilDisplayed";
/// PresentMon 2.x: from the frame's CPU start to the display.
const DISPLAY_LATENCY_COLUMN: &str = "DisplayLatency";
/// PresentMon 2.x: how long the frame stayed on screen; 0 or `NA` for a frame never shown.
const DISPLAYED_TIME_COLUMN: &str = "DisplayedTime";
/// PresentMon 1.x: `1` for a frame that was never shown.
const DROPPED_COLUMN: &str = "Dropped";
/// The process column: `Application` in PresentMon's own output, `ProcessName` in some other
/// versions and tools that write its layout.
const APPLICATION_COLUMNS: [&str; 2] = ["Application", "ProcessName"];
/// The swap chain column; only one swap chain's rows are used.
const SWAP_CHAIN_COLUMN: &str = "SwapChainAddress";
/// Most applications plus swap chains a file may have: a capture has a handful, and each one
/// costs memory whether or not it is chosen.
const MAX_SWAP_CHAINS: usize = 10_000;
/// PresentMon warnings kept as notes; the rest are counted.
const MAX_WARNINGS: usize = 10;
/// Longest PresentMon warning quoted in a note.
const MAX_WARNING_CHARS: usize = 200;
/// A display delay that says "never shown" in [`SwapChain::display_ns`] (real delays are at
/// most a minute).
const NEVER_SHOWN: u64 = u64::MAX;

/// The event whose intervals the frame times measure, and from which display delays count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reference {
    /// The CPU starting work on a frame (PresentMon 2.x).
    CpuStart,
    /// The `Present()` call (`MsBetweenPresents`).
    Present,
}

/// Columns whose values are added up (a frame time or a display delay) and how notes name
/// them.
#[derive(Debug, Default)]
struct Sum {
    /// The columns' indices.
    indices: Vec<usize>,
    /// The columns for messages, in the same order.
    columns: Vec<Column>,
    /// Their PresentMon names joined with ` + `, e.g. `MsCPUBusy + MsUntilDisplayed`.
    names: String,
}

impl Sum {
    /// The sum of the columns `parts` of `header`: (index, PresentMon's name).
    fn new(header: &Header, parts: &[(usize, &str)]) -> Sum {
        Sum {
            indices: parts.iter().map(|(index, _)| *index).collect(),
            columns: parts
                .iter()
                .map(|(index, _)| header.column(*index))
                .collect(),
            names: parts
                .iter()
                .map(|(_, name)| *name)
                .collect::<Vec<_>>()
                .join(" + "),
        }
    }

    fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }
}

/// Which columns of a PresentMon file the frame times and display delays come from.
#[derive(Debug)]
struct Layout {
    /// What the frame times measure.
    reference: Reference,
    /// The frame-time column(s).
    frame: Sum,
    /// The columns whose sum is a frame's display delay; empty when the file has none.
    display: Sum,
    /// The `DisplayedTime` column, when the file has one.
    displayed_time_column: Option<usize>,
    /// The `Dropped` column, when the file has one.
    dropped_column: Option<usize>,
    /// A column the file has that was not used, for the note.
    unused: Option<Unused>,
}

/// A PresentMon 2.x column that a file has but whose reference event its other columns cannot
/// match.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Unused {
    /// CPU-start intervals (named here) with `MsUntilDisplayed` but no `MsCPUBusy` (nor
    /// `DisplayLatency`): display delays only count from the `Present()` call, so frame times
    /// must too.
    CpuStart(String),
    /// `DisplayLatency` without CPU-start intervals (nor `MsUntilDisplayed`): it counts from
    /// the CPU start, which the frame times cannot.
    DisplayLatency,
}

impl Layout {
    /// Decides from the header.
    fn new(header: &Header) -> Result<Layout, TraceError> {
        let find = |name: &str| header.find(&[name]);
        let app_start = find(APP_START_COLUMN)?;
        let frame_time = find(FRAME_TIME_COLUMN)?;
        let busy_v2 = find(CPU_BUSY_V2_COLUMN)?;
        let wait_v2 = find(CPU_WAIT_V2_COLUMN)?;
        let busy = find(CPU_BUSY_COLUMN)?;
        let until = find(UNTIL_DISPLAYED_COLUMN)?;
        let latency = find(DISPLAY_LATENCY_COLUMN)?;
        let displayed_time_column = find(DISPLAYED_TIME_COLUMN)?;
        let dropped_column = find(DROPPED_COLUMN)?;
        let presents = find(PRESENTS_COLUMN)?;

        let cpu_start = match (app_start, frame_time, busy_v2, wait_v2) {
            (Some(column), ..) => Some(vec![(column, APP_START_COLUMN)]),
            (None, Some(column), ..) => Some(vec![(column, FRAME_TIME_COLUMN)]),
            (None, None, Some(busy), Some(wait)) => {
                Some(vec![(busy, CPU_BUSY_V2_COLUMN), (wait, CPU_WAIT_V2_COLUMN)])
            }
            _ => None,
        };
        let busy = busy
            .map(|column| (column, CPU_BUSY_COLUMN))
            .or(busy_v2.map(|column| (column, CPU_BUSY_V2_COLUMN)));
        if let Some(frame) = &cpu_start {
            let display = match (latency, busy, until) {
                (Some(latency), _, _) => Some(vec![(latency, DISPLAY_LATENCY_COLUMN)]),
                (None, Some(busy), Some(until)) => {
                    Some(vec![busy, (until, UNTIL_DISPLAYED_COLUMN)])
                }
                (None, _, None) => Some(Vec::new()),
                // MsUntilDisplayed without the CPU busy time counts from the Present() call,
                // so the frame times have to as well.
                (None, None, Some(_)) => None,
            };
            if let Some(display) = display {
                return Ok(Layout {
                    reference: Reference::CpuStart,
                    frame: Sum::new(header, frame),
                    display: Sum::new(header, &display),
                    displayed_time_column,
                    dropped_column,
                    unused: None,
                });
            }
        }
        let frame_column = presents.ok_or_else(|| {
            header.missing(
                "PresentMon",
                "\"MsBetweenAppStart\", \"FrameTime\", \"CPUBusy\" and \"CPUWait\", or \
                 \"MsBetweenPresents\"",
            )
        })?;
        let unused = if let Some(frame) = &cpu_start {
            Some(Unused::CpuStart(Sum::new(header, frame).names))
        } else if latency.is_some() && until.is_none() {
            Some(Unused::DisplayLatency)
        } else {
            None
        };
        Ok(Layout {
            reference: Reference::Present,
            frame: Sum::new(header, &[(frame_column, PRESENTS_COLUMN)]),
            display: Sum::new(
                header,
                &until
                    .map(|column| (column, UNTIL_DISPLAYED_COLUMN))
                    .into_iter()
                    .collect::<Vec<_>>(),
            ),
            displayed_time_column: None,
            dropped_column,
            unused,
        })
    }

    /// The frame-time field(s) of the current row.
    fn measure<R: BufRead>(&self, records: &Records<R>, place: Place) -> Measured {
        if self
            .frame
            .indices
            .iter()
            .any(|&index| is_missing(&records.field(index)))
        {
            return Measured::Missing;
        }
        let place = Place {
            columns: &self.frame.columns,
            ..place
        };
        match sum_ns(records, &self.frame.indices, &place, Quantity::FrameTime) {
            Ok(ns) => Measured::Ns(ns),
            Err(error) => Measured::Bad(error),
        }
    }

    /// The current row's display delay in ns (the sum of its display fields), or `None` when
    /// the frame was never shown.
    fn display_delay_ns<R: BufRead>(
        &self,
        records: &Records<R>,
        place: Place,
    ) -> Result<Option<u64>, TraceError> {
        let dropped = self
            .dropped_column
            .is_some_and(|column| records.field(column) == "1");
        let never_on_screen = self.displayed_time_column.is_some_and(|column| {
            let time = records.field(column);
            is_missing(&time) || time.parse::<f64>() == Ok(0.0)
        });
        let missing = self
            .display
            .indices
            .iter()
            .any(|&index| is_missing(&records.field(index)));
        if dropped || never_on_screen || missing {
            return Ok(None);
        }
        let place = Place {
            columns: &self.display.columns,
            ..place
        };
        sum_ns(
            records,
            &self.display.indices,
            &place,
            Quantity::DisplayDelay,
        )
        .map(Some)
    }

    /// The note on which columns were used, or `None` when the file is read as PresentMon 1.x
    /// files without display columns always were (nothing new to say).
    fn note(&self, origin: &str, display: Option<&[Option<u64>]>) -> Option<String> {
        let frames_from = match self.reference {
            Reference::CpuStart => format!(
                "frame times from {} (CPU start to CPU start)",
                self.frame.names
            ),
            Reference::Present => {
                "frame times from MsBetweenPresents (Present() to Present())".to_owned()
            }
        };
        let unused = match &self.unused {
            Some(Unused::CpuStart(names)) => format!(
                ", not {names}, because the file has no MsCPUBusy column to measure display \
                 times from the CPU start"
            ),
            Some(Unused::DisplayLatency) | None => String::new(),
        };
        let display = match display {
            Some(display) => {
                let never = display.iter().filter(|delay| delay.is_none()).count();
                format!(
                    ", display times from {}; {never} of {} frame{} never shown",
                    self.display.names,
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

/// A row's frame-time field(s): a value, none (`NA`, empty), or a value that is wrong (an
/// error only if the value is used).
enum Measured {
    /// `NA` or empty.
    Missing,
    /// A frame time in ns.
    Ns(u64),
    /// Not a number, or out of range.
    Bad(TraceError),
}

/// One swap chain of an application: its rows and the frames read from them so far.
#[derive(Default)]
struct SwapChain {
    /// The address as the file writes it; `None` when the file has no swap chain column.
    address: Option<String>,
    /// Rows of this swap chain.
    rows: usize,
    /// Frame times so far, ns.
    frames_ns: Vec<u64>,
    /// Per frame, its display delay in ns or [`NEVER_SHOWN`]; empty when the file has no
    /// display columns.
    display_ns: Vec<u64>,
    /// For CPU-start intervals: the frame-time field of the previous row, which times the
    /// next row's frame.
    previous: Option<Measured>,
    /// Rows that gave no frame.
    skipped: usize,
    /// The first error in a used value; reading stops there (it is only reported if this
    /// swap chain is chosen).
    error: Option<TraceError>,
}

impl SwapChain {
    /// Takes the current row, which belongs to this swap chain.
    fn take_row<R: BufRead>(&mut self, records: &Records<R>, layout: &Layout, place: Place) {
        self.rows += 1;
        if self.error.is_some() {
            return;
        }
        let measured = layout.measure(records, place);
        // The row whose frame-time field times this row's frame: itself for
        // MsBetweenPresents, the previous one for CPU-start intervals.
        let frame = match layout.reference {
            Reference::Present => Some(measured),
            Reference::CpuStart => self.previous.replace(measured),
        };
        match frame {
            None | Some(Measured::Missing) => self.skipped += 1,
            Some(Measured::Bad(error)) => self.error = Some(error),
            Some(Measured::Ns(ns)) => {
                if !layout.display.is_empty() {
                    match layout.display_delay_ns(records, place) {
                        Ok(delay) => self.display_ns.push(delay.unwrap_or(NEVER_SHOWN)),
                        Err(error) => {
                            self.error = Some(error);
                            return;
                        }
                    }
                }
                self.frames_ns.push(ns);
            }
        }
    }
}

/// An application (process name) in the file.
struct Application {
    /// The name as the file writes it.
    name: String,
    /// Rows of this application.
    rows: usize,
    /// Whether its rows are kept: always without `--process`, else when its name matches.
    kept: bool,
    /// Its swap chains, in order of first appearance.
    swap_chains: Vec<SwapChain>,
    /// Index into `swap_chains` by address (`""` when the file has no swap chain column).
    by_address: HashMap<String, usize>,
}

/// Everything read from the rows: the applications, in order of first appearance so ties
/// resolve the same way every time.
struct Capture<'a> {
    /// The applications.
    applications: Vec<Application>,
    /// Index into `applications` by name.
    by_name: HashMap<String, usize>,
    /// Applications plus swap chains so far, against [`MAX_SWAP_CHAINS`].
    groups: usize,
    /// `--process`, trimmed.
    requested: Option<&'a str>,
}

impl Capture<'_> {
    /// Takes the current row: counts it for its application and, if that application's rows
    /// are kept, for its swap chain.
    fn take_row<R: BufRead>(
        &mut self,
        records: &Records<R>,
        application_column: usize,
        swap_chain_column: Option<usize>,
        layout: &Layout,
        place: Place,
    ) -> Result<(), TraceError> {
        let name = records.field(application_column);
        let index = match self.by_name.get(name.as_ref()) {
            Some(&index) => index,
            None => {
                self.count_group(place)?;
                self.by_name
                    .insert(name.to_string(), self.applications.len());
                self.applications.push(Application {
                    kept: self
                        .requested
                        .is_none_or(|requested| name_matches(&name, requested).is_some()),
                    name: name.into_owned(),
                    rows: 0,
                    swap_chains: Vec::new(),
                    by_address: HashMap::new(),
                });
                self.applications.len() - 1
            }
        };
        self.applications[index].rows += 1;
        if !self.applications[index].kept {
            return Ok(());
        }
        let address = swap_chain_column.map(|column| records.field(column));
        let key = address.as_deref().unwrap_or_default();
        let chain = match self.applications[index].by_address.get(key) {
            Some(&chain) => chain,
            None => {
                self.count_group(place)?;
                let application = &mut self.applications[index];
                application
                    .by_address
                    .insert(key.to_owned(), application.swap_chains.len());
                application.swap_chains.push(SwapChain {
                    address: address.map(|address| address.into_owned()),
                    ..SwapChain::default()
                });
                application.swap_chains.len() - 1
            }
        };
        self.applications[index].swap_chains[chain].take_row(records, layout, place);
        Ok(())
    }

    /// Counts a new application or swap chain; fails past [`MAX_SWAP_CHAINS`].
    fn count_group(&mut self, place: Place) -> Result<(), TraceError> {
        self.groups += 1;
        if self.groups > MAX_SWAP_CHAINS {
            return Err(TraceError::TooManySwapChains {
                origin: place.origin.to_owned(),
                line: place.line,
                limit: MAX_SWAP_CHAINS,
            });
        }
        Ok(())
    }

    /// The application to use: `--process` (an exact name first, then one with `.exe`
    /// added), else the one with the most rows, said in a note.
    fn choose(&self, origin: &str, notes: &mut Vec<String>) -> Result<usize, TraceError> {
        let counts: Vec<(&str, usize)> = self
            .applications
            .iter()
            .map(|application| (application.name.as_str(), application.rows))
            .collect();
        if let Some(requested) = self.requested {
            let matching = |rank| {
                self.applications.iter().position(|application| {
                    name_matches(&application.name, requested) == Some(rank)
                })
            };
            return matching(Match::Exact)
                .or_else(|| matching(Match::WithExe))
                .ok_or_else(|| TraceError::UnknownProcess {
                    origin: origin.to_owned(),
                    requested: shown(requested),
                    available: if counts.is_empty() {
                        "none".to_owned()
                    } else {
                        list(&counts, None)
                    },
                });
        }
        let Some(most) = most_rows(&counts) else {
            return Err(TraceError::Empty {
                origin: origin.to_owned(),
            });
        };
        let (name, count) = (shown(counts[most].0), counts[most].1);
        notes.push(if counts.len() == 1 {
            format!(
                "{origin}: using PresentMon rows of \"{name}\" ({count} rows), the only \
                 application in the file"
            )
        } else {
            format!(
                "{origin}: using PresentMon rows of \"{name}\" ({count} rows), the \
                 application with the most rows; also present: {}; choose another with \
                 --process NAME",
                list(&counts, Some(most))
            )
        });
        Ok(most)
    }
}

/// How an application's name matches `--process`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Match {
    /// The same name, ignoring ASCII case.
    Exact,
    /// The name is `--process` with `.exe` added: `game` finds `Game.exe`.
    WithExe,
}

/// How `name` matches `requested` (trimmed), if it does.
fn name_matches(name: &str, requested: &str) -> Option<Match> {
    if name.eq_ignore_ascii_case(requested) {
        Some(Match::Exact)
    } else if name.len() == requested.len() + 4
        && name
            .get(..requested.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(requested))
        && name
            .get(requested.len()..)
            .is_some_and(|end| end.eq_ignore_ascii_case(".exe"))
    {
        Some(Match::WithExe)
    } else {
        None
    }
}

/// PresentMon's own warnings (`warning: N events were lost ...`, which 1.x appends when it
/// falls behind): the first few, as notes, and how many more.
#[derive(Default)]
struct Warnings {
    /// The notes.
    notes: Vec<String>,
    /// Warnings past [`MAX_WARNINGS`].
    more: usize,
}

impl Warnings {
    /// Whether the current row is a warning; if so, it is kept.
    fn take<R: BufRead>(&mut self, records: &Records<R>, origin: &str) -> bool {
        let is_warning = records
            .raw(0)
            .trim_ascii_start()
            .get(..8)
            .is_some_and(|start| start.eq_ignore_ascii_case(b"warning:"));
        if is_warning {
            if self.notes.len() < MAX_WARNINGS {
                let text = records.all_fields().join(",");
                self.notes.push(format!(
                    "{origin}:{}: PresentMon says: {}",
                    records.line(),
                    shown_within(&text, MAX_WARNING_CHARS)
                ));
            } else {
                self.more += 1;
            }
        }
        is_warning
    }

    fn into_notes(mut self, origin: &str) -> Vec<String> {
        if self.more > 0 {
            self.notes.push(format!(
                "{origin}: and {} more PresentMon warning{}",
                self.more,
                if self.more == 1 { "" } else { "s" }
            ));
        }
        self.notes
    }
}

/// Parses a PresentMon CSV whose header is the first record of `records`.
pub(super) fn parse<R: BufRead>(
    records: &mut Records<R>,
    origin: &str,
    options: &LoadOptions,
) -> Result<FrameTrace, TraceError> {
    if !records.next_record()? {
        return Err(TraceError::Empty {
            origin: origin.to_owned(),
        });
    }
    let header = Header::read(records);
    let application_column = header
        .find(&APPLICATION_COLUMNS)?
        .ok_or_else(|| header.missing("PresentMon", "\"Application\" or \"ProcessName\""))?;
    let layout = Layout::new(&header)?;
    let swap_chain_column = header.find(&[SWAP_CHAIN_COLUMN])?;

    let mut capture = Capture {
        applications: Vec::new(),
        by_name: HashMap::new(),
        groups: 0,
        requested: options.process.as_deref().map(str::trim),
    };
    let mut warnings = Warnings::default();
    while records.next_record()? {
        if warnings.take(records, origin) {
            continue;
        }
        records.check_width(&header)?;
        let place = Place {
            origin,
            line: records.line(),
            columns: &[],
        };
        capture.take_row(
            records,
            application_column,
            swap_chain_column,
            &layout,
            place,
        )?;
    }

    let mut notes = warnings.into_notes(origin);
    let chosen = capture.choose(origin, &mut notes)?;
    let application = &mut capture.applications[chosen];
    let chain = choose_swap_chain(
        application,
        options.swap_chain.as_deref(),
        origin,
        &mut notes,
    )?;
    let name = shown(&application.name);
    if chain >= application.swap_chains.len() {
        return Err(TraceError::Empty {
            origin: origin.to_owned(),
        });
    }
    let chain = application.swap_chains.swap_remove(chain);
    if let Some(error) = chain.error {
        return Err(error);
    }
    if chain.skipped > 0 {
        let skipped = chain.skipped;
        let plural = if skipped == 1 { "" } else { "s" };
        notes.push(match layout.reference {
            Reference::Present => format!(
                "{origin}: skipped {skipped} row{plural} of \"{name}\" with no \
                 MsBetweenPresents value (NA or empty)"
            ),
            Reference::CpuStart => format!(
                "{origin}: skipped {skipped} row{plural} of \"{name}\" with no frame time: \
                 the swap chain's first row, or one whose previous row has no {} value (NA or \
                 empty)",
                layout.frame.names
            ),
        });
    }
    let display_ns = (!layout.display.is_empty()).then(|| {
        chain
            .display_ns
            .iter()
            .map(|&delay| (delay != NEVER_SHOWN).then_some(delay))
            .collect::<Vec<_>>()
    });
    notes.extend(layout.note(origin, display_ns.as_deref()));
    Ok(FrameTrace {
        source: origin.to_owned(),
        frame_times_ns: chain.frames_ns,
        display_ns,
        notes,
    })
}

/// Whether PresentMon left a field without a value (`NA`, or empty).
fn is_missing(value: &str) -> bool {
    value.is_empty() || value.eq_ignore_ascii_case("NA")
}

/// Chooses the swap chain of `application` to use: `requested`, else the one with the most
/// rows, said in a note when there are several. A file without a swap chain column has one,
/// without an address, whose rows are used as they are.
fn choose_swap_chain(
    application: &Application,
    requested: Option<&str>,
    origin: &str,
    notes: &mut Vec<String>,
) -> Result<usize, TraceError> {
    let chains: Vec<(&str, usize)> = application
        .swap_chains
        .iter()
        .filter_map(|chain| Some((chain.address.as_deref()?, chain.rows)))
        .collect();
    let name = shown(&application.name);
    if let Some(requested) = requested {
        return chains
            .iter()
            .position(|(chain, _)| same_swap_chain(chain, requested))
            .ok_or_else(|| TraceError::UnknownSwapChain {
                origin: origin.to_owned(),
                application: name.clone(),
                requested: shown(requested),
                available: if chains.is_empty() {
                    "none (the file has no SwapChainAddress column)".to_owned()
                } else {
                    list(&chains, None)
                },
            });
    }
    // No address column: the one swap chain there is.
    let Some(most) = most_rows(&chains) else {
        return Ok(0);
    };
    if chains.len() > 1 {
        let (address, count) = (shown(chains[most].0), chains[most].1);
        notes.push(format!(
            "{origin}: using swap chain {address} of \"{name}\" ({count} rows), the one \
             with the most rows; also present: {}; PresentMon measures each swap chain on its \
             own, so only one is used; choose another with --swap-chain ADDR",
            list(&chains, Some(most))
        ));
    }
    Ok(most)
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

/// The entry (application or swap chain) with the most rows; the first one seen wins a tie.
fn most_rows(counts: &[(&str, usize)]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (index, (_, count)) in counts.iter().enumerate() {
        if best.is_none_or(|best| *count > counts[best].1) {
            best = Some(index);
        }
    }
    best
}

/// `a.exe (12 rows), b.exe (1 row)`, most rows first, leaving out `except`.
fn list(counts: &[(&str, usize)], except: Option<usize>) -> String {
    let mut others: Vec<&(&str, usize)> = counts
        .iter()
        .enumerate()
        .filter(|(index, _)| Some(*index) != except)
        .map(|(_, entry)| entry)
        .collect();
    // Stable sort: equal counts keep file order.
    others.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    others
        .iter()
        .map(|(name, count)| {
            let plural = if *count == 1 { "" } else { "s" };
            format!("{} ({count} row{plural})", shown(name))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::{MAX_SWAP_CHAINS, MAX_WARNINGS};
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
            "pm.csv:3, column 2 (MsBetweenPresents): frame time \"fast\" is not a number"
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
            "/../../assets/traces/presentmon2-display.csv"
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
            "pm.csv:5, column 10 (MsBetweenAppStart): frame time \"soon\" is not a number"
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
            "pm.csv:4, column 17 (DisplayLatency): display delay \"soon\" is not a number"
        );
        let text = with_field(PRESENTMON2, 8, "DisplayLatency", "-0.5");
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv:8, column 17 (DisplayLatency): display delay -0.5 ms is out of range \
             (allowed 0 to 60000 ms)"
        );
        // Each part of a sum is in range, the sum is not.
        let text = without(PRESENTMON2, &["DisplayLatency"]);
        let text = with_field(&text, 4, "MsCPUBusy", "40000");
        let text = with_field(&text, 4, "MsUntilDisplayed", "30000");
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert!(matches!(err, TraceError::DisplayOutOfRange { line: 4, .. }));
        assert_eq!(
            err.to_string(),
            "pm.csv:4, columns 11 and 15 (MsCPUBusy + MsUntilDisplayed): display delay 40000 + \
             30000 ms is out of range (allowed 0 to 60000 ms)"
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

    /// `text` (a CSV without quoted commas) with the columns `columns`: (name in the new
    /// header, name in `text`). Fields of the columns in `zero_for_na` that are `NA` become
    /// `0.0000`.
    fn relayout(text: &str, columns: &[(&str, &str)], zero_for_na: &[&str]) -> String {
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let index = |name: &str| header.iter().position(|field| *field == name).unwrap();
        let mut out = columns
            .iter()
            .map(|(new, _)| *new)
            .collect::<Vec<_>>()
            .join(",");
        out.push('\n');
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split(',').collect();
            let row: Vec<&str> = columns
                .iter()
                .map(|(new, old)| match fields[index(old)] {
                    "NA" if zero_for_na.contains(new) => "0.0000",
                    field => field,
                })
                .collect();
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }

    /// The columns every PresentMon 2.x layout starts with (2.0 says `Runtime`).
    const COMMON_2X: [(&str, &str); 8] = [
        ("Application", "Application"),
        ("ProcessID", "ProcessID"),
        ("SwapChainAddress", "SwapChainAddress"),
        ("PresentRuntime", "PresentRuntime"),
        ("SyncInterval", "SyncInterval"),
        ("PresentFlags", "PresentFlags"),
        ("AllowsTearing", "AllowsTearing"),
        ("PresentMode", "PresentMode"),
    ];

    #[test]
    fn presentmon_2_1_and_2_2_frame_time_is_read_like_ms_between_app_start() {
        // PresentMon 2.1 and 2.2 (and 2.3 on with --v2_metrics) write FrameTime =
        // CPUBusy + CPUWait: from this frame's CPU start to the next one's, as
        // MsBetweenAppStart in 2.3 on; DisplayLatency counts from the CPU start in both.
        let mut columns = COMMON_2X.to_vec();
        columns.extend([
            ("CPUStartTime", "CPUStartTime"),
            ("FrameTime", "MsBetweenAppStart"),
            ("CPUBusy", "MsCPUBusy"),
            ("CPUWait", "MsCPUWait"),
            ("DisplayLatency", "DisplayLatency"),
            ("DisplayedTime", "DisplayedTime"),
            ("AnimationError", "MsAnimationError"),
        ]);
        let v22 = relayout(PRESENTMON2, &columns, &[]);
        let trace = parse(&v22, "pm.csv", &options(None)).unwrap();
        let v23 = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, v23.frame_times_ns);
        assert_eq!(trace.display_ns, v23.display_ns);
        assert_eq!(
            trace.notes.last().unwrap(),
            "pm.csv: frame times from FrameTime (CPU start to CPU start), display times from \
             DisplayLatency; 1 of 9 frames never shown"
        );
        assert!(trace.notes[1].ends_with("previous row has no FrameTime value (NA or empty)"));
        // --process is honoured (it used to be ignored, every application's rows mixed).
        let dwm = parse(&v22, "pm.csv", &options(Some("dwm"))).unwrap();
        assert_eq!(dwm.frame_times_ns, [50_000_100; 3]);
    }

    #[test]
    fn presentmon_2_0_cpu_busy_plus_cpu_wait_is_the_frame_time_and_zeros_mean_never_shown() {
        // PresentMon 2.0 wrote no FrameTime, only its parts, and 0 (not NA) in DisplayLatency
        // and DisplayedTime for a frame never shown.
        let mut columns = COMMON_2X.to_vec();
        columns[3] = ("Runtime", "PresentRuntime");
        columns.extend([
            ("CPUStartTime", "CPUStartTime"),
            ("CPUBusy", "MsCPUBusy"),
            ("CPUWait", "MsCPUWait"),
            ("DisplayLatency", "DisplayLatency"),
            ("DisplayedTime", "DisplayedTime"),
        ]);
        let v20 = relayout(PRESENTMON2, &columns, &["DisplayLatency", "DisplayedTime"]);
        assert!(v20.contains(",0.0000,0.0000\n"), "{v20}");
        let trace = parse(&v20, "pm.csv", &options(None)).unwrap();
        let v23 = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, v23.frame_times_ns);
        assert_eq!(trace.display_ns, v23.display_ns);
        assert_eq!(
            trace.notes.last().unwrap(),
            "pm.csv: frame times from CPUBusy + CPUWait (CPU start to CPU start), display times \
             from DisplayLatency; 1 of 9 frames never shown"
        );
        // A bad part names its own column; a sum out of range names both.
        let text = with_field(&v20, 5, "CPUWait", "soon");
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv:5, column 11 (CPUWait): frame time \"soon\" is not a number"
        );
        let text = with_field(
            &with_field(&v20, 5, "CPUWait", "40000"),
            5,
            "CPUBusy",
            "30000",
        );
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv:5, columns 10 and 11 (CPUBusy + CPUWait): frame time 30000 + 40000 ms is out \
             of range (allowed 0 to 60000 ms)"
        );
    }

    #[test]
    fn presentmon_2_0_to_2_2_with_an_unknown_process_is_refused() {
        // The file of the issue: PresentMon 2.2 columns, read as MangoHud before.
        let text = "Application,ProcessID,CPUStartTime,FrameTime,CPUBusy\n\
                    Game.exe,1,0,16.7,5\n\
                    dwm.exe,2,0,1000,1\n\
                    Game.exe,1,16.7,16.7,5\n";
        let err = parse(text, "pm2.csv", &options(Some("nosuch.exe"))).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm2.csv: no PresentMon rows for application \"nosuch.exe\"; applications present: \
             Game.exe (2 rows), dwm.exe (1 row)"
        );
    }

    #[test]
    fn bad_values_of_applications_not_chosen_do_not_matter() {
        let text = "Application,MsBetweenPresents\ngame.exe,16\ndwm.exe,soon\ngame.exe,17\n";
        let trace = parse(text, "pm.csv", &options(Some("game"))).unwrap();
        assert_eq!(trace.frame_times_ns, [16_000_000, 17_000_000]);
        let trace = parse(text, "pm.csv", &options(None)).unwrap();
        assert_eq!(trace.frame_times_ns, [16_000_000, 17_000_000]);
        let err = parse(text, "pm.csv", &options(Some("dwm"))).unwrap_err();
        assert!(err.to_string().starts_with("pm.csv:3, column 2"), "{err}");
    }

    #[test]
    fn an_exact_name_beats_one_with_exe_added_wherever_it_comes() {
        let text = "Application,MsBetweenPresents\ngame.exe,16\nGAME,33\n";
        let trace = parse(text, "pm.csv", &options(Some("game"))).unwrap();
        assert_eq!(trace.frame_times_ns, [33_000_000]);
    }

    #[test]
    fn duplicate_columns_are_refused_by_name() {
        let text = "Application,MsBetweenPresents,msbetweenpresents\ng.exe,16,17\n";
        let err = parse(text, "pm.csv", &options(None)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "pm.csv:1: the header has two \"MsBetweenPresents\" columns (2 and 3); which one to \
             read is unclear"
        );
        // A column that is not read may be there twice.
        let text = "Application,Runtime,Runtime,MsBetweenPresents\ng.exe,a,b,16\n";
        assert!(parse(text, "pm.csv", &options(None)).is_ok());
    }

    #[test]
    fn many_warnings_are_counted_not_all_kept() {
        let mut text = "Application,MsBetweenPresents\ng.exe,16\n".to_owned();
        for _ in 0..25 {
            text.push_str("warning: 3 events were lost\n");
        }
        let trace = parse(&text, "pm.csv", &options(Some("g.exe"))).unwrap();
        assert_eq!(trace.notes.len(), MAX_WARNINGS + 1);
        assert_eq!(
            trace.notes.last().unwrap(),
            "pm.csv: and 15 more PresentMon warnings"
        );
    }

    #[test]
    fn a_file_with_endless_applications_is_refused() {
        let mut text = "Application,MsBetweenPresents\n".to_owned();
        for index in 0..=MAX_SWAP_CHAINS {
            text.push_str(&format!("app{index}.exe,16\n"));
        }
        let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
        assert!(matches!(err, TraceError::TooManySwapChains { .. }), "{err}");
    }
}

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
//! A 2.x capture's first row has no frame time (its interval times the next frame), but
//! its CPU start is the timeline's 0 and its display delay, when it was shown, is kept as
//! the timeline's anchor ([`FrameTrace::display_anchor_ns`]): PresentMon measures the
//! second row's animation error from it.
//!
//! A frame was never shown when its display columns are `NA` or empty, its `DisplayedTime` is
//! 0 with a display delay of 0 (2.0 wrote zeros where later versions write `NA`; a shown
//! frame replaced in the same refresh has a `DisplayedTime` of 0 too, but a delay), or its
//! `Dropped` is `1` (1.x writes `MsUntilDisplayed` 0 for dropped frames, so `Dropped` wins).

mod capture;
mod columns;
#[cfg(test)]
mod tests;

use std::io::BufRead;

use self::capture::{Capture, choose_swap_chain};
use self::columns::{Layout, Reference};
use super::csv::{Header, Records};
use super::error::{Place, shown, shown_within};
use super::{FrameTrace, LoadOptions, TraceError};

/// Header fields only PresentMon (and tools that write its layout) write: a file whose first
/// line has one of them is read as PresentMon. `FrameTime` is not one: MangoHud's `frametime`
/// is the same word.
pub(super) const MARKERS: [&str; 6] = [
    "Application",
    "ProcessName",
    PROCESS_COLUMN,
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
/// The process of a row: a swap chain is an address within one process.
const PROCESS_COLUMN: &str = "ProcessID";
/// Most applications plus swap chains a file may have: a capture has a handful, and each one
/// costs memory whether or not it is chosen.
const MAX_SWAP_CHAINS: usize = 10_000;
/// PresentMon warnings kept as notes; the rest are counted.
const MAX_WARNINGS: usize = 10;
/// Longest PresentMon warning quoted in a note.
const MAX_WARNING_CHARS: usize = 200;
/// A display delay that says "never shown" in [`capture::SwapChain::display_ns`] (real delays
/// are at most a minute).
const NEVER_SHOWN: u64 = u64::MAX;

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
    let process_column = header.find(&[PROCESS_COLUMN])?;

    let mut capture = Capture::new(options.process.as_deref().map(str::trim));
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
            process_column,
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
    let display_anchor_ns = chain.anchor_ns.filter(|_| display_ns.is_some());
    Ok(FrameTrace {
        source: origin.to_owned(),
        frame_times_ns: chain.frames_ns,
        display_ns,
        display_anchor_ns,
        notes,
    })
}

//! Which columns of a PresentMon file the frame times and display delays come from, and
//! what a row's fields in them say: a frame time, a display delay, or none.

use std::io::BufRead;

use super::{
    APP_START_COLUMN, CPU_BUSY_COLUMN, CPU_BUSY_V2_COLUMN, CPU_WAIT_V2_COLUMN,
    DISPLAY_LATENCY_COLUMN, DISPLAYED_TIME_COLUMN, DROPPED_COLUMN, FRAME_TIME_COLUMN,
    PRESENTS_COLUMN, UNTIL_DISPLAYED_COLUMN,
};
use crate::trace::TraceError;
use crate::trace::csv::{Header, Records, sum_ns};
use crate::trace::error::{Column, Place, Quantity};

/// The event whose intervals the frame times measure, and from which display delays count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reference {
    /// The CPU starting work on a frame (PresentMon 2.x).
    CpuStart,
    /// The `Present()` call (`MsBetweenPresents`).
    Present,
}

/// Columns whose values are added up (a frame time or a display delay) and how notes name
/// them.
#[derive(Debug, Default)]
pub(super) struct Sum {
    /// The columns' indices.
    indices: Vec<usize>,
    /// The columns for messages, in the same order.
    columns: Vec<Column>,
    /// Their PresentMon names joined with ` + `, e.g. `MsCPUBusy + MsUntilDisplayed`.
    pub(super) names: String,
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

    pub(super) fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }
}

/// Which columns of a PresentMon file the frame times and display delays come from.
#[derive(Debug)]
pub(super) struct Layout {
    /// What the frame times measure.
    pub(super) reference: Reference,
    /// The frame-time column(s).
    pub(super) frame: Sum,
    /// The columns whose sum is a frame's display delay; empty when the file has none.
    pub(super) display: Sum,
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
    pub(super) fn new(header: &Header) -> Result<Layout, TraceError> {
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
    pub(super) fn measure<R: BufRead>(&self, records: &Records<R>, place: Place) -> Measured {
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
    pub(super) fn display_delay_ns<R: BufRead>(
        &self,
        records: &Records<R>,
        place: Place,
    ) -> Result<Option<u64>, TraceError> {
        let dropped = self
            .dropped_column
            .is_some_and(|column| records.field(column) == "1");
        let displayed_time = self
            .displayed_time_column
            .map(|column| records.field(column));
        let missing = self
            .display
            .indices
            .iter()
            .any(|&index| is_missing(&records.field(index)));
        if dropped || missing || displayed_time.as_deref().is_some_and(is_missing) {
            return Ok(None);
        }
        let place = Place {
            columns: &self.display.columns,
            ..place
        };
        let delay = sum_ns(
            records,
            &self.display.indices,
            &place,
            Quantity::DisplayDelay,
        )?;
        // PresentMon 2.0 wrote zeros, not NA, for a frame never shown. A shown frame that
        // the next one replaced in the same refresh also has a DisplayedTime of 0, but its
        // display delay is not.
        let zero_displayed = displayed_time.is_some_and(|time| time.parse::<f64>() == Ok(0.0));
        Ok((!(zero_displayed && delay == 0)).then_some(delay))
    }

    /// The note on which columns were used, or `None` when the file is read as PresentMon 1.x
    /// files without display columns always were (nothing new to say).
    pub(super) fn note(&self, origin: &str, display: Option<&[Option<u64>]>) -> Option<String> {
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
pub(super) enum Measured {
    /// `NA` or empty.
    Missing,
    /// A frame time in ns.
    Ns(u64),
    /// Not a number, or out of range.
    Bad(TraceError),
}

/// Whether PresentMon left a field without a value (`NA`, or empty).
fn is_missing(value: &str) -> bool {
    value.is_empty() || value.eq_ignore_ascii_case("NA")
}

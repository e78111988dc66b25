//! Frame-time traces: sequences of real frame times that drive the headless bench.
//!
//! A trace comes from a file or a generator. Files are recognised by their content, not their
//! extension, each by a header only it writes:
//!
//! - **plain**: one frame time in milliseconds per line, `#` starting a comment; or a CSV whose
//!   header has a `frame_time_ms` column (what [`write_csv`] writes).
//! - **PresentMon** CSV, any generation: a header with `Application` (or `ProcessName`) and a
//!   frame-time column: `MsBetweenPresents` (1.x), `CPUBusy` and `CPUWait` (2.0), `FrameTime`
//!   (2.1, 2.2) or `MsBetweenAppStart` (2.3 on). Rows of several processes and swap chains are
//!   mixed, so one application is chosen ([`LoadOptions::process`], else the one with the
//!   most rows), then one of its swap chains ([`LoadOptions::swap_chain`], else the one with
//!   the most rows). Frame times are CPU start to CPU start (the previous row's interval) in
//!   PresentMon 2.x files, else `MsBetweenPresents`; rows without one (the first of a swap
//!   chain, `NA`) are skipped. When the file says when each frame reached the screen
//!   (`MsUntilDisplayed`, `DisplayLatency`), [`FrameTrace::display_ns`] holds it.
//! - **MangoHud** CSV: a system-information preamble, then a header with `frametime` in ms.
//!
//! Generators ([`GeneratedTrace`], [`generate()`]) make `steady`, `jitter`, `hitch` and
//! `ramp` traces from a short spec; they are seeded ([`Rng`]) and give the same trace on
//! every platform. A generated trace makes its frames as they are gone through, so the bench
//! holds none of them ([`FrameSource`]).
//!
//! Files are streamed, record by record, through the `csv` crate's parser: memory follows the
//! frames kept, not the size of the file, and no line may be longer than [`MAX_LINE_BYTES`].
//! Text is UTF-8 or UTF-16 (with or without a byte-order mark); `\r\n`, `\n` and a lone `\r`
//! all end a line.
//!
//! Frame times are whole nanoseconds, converted once from milliseconds with
//! `(ms * 1e6).round()`, so the bench's integer time accounting starts exact. Every value is
//! checked to be a number from 0 to [`MAX_FRAME_TIME_MS`]; errors name the file, the line, the
//! column and the value, with control characters escaped so that no file can drive the
//! terminal. Things the user should know but that are not errors (which application was
//! chosen, how many rows were skipped) are returned as [`FrameTrace::notes`].

mod csv;
mod detect;
mod error;
mod generate;
mod input;
mod mangohud;
mod plain;
mod presentmon;
mod recording_file;
mod source;

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::Path;

use self::csv::{Dialect, Records};
use self::detect::Format;
use self::input::{FirstRead, Normalised};

pub use error::{Column, TraceError};
pub use generate::{
    DEFAULT_DURATION_S, DEFAULT_JITTER_SEED, GENERATORS, GeneratedFrames, GeneratedTrace,
    MAX_DURATION_S, MAX_GENERATED_FRAMES, generate,
};
pub use recording_file::{
    MAX_RECORDED_FRAME_MS, RECORDING_COLUMNS, RECORDING_MARK, RecordingHead, RecordingRows,
    exact_ns, is_recording, ms_text, open_recording_rows, starts_with_recording_mark,
};
pub use source::FrameSource;
pub use timestep_lab_core::rng::Rng;

/// Longest frame time accepted, in milliseconds. A minute is far beyond any real hitch, so a
/// larger value almost always means a unit mistake (µs or ns where ms were expected).
pub const MAX_FRAME_TIME_MS: f64 = 60_000.0;

/// Longest line of a trace file, and most bytes in one CSV row, after decoding. PresentMon's
/// widest rows are a few hundred bytes; a longer line means the file is no trace (or has no
/// line breaks at all, like `/dev/zero`), and refusing it keeps memory bounded.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Most fields in one CSV row. PresentMon writes about 30 columns and MangoHud about 40.
pub const MAX_FIELDS: usize = 4096;

/// The column [`write_csv`] writes and plain CSV files are read from.
pub const FRAME_TIME_COLUMN: &str = "frame_time_ms";

/// A sequence of frame times with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameTrace {
    /// Human-readable source: file path, or the generator spec with duration, e.g.
    /// "jitter:60:2:7 (10 s)"; control characters escaped in both.
    pub source: String,
    /// Frame times in nanoseconds, in order.
    pub frame_times_ns: Vec<u64>,
    /// Per frame, when the capture says its image reached the screen, as the time from the
    /// frame's reference event (the event whose intervals `frame_times_ns` measures) to the
    /// display, ns; `None` for a frame never shown. `None` overall when the trace has no
    /// display times (plain, MangoHud, generated, PresentMon without display columns).
    ///
    /// When `Some`, its length equals `frame_times_ns.len()`.
    pub display_ns: Option<Vec<Option<u64>>>,
    /// The display delay of the capture's row before the first frame, when it was shown: a
    /// PresentMon 2.x capture's first row has no frame time of its own (its interval is the
    /// next frame's), but its CPU start is the timeline's 0 and its display time anchors the
    /// animation error of the first frame, as in PresentMon. `None` otherwise.
    pub display_anchor_ns: Option<u64>,
    /// Things the loader wants the user to know (printed on stderr by the CLI), e.g. which
    /// PresentMon process was chosen and how many NA rows were skipped.
    pub notes: Vec<String>,
}

impl FrameTrace {
    /// Number of frames.
    pub fn len(&self) -> usize {
        self.frame_times_ns.len()
    }

    /// Whether there are no frames (loaders and generators never return such a trace).
    pub fn is_empty(&self) -> bool {
        self.frame_times_ns.is_empty()
    }

    /// Sum of the frame times in nanoseconds (saturating, which no real trace reaches).
    pub fn total_ns(&self) -> u64 {
        self.frame_times_ns
            .iter()
            .fold(0_u64, |total, &frame| total.saturating_add(frame))
    }

    /// Sum of the frame times in seconds, for display.
    pub fn wall_time_s(&self) -> f64 {
        self.total_ns() as f64 / 1e9
    }

    /// The capture's display times, when it has them.
    pub fn display_times(&self) -> Option<DisplayTimes<'_>> {
        self.display_ns.as_deref().map(|frames| DisplayTimes {
            frames,
            anchor: self.display_anchor_ns,
        })
    }

    /// A trace read from `origin` with no display times and nothing to note.
    fn from_file(origin: &str, frame_times_ns: Vec<u64>) -> FrameTrace {
        FrameTrace {
            source: origin.to_owned(),
            frame_times_ns,
            display_ns: None,
            display_anchor_ns: None,
            notes: Vec::new(),
        }
    }
}

/// A capture's own display times, as `--display trace` uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisplayTimes<'a> {
    /// Per frame, the time from its start to the screen, ns; `None` if never shown (see
    /// [`FrameTrace::display_ns`]).
    pub frames: &'a [Option<u64>],
    /// When the frame before the first reached the screen, from the timeline's 0 (see
    /// [`FrameTrace::display_anchor_ns`]).
    pub anchor: Option<u64>,
}

/// How to read a trace file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// PresentMon only: the application whose rows to use (ASCII case ignored; `game` also
    /// finds `Game.exe`). `None` uses the application with the most rows. Given for another
    /// format, it is an error.
    pub process: Option<String>,
    /// PresentMon only: the swap chain of the chosen application whose rows to use, as its
    /// `SwapChainAddress` (ASCII case ignored; `0x1A2B`, `1a2b` and `0x00001A2B` are the same
    /// address). `None` uses the swap chain with the most rows. Given for another format, it
    /// is an error.
    pub swap_chain: Option<String>,
}

/// A trace file format, for [`read_as`], which reads a text as that format instead of
/// detecting one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceFormat {
    /// One frame time in ms per line, `#` starting a comment.
    Plain,
    /// The lab's own CSV: a header with a [`FRAME_TIME_COLUMN`] column (what [`write_csv`]
    /// writes).
    FrameTimeCsv,
    /// A PresentMon CSV, any generation.
    PresentMon,
    /// A MangoHud CSV: its header is the first line with a `frametime` column among the first
    /// lines (a system-information preamble may come before it).
    MangoHud,
}

/// Reads a trace file, detects its format from its content and parses it.
pub fn load(path: &Path, options: &LoadOptions) -> Result<FrameTrace, TraceError> {
    load_with_wait_notice(path, options, |_| {})
}

/// [`load`], calling `on_wait` with the path (as messages show it) when the file has given no
/// data for a second: a named pipe whose writer has not started blocks until it does, and the
/// user should know why nothing happens. `on_wait` runs on another thread, at most once.
pub fn load_with_wait_notice(
    path: &Path,
    options: &LoadOptions,
    on_wait: impl FnOnce(&str) + Send + 'static,
) -> Result<FrameTrace, TraceError> {
    let origin = timestep_lab_core::text::escape_path(path);
    let shown = origin.clone();
    let file = FirstRead::open(|| File::open(path), move || on_wait(&shown)).map_err(|source| {
        TraceError::Read {
            path: origin.clone(),
            source,
        }
    })?;
    read_trace(file, &origin, options, None)
}

/// Detects the format of `text` and parses it; `source` names it in messages and becomes
/// [`FrameTrace::source`].
pub fn parse(text: &str, source: &str, options: &LoadOptions) -> Result<FrameTrace, TraceError> {
    read(text.as_bytes(), source, options)
}

/// Reads a trace from `reader` (UTF-8 or UTF-16 text, streamed), detects its format and
/// parses it; `source` names it in messages and becomes [`FrameTrace::source`].
pub fn read(
    reader: impl Read,
    source: &str,
    options: &LoadOptions,
) -> Result<FrameTrace, TraceError> {
    read_trace(reader, &error::escape(source), options, None)
}

/// [`read`] as the format `format`, without detecting one: the text is decoded, its lines
/// capped and its values checked just the same, and a text of another format gets that
/// format's errors (a missing column, a value that is not a number). For callers that know
/// what they read, and for the fuzz targets (`fuzz/`), which test each format's reader on its
/// own.
pub fn read_as(
    reader: impl Read,
    source: &str,
    format: TraceFormat,
    options: &LoadOptions,
) -> Result<FrameTrace, TraceError> {
    read_trace(reader, &error::escape(source), options, Some(format))
}

/// [`read`] with `origin` already fit for messages, as the format `wanted` if given, else as
/// the one detected.
fn read_trace(
    reader: impl Read,
    origin: &str,
    options: &LoadOptions,
    wanted: Option<TraceFormat>,
) -> Result<FrameTrace, TraceError> {
    let (text, encoding) = input::decode(reader, origin)?;
    let mut text = BufReader::with_capacity(64 * 1024, Normalised::new(text, origin));
    let prefix = input::peek(&mut text, origin)?;
    let format = match wanted {
        Some(wanted) => detect::forced(wanted, &prefix),
        None => detect::detect(&prefix, origin)?,
    };
    if format != Format::PresentMon {
        let option = match options {
            LoadOptions {
                process: Some(_), ..
            } => Some("--process"),
            LoadOptions {
                swap_chain: Some(_),
                ..
            } => Some("--swap-chain"),
            _ => None,
        };
        if let Some(option) = option {
            return Err(TraceError::PresentMonOption {
                origin: origin.to_owned(),
                option,
                format: format.described(),
            });
        }
    }
    let dialect = match format {
        Format::Plain => Dialect::Lines,
        _ => Dialect::Csv,
    };
    let first_line = prefix.first_line;
    let rest = std::io::Cursor::new(prefix.text).chain(text);
    let mut records = Records::new(rest, dialect, first_line, origin);
    let mut trace = match format {
        Format::Plain => plain::parse_lines(&mut records, origin)?,
        Format::PlainCsv => plain::parse_csv(&mut records, origin)?,
        Format::PresentMon => presentmon::parse(&mut records, origin, options)?,
        Format::MangoHud { header_line } => mangohud::parse(&mut records, origin, header_line)?,
    };
    if trace.is_empty() {
        return Err(TraceError::Empty {
            origin: origin.to_owned(),
        });
    }
    if trace.total_ns() == 0 {
        return Err(TraceError::NoTimePasses {
            origin: origin.to_owned(),
            frames: trace.len(),
        });
    }
    if let Some(note) = input::encoding_note(encoding, origin) {
        trace.notes.insert(0, note);
    }
    Ok(trace)
}

/// Writes the lab's own recording format: `#` comment lines naming the source, a
/// `frame_time_ms` header, then one frame time per line with 6 decimals, which is exact for
/// whole nanoseconds, so [`parse`] reads back the same values.
pub fn write_csv(trace: &FrameTrace, out: &mut impl Write) -> std::io::Result<()> {
    // A line break in the source would end the comment and turn the rest into data; other
    // control characters are escaped (a NUL would make the file look binary).
    let source = error::escape(&trace.source.replace(['\r', '\n'], " "));
    writeln!(out, "# frame-time trace written by timestep-lab")?;
    writeln!(out, "# source: {source}")?;
    writeln!(
        out,
        "# frames: {}, total: {:.6} s",
        trace.len(),
        trace.wall_time_s()
    )?;
    let mut writer = ::csv::Writer::from_writer(out);
    writer.write_record([FRAME_TIME_COLUMN])?;
    for &ns in &trace.frame_times_ns {
        writer.write_record([format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000)])?;
    }
    writer.flush()
}

#[cfg(test)]
mod tests;

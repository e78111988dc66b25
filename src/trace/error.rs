//! Everything that can go wrong reading or generating a trace.

/// Why a trace could not be read, parsed or generated.
///
/// Messages name the source (a file path or a generator spec) and, for file contents, the
/// 1-based line, so the user can open the file at the offending value.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// The file could not be read.
    #[error("cannot read trace file {path}")]
    Read {
        /// The path as given.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },

    /// A frame time that does not parse as a number.
    #[error("{origin}:{line}: frame time \"{value}\" is not a number")]
    NotANumber {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The offending text (shortened if very long).
        value: String,
    },

    /// A frame time outside [0, [`MAX_FRAME_TIME_MS`](super::MAX_FRAME_TIME_MS)] ms, or not
    /// finite.
    #[error(
        "{origin}:{line}: frame time {value} ms is out of range (allowed 0 to {max} ms)",
        max = super::MAX_FRAME_TIME_MS
    )]
    OutOfRange {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The offending value in milliseconds, as written (shortened if very long).
        value: String,
    },

    /// A display delay (PresentMon's `MsUntilDisplayed`, `MsCPUBusy` or `DisplayLatency`) that
    /// does not parse as a number.
    #[error("{origin}:{line}: display delay \"{value}\" is not a number")]
    DisplayNotANumber {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The offending text (shortened if very long).
        value: String,
    },

    /// A display delay, or a part of one, outside [0,
    /// [`MAX_FRAME_TIME_MS`](super::MAX_FRAME_TIME_MS)] ms, or not finite.
    #[error(
        "{origin}:{line}: display delay {value} ms is out of range (allowed 0 to {max} ms)",
        max = super::MAX_FRAME_TIME_MS
    )]
    DisplayOutOfRange {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The offending value in milliseconds as written, or the parts of a sum joined with
        /// ` + ` (shortened if very long).
        value: String,
    },

    /// A CSV row whose number of fields differs from its header's.
    #[error(
        "{origin}:{line}: row has {found} columns, expected {expected} like the header on line \
         {header_line}"
    )]
    ColumnCount {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number of the row.
        line: usize,
        /// Fields in the row.
        found: usize,
        /// Fields in the header.
        expected: usize,
        /// 1-based line number of the header.
        header_line: usize,
    },

    /// A recognised CSV header that lacks a column the format needs.
    #[error("{origin}:{line}: {format} header has no {expected} column")]
    MissingColumn {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number of the header.
        line: usize,
        /// The format the header was recognised as, e.g. "PresentMon".
        format: &'static str,
        /// The column(s) looked for, quoted, e.g. `"Application" or "ProcessName"`.
        expected: &'static str,
    },

    /// Text that is neither plain frame times nor a known CSV layout.
    #[error(
        "{origin}:{line}: unrecognised header \"{header}\": expected one frame time in ms per \
         line, or a CSV header with a frame_time_ms (plain), MsBetweenPresents (PresentMon) or \
         frametime (MangoHud) column"
    )]
    UnrecognisedFormat {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number of the first data line.
        line: usize,
        /// That line (shortened if very long).
        header: String,
    },

    /// `--process` named an application that has no rows in the PresentMon file.
    #[error(
        "{origin}: no PresentMon rows for application \"{requested}\"; applications present: \
         {available}"
    )]
    UnknownProcess {
        /// The file path or other source name.
        origin: String,
        /// The name asked for.
        requested: String,
        /// The applications in the file with their row counts, most first, e.g.
        /// `Game.exe (600 rows), dwm.exe (12 rows)`.
        available: String,
    },

    /// `--swap-chain` named a swap chain that the chosen application did not present to.
    #[error(
        "{origin}: no PresentMon rows of \"{application}\" for swap chain \"{requested}\"; swap \
         chains of \"{application}\": {available}"
    )]
    UnknownSwapChain {
        /// The file path or other source name.
        origin: String,
        /// The chosen application.
        application: String,
        /// The address asked for.
        requested: String,
        /// The application's swap chains with their row counts, most first, e.g.
        /// `0x000001D2A3B4C5D0 (600 rows), 0x000001D2A3B4C9F0 (3 rows)`, or why there are none.
        available: String,
    },

    /// A source that holds no frame times at all.
    #[error("{origin}: the trace has no frame times")]
    Empty {
        /// The file path or other source name.
        origin: String,
    },

    /// A generator spec whose name is not one of [`GENERATORS`](super::GENERATORS).
    #[error(
        "unknown generator \"{name}\" in \"{spec}\"; expected one of steady, jitter, hitch, ramp \
         (e.g. steady:60, jitter:60:2, hitch:60:100:2, ramp:30:120)"
    )]
    UnknownGenerator {
        /// The spec as given.
        spec: String,
        /// Its first field.
        name: String,
    },

    /// A generator spec with too few or too many fields.
    #[error("generator \"{spec}\" has {found} fields; expected {syntax}")]
    GeneratorSyntax {
        /// The spec as given.
        spec: String,
        /// Fields found, the name included.
        found: usize,
        /// The expected syntax, e.g. `jitter:HZ:SD_MS[:SEED]`.
        syntax: &'static str,
    },

    /// A generator field that does not parse.
    #[error("generator \"{spec}\": {field} \"{value}\" is not {expected}")]
    GeneratorNotANumber {
        /// The spec as given.
        spec: String,
        /// The field's name in the syntax, e.g. `HZ`.
        field: &'static str,
        /// The field as written (shortened if very long).
        value: String,
        /// What was expected, e.g. "a decimal number such as 60 or 59.94".
        expected: &'static str,
    },

    /// A generator spec and duration that would make an unreasonable number of frames.
    #[error(
        "generator \"{spec}\" would make more than {limit} frames; use a shorter duration or \
         longer frames"
    )]
    TooManyFrames {
        /// The spec as given.
        spec: String,
        /// The most frames a generator makes.
        limit: u64,
    },

    /// A generator field, or the duration, outside its allowed range.
    #[error("generator \"{spec}\": {field} {value} is out of range (allowed {allowed})")]
    GeneratorRange {
        /// The spec as given.
        spec: String,
        /// The field's name in the syntax, e.g. `HZ`, or `duration`.
        field: &'static str,
        /// The value as written (shortened if very long).
        value: String,
        /// The allowed range, in words with units.
        allowed: &'static str,
    },
}

/// Longest piece of user text quoted in a message; a whole binary file in one error helps no one.
const MAX_QUOTED_CHARS: usize = 60;

/// Shortens `text` for quoting in an error message.
pub(super) fn quoted(text: &str) -> String {
    if text.chars().count() <= MAX_QUOTED_CHARS {
        text.to_owned()
    } else {
        let mut short: String = text.chars().take(MAX_QUOTED_CHARS).collect();
        short.push('…');
        short
    }
}

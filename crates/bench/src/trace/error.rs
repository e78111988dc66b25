//! Everything that can go wrong reading or generating a trace, and how text from a file is
//! shown in a message.

pub(crate) use timestep_lab_core::text::escape;

/// Why a trace could not be read, parsed or generated.
///
/// Messages name the source (a file path or a generator spec) and, for file contents, the
/// 1-based line and, in a CSV, the column, so the user can open the file at the offending
/// value. Text from the file is shown through `shown`, so it cannot drive the terminal.
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

    /// A file that is not text: it starts with a NUL byte and is not UTF-16.
    #[error(
        "{origin}: not a text trace: it starts with NUL bytes, as binary files (or /dev/zero) do"
    )]
    NotText {
        /// The file path or other source name.
        origin: String,
    },

    /// A NUL byte inside the text (its first bytes were text).
    #[error(
        "{origin}:{line}: a NUL byte (0x00) at column {column}: no text trace holds one; is the \
         file binary, or cut short by a crash?"
    )]
    NulByte {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// 1-based byte of the line.
        column: usize,
    },

    /// A line longer than [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES).
    #[error(
        "{origin}:{line}: line is longer than {limit} bytes, the longest a trace line may be; \
         is this a text trace with line breaks?"
    )]
    LineTooLong {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The limit in bytes.
        limit: usize,
    },

    /// A CSV record (which may span lines through a quoted field) whose fields hold more than
    /// [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES), or that has more than
    /// [`MAX_FIELDS`](super::MAX_FIELDS) fields.
    #[error(
        "{origin}:{line}: the row starting here has more than {limit} {what}, the most a trace \
         row may have; is a quote (\") left open?"
    )]
    RecordTooLong {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number where the record starts.
        line: usize,
        /// The limit.
        limit: usize,
        /// What was counted: "bytes" or "fields".
        what: &'static str,
    },

    /// A frame time that does not parse as a number.
    #[error("{origin}:{line}{}: frame time \"{value}\" is not a number{}", at(.columns), decimal_comma_hint(.value))]
    NotANumber {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The column(s) the value was read from; empty in a file of plain lines.
        columns: Vec<Column>,
        /// The offending text, as `shown`.
        value: String,
    },

    /// A frame time outside [0, [`MAX_FRAME_TIME_MS`](super::MAX_FRAME_TIME_MS)] ms, or not
    /// finite.
    #[error(
        "{origin}:{line}{}: frame time {value} ms is out of range (allowed 0 to {max} ms)",
        at(.columns),
        max = super::MAX_FRAME_TIME_MS
    )]
    OutOfRange {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The column(s) the value was read from; empty in a file of plain lines.
        columns: Vec<Column>,
        /// The offending value in milliseconds, as written, or the parts of a sum joined with
        /// ` + ` (`shown`).
        value: String,
    },

    /// A display delay (PresentMon's `MsUntilDisplayed`, `MsCPUBusy` or `DisplayLatency`) that
    /// does not parse as a number.
    #[error("{origin}:{line}{}: display delay \"{value}\" is not a number{}", at(.columns), decimal_comma_hint(.value))]
    DisplayNotANumber {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The column the value was read from.
        columns: Vec<Column>,
        /// The offending text, as `shown`.
        value: String,
    },

    /// A display delay, or a part of one, outside [0,
    /// [`MAX_FRAME_TIME_MS`](super::MAX_FRAME_TIME_MS)] ms, or not finite.
    #[error(
        "{origin}:{line}{}: display delay {value} ms is out of range (allowed 0 to {max} ms)",
        at(.columns),
        max = super::MAX_FRAME_TIME_MS
    )]
    DisplayOutOfRange {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The column(s) the value was read from.
        columns: Vec<Column>,
        /// The offending value in milliseconds as written, or the parts of a sum joined with
        /// ` + ` (`shown`).
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

    /// A header that names a column the reader needs twice, so which one holds the values is
    /// unclear.
    #[error(
        "{origin}:{line}: the header has two \"{name}\" columns ({first} and {second}); which \
         one to read is unclear"
    )]
    DuplicateColumn {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number of the header.
        line: usize,
        /// The column's name as the header first writes it (`shown`).
        name: String,
        /// 1-based number of the first such column.
        first: usize,
        /// 1-based number of the second.
        second: usize,
    },

    /// Text that is neither plain frame times nor a known CSV layout.
    #[error(
        "{origin}:{line}: unrecognised header \"{header}\": expected one frame time in ms per \
         line, or a CSV header with a frame_time_ms (plain), Application and MsBetweenPresents, \
         MsBetweenAppStart or FrameTime (PresentMon) or frametime (MangoHud) column"
    )]
    UnrecognisedFormat {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number of the first data line.
        line: usize,
        /// That line (`shown`).
        header: String,
    },

    /// Text laid out in a way the lab does not read: separated by `;` or tabs, or with decimal
    /// commas, as spreadsheets in many locales save CSV.
    #[error(
        "{origin}:{line}: \"{sample}\" looks like {looks}; traces must be comma-separated with \
         a decimal point (16.7, not 16,7): save it that way, or use the capture tool's own file"
    )]
    ForeignLayout {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number of the first data line.
        line: usize,
        /// That line (`shown`).
        sample: String,
        /// What the text looks like, e.g. "a ';'-separated PresentMon CSV with decimal commas".
        looks: String,
    },

    /// An option that only applies to PresentMon captures, given for another kind of trace.
    #[error(
        "{origin}: {option} applies to PresentMon captures only (it picks their rows), and this \
         file is {format}"
    )]
    PresentMonOption {
        /// The file path or other source name.
        origin: String,
        /// The option, as the command line spells it: `--process` or `--swap-chain`.
        option: &'static str,
        /// What the file was recognised as, e.g. "a MangoHud CSV".
        format: &'static str,
    },

    /// A PresentMon file with more applications and swap chains than any capture has.
    #[error(
        "{origin}:{line}: more than {limit} different application and swap chain pairs; a \
         PresentMon capture has a handful"
    )]
    TooManySwapChains {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number of the row that went over.
        line: usize,
        /// The most pairs read.
        limit: usize,
    },

    /// `--process` named an application that has no rows in the PresentMon file.
    #[error(
        "{origin}: no PresentMon rows for application \"{requested}\"; applications present: \
         {available}"
    )]
    UnknownProcess {
        /// The file path or other source name.
        origin: String,
        /// The name asked for (`shown`).
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
        /// The chosen application (`shown`).
        application: String,
        /// The address asked for (`shown`).
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

    /// A trace whose frame times are all zero: no time passes, so there is nothing to run.
    #[error(
        "{origin}: all {frames} frame times are 0 ms, so no time passes and there is nothing \
         to simulate"
    )]
    NoTimePasses {
        /// The file path or other source name.
        origin: String,
        /// How many frames the trace has.
        frames: usize,
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

    /// A recording whose content is not what the lab writes.
    #[error("{origin}:{line}: {message}")]
    Recording {
        /// The file path or other source name.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong, with the value (escaped).
        message: String,
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

/// A column of a CSV file that a value was read from, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// 1-based position in the header.
    pub number: usize,
    /// The header's name for it (`shown`).
    pub name: String,
}

/// `, column 10 (MsBetweenAppStart)`, `, columns 11 and 15 (MsCPUBusy + MsUntilDisplayed)`, or
/// nothing for a value that has no column (a file of plain lines).
fn at(columns: &[Column]) -> String {
    match columns {
        [] => String::new(),
        [column] => format!(", column {} ({})", column.number, column.name),
        _ => {
            let numbers: Vec<String> = columns.iter().map(|c| c.number.to_string()).collect();
            let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
            format!(
                ", columns {} ({})",
                numbers.join(" and "),
                names.join(" + ")
            )
        }
    }
}

/// For a value such as `16,7`: a hint that it has a decimal comma.
fn decimal_comma_hint(value: &str) -> String {
    if has_decimal_comma(value) {
        format!(
            "; it looks like a decimal comma: write {}",
            value.replace(',', ".")
        )
    } else {
        String::new()
    }
}

/// Whether `text` is a number written with a decimal comma: digits, one comma, digits (an
/// optional sign first).
pub(super) fn has_decimal_comma(text: &str) -> bool {
    let digits = text.trim().trim_start_matches(['-', '+']);
    let Some((whole, fraction)) = digits.split_once(',') else {
        return false;
    };
    let all_digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    all_digits(whole) && all_digits(fraction)
}

/// Longest piece of file text quoted in a message; a whole binary file in one error helps no one.
const MAX_SHOWN_CHARS: usize = 60;

/// Text from a file (a value, a line, an application name), made safe and short for a
/// message: control characters are [`escape`]d and anything past 60 characters becomes `…`.
pub(super) fn shown(text: &str) -> String {
    shown_within(text, MAX_SHOWN_CHARS)
}

/// [`shown`] with another length limit, for text that is a message of its own (PresentMon's
/// warnings).
pub(super) fn shown_within(text: &str, max_chars: usize) -> String {
    timestep_lab_core::text::escape_within(text, max_chars)
}

/// Where a value was read, for building its errors.
#[derive(Debug, Clone, Copy)]
pub(super) struct Place<'a> {
    /// The file path or other source name.
    pub origin: &'a str,
    /// 1-based line number.
    pub line: usize,
    /// The column(s) the value comes from; empty in a file of plain lines.
    pub columns: &'a [Column],
}

/// What a number in a trace is, for the wording of its errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Quantity {
    /// A frame time.
    FrameTime,
    /// A display delay.
    DisplayDelay,
}

impl Place<'_> {
    /// The error for `value` (as written) that is not a number.
    pub fn not_a_number(&self, quantity: Quantity, value: &str) -> TraceError {
        let (origin, line, columns, value) = self.parts(value);
        match quantity {
            Quantity::FrameTime => TraceError::NotANumber {
                origin,
                line,
                columns,
                value,
            },
            Quantity::DisplayDelay => TraceError::DisplayNotANumber {
                origin,
                line,
                columns,
                value,
            },
        }
    }

    /// The error for `value` (as written) outside 0 to the maximum.
    pub fn out_of_range(&self, quantity: Quantity, value: &str) -> TraceError {
        let (origin, line, columns, value) = self.parts(value);
        match quantity {
            Quantity::FrameTime => TraceError::OutOfRange {
                origin,
                line,
                columns,
                value,
            },
            Quantity::DisplayDelay => TraceError::DisplayOutOfRange {
                origin,
                line,
                columns,
                value,
            },
        }
    }

    fn parts(&self, value: &str) -> (String, usize, Vec<Column>, String) {
        (
            self.origin.to_owned(),
            self.line,
            self.columns.to_vec(),
            shown(value.trim()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_escapes_and_shortens() {
        let long = "\u{1b}".repeat(100);
        let text = shown(&long);
        assert!(!text.contains('\u{1b}'));
        assert!(text.ends_with('…'));
        assert_eq!(text.matches("\\u{1b}").count(), MAX_SHOWN_CHARS);
    }

    #[test]
    fn decimal_commas_are_recognised_only_between_digits() {
        for text in ["16,7", " -0,5 ", "1000,25"] {
            assert!(has_decimal_comma(text), "{text}");
        }
        for text in ["16.7", "16,", ",7", "a,b", "1,2,3", "16, 7", ""] {
            assert!(!has_decimal_comma(text), "{text}");
        }
    }

    #[test]
    fn columns_are_named_in_messages() {
        let one = [Column {
            number: 10,
            name: "MsBetweenAppStart".to_owned(),
        }];
        assert_eq!(at(&one), ", column 10 (MsBetweenAppStart)");
        let two = [
            Column {
                number: 11,
                name: "MsCPUBusy".to_owned(),
            },
            Column {
                number: 15,
                name: "MsUntilDisplayed".to_owned(),
            },
        ];
        assert_eq!(
            at(&two),
            ", columns 11 and 15 (MsCPUBusy + MsUntilDisplayed)"
        );
        assert_eq!(at(&[]), "");
    }
}

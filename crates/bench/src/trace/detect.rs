//! Which format a trace file is, from its first lines: each format is known by a header
//! only it writes, never by a column name that two of them share.

use super::csv::{has_any, split_line};
use super::error::{has_decimal_comma, shown};
use super::input::Prefix;
use super::{FRAME_TIME_COLUMN, TraceError, TraceFormat, mangohud, presentmon};

/// The formats a trace file can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    /// One frame time in ms per line.
    Plain,
    /// The lab's own CSV: a `frame_time_ms` column.
    PlainCsv,
    /// A PresentMon capture (any generation).
    PresentMon,
    /// A MangoHud log, whose header is on `header_line`.
    MangoHud {
        /// 1-based line of the header (after the system-information preamble).
        header_line: usize,
    },
}

impl Format {
    /// What a file of this format is, for messages: "a MangoHud CSV".
    pub fn described(self) -> &'static str {
        match self {
            Format::Plain => "a plain list of frame times",
            Format::PlainCsv => "a frame_time_ms CSV",
            Format::PresentMon => "a PresentMon CSV",
            Format::MangoHud { .. } => "a MangoHud CSV",
        }
    }
}

/// Decides the format from the first meaningful lines of a file.
///
/// - `frame_time_ms` in the first line: the lab's CSV.
/// - A PresentMon column in the first line (`Application`, `ProcessID`, `MsBetweenPresents`,
///   ...): PresentMon. Its `FrameTime` (PresentMon 2.1 and 2.2) is no sign on its own, since
///   MangoHud's `frametime` is the same word.
/// - A number first: plain lines.
/// - `frametime` in one of the first lines: MangoHud, after its preamble.
///
/// Text that is none of these but looks like a spreadsheet's CSV (`;` or tab separators,
/// decimal commas) is refused with what it looks like.
pub(super) fn detect(prefix: &Prefix, origin: &str) -> Result<Format, TraceError> {
    let Some((line, first)) = prefix.lines().next() else {
        return Err(TraceError::Empty {
            origin: origin.to_owned(),
        });
    };
    let header = split_line(first);
    if has_any(&header, &[FRAME_TIME_COLUMN]) {
        return Ok(Format::PlainCsv);
    }
    if has_any(&header, &presentmon::MARKERS) {
        return Ok(Format::PresentMon);
    }
    if plain_value(first).parse::<f64>().is_ok() {
        return Ok(Format::Plain);
    }
    if let Some(header_line) = mangohud_header(prefix) {
        return Ok(Format::MangoHud { header_line });
    }
    let sample = shown(&String::from_utf8_lossy(first));
    if let Some(looks) = looks_like(prefix) {
        return Err(TraceError::ForeignLayout {
            origin: origin.to_owned(),
            line,
            sample,
            looks,
        });
    }
    if header.len() > 1 {
        return Err(TraceError::UnrecognisedFormat {
            origin: origin.to_owned(),
            line,
            header: sample,
        });
    }
    // A single word: plain, whose parser reports it as not a number.
    Ok(Format::Plain)
}

/// The format `wanted`, as [`read_as`](super::read_as) is asked to read it, whatever the text
/// looks like. A MangoHud header is the first of the peeked lines with a `frametime` column,
/// else the first line (whose parser then says that it has no such column).
pub(super) fn forced(wanted: TraceFormat, prefix: &Prefix) -> Format {
    match wanted {
        TraceFormat::Plain => Format::Plain,
        TraceFormat::FrameTimeCsv => Format::PlainCsv,
        TraceFormat::PresentMon => Format::PresentMon,
        TraceFormat::MangoHud => Format::MangoHud {
            header_line: mangohud_header(prefix).unwrap_or(prefix.first_line),
        },
    }
}

/// The line of the first peeked line with MangoHud's `frametime` column.
fn mangohud_header(prefix: &Prefix) -> Option<usize> {
    prefix
        .lines()
        .find(|(_, text)| has_any(&split_line(text), &[mangohud::FRAME_TIME_COLUMN]))
        .map(|(line, _)| line)
}

/// A plain line's value: the text before a `#` comment, trimmed.
pub(super) fn plain_value(line: &[u8]) -> String {
    let value = line.split(|&b| b == b'#').next().unwrap_or_default();
    String::from_utf8_lossy(value.trim_ascii()).into_owned()
}

/// What a file that no reader takes looks like, when it looks like a spreadsheet's CSV: "a
/// ';'-separated PresentMon CSV with decimal commas", "a tab-separated file", "frame times
/// with decimal commas". `None` for anything else.
fn looks_like(prefix: &Prefix) -> Option<String> {
    let lines: Vec<String> = prefix
        .lines()
        .map(|(_, text)| String::from_utf8_lossy(text).into_owned())
        .collect();
    // A separator every line has (spreadsheets write one per column, the header included).
    let separator = [(';', "';'-separated"), ('\t', "tab-separated")]
        .into_iter()
        .find(|(separator, _)| lines.iter().all(|line| line.contains(*separator)));
    let Some((separator, separated)) = separator else {
        // One value per line, such as 16,7 (a header first would make it some other CSV).
        let decimal_commas = has_decimal_comma(&plain_value(lines[0].as_bytes()));
        return decimal_commas.then(|| "frame times with decimal commas".to_owned());
    };
    let fields: Vec<Vec<String>> = lines
        .iter()
        .map(|line| line.split(separator).map(|f| f.trim().to_owned()).collect())
        .collect();
    let what = if has_any(&fields[0], &[FRAME_TIME_COLUMN]) {
        "frame_time_ms CSV"
    } else if has_any(&fields[0], &presentmon::MARKERS) {
        "PresentMon CSV"
    } else if fields
        .iter()
        .any(|row| has_any(row, &[mangohud::FRAME_TIME_COLUMN]))
    {
        "MangoHud CSV"
    } else {
        "file"
    };
    let decimal_commas = fields
        .iter()
        .flatten()
        .any(|field| has_decimal_comma(field));
    Some(format!(
        "a {separated} {what}{}",
        if decimal_commas {
            " with decimal commas"
        } else {
            ""
        }
    ))
}

#[cfg(test)]
mod tests {
    use crate::trace::{LoadOptions, TraceError, parse};

    fn error(text: &str) -> String {
        parse(text, "t.csv", &LoadOptions::default())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn presentmon_2_0_to_2_2_is_told_from_mangohud_by_its_application_column() {
        // FrameTime is MangoHud's frametime, ignoring case; Application is PresentMon's alone.
        let text = "Application,ProcessID,CPUStartTime,FrameTime,CPUBusy\n\
                    Game.exe,1,0,16.7,5\n\
                    dwm.exe,2,0,1000,1\n\
                    Game.exe,1,16.7,16.7,5\n";
        let trace = parse(text, "pm2.csv", &LoadOptions::default()).unwrap();
        assert_eq!(trace.frame_times_ns, [16_700_000]);
        assert!(trace.notes[0].contains("\"Game.exe\""), "{:?}", trace.notes);
        let mangohud = "fps,frametime\n60,16.7\n";
        let trace = parse(mangohud, "mh.csv", &LoadOptions::default()).unwrap();
        assert_eq!(trace.frame_times_ns, [16_700_000]);
    }

    #[test]
    fn spreadsheet_layouts_are_named_instead_of_misread() {
        assert_eq!(
            error("frame_time_ms;note\n16,7;ok\n"),
            "t.csv:1: \"frame_time_ms;note\" looks like a ';'-separated frame_time_ms CSV with \
             decimal commas; traces must be comma-separated with a decimal point (16.7, not \
             16,7): save it that way, or use the capture tool's own file"
        );
        assert!(
            error("Application;ProcessID;MsBetweenPresents\nGame.exe;1;16,7\n")
                .contains("looks like a ';'-separated PresentMon CSV with decimal commas;")
        );
        assert!(
            error("Application\tMsBetweenPresents\nGame.exe\t16.7\n")
                .contains("looks like a tab-separated PresentMon CSV;")
        );
        assert!(
            error("os;cpu\nLinux;x\nfps;frametime\n60;16.7\n")
                .contains("looks like a ';'-separated MangoHud CSV;")
        );
        assert!(error("# ms\n16,7\n33,3\n").contains(
            "t.csv:2: \"16,7\" looks like frame times with decimal commas; traces must be"
        ));
        // A decimal comma further down a plain file: the value's error says it.
        assert_eq!(
            error("16.7\n16,7\n"),
            "t.csv:2: frame time \"16,7\" is not a number; it looks like a decimal comma: write \
             16.7"
        );
    }

    #[test]
    fn text_that_is_no_trace_still_gets_the_unrecognised_header_error() {
        let err = parse("time,value\n1,2\n", "t.csv", &LoadOptions::default()).unwrap_err();
        assert!(matches!(
            err,
            TraceError::UnrecognisedFormat { line: 1, .. }
        ));
    }
}

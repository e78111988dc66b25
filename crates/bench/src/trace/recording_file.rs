//! The file layer of a recorded session: `#` header lines (`# key: value`), then a CSV with
//! one row per frame. It is a `frame_time_ms` CSV like any other (the plain reader takes its
//! frame times and skips the rest), so every tool that reads the lab's traces reads a
//! recording; what the extra columns and the header mean is the core's `live::recording`, and
//! [`crate::recording`] reads and writes them.
//!
//! Times are written in milliseconds with six decimals and read back exactly (as decimal
//! text, never through a float), so a recording replays to the nanosecond.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::csv::{Dialect, Header, Records};
use super::error::{Column, shown};
use super::input::{self, Decoded, Normalised, from_io};
use super::{FRAME_TIME_COLUMN, MAX_LINE_BYTES, TraceError};
use crate::live::RecordedFrame;
use crate::timestep::Nanos;

/// The first line of every recording: how a recording is told from a plain trace.
pub const RECORDING_MARK: &str = "# timestep-lab session recording";

/// The columns of a recording, in the order they are written.
pub const RECORDING_COLUMNS: [&str; 8] = [
    "frame",
    "time_ms",
    FRAME_TIME_COLUMN,
    "load_ms",
    "carried_ms",
    "present_ms",
    "acquire_wait_ms",
    "events",
];

/// Longest frame time of a recording, ms: an hour. A live frame can be much longer than any
/// frame a trace holds (a debugger stop, a sleeping laptop), and a replay must get it back.
pub const MAX_RECORDED_FRAME_MS: u64 = 3_600_000;

/// The head of a recording file: its `# key: value` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordingHead {
    /// The file, fit for messages.
    pub origin: String,
    /// The `# key: value` lines of the header: line, key, value (after the mark).
    pub header: Vec<(usize, String, String)>,
}

/// The text a recording's rows are read from.
type RowText<R> = std::io::Chain<std::io::Cursor<Vec<u8>>, BufReader<Normalised<Decoded<R>>>>;

/// The rows of a recording file, read one at a time (memory does not grow with their
/// number), each checked as it comes.
pub struct RecordingRows<R: Read> {
    /// The CSV rows.
    records: Records<RowText<R>>,
    /// The CSV header.
    header: Header,
    /// Where each of [`RECORDING_COLUMNS`] is.
    columns: [usize; RECORDING_COLUMNS.len()],
    /// The file, fit for messages.
    origin: String,
    /// Rows read.
    index: usize,
    /// The last row's start, to check that time goes on.
    previous_time: Option<Nanos>,
    /// The line of the last row, left out because the file ends in the middle of it.
    cut_short: Option<usize>,
}

/// Opens the recording `reader` holds (any encoding the trace reader takes): reads its head
/// and its CSV header, and returns them with the rows to read. `origin` names it in
/// messages.
pub fn open_recording_rows<R: Read>(
    reader: R,
    origin: &str,
) -> Result<(RecordingHead, RecordingRows<R>), TraceError> {
    let (text, _) = input::decode(reader, origin)?;
    let mut text = BufReader::with_capacity(64 * 1024, Normalised::new(text, origin));
    let mut head = RecordingHead {
        origin: origin.to_owned(),
        ..RecordingHead::default()
    };
    // The header's comment lines, up to the first line that is not one.
    let mut line = 0;
    let mut buffer = Vec::new();
    let first_data = loop {
        buffer.clear();
        let read = (&mut text)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buffer)
            .map_err(|error| from_io(error, origin))?;
        if read == 0 {
            return Err(TraceError::Empty {
                origin: origin.to_owned(),
            });
        }
        line += 1;
        if buffer.len() > MAX_LINE_BYTES {
            return Err(TraceError::LineTooLong {
                origin: origin.to_owned(),
                line,
                limit: MAX_LINE_BYTES,
            });
        }
        let content = String::from_utf8_lossy(buffer.trim_ascii());
        if line == 1 && !is_mark_line(buffer.strip_suffix(b"\n").unwrap_or(&buffer)) {
            return Err(invalid(
                origin,
                1,
                format!("not a recording: the first line is not \"{RECORDING_MARK}\""),
            ));
        }
        if content.is_empty() {
            continue;
        }
        let Some(comment) = content.strip_prefix('#') else {
            break std::mem::take(&mut buffer);
        };
        if line > 1
            && let Some((key, value)) = comment.split_once(':')
        {
            head.header
                .push((line, key.trim().to_owned(), value.trim().to_owned()));
        }
    };
    let rest = std::io::Cursor::new(first_data).chain(text);
    let mut records = Records::new(rest, Dialect::Csv, line, origin);
    if !records.next_record()? {
        return Err(TraceError::Empty {
            origin: origin.to_owned(),
        });
    }
    let header = Header::read(&records);
    let mut columns = [0; RECORDING_COLUMNS.len()];
    for (slot, name) in columns.iter_mut().zip(RECORDING_COLUMNS) {
        *slot = header.find(&[name])?.ok_or_else(|| {
            invalid(
                origin,
                header.line,
                format!(
                    "the recording's header has no \"{name}\" column (expected {})",
                    RECORDING_COLUMNS.join(",")
                ),
            )
        })?;
    }
    let rows = RecordingRows {
        records,
        header,
        columns,
        origin: origin.to_owned(),
        index: 0,
        previous_time: None,
        cut_short: None,
    };
    Ok((head, rows))
}

impl<R: Read> RecordingRows<R> {
    /// The line of the last row, if it was left out because the file ends in the middle of
    /// it (known once every row has been read).
    pub fn cut_short(&self) -> Option<usize> {
        self.cut_short
    }

    /// The next row, with its line and the text of the requests it carries if it carries
    /// any; `None` after the last.
    ///
    /// The lab ends every row it writes with a line end, so a last row without one was cut
    /// short (by a full disk or a crash while recording): it is left out, whether or not what
    /// is there reads, and [`Self::cut_short`] names its line.
    pub fn next_row(&mut self) -> Result<Option<(RecordedFrame, Option<String>)>, TraceError> {
        let records = &mut self.records;
        if !records.next_record()? {
            return Ok(None);
        }
        if records.at_end()? && records.input().get_ref().1.get_ref().added_line_end() {
            self.cut_short = Some(records.line());
            return Ok(None);
        }
        records.check_width(&self.header)?;
        let (header, origin) = (&self.header, self.origin.as_str());
        let line = records.line();
        let index = self.index;
        let [
            frame,
            time,
            frame_time,
            load,
            carried,
            present,
            wait,
            events,
        ] = self.columns;
        let number = |column: usize, max_ms: u64| -> Result<Option<Nanos>, TraceError> {
            let text = records.field(column);
            if text.is_empty() {
                return Ok(None);
            }
            exact_ns(&text)
                .filter(|&ns| ns <= max_ms.saturating_mul(1_000_000))
                .map(Some)
                .ok_or_else(|| {
                    let Column { number, name } = header.column(column);
                    invalid(
                        origin,
                        line,
                        format!(
                            "column {number} ({name}): \"{}\" is not a time from 0 to {max_ms} \
                             ms with at most 6 decimals",
                            shown(&text)
                        ),
                    )
                })
        };
        let required = |column: usize, max_ms: u64| -> Result<Nanos, TraceError> {
            number(column, max_ms)?.ok_or_else(|| {
                let Column { number, name } = header.column(column);
                invalid(
                    origin,
                    line,
                    format!("column {number} ({name}) is empty; it needs a time"),
                )
            })
        };
        let written = records.field(frame);
        if written.parse::<usize>().ok() != Some(index) {
            return Err(invalid(
                origin,
                line,
                format!(
                    "frame \"{}\" is not {index}: a recording numbers its frames from 0, one \
                     per row",
                    shown(&written)
                ),
            ));
        }
        let row = RecordedFrame {
            line,
            time: required(time, u64::MAX / 1_000_000)?,
            frame_time: required(frame_time, MAX_RECORDED_FRAME_MS)?,
            load: required(load, MAX_RECORDED_FRAME_MS)?,
            carried: required(carried, MAX_RECORDED_FRAME_MS)?,
            present: match (
                number(present, u64::MAX / 1_000_000)?,
                number(wait, MAX_RECORDED_FRAME_MS)?,
            ) {
                (Some(at), wait) => Some((at, wait.unwrap_or(0))),
                (None, _) => None,
            },
        };
        if let Some(previous) = self.previous_time
            && row.time < previous
        {
            return Err(invalid(
                origin,
                line,
                format!(
                    "time_ms goes back ({} ms after {} ms): a recording's frames are in the \
                     order they ran",
                    shown(&records.field(time)),
                    ms_text(previous)
                ),
            ));
        }
        let text = records.field(events);
        let events = (!text.is_empty()).then(|| text.into_owned());
        self.index += 1;
        self.previous_time = Some(row.time);
        Ok(Some((row, events)))
    }
}

/// Whether the file at `path` starts with [`RECORDING_MARK`] (a recording, not a plain trace),
/// in any encoding the trace reader takes: UTF-8 with or without a byte-order mark, or UTF-16
/// (an editor on Windows may have saved it so). Only a regular file can be one: opening a
/// named pipe would block until a writer comes, before the trace reader could say it waits.
/// A file that cannot be read is not one; reading it as a trace then says why.
pub fn is_recording(path: &Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|meta| meta.is_file()) {
        return false;
    }
    std::fs::File::open(path).is_ok_and(starts_with_recording_mark)
}

/// Whether the text `reader` holds starts with the line [`RECORDING_MARK`], in UTF-8 (with or
/// without a byte-order mark) or UTF-16; reads a few dozen bytes at most.
pub fn starts_with_recording_mark(reader: impl Read) -> bool {
    let longest = (RECORDING_MARK.len() + MARK_SLACK) as u64;
    // UTF-16 takes two bytes a character, and a byte-order mark before them.
    let Ok((text, _)) = input::decode(reader.take(2 * longest + 6), "") else {
        return false;
    };
    // Line ends as the reader sees them (a lone `\r` ends the line too).
    let mut first = Vec::with_capacity(longest as usize + 2);
    let read = BufReader::new(Normalised::new(text, ""))
        .take(longest + 2)
        .read_until(b'\n', &mut first);
    read.is_ok() && is_mark_line(first.strip_suffix(b"\n").unwrap_or(&first))
}

/// Bytes of blanks a first line may have around [`RECORDING_MARK`] (an editor's trailing
/// space, a `\r`) and still be the mark.
const MARK_SLACK: usize = 16;

/// Whether `line` (without its line end) is the mark: [`RECORDING_MARK`] with at most
/// [`MARK_SLACK`] bytes of blanks around it. One rule for the detector and the reader, so
/// what one calls a recording the other reads as one.
fn is_mark_line(line: &[u8]) -> bool {
    line.len() <= RECORDING_MARK.len() + MARK_SLACK
        && line.trim_ascii() == RECORDING_MARK.as_bytes()
}

/// A problem with a recording, at `line`.
fn invalid(origin: &str, line: usize, message: String) -> TraceError {
    TraceError::Recording {
        origin: origin.to_owned(),
        line,
        message,
    }
}

/// `ns` as milliseconds with six decimals: exact, and read back by [`exact_ns`].
pub fn ms_text(ns: Nanos) -> String {
    format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000)
}

/// Milliseconds written as decimal text (at most six decimals, no sign or exponent), in
/// whole nanoseconds, exactly; `None` for anything else or a value past `u64`.
pub fn exact_ns(text: &str) -> Option<Nanos> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 6 {
        return None;
    }
    let ms: u64 = whole.parse().ok()?;
    let mut sub = 0u64;
    for (i, b) in fraction.bytes().enumerate() {
        sub += u64::from(b - b'0') * 10u64.pow(5 - i as u32);
    }
    ms.checked_mul(1_000_000)?.checked_add(sub)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_read_back_to_the_nanosecond() {
        for ns in [0, 1, 999_999, 1_000_000, 16_666_667, 123_456_789_012_345] {
            assert_eq!(exact_ns(&ms_text(ns)), Some(ns));
        }
        assert_eq!(exact_ns("16.5"), Some(16_500_000));
        assert_eq!(exact_ns("7"), Some(7_000_000));
        for bad in ["", ".5", "-1", "1e3", "1.2345678", "1.2.3", "nan", " 1"] {
            assert_eq!(exact_ns(bad), None, "{bad:?}");
        }
    }

    /// A recording's head, rows and the rows' requests (row index, line, text).
    #[derive(Debug)]
    struct Read {
        header: Vec<(usize, String, String)>,
        rows: Vec<RecordedFrame>,
        events: Vec<(usize, usize, String)>,
    }

    fn read_bytes(bytes: &[u8]) -> Result<Read, TraceError> {
        let (head, mut rows) = open_recording_rows(bytes, "rec.csv")?;
        let mut read = Read {
            header: head.header,
            rows: Vec::new(),
            events: Vec::new(),
        };
        while let Some((row, events)) = rows.next_row()? {
            if let Some(text) = events {
                read.events.push((read.rows.len(), row.line, text));
            }
            read.rows.push(row);
        }
        Ok(read)
    }

    fn read(text: &str) -> Result<Read, TraceError> {
        read_bytes(text.as_bytes())
    }

    const HEAD: &str = "# timestep-lab session recording\n# version: 0.1.0\n\
                        frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n";

    #[test]
    fn a_recording_reads_its_header_rows_and_events() {
        let text = format!(
            "{HEAD}0,5.000000,0.000000,0.000000,0.000000,6.000000,0.500000,\n\
             1,21.666667,16.666667,1.000000,0.000000,,,\"kick; set {{rate_hz = 100.0}}\"\n"
        );
        let session = read(&text).unwrap();
        assert_eq!(
            session.header,
            [(2, "version".to_owned(), "0.1.0".to_owned())]
        );
        assert_eq!(session.rows.len(), 2);
        assert_eq!(session.rows[0].present, Some((6_000_000, 500_000)));
        assert_eq!(session.rows[1].frame_time, 16_666_667);
        assert_eq!(session.rows[1].present, None);
        assert_eq!(
            session.events,
            [(1, 5, "kick; set {rate_hz = 100.0}".to_owned())]
        );
    }

    #[test]
    fn a_recording_is_told_by_its_first_line_in_every_encoding_the_reader_takes() {
        let text = format!("{HEAD}0,5.000000,0.000000,0.000000,0.000000,,,\n");
        let crlf = text.replace('\n', "\r\n");
        let utf16 = |big_endian: bool, bom: bool| input::utf16(&crlf, big_endian, bom);
        let mut with_bom = b"\xEF\xBB\xBF".to_vec();
        with_bom.extend(text.as_bytes());
        let encodings = [
            text.as_bytes().to_vec(),
            text.replace('\n', "\r\n").into_bytes(),
            with_bom,
            utf16(false, true),
            utf16(true, true),
            utf16(false, false),
            utf16(true, false),
        ];
        for bytes in encodings {
            assert!(starts_with_recording_mark(&bytes[..]), "{bytes:?}");
            // What is told a recording reads as one.
            assert_eq!(read_bytes(&bytes).unwrap().rows.len(), 1);
        }
        // What the reader takes, the detector calls a recording, and only that: blanks
        // around the mark (up to a limit), a lone `\r` as its line end.
        let mark = RECORDING_MARK;
        for (first, recording) in [
            (format!("  {mark} \t\r\n"), true),
            (format!("{mark}\r0,1\n"), true),
            (format!("{mark}{}\n", " ".repeat(MARK_SLACK)), true),
            (format!("{mark}{}\n", " ".repeat(MARK_SLACK + 1)), false),
            (format!("{mark}\t\t\t\u{fd}\n"), false),
        ] {
            let bytes = format!("{first}{}", &HEAD[mark.len() + 1..]).into_bytes();
            assert_eq!(
                starts_with_recording_mark(&bytes[..]),
                recording,
                "{first:?}"
            );
            let read = read_bytes(&bytes);
            let refused = read
                .as_ref()
                .is_err_and(|error| error.to_string().contains("not a recording"));
            assert_eq!(refused, !recording, "{first:?}: {:?}", read.err());
        }
        for other in [
            &b"16.7\n"[..],
            b"",
            b"# timestep-lab session recording, or not\n",
            b"\0\0\0",
            b"#",
        ] {
            assert!(!starts_with_recording_mark(other), "{other:?}");
        }
    }

    #[test]
    fn bad_recordings_name_the_line_and_the_problem() {
        let cases = [
            (
                "frame_time_ms\n16\n".to_owned(),
                "rec.csv:1: not a recording: the first line is not \"# timestep-lab session recording\"",
            ),
            (
                format!("{HEAD}0,5,x,0,0,,,\n"),
                "rec.csv:4: column 3 (frame_time_ms): \"x\" is not a time from 0 to 3600000 ms \
                 with at most 6 decimals",
            ),
            (
                format!("{HEAD}1,5,1,0,0,,,\n"),
                "rec.csv:4: frame \"1\" is not 0: a recording numbers its frames from 0, one per row",
            ),
            (
                format!("{HEAD}0,5,1,0,0,,,\n1,4,1,0,0,,,\n"),
                "rec.csv:5: time_ms goes back (4 ms after 5.000000 ms): a recording's frames are \
                 in the order they ran",
            ),
            (
                "# timestep-lab session recording\nframe,time_ms\n0,1\n".to_owned(),
                "rec.csv:2: the recording's header has no \"frame_time_ms\" column (expected \
                 frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events)",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(read(&text).unwrap_err().to_string(), message, "{text}");
        }
    }
}

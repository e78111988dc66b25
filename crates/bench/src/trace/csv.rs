//! Records of a trace, read with the `csv` crate's parser (`csv-core`) into fixed buffers,
//! and the header and value helpers the formats share.
//!
//! `csv::Reader` grows its record buffer for as long as a record goes on, so a file with an
//! unclosed quote (or no line breaks) could take all memory; `csv-core` parses into buffers
//! the caller owns, so a record longer than [`MAX_LINE_BYTES`] or wider than [`MAX_FIELDS`]
//! is refused instead, and memory stays the same whatever the file holds.

use std::borrow::Cow;
use std::io::BufRead;

use csv_core::{ReadRecordResult, Reader, ReaderBuilder};

use super::error::{Column, Place, Quantity, shown};
use super::input::from_io;
use super::{MAX_FIELDS, MAX_FRAME_TIME_MS, MAX_LINE_BYTES, TraceError};

/// How lines are split into fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    /// Comma-separated with `"` quoting, as PresentMon, MangoHud and the lab's recordings are
    /// written. A quoted field may hold commas and line breaks.
    Csv,
    /// One value per line: a record is a whole line (quotes and commas are plain text).
    Lines,
}

/// The records of a text, one at a time. Lines that are blank or `#` comments (also indented
/// ones) are skipped; line numbers count them.
pub(super) struct Records<R> {
    /// The text (every line ending a `\n`, the last line too).
    input: R,
    /// The parser.
    parser: Reader,
    /// The current record's fields, back to back.
    bytes: Box<[u8]>,
    /// Where each field of the current record ends in `bytes`.
    ends: Box<[usize]>,
    /// Fields in the current record.
    fields: usize,
    /// 1-based line on which the current record starts.
    line: usize,
    /// The file path or other source name, for errors.
    origin: String,
}

impl<R: BufRead> Records<R> {
    /// Reads `input`, whose first line is line `first_line` of the file.
    pub fn new(input: R, dialect: Dialect, first_line: usize, origin: &str) -> Self {
        let mut builder = ReaderBuilder::new();
        builder.comment(Some(b'#'));
        if dialect == Dialect::Lines {
            // NUL never separates anything in a text trace, so a line stays one field.
            builder.quoting(false).delimiter(0);
        }
        let mut parser = builder.build();
        parser.set_line(first_line as u64);
        Records {
            input,
            parser,
            bytes: vec![0; MAX_LINE_BYTES].into_boxed_slice(),
            ends: vec![0; MAX_FIELDS].into_boxed_slice(),
            fields: 0,
            line: first_line,
            origin: origin.to_owned(),
        }
    }

    /// Moves to the next record that carries data; false at the end of the text.
    pub fn next_record(&mut self) -> Result<bool, TraceError> {
        while self.read_record()? {
            let first = self.raw(0).trim_ascii();
            let blank = self.fields == 1 && first.is_empty();
            if !blank && !first.starts_with(b"#") {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Reads the next record, whatever it holds; false at the end of the text.
    fn read_record(&mut self) -> Result<bool, TraceError> {
        let (mut written, mut ended) = (0, 0);
        loop {
            let input = self
                .input
                .fill_buf()
                .map_err(|error| from_io(error, &self.origin))?;
            // Only the end of the text ends a record with no `\n` of its own: one whose quote
            // is still open, the last `\n` inside it.
            let at_end = input.is_empty();
            let (result, read, wrote, ends) =
                self.parser
                    .read_record(input, &mut self.bytes[written..], &mut self.ends[ended..]);
            self.input.consume(read);
            written += wrote;
            ended += ends;
            // The parser's line is past every `\n` read; those inside quoted fields are part of
            // the record, which starts that many lines earlier.
            let start_line = |parser: &Reader, bytes: &[u8]| {
                let inside = bytes[..written].iter().filter(|&&b| b == b'\n').count();
                (parser.line() as usize).saturating_sub(inside)
            };
            match result {
                ReadRecordResult::InputEmpty => {}
                ReadRecordResult::Record => {
                    self.fields = ended;
                    // A record ends with a `\n` (the text is normalised so), counted too,
                    // unless the text ended inside its quoted field.
                    let terminator = usize::from(!at_end);
                    self.line = start_line(&self.parser, &self.bytes).saturating_sub(terminator);
                    return Ok(true);
                }
                ReadRecordResult::End => return Ok(false),
                ReadRecordResult::OutputFull | ReadRecordResult::OutputEndsFull => {
                    let bytes = result == ReadRecordResult::OutputFull;
                    return Err(TraceError::RecordTooLong {
                        origin: self.origin.clone(),
                        line: start_line(&self.parser, &self.bytes),
                        limit: if bytes { MAX_LINE_BYTES } else { MAX_FIELDS },
                        what: if bytes { "bytes" } else { "fields" },
                    });
                }
            }
        }
    }

    /// Whether the text has nothing after the current record.
    pub fn at_end(&mut self) -> Result<bool, TraceError> {
        let rest = self
            .input
            .fill_buf()
            .map_err(|error| from_io(error, &self.origin))?;
        Ok(rest.is_empty())
    }

    /// The text read.
    pub fn input(&self) -> &R {
        &self.input
    }

    /// 1-based line on which the current record starts.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Field `index` of the current record, as read.
    pub fn raw(&self, index: usize) -> &[u8] {
        let start = if index == 0 { 0 } else { self.ends[index - 1] };
        &self.bytes[start..self.ends[index]]
    }

    /// Field `index` of the current record, trimmed, as text (invalid UTF-8 replaced).
    pub fn field(&self, index: usize) -> Cow<'_, str> {
        String::from_utf8_lossy(self.raw(index).trim_ascii())
    }

    /// The whole record as text: in [`Dialect::Lines`], the line.
    pub fn text(&self) -> Cow<'_, str> {
        let end = self.fields.checked_sub(1).map_or(0, |last| self.ends[last]);
        String::from_utf8_lossy(&self.bytes[..end])
    }

    /// All fields of the current record, trimmed.
    pub fn all_fields(&self) -> Vec<String> {
        (0..self.fields)
            .map(|index| self.field(index).into_owned())
            .collect()
    }

    /// Fails unless the current record has as many fields as `header`.
    pub fn check_width(&self, header: &Header) -> Result<(), TraceError> {
        if self.fields == header.fields.len() {
            Ok(())
        } else {
            Err(TraceError::ColumnCount {
                origin: self.origin.clone(),
                line: self.line,
                found: self.fields,
                expected: header.fields.len(),
                header_line: header.line,
            })
        }
    }
}

/// The fields of one line of CSV (for looking at a file's first lines).
pub(super) fn split_line(line: &[u8]) -> Vec<String> {
    let mut text = line.to_vec();
    text.push(b'\n');
    let mut records = Records::new(text.as_slice(), Dialect::Csv, 1, "");
    match records.read_record() {
        Ok(true) => records.all_fields(),
        _ => Vec::new(),
    }
}

/// A CSV header: its fields and where it is.
pub(super) struct Header {
    /// 1-based line number of the header.
    pub line: usize,
    /// The header's fields, trimmed.
    pub fields: Vec<String>,
    /// The file path or other source name, for errors.
    origin: String,
}

impl Header {
    /// Takes the current record of `records` as the header.
    pub fn read<R: BufRead>(records: &Records<R>) -> Header {
        Header {
            line: records.line(),
            fields: records.all_fields(),
            origin: records.origin.clone(),
        }
    }

    /// The index of the first field equal to one of `names`, ignoring ASCII case (PresentMon
    /// 1.x wrote `msBetweenPresents`, later versions `MsBetweenPresents`). A header with that
    /// field twice is refused: which of the two holds the values is anyone's guess.
    pub fn find(&self, names: &[&str]) -> Result<Option<usize>, TraceError> {
        let Some(index) = self
            .fields
            .iter()
            .position(|field| names.iter().any(|name| field.eq_ignore_ascii_case(name)))
        else {
            return Ok(None);
        };
        let name = &self.fields[index];
        if let Some(again) = self.fields[index + 1..]
            .iter()
            .position(|field| field.eq_ignore_ascii_case(name))
        {
            return Err(TraceError::DuplicateColumn {
                origin: self.origin.clone(),
                line: self.line,
                name: shown(name),
                first: index + 1,
                second: index + again + 2,
            });
        }
        Ok(Some(index))
    }

    /// Column `index` for messages: its number and name.
    pub fn column(&self, index: usize) -> Column {
        Column {
            number: index + 1,
            name: shown(&self.fields[index]),
        }
    }

    /// The error for a column the format needs and this header lacks.
    pub fn missing(&self, format: &'static str, expected: &'static str) -> TraceError {
        TraceError::MissingColumn {
            origin: self.origin.clone(),
            line: self.line,
            format,
            expected,
        }
    }
}

/// Whether `fields` has one of `names`, ignoring ASCII case.
pub(super) fn has_any(fields: &[String], names: &[&str]) -> bool {
    fields
        .iter()
        .any(|field| names.iter().any(|name| field.eq_ignore_ascii_case(name)))
}

/// Parses a number of milliseconds, without the range check.
pub(super) fn parse_ms(value: &str, place: &Place, quantity: Quantity) -> Result<f64, TraceError> {
    match value.trim().parse::<f64>() {
        Ok(ms) if !ms.is_nan() => Ok(ms),
        _ => Err(place.not_a_number(quantity, value)),
    }
}

/// Whether `ms` is a frame time or delay the lab accepts: 0 to [`MAX_FRAME_TIME_MS`] (which
/// also rules out infinities).
pub(super) fn in_range(ms: f64) -> bool {
    (0.0..=MAX_FRAME_TIME_MS).contains(&ms)
}

/// Parses and range-checks one frame time or delay in milliseconds.
pub(super) fn ns_from_text(
    value: &str,
    place: &Place,
    quantity: Quantity,
) -> Result<u64, TraceError> {
    let ms = parse_ms(value, place, quantity)?;
    if in_range(ms) {
        Ok(ns_from_ms(ms))
    } else {
        Err(place.out_of_range(quantity, value))
    }
}

/// The sum of a row's fields `indices` (each a number of ms in range, the sum too), in ns;
/// `place.columns` names those fields, in the same order. Each part's error names its own
/// column; the sum's names them all.
pub(super) fn sum_ns<R: BufRead>(
    records: &Records<R>,
    indices: &[usize],
    place: &Place,
    quantity: Quantity,
) -> Result<u64, TraceError> {
    let mut total_ns = 0_u64;
    for (part, index) in indices.iter().enumerate() {
        let part = Place {
            columns: place.columns.get(part..=part).unwrap_or_default(),
            ..*place
        };
        total_ns += ns_from_text(&records.field(*index), &part, quantity)?;
    }
    if total_ns > ns_from_ms(MAX_FRAME_TIME_MS) {
        let parts: Vec<Cow<str>> = indices.iter().map(|index| records.field(*index)).collect();
        return Err(place.out_of_range(quantity, &parts.join(" + ")));
    }
    Ok(total_ns)
}

/// Milliseconds to whole nanoseconds, the crate-wide rounding.
pub(super) fn ns_from_ms(ms: f64) -> u64 {
    (ms * 1e6).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(text: &str, dialect: Dialect) -> Vec<(usize, Vec<String>)> {
        let mut records = Records::new(text.as_bytes(), dialect, 1, "t");
        let mut all = Vec::new();
        while records.next_record().unwrap() {
            all.push((records.line(), records.all_fields()));
        }
        all
    }

    #[test]
    fn quoted_fields_keep_commas_escaped_quotes_and_line_breaks() {
        assert_eq!(
            split_line(br#""Game, Shipping.exe",42,"say ""hi""" , "x"y,"#),
            ["Game, Shipping.exe", "42", "say \"hi\"", "\"x\"y", ""]
        );
        let text = "a,\"two\nlines\",c\nnext,1,2\n";
        assert_eq!(
            records(text, Dialect::Csv),
            [
                (1, vec!["a".into(), "two\nlines".into(), "c".into()]),
                (3, vec!["next".into(), "1".into(), "2".into()]),
            ]
        );
    }

    #[test]
    fn blank_and_comment_lines_are_skipped_but_counted() {
        let text = "# head\n\n  1  \n # indented, comment\n2\n";
        assert_eq!(
            records(text, Dialect::Csv),
            [(3, vec!["1".into()]), (5, vec!["2".into()])]
        );
        let mut lines = Records::new("x\n\"16.7, \"\n".as_bytes(), Dialect::Lines, 7, "t");
        assert!(lines.next_record().unwrap());
        assert_eq!((lines.line(), lines.text().as_ref()), (7, "x"));
        assert!(lines.next_record().unwrap());
        assert_eq!((lines.line(), lines.text().as_ref()), (8, "\"16.7, \""));
        assert!(!lines.next_record().unwrap());
    }

    #[test]
    fn a_record_longer_than_the_cap_is_refused_where_it_starts() {
        // An unclosed quote on line 2 swallows every line after it.
        let text = format!("a,b\n\"open,{}\n", "x,y\n".repeat(MAX_LINE_BYTES));
        let mut records = Records::new(text.as_bytes(), Dialect::Csv, 1, "t.csv");
        assert!(records.next_record().unwrap());
        let err = records.next_record().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "t.csv:2: the row starting here has more than {MAX_LINE_BYTES} bytes, the most a \
                 trace row may have; is a quote (\") left open?"
            )
        );
        let wide = format!("{}\n", ",".repeat(MAX_FIELDS));
        let mut records = Records::new(wide.as_bytes(), Dialect::Csv, 1, "t.csv");
        assert!(matches!(
            records.next_record(),
            Err(TraceError::RecordTooLong {
                what: "fields",
                line: 1,
                ..
            })
        ));
    }

    #[test]
    fn column_lookup_ignores_ascii_case_and_refuses_duplicates() {
        let header = Header {
            line: 3,
            fields: vec!["Application".into(), "msBetweenPresents".into()],
            origin: "pm.csv".into(),
        };
        assert_eq!(header.find(&["MsBetweenPresents"]).unwrap(), Some(1));
        assert_eq!(
            header.find(&["ProcessName", "Application"]).unwrap(),
            Some(0)
        );
        assert_eq!(header.find(&["frametime"]).unwrap(), None);
        let twice = Header {
            fields: vec!["fps".into(), "frametime".into(), "FrameTime".into()],
            ..header
        };
        assert_eq!(
            twice.find(&["frametime"]).unwrap_err().to_string(),
            "pm.csv:3: the header has two \"frametime\" columns (2 and 3); which one to read is \
             unclear"
        );
        assert_eq!(twice.find(&["fps"]).unwrap(), Some(0));
    }

    #[test]
    fn frame_time_bounds_are_inclusive() {
        let place = Place {
            origin: "f",
            line: 1,
            columns: &[],
        };
        let ns = |text: &str| ns_from_text(text, &place, Quantity::FrameTime);
        assert_eq!(ns("0").unwrap(), 0);
        assert_eq!(ns("60000").unwrap(), 60_000_000_000);
        assert_eq!(ns("16.666667").unwrap(), 16_666_667);
        assert!(matches!(
            ns("60000.001"),
            Err(TraceError::OutOfRange { .. })
        ));
        assert!(matches!(ns("inf"), Err(TraceError::OutOfRange { .. })));
        assert!(matches!(ns("NaN"), Err(TraceError::NotANumber { .. })));
    }
}

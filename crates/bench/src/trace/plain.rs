//! The lab's own formats: one frame time in ms per line, or a CSV with a `frame_time_ms`
//! column (what [`write_csv`](super::write_csv) writes).

use std::io::BufRead;

use super::csv::{Header, Records, ns_from_text};
use super::detect::plain_value;
use super::error::{Place, Quantity};
use super::{FRAME_TIME_COLUMN, FrameTrace, TraceError};

/// Parses one frame time in milliseconds per line (records of [`Dialect::Lines`]); `#` starts
/// a comment anywhere on a line.
///
/// [`Dialect::Lines`]: super::csv::Dialect::Lines
pub(super) fn parse_lines<R: BufRead>(
    records: &mut Records<R>,
    origin: &str,
) -> Result<FrameTrace, TraceError> {
    let mut frame_times_ns = Vec::new();
    while records.next_record()? {
        let value = plain_value(records.text().as_bytes());
        if value.is_empty() {
            continue;
        }
        let place = Place {
            origin,
            line: records.line(),
            columns: &[],
        };
        frame_times_ns.push(ns_from_text(&value, &place, Quantity::FrameTime)?);
    }
    Ok(FrameTrace::from_file(origin, frame_times_ns))
}

/// Parses a comma-separated file whose header (its first non-comment line) has a
/// `frame_time_ms` column; other columns are ignored.
pub(super) fn parse_csv<R: BufRead>(
    records: &mut Records<R>,
    origin: &str,
) -> Result<FrameTrace, TraceError> {
    if !records.next_record()? {
        return Err(TraceError::Empty {
            origin: origin.to_owned(),
        });
    }
    let header = Header::read(records);
    let value_column = header
        .find(&[FRAME_TIME_COLUMN])?
        .ok_or_else(|| header.missing("plain CSV", "\"frame_time_ms\""))?;
    let columns = [header.column(value_column)];
    let mut frame_times_ns = Vec::new();
    while records.next_record()? {
        records.check_width(&header)?;
        let place = Place {
            origin,
            line: records.line(),
            columns: &columns,
        };
        let value = records.field(value_column);
        frame_times_ns.push(ns_from_text(&value, &place, Quantity::FrameTime)?);
    }
    Ok(FrameTrace::from_file(origin, frame_times_ns))
}

#[cfg(test)]
mod tests {
    use crate::trace::{LoadOptions, TraceError, TraceFormat, parse, read_as};

    fn parse_text(text: &str) -> Result<crate::trace::FrameTrace, TraceError> {
        parse(text, "traces/foo.txt", &LoadOptions::default())
    }

    #[test]
    fn plain_lines_skip_comments_and_blank_lines() {
        let text = "# frame times in ms\n16.667\n\n  33.333 # a missed vsync\n#16\n0.5\n";
        let trace = parse_text(text).unwrap();
        assert_eq!(trace.frame_times_ns, [16_667_000, 33_333_000, 500_000]);
        assert_eq!(trace.source, "traces/foo.txt");
        assert!(trace.notes.is_empty());
    }

    #[test]
    fn csv_reads_only_the_frame_time_ms_column() {
        let text = "# recorded by hand\nframe,frame_time_ms,note\n0,16.5,ok\n1,\"17.25\",\"late, a bit\"\n";
        let trace = parse_text(text).unwrap();
        assert_eq!(trace.frame_times_ns, [16_500_000, 17_250_000]);
    }

    #[test]
    fn csv_row_with_wrong_column_count_names_its_line() {
        let err = parse_text("frame,frame_time_ms\n0,16.5\n1,16.5,extra\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "traces/foo.txt:3: row has 3 columns, expected 2 like the header on line 1"
        );
    }

    #[test]
    fn not_a_number_names_file_line_and_value() {
        let err = parse_text("16.6\n\nabc\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "traces/foo.txt:3: frame time \"abc\" is not a number"
        );
    }

    #[test]
    fn out_of_range_names_file_line_value_and_range() {
        let err = parse_text("16.6\n-3\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "traces/foo.txt:2: frame time -3 ms is out of range (allowed 0 to 60000 ms)"
        );
        let err = parse_text("frame_time_ms\n60000.5\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "traces/foo.txt:2, column 1 (frame_time_ms): frame time 60000.5 ms is out of range \
             (allowed 0 to 60000 ms)"
        );
    }

    #[test]
    fn comments_only_is_an_empty_trace_naming_the_source() {
        let err = parse_text("# nothing here\n\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "traces/foo.txt: the trace has no frame times"
        );
        let err = parse_text("frame_time_ms\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "traces/foo.txt: the trace has no frame times"
        );
    }

    #[test]
    fn fuzz_lab_csv_header_with_an_unclosed_quote_is_on_line_1() {
        // Found by fuzz target lab_csv: the text ends inside the quote, so the record has no
        // line break of its own, and its line was said to be 0.
        let err = read_as(
            &b",\""[..],
            "fuzz.csv",
            TraceFormat::FrameTimeCsv,
            &LoadOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "fuzz.csv:1: plain CSV header has no \"frame_time_ms\" column"
        );
    }

    #[test]
    fn a_last_row_with_an_unclosed_quote_names_its_own_line() {
        let err = parse_text("frame_time_ms\n16.5\n\"x").unwrap_err();
        assert_eq!(
            err.to_string(),
            "traces/foo.txt:3, column 1 (frame_time_ms): frame time \"x\" is not a number"
        );
        let err = parse_text("frame,frame_time_ms\n1,16.5\n\n2,\"x\n\ny\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "traces/foo.txt:4, column 2 (frame_time_ms): frame time \"x\\n\\ny\" is not a number"
        );
    }

    #[test]
    fn unknown_csv_header_says_what_was_expected() {
        let err = parse_text("time,value\n1,2\n").unwrap_err();
        assert!(matches!(
            err,
            TraceError::UnrecognisedFormat { line: 1, .. }
        ));
        assert!(err.to_string().starts_with(
            "traces/foo.txt:1: unrecognised header \"time,value\": expected one frame time"
        ));
    }
}

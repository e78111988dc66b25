//! The lab's own formats: one frame time in ms per line, or a CSV with a `frame_time_ms`
//! column (what [`write_csv`](super::write_csv) writes).

use super::csv::{self, Header, check_width, frame_time_ns, records, split_fields};
use super::{FRAME_TIME_COLUMN, FrameTrace, TraceError};

/// Parses one frame time in milliseconds per line; `#` starts a comment anywhere on a line.
pub(super) fn parse_lines(text: &str, origin: &str) -> Result<FrameTrace, TraceError> {
    let mut frame_times_ns = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let value = line.split('#').next().unwrap_or_default().trim();
        if !value.is_empty() {
            frame_times_ns.push(frame_time_ns(value, origin, index + 1)?);
        }
    }
    Ok(FrameTrace {
        source: origin.to_owned(),
        frame_times_ns,
        display_ns: None,
        notes: Vec::new(),
    })
}

/// Parses a comma-separated file whose header (its first non-comment line) has a
/// `frame_time_ms` column; other columns are ignored.
pub(super) fn parse_csv(text: &str, origin: &str) -> Result<FrameTrace, TraceError> {
    let mut rows = records(text);
    let Header {
        line: header_line,
        fields: header,
        value_column,
    } = csv::header(
        &mut rows,
        origin,
        "plain CSV",
        FRAME_TIME_COLUMN,
        "\"frame_time_ms\"",
    )?;
    let mut frame_times_ns = Vec::new();
    for (line, row) in rows {
        let fields = split_fields(row);
        check_width(&fields, &header, origin, line, header_line)?;
        frame_times_ns.push(frame_time_ns(&fields[value_column], origin, line)?);
    }
    Ok(FrameTrace {
        source: origin.to_owned(),
        frame_times_ns,
        display_ns: None,
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use crate::trace::{LoadOptions, TraceError, parse};

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
            "traces/foo.txt:2: frame time 60000.5 ms is out of range (allowed 0 to 60000 ms)"
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

//! Line, field and value helpers shared by the trace formats.

use super::error::quoted;
use super::{MAX_FRAME_TIME_MS, TraceError};

/// The lines that carry data: `(1-based line number, trimmed text)`, skipping blank lines and
/// whole-line `#` comments.
pub(super) fn records(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// Splits one CSV line into trimmed fields.
///
/// Double-quoted fields may hold commas and `""` escapes, because PresentMon quotes
/// application names that contain commas. An unterminated quote runs to the end of the line.
pub(super) fn split_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '"' if in_quotes && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => in_quotes = !in_quotes,
            ',' if !in_quotes => fields.push(std::mem::take(&mut field).trim().to_owned()),
            _ => field.push(ch),
        }
    }
    fields.push(field.trim().to_owned());
    fields
}

/// The index of the first header field equal to one of `names`, ignoring ASCII case (PresentMon
/// 1.x wrote `msBetweenPresents`, later versions `MsBetweenPresents`).
pub(super) fn column(header: &[String], names: &[&str]) -> Option<usize> {
    header
        .iter()
        .position(|field| names.iter().any(|name| field.eq_ignore_ascii_case(name)))
}

/// A CSV header line and the column the frame times are read from.
pub(super) struct Header {
    /// 1-based line number of the header.
    pub line: usize,
    /// The header's fields.
    pub fields: Vec<String>,
    /// Index of the frame-time column.
    pub value_column: usize,
}

/// Takes the next record of `rows` as a header and finds the frame-time column `name` in it.
/// `format` and `expected` word the error when the file or the column is missing.
pub(super) fn header<'a>(
    rows: &mut impl Iterator<Item = (usize, &'a str)>,
    origin: &str,
    format: &'static str,
    name: &str,
    expected: &'static str,
) -> Result<Header, TraceError> {
    let Some((line, text)) = rows.next() else {
        return Err(TraceError::Empty {
            origin: origin.to_owned(),
        });
    };
    let fields = split_fields(text);
    let value_column = column(&fields, &[name]).ok_or_else(|| TraceError::MissingColumn {
        origin: origin.to_owned(),
        line,
        format,
        expected,
    })?;
    Ok(Header {
        line,
        fields,
        value_column,
    })
}

/// Fails unless a row has as many fields as its header.
pub(super) fn check_width(
    fields: &[String],
    header: &[String],
    origin: &str,
    line: usize,
    header_line: usize,
) -> Result<(), TraceError> {
    if fields.len() == header.len() {
        Ok(())
    } else {
        Err(TraceError::ColumnCount {
            origin: origin.to_owned(),
            line,
            found: fields.len(),
            expected: header.len(),
            header_line,
        })
    }
}

/// Parses a frame time as a number of milliseconds, without the range check.
pub(super) fn parse_ms(value: &str, origin: &str, line: usize) -> Result<f64, TraceError> {
    match value.trim().parse::<f64>() {
        Ok(ms) if !ms.is_nan() => Ok(ms),
        _ => Err(TraceError::NotANumber {
            origin: origin.to_owned(),
            line,
            value: quoted(value.trim()),
        }),
    }
}

/// Converts milliseconds to whole nanoseconds, failing outside 0 to [`MAX_FRAME_TIME_MS`].
/// `shown` is how the value appears in the message (the text as written, where there is one).
pub(super) fn ns_from_checked_ms(
    ms: f64,
    shown: &str,
    origin: &str,
    line: usize,
) -> Result<u64, TraceError> {
    // The range check also rejects infinities; NaN never gets here.
    if (0.0..=MAX_FRAME_TIME_MS).contains(&ms) {
        Ok(ns_from_ms(ms))
    } else {
        Err(TraceError::OutOfRange {
            origin: origin.to_owned(),
            line,
            value: quoted(shown.trim()),
        })
    }
}

/// Parses and range-checks one frame time in milliseconds.
pub(super) fn frame_time_ns(value: &str, origin: &str, line: usize) -> Result<u64, TraceError> {
    let ms = parse_ms(value, origin, line)?;
    ns_from_checked_ms(ms, value, origin, line)
}

/// Milliseconds to whole nanoseconds, the crate-wide rounding.
pub(super) fn ns_from_ms(ms: f64) -> u64 {
    (ms * 1e6).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_keep_commas_and_escaped_quotes() {
        assert_eq!(
            split_fields(r#""Game, Shipping.exe",42, "say ""hi""" ,"#),
            ["Game, Shipping.exe", "42", "say \"hi\"", ""]
        );
    }

    #[test]
    fn unterminated_quote_runs_to_end_of_line() {
        assert_eq!(split_fields(r#"a,"b,c"#), ["a", "b,c"]);
    }

    #[test]
    fn records_skip_blank_and_comment_lines_but_keep_line_numbers() {
        let text = "# head\n\n  1  \n # indented comment\n2\r\n";
        assert_eq!(records(text).collect::<Vec<_>>(), [(3, "1"), (5, "2")]);
    }

    #[test]
    fn column_lookup_ignores_ascii_case() {
        let header = split_fields("Application,msBetweenPresents");
        assert_eq!(column(&header, &["MsBetweenPresents"]), Some(1));
        assert_eq!(column(&header, &["ProcessName", "Application"]), Some(0));
        assert_eq!(column(&header, &["frametime"]), None);
    }

    #[test]
    fn frame_time_bounds_are_inclusive() {
        assert_eq!(frame_time_ns("0", "f", 1).unwrap(), 0);
        assert_eq!(frame_time_ns("60000", "f", 1).unwrap(), 60_000_000_000);
        assert_eq!(frame_time_ns("16.666667", "f", 1).unwrap(), 16_666_667);
        assert!(matches!(
            frame_time_ns("60000.001", "f", 1),
            Err(TraceError::OutOfRange { .. })
        ));
        assert!(matches!(
            frame_time_ns("inf", "f", 1),
            Err(TraceError::OutOfRange { .. })
        ));
        assert!(matches!(
            frame_time_ns("NaN", "f", 1),
            Err(TraceError::NotANumber { .. })
        ));
    }
}

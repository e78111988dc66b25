//! MangoHud CSV: a system-information preamble (`os,cpu,gpu,...` and its values), then a
//! header with a `frametime` column, then one row per logged frame.

use super::csv::{
    self, Header, check_width, column, ns_from_checked_ms, parse_ms, records, split_fields,
};
use super::{FrameTrace, TraceError};

/// The frame-time column.
pub(super) const FRAME_TIME_COLUMN: &str = "frametime";
/// Records searched for the header: the preamble is two lines, some versions add a separator
/// line, and the margin costs nothing.
pub(super) const HEADER_SEARCH_RECORDS: usize = 10;
/// `fps * frametime` is about 1000 when frame times are in ms and about 1e6 when they are in
/// µs, which MangoHud logged before 2021; anything above this is taken as µs.
const MICROSECONDS_PRODUCT: f64 = 30_000.0;

/// The 1-based line of the header: the first of the first few records with a `frametime` field.
pub(super) fn find_header(text: &str) -> Option<usize> {
    records(text)
        .take(HEADER_SEARCH_RECORDS)
        .find(|(_, line)| column(&split_fields(line), &[FRAME_TIME_COLUMN]).is_some())
        .map(|(line, _)| line)
}

/// Parses a MangoHud log whose header is on line `header_line`; records before it are the
/// preamble and are ignored.
pub(super) fn parse(
    text: &str,
    origin: &str,
    header_line: usize,
) -> Result<FrameTrace, TraceError> {
    let mut lines = records(text).skip_while(|(line, _)| *line < header_line);
    let Header {
        line: header_line,
        fields: header,
        value_column,
    } = csv::header(
        &mut lines,
        origin,
        "MangoHud",
        FRAME_TIME_COLUMN,
        "\"frametime\"",
    )?;
    let fps_column = column(&header, &["fps"]);

    // (line, text as written, value) first; the unit is decided from all rows.
    let mut values = Vec::new();
    let mut products = Vec::new();
    for (line, row) in lines {
        let fields = split_fields(row);
        check_width(&fields, &header, origin, line, header_line)?;
        let value = &fields[value_column];
        let frame_time = parse_ms(value, origin, line)?;
        if let Some(fps) = fps_column.and_then(|column| fields[column].parse::<f64>().ok())
            && fps > 0.0
            && frame_time > 0.0
        {
            products.push(fps * frame_time);
        }
        values.push((line, value.clone(), frame_time));
    }

    let mut notes = Vec::new();
    let in_microseconds = crate::stats::upper_median(&mut products)
        .is_some_and(|product| product > MICROSECONDS_PRODUCT);
    if in_microseconds {
        notes.push(format!(
            "{origin}: frametime values look like microseconds (fps x frametime is about 1e6), \
             as older MangoHud versions logged them; converted to ms"
        ));
    }
    let mut frame_times_ns = Vec::with_capacity(values.len());
    for (line, text, value) in values {
        frame_times_ns.push(if in_microseconds {
            let ms = value / 1000.0;
            ns_from_checked_ms(ms, &ms.to_string(), origin, line)?
        } else {
            ns_from_checked_ms(value, &text, origin, line)?
        });
    }
    Ok(FrameTrace {
        source: origin.to_owned(),
        frame_times_ns,
        display_ns: None,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use crate::trace::{LoadOptions, TraceError, parse};

    const PREAMBLE: &str = "os,cpu,gpu,ram,kernel,driver,cpuscheduler\n\
                            Linux,Example CPU,Example GPU,32768000,6.9.0,Mesa 24.2.0,performance\n";

    fn parse_text(text: &str) -> Result<crate::trace::FrameTrace, TraceError> {
        parse(text, "mh.csv", &LoadOptions::default())
    }

    #[test]
    fn preamble_is_skipped_and_frametime_column_read() {
        let text = format!(
            "{PREAMBLE}fps,frametime,cpu_load,elapsed\n144.1,6.944,20,6944000\n143.9,6.95,21,13894000\n"
        );
        let trace = parse_text(&text).unwrap();
        assert_eq!(trace.frame_times_ns, [6_944_000, 6_950_000]);
        assert!(trace.notes.is_empty());
    }

    #[test]
    fn header_is_found_after_a_separator_line_and_without_preamble() {
        let text = format!(
            "{PREAMBLE}--------------------DATA---------------------\nfps,frametime\n60,16.5\n"
        );
        assert_eq!(parse_text(&text).unwrap().frame_times_ns, [16_500_000]);
        assert_eq!(
            parse_text("frametime,elapsed\n8.25,8250000\n")
                .unwrap()
                .frame_times_ns,
            [8_250_000]
        );
    }

    #[test]
    fn microsecond_frame_times_of_old_versions_are_converted_with_a_note() {
        let text = format!("{PREAMBLE}fps,frametime,elapsed\n175.8,5185,100\n175.2,6322,200\n");
        let trace = parse_text(&text).unwrap();
        assert_eq!(trace.frame_times_ns, [5_185_000, 6_322_000]);
        assert_eq!(trace.notes.len(), 1);
        assert!(trace.notes[0].starts_with("mh.csv: frametime values look like microseconds"));
    }

    #[test]
    fn bad_row_names_its_line() {
        let text = format!("{PREAMBLE}fps,frametime\n60,16.5\n60,x\n");
        assert_eq!(
            parse_text(&text).unwrap_err().to_string(),
            "mh.csv:5: frame time \"x\" is not a number"
        );
        let text = format!("{PREAMBLE}fps,frametime\n60,16.5\n60\n");
        assert_eq!(
            parse_text(&text).unwrap_err().to_string(),
            "mh.csv:5: row has 1 columns, expected 2 like the header on line 3"
        );
    }

    #[test]
    fn header_without_rows_is_an_empty_trace() {
        let text = format!("{PREAMBLE}fps,frametime\n");
        assert_eq!(
            parse_text(&text).unwrap_err().to_string(),
            "mh.csv: the trace has no frame times"
        );
    }
}

//! MangoHud CSV: a system-information preamble (`os,cpu,gpu,...` and its values), then a
//! header with a `frametime` column, then one row per logged frame.

use std::io::BufRead;

use super::csv::{Header, Records, in_range, ns_from_ms, parse_ms};
use super::error::{Place, Quantity};
use super::{FrameTrace, TraceError};

/// The frame-time column.
pub(super) const FRAME_TIME_COLUMN: &str = "frametime";
/// `fps * frametime` is about 1000 when frame times are in ms and about 1e6 when they are in
/// µs, which MangoHud logged before 2021; anything above this is taken as µs.
const MICROSECONDS_PRODUCT: f64 = 30_000.0;

/// Parses a MangoHud log whose header is on line `header_line`; records before it are the
/// preamble and are ignored.
///
/// The unit (ms, or µs in old versions) is decided from all rows, so the values are kept as
/// numbers (8 bytes a frame) until the end; the first value out of range in each unit is
/// remembered for the error.
pub(super) fn parse<R: BufRead>(
    records: &mut Records<R>,
    origin: &str,
    header_line: usize,
) -> Result<FrameTrace, TraceError> {
    loop {
        if !records.next_record()? {
            return Err(TraceError::Empty {
                origin: origin.to_owned(),
            });
        }
        if records.line() >= header_line {
            break;
        }
    }
    let header = Header::read(records);
    let value_column = header
        .find(&[FRAME_TIME_COLUMN])?
        .ok_or_else(|| header.missing("MangoHud", "\"frametime\""))?;
    let fps_column = header.find(&["fps"])?;
    let columns = [header.column(value_column)];

    let mut values_ms = Vec::new();
    let mut products = Vec::new();
    let (mut out_of_range_ms, mut out_of_range_us) = (None, None);
    while records.next_record()? {
        records.check_width(&header)?;
        let place = Place {
            origin,
            line: records.line(),
            columns: &columns,
        };
        let text = records.field(value_column);
        let frame_time = parse_ms(&text, &place, Quantity::FrameTime)?;
        if let Some(fps) = fps_column.and_then(|column| records.field(column).parse::<f64>().ok())
            && fps > 0.0
            && frame_time > 0.0
        {
            products.push(fps * frame_time);
        }
        if out_of_range_ms.is_none() && !in_range(frame_time) {
            out_of_range_ms = Some(place.out_of_range(Quantity::FrameTime, &text));
        }
        if out_of_range_us.is_none() && !in_range(frame_time / 1000.0) {
            let ms = (frame_time / 1000.0).to_string();
            out_of_range_us = Some(place.out_of_range(Quantity::FrameTime, &ms));
        }
        values_ms.push(frame_time);
    }

    let mut notes = Vec::new();
    let in_microseconds = crate::stats::upper_median(&mut products)
        .is_some_and(|product| product > MICROSECONDS_PRODUCT);
    let (divisor, out_of_range) = if in_microseconds {
        notes.push(format!(
            "{origin}: frametime values look like microseconds (fps x frametime is about 1e6), \
             as older MangoHud versions logged them; converted to ms"
        ));
        (1000.0, out_of_range_us)
    } else {
        (1.0, out_of_range_ms)
    };
    if let Some(error) = out_of_range {
        return Err(error);
    }
    let frame_times_ns = values_ms
        .into_iter()
        .map(|value| ns_from_ms(value / divisor))
        .collect();
    Ok(FrameTrace {
        notes,
        ..FrameTrace::from_file(origin, frame_times_ns)
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
            "mh.csv:5, column 2 (frametime): frame time \"x\" is not a number"
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

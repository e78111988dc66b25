//! PresentMon 2.x frame times and display delays, checked against the capture's own
//! columns (`MsAnimationError`), and 1.x's dropped frames.

use super::{PRESENTMON2, options, with_field};
use crate::trace::{TraceError, parse};

/// The fields of `name` on the rows of `application` in a CSV without quoted commas.
fn column_of(text: &str, application: &str, name: &str) -> Vec<String> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let index = header.iter().position(|field| *field == name).unwrap();
    lines
        .map(|line| line.split(',').collect::<Vec<_>>())
        .filter(|fields| fields[0] == application)
        .map(|fields| fields[index].to_owned())
        .collect()
}

/// Milliseconds as written to whole nanoseconds; `None` for `NA`.
fn ns(ms: &str) -> Option<u64> {
    (ms != "NA").then(|| (ms.parse::<f64>().unwrap() * 1e6).round() as u64)
}

/// `text` without the columns `names`.
fn without(text: &str, names: &[&str]) -> String {
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    text.lines()
        .map(|line| {
            line.split(',')
                .zip(&header)
                .filter(|(_, name)| !names.contains(name))
                .map(|(field, _)| field)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn shipped_presentmon2_trace_is_the_file_of_these_tests() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/traces/presentmon2-display.csv"
    );
    let shipped = std::fs::read_to_string(path).unwrap();
    assert_eq!(shipped.replace("\r\n", "\n"), PRESENTMON2);
}

#[test]
fn presentmon2_frame_times_are_the_previous_rows_cpu_start_intervals() {
    let trace = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
    let app_start = column_of(PRESENTMON2, "Game.exe", "MsBetweenAppStart");
    assert_eq!(app_start.len(), 10);
    // Row k's frame time is row k-1's MsBetweenAppStart; row 1 has none.
    let expected: Vec<u64> = app_start[..9].iter().map(|ms| ns(ms).unwrap()).collect();
    assert_eq!(trace.frame_times_ns, expected);
    assert_eq!(
        &trace.frame_times_ns[..3],
        [15_000_000, 18_333_300, 15_000_000]
    );
    assert_eq!(
        trace.notes,
        [
            "pm.csv: using PresentMon rows of \"Game.exe\" (10 rows), the application with the \
             most rows; also present: dwm.exe (4 rows); choose another with --process NAME",
            "pm.csv: skipped 1 row of \"Game.exe\" with no frame time: the swap chain's first \
             row, or one whose previous row has no MsBetweenAppStart value (NA or empty)",
            "pm.csv: frame times from MsBetweenAppStart (CPU start to CPU start), display \
             times from DisplayLatency; 1 of 9 frames never shown",
        ]
    );
}

#[test]
fn presentmon2_display_times_are_display_latency_or_cpu_busy_plus_until_displayed() {
    let latency: Vec<Option<u64>> = column_of(PRESENTMON2, "Game.exe", "DisplayLatency")[1..]
        .iter()
        .map(|ms| ns(ms))
        .collect();
    let busy = column_of(PRESENTMON2, "Game.exe", "MsCPUBusy");
    let until = column_of(PRESENTMON2, "Game.exe", "MsUntilDisplayed");
    let busy_plus_until: Vec<Option<u64>> = (1..10)
        .map(|row| Some(ns(&busy[row])? + ns(&until[row])?))
        .collect();
    // The file is consistent: both ways give the same delays.
    assert_eq!(latency, busy_plus_until);
    assert_eq!(
        latency[4], None,
        "the 5th frame (row 6 of Game.exe) was never shown"
    );
    assert_eq!(latency.iter().filter(|delay| delay.is_none()).count(), 1);

    let trace = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.display_ns.as_ref(), Some(&latency));
    assert_eq!(
        &latency[..2],
        [Some(18_335_400), Some(16_668_800)],
        "delays from the CPU start"
    );

    let text = without(PRESENTMON2, &["DisplayLatency"]);
    let trace = parse(&text, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.display_ns, Some(busy_plus_until));
    assert_eq!(
        trace.notes.last().unwrap(),
        "pm.csv: frame times from MsBetweenAppStart (CPU start to CPU start), display times \
         from MsCPUBusy + MsUntilDisplayed; 1 of 9 frames never shown"
    );
}

#[test]
fn presentmon2_display_delays_agree_with_the_files_animation_error() {
    // For shown frames j < k with none shown between, PresentMon's animation error is
    // (CPUStart(k) - CPUStart(j)) - (display(k) - display(j)), which is
    // -(delay(k) - delay(j)) when delays count from the CPU start.
    let trace = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
    let display = trace.display_ns.unwrap();
    let animation_error = &column_of(PRESENTMON2, "Game.exe", "MsAnimationError")[1..];
    let mut previous: Option<u64> = None;
    let mut checked = 0;
    for (delay, written) in display.iter().zip(animation_error) {
        let Some(delay) = *delay else {
            assert_eq!(written, "NA");
            continue;
        };
        if let Some(previous) = previous {
            let error_ms = -(delay as f64 - previous as f64) / 1e6;
            let written: f64 = written.parse().unwrap();
            assert!(
                (error_ms - written).abs() < 1e-4,
                "animation error {error_ms} ms from the delays, {written} ms in the file"
            );
            checked += 1;
        }
        previous = Some(delay);
    }
    assert_eq!(checked, 7);
}

#[test]
fn presentmon2_dwm_is_still_chosen_by_process() {
    let trace = parse(PRESENTMON2, "pm.csv", &options(Some("dwm"))).unwrap();
    assert_eq!(trace.frame_times_ns, [50_000_100; 3]);
    assert_eq!(trace.display_ns, Some(vec![Some(3_000_000); 3]));
    assert_eq!(
        trace.notes,
        [
            "pm.csv: skipped 1 row of \"dwm.exe\" with no frame time: the swap chain's first \
             row, or one whose previous row has no MsBetweenAppStart value (NA or empty)",
            "pm.csv: frame times from MsBetweenAppStart (CPU start to CPU start), display \
             times from DisplayLatency; 0 of 3 frames never shown",
        ]
    );
}

#[test]
fn presentmon2_row_after_a_missing_cpu_start_interval_is_skipped() {
    // Line 5 is Game.exe's 3rd row; its NA leaves the 4th row (line 6) without a time.
    let text = with_field(PRESENTMON2, 5, "MsBetweenAppStart", "NA");
    let trace = parse(&text, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.len(), 8);
    assert_eq!(
        &trace.frame_times_ns[..3],
        [15_000_000, 18_333_300, 18_333_300]
    );
    assert_eq!(trace.display_ns.unwrap().len(), 8);
    assert!(
        trace.notes[1].starts_with("pm.csv: skipped 2 rows of \"Game.exe\" with no frame time"),
        "{:?}",
        trace.notes
    );
    // A bad interval is reported on its own line, not the line of the frame it times.
    let text = with_field(PRESENTMON2, 5, "MsBetweenAppStart", "soon");
    let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv:5, column 10 (MsBetweenAppStart): frame time \"soon\" is not a number"
    );
}

#[test]
fn presentmon2_without_cpu_busy_measures_from_the_present_call() {
    let text = without(PRESENTMON2, &["DisplayLatency", "MsCPUBusy"]);
    let trace = parse(&text, "pm.csv", &options(None)).unwrap();
    let presents: Vec<u64> = column_of(PRESENTMON2, "Game.exe", "MsBetweenPresents")[1..]
        .iter()
        .map(|ms| ns(ms).unwrap())
        .collect();
    assert_eq!(trace.frame_times_ns, presents);
    let until: Vec<Option<u64>> = column_of(PRESENTMON2, "Game.exe", "MsUntilDisplayed")[1..]
        .iter()
        .map(|ms| ns(ms))
        .collect();
    assert_eq!(trace.display_ns, Some(until));
    assert_eq!(
        trace.notes[1..],
        [
            "pm.csv: skipped 1 row of \"Game.exe\" with no MsBetweenPresents value (NA or \
             empty)",
            "pm.csv: frame times from MsBetweenPresents (Present() to Present()), not \
             MsBetweenAppStart, because the file has no MsCPUBusy column to measure display \
             times from the CPU start, display times from MsUntilDisplayed; 1 of 9 frames \
             never shown",
        ]
    );
}

#[test]
fn presentmon2_without_display_columns_has_no_display_times() {
    let text = without(PRESENTMON2, &["DisplayLatency", "MsUntilDisplayed"]);
    let trace = parse(&text, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.len(), 9);
    assert_eq!(trace.display_ns, None);
    assert_eq!(
        trace.notes.last().unwrap(),
        "pm.csv: frame times from MsBetweenAppStart (CPU start to CPU start); no display \
         times (no MsUntilDisplayed or DisplayLatency column)"
    );
}

#[test]
fn display_latency_without_cpu_start_intervals_is_not_used() {
    let text = "Application,MsBetweenPresents,DisplayLatency\ng.exe,16,20\n";
    let trace = parse(text, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.frame_times_ns, [16_000_000]);
    assert_eq!(trace.display_ns, None);
    assert_eq!(
        trace.notes[1],
        "pm.csv: frame times from MsBetweenPresents (Present() to Present()); no display \
         times: DisplayLatency counts from the CPU start, and the file has no \
         MsBetweenAppStart column for frame times that do"
    );
}

#[test]
fn presentmon1_dropped_frames_are_never_shown() {
    // PresentMon 1.x writes msUntilDisplayed 0 for a dropped frame: Dropped wins.
    let text = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,\
                AllowsTearing,PresentMode,Dropped,TimeInSeconds,msBetweenPresents,\
                msBetweenDisplayChange,msInPresentAPI,msUntilRenderComplete,msUntilDisplayed\n\
                Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,0,1.000000,NA,NA,0.2,2.1,5.467\n\
                Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,0,1.016667,16.667,16.667,0.2,2.0,5.467\n\
                Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,1,1.025000,8.333,0.000,0.2,2.2,0.000\n\
                Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,0,1.033334,8.334,16.667,0.2,2.0,5.466\n\
                Game.exe,4242,0x1A,DXGI,1,0,0,Hardware: Independent Flip,0,1.050000,16.666,NA,0.2,2.0,NA\n";
    let trace = parse(text, "pm.csv", &options(None)).unwrap();
    assert_eq!(
        trace.frame_times_ns,
        [16_667_000, 8_333_000, 8_334_000, 16_666_000]
    );
    assert_eq!(
        trace.display_ns,
        Some(vec![Some(5_467_000), None, Some(5_466_000), None])
    );
    assert_eq!(
        trace.notes[1..],
        [
            "pm.csv: skipped 1 row of \"Game.exe\" with no MsBetweenPresents value (NA or \
             empty)",
            "pm.csv: frame times from MsBetweenPresents (Present() to Present()), display \
             times from MsUntilDisplayed; 2 of 4 frames never shown",
        ]
    );
}

#[test]
fn bad_display_value_names_line_and_value() {
    let text = with_field(PRESENTMON2, 4, "DisplayLatency", "soon");
    let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv:4, column 17 (DisplayLatency): display delay \"soon\" is not a number"
    );
    let text = with_field(PRESENTMON2, 8, "DisplayLatency", "-0.5");
    let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv:8, column 17 (DisplayLatency): display delay -0.5 ms is out of range \
         (allowed 0 to 60000 ms)"
    );
    // Each part of a sum is in range, the sum is not.
    let text = without(PRESENTMON2, &["DisplayLatency"]);
    let text = with_field(&text, 4, "MsCPUBusy", "40000");
    let text = with_field(&text, 4, "MsUntilDisplayed", "30000");
    let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
    assert!(matches!(err, TraceError::DisplayOutOfRange { line: 4, .. }));
    assert_eq!(
        err.to_string(),
        "pm.csv:4, columns 11 and 15 (MsCPUBusy + MsUntilDisplayed): display delay 40000 + \
         30000 ms is out of range (allowed 0 to 60000 ms)"
    );
    // The swap chain's first row is no frame, but its display time anchors the timeline:
    // it is read too.
    let text = with_field(PRESENTMON2, 2, "DisplayLatency", "soon");
    let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv:2, column 17 (DisplayLatency): display delay \"soon\" is not a number"
    );
    // Its display columns in another application's rows are not.
    let text = with_field(PRESENTMON2, 3, "DisplayLatency", "soon");
    assert!(parse(&text, "pm.csv", &options(Some("Game.exe"))).is_ok());
}

#[test]
fn the_first_rows_display_time_anchors_the_timeline() {
    let trace = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
    // Row 1's DisplayLatency, from its CPU start (the timeline's 0).
    assert_eq!(trace.display_anchor_ns, Some(16_668_700));
    let text = with_field(PRESENTMON2, 2, "DisplayLatency", "NA");
    let trace = parse(&text, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.display_anchor_ns, None);
    // Frame times from Present() to Present() have no such row.
    let text = without(PRESENTMON2, &["DisplayLatency", "MsCPUBusy"]);
    let trace = parse(&text, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.display_anchor_ns, None);
}

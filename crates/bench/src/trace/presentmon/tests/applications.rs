//! Which application's rows are read, PresentMon's own warnings, and what is wrong with a
//! header or a row.

use super::options;
use crate::trace::presentmon::{MAX_SWAP_CHAINS, MAX_WARNINGS};
use crate::trace::{TraceError, parse};

const HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,\
                      PresentFlags,Dropped,TimeInSeconds,MsBetweenPresents,MsInPresentAPI";

/// Two processes: Game.exe with 4 rows (the first NA), dwm.exe with 2.
fn two_processes() -> String {
    [
        HEADER,
        "Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,0.016667,NA,0.210",
        "dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,0.016900,16.700,0.050",
        "Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,0.033334,16.667,0.198",
        "Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,0.066667,33.333,0.201",
        "dwm.exe,1100,0x0000020F00AA1230,DXGI,1,0,0,0.033600,16.633,0.051",
        "Game.exe,4242,0x000001D2A3B4C5D0,DXGI,1,0,0,0.083334,16.667,0.195",
    ]
    .join("\r\n")
}

#[test]
fn application_with_most_rows_is_chosen_and_said_in_a_note() {
    let trace = parse(&two_processes(), "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.frame_times_ns, [16_667_000, 33_333_000, 16_667_000]);
    // PresentMon 1.x with -simple has no display columns, so there are no display times
    // and no note about them.
    assert_eq!(trace.display_ns, None);
    assert_eq!(
        trace.notes,
        [
            "pm.csv: using PresentMon rows of \"Game.exe\" (4 rows), the application with the most rows; \
             also present: dwm.exe (2 rows); choose another with --process NAME",
            "pm.csv: skipped 1 row of \"Game.exe\" with no MsBetweenPresents value (NA or empty)",
        ]
    );
}

#[test]
fn process_option_picks_an_application_ignoring_case() {
    let trace = parse(&two_processes(), "pm.csv", &options(Some("DWM.EXE"))).unwrap();
    assert_eq!(trace.frame_times_ns, [16_700_000, 16_633_000]);
    assert!(trace.notes.is_empty());
    let trace = parse(&two_processes(), "pm.csv", &options(Some("game"))).unwrap();
    assert_eq!(trace.len(), 3);
}

#[test]
fn unknown_process_lists_the_applications_present() {
    let err = parse(&two_processes(), "pm.csv", &options(Some("notepad.exe"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv: no PresentMon rows for application \"notepad.exe\"; \
         applications present: Game.exe (4 rows), dwm.exe (2 rows)"
    );
}

#[test]
fn process_name_column_and_lowercase_ms_header_are_accepted() {
    let text = "ProcessName,msBetweenPresents\n\"Game, Deluxe.exe\",8.5\n\"Game, Deluxe.exe\",\n";
    let trace = parse(text, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.frame_times_ns, [8_500_000]);
    assert_eq!(
        trace.notes,
        [
            "pm.csv: using PresentMon rows of \"Game, Deluxe.exe\" (2 rows), the only application in the file",
            "pm.csv: skipped 1 row of \"Game, Deluxe.exe\" with no MsBetweenPresents value (NA or empty)",
        ]
    );
}

#[test]
fn tie_goes_to_the_application_seen_first() {
    let text = "Application,MsBetweenPresents\nb.exe,1\na.exe,2\na.exe,3\nb.exe,4\n";
    let trace = parse(text, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.frame_times_ns, [1_000_000, 4_000_000]);
}

#[test]
fn header_without_application_column_is_an_error() {
    let err = parse("MsBetweenPresents\n16.6\n", "pm.csv", &options(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv:1: PresentMon header has no \"Application\" or \"ProcessName\" column"
    );
}

#[test]
fn bad_value_of_the_chosen_application_names_line_and_value() {
    let text = "Application,MsBetweenPresents\ngame.exe,16.6\ngame.exe,fast\n";
    let err = parse(text, "pm.csv", &options(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv:3, column 2 (MsBetweenPresents): frame time \"fast\" is not a number"
    );
}

#[test]
fn short_row_is_an_error_with_its_line() {
    let text = format!("{HEADER}\nGame.exe,4242,0x1,DXGI,1,0,0,0.016667\n");
    let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
    assert!(matches!(
        err,
        TraceError::ColumnCount {
            line: 2,
            found: 8,
            expected: 10,
            header_line: 1,
            ..
        }
    ));
}

#[test]
fn lost_event_warnings_become_notes() {
    let text = "Application,MsBetweenPresents\ngame.exe,16.6\nwarning: 3 events were lost; collected data may be unreliable.\n";
    let trace = parse(text, "pm.csv", &options(Some("game.exe"))).unwrap();
    assert_eq!(trace.frame_times_ns, [16_600_000]);
    assert_eq!(
        trace.notes,
        [
            "pm.csv:3: PresentMon says: warning: 3 events were lost; collected data may be unreliable."
        ]
    );
}

#[test]
fn only_na_rows_is_an_empty_trace() {
    let text = "Application,MsBetweenPresents\ngame.exe,NA\n";
    let err = parse(text, "pm.csv", &options(None)).unwrap_err();
    assert_eq!(err.to_string(), "pm.csv: the trace has no frame times");
}

#[test]
fn bad_values_of_applications_not_chosen_do_not_matter() {
    let text = "Application,MsBetweenPresents\ngame.exe,16\ndwm.exe,soon\ngame.exe,17\n";
    let trace = parse(text, "pm.csv", &options(Some("game"))).unwrap();
    assert_eq!(trace.frame_times_ns, [16_000_000, 17_000_000]);
    let trace = parse(text, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.frame_times_ns, [16_000_000, 17_000_000]);
    let err = parse(text, "pm.csv", &options(Some("dwm"))).unwrap_err();
    assert!(err.to_string().starts_with("pm.csv:3, column 2"), "{err}");
}

#[test]
fn an_exact_name_beats_one_with_exe_added_wherever_it_comes() {
    let text = "Application,MsBetweenPresents\ngame.exe,16\nGAME,33\n";
    let trace = parse(text, "pm.csv", &options(Some("game"))).unwrap();
    assert_eq!(trace.frame_times_ns, [33_000_000]);
}

#[test]
fn duplicate_columns_are_refused_by_name() {
    let text = "Application,MsBetweenPresents,msbetweenpresents\ng.exe,16,17\n";
    let err = parse(text, "pm.csv", &options(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv:1: the header has two \"MsBetweenPresents\" columns (2 and 3); which one to \
         read is unclear"
    );
    // A column that is not read may be there twice.
    let text = "Application,Runtime,Runtime,MsBetweenPresents\ng.exe,a,b,16\n";
    assert!(parse(text, "pm.csv", &options(None)).is_ok());
}

#[test]
fn many_warnings_are_counted_not_all_kept() {
    let mut text = "Application,MsBetweenPresents\ng.exe,16\n".to_owned();
    for _ in 0..25 {
        text.push_str("warning: 3 events were lost\n");
    }
    let trace = parse(&text, "pm.csv", &options(Some("g.exe"))).unwrap();
    assert_eq!(trace.notes.len(), MAX_WARNINGS + 1);
    assert_eq!(
        trace.notes.last().unwrap(),
        "pm.csv: and 15 more PresentMon warnings"
    );
}

#[test]
fn a_file_with_endless_applications_is_refused() {
    let mut text = "Application,MsBetweenPresents\n".to_owned();
    for index in 0..=MAX_SWAP_CHAINS {
        text.push_str(&format!("app{index}.exe,16\n"));
    }
    let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
    assert!(matches!(err, TraceError::TooManySwapChains { .. }), "{err}");
}

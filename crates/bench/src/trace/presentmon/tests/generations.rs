//! The layouts of PresentMon 2.0 to 2.2 read as the 2.3 file they were made from.

use super::{PRESENTMON2, options, with_field};
use crate::trace::parse;

/// `text` (a CSV without quoted commas) with the columns `columns`: (name in the new
/// header, name in `text`). Fields of the columns in `zero_for_na` that are `NA` become
/// `0.0000`.
fn relayout(text: &str, columns: &[(&str, &str)], zero_for_na: &[&str]) -> String {
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let index = |name: &str| header.iter().position(|field| *field == name).unwrap();
    let mut out = columns
        .iter()
        .map(|(new, _)| *new)
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let row: Vec<&str> = columns
            .iter()
            .map(|(new, old)| match fields[index(old)] {
                "NA" if zero_for_na.contains(new) => "0.0000",
                field => field,
            })
            .collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// The columns every PresentMon 2.x layout starts with (2.0 says `Runtime`).
const COMMON_2X: [(&str, &str); 8] = [
    ("Application", "Application"),
    ("ProcessID", "ProcessID"),
    ("SwapChainAddress", "SwapChainAddress"),
    ("PresentRuntime", "PresentRuntime"),
    ("SyncInterval", "SyncInterval"),
    ("PresentFlags", "PresentFlags"),
    ("AllowsTearing", "AllowsTearing"),
    ("PresentMode", "PresentMode"),
];

#[test]
fn presentmon_2_1_and_2_2_frame_time_is_read_like_ms_between_app_start() {
    // PresentMon 2.1 and 2.2 (and 2.3 on with --v2_metrics) write FrameTime =
    // CPUBusy + CPUWait: from this frame's CPU start to the next one's, as
    // MsBetweenAppStart in 2.3 on; DisplayLatency counts from the CPU start in both.
    let mut columns = COMMON_2X.to_vec();
    columns.extend([
        ("CPUStartTime", "CPUStartTime"),
        ("FrameTime", "MsBetweenAppStart"),
        ("CPUBusy", "MsCPUBusy"),
        ("CPUWait", "MsCPUWait"),
        ("DisplayLatency", "DisplayLatency"),
        ("DisplayedTime", "DisplayedTime"),
        ("AnimationError", "MsAnimationError"),
    ]);
    let v22 = relayout(PRESENTMON2, &columns, &[]);
    let trace = parse(&v22, "pm.csv", &options(None)).unwrap();
    let v23 = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.frame_times_ns, v23.frame_times_ns);
    assert_eq!(trace.display_ns, v23.display_ns);
    assert_eq!(
        trace.notes.last().unwrap(),
        "pm.csv: frame times from FrameTime (CPU start to CPU start), display times from \
         DisplayLatency; 1 of 9 frames never shown"
    );
    assert!(trace.notes[1].ends_with("previous row has no FrameTime value (NA or empty)"));
    // --process is honoured (it used to be ignored, every application's rows mixed).
    let dwm = parse(&v22, "pm.csv", &options(Some("dwm"))).unwrap();
    assert_eq!(dwm.frame_times_ns, [50_000_100; 3]);
}

#[test]
fn presentmon_2_0_cpu_busy_plus_cpu_wait_is_the_frame_time_and_zeros_mean_never_shown() {
    // PresentMon 2.0 wrote no FrameTime, only its parts, and 0 (not NA) in DisplayLatency
    // and DisplayedTime for a frame never shown.
    let mut columns = COMMON_2X.to_vec();
    columns[3] = ("Runtime", "PresentRuntime");
    columns.extend([
        ("CPUStartTime", "CPUStartTime"),
        ("CPUBusy", "MsCPUBusy"),
        ("CPUWait", "MsCPUWait"),
        ("DisplayLatency", "DisplayLatency"),
        ("DisplayedTime", "DisplayedTime"),
    ]);
    let v20 = relayout(PRESENTMON2, &columns, &["DisplayLatency", "DisplayedTime"]);
    assert!(v20.contains(",0.0000,0.0000\n"), "{v20}");
    let trace = parse(&v20, "pm.csv", &options(None)).unwrap();
    let v23 = parse(PRESENTMON2, "pm.csv", &options(None)).unwrap();
    assert_eq!(trace.frame_times_ns, v23.frame_times_ns);
    assert_eq!(trace.display_ns, v23.display_ns);
    assert_eq!(
        trace.notes.last().unwrap(),
        "pm.csv: frame times from CPUBusy + CPUWait (CPU start to CPU start), display times \
         from DisplayLatency; 1 of 9 frames never shown"
    );
    // A bad part names its own column; a sum out of range names both.
    let text = with_field(&v20, 5, "CPUWait", "soon");
    let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv:5, column 11 (CPUWait): frame time \"soon\" is not a number"
    );
    let text = with_field(
        &with_field(&v20, 5, "CPUWait", "40000"),
        5,
        "CPUBusy",
        "30000",
    );
    let err = parse(&text, "pm.csv", &options(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm.csv:5, columns 10 and 11 (CPUBusy + CPUWait): frame time 30000 + 40000 ms is out \
         of range (allowed 0 to 60000 ms)"
    );
}

#[test]
fn presentmon_2_0_to_2_2_with_an_unknown_process_is_refused() {
    // The file of the issue: PresentMon 2.2 columns, read as MangoHud before.
    let text = "Application,ProcessID,CPUStartTime,FrameTime,CPUBusy\n\
                Game.exe,1,0,16.7,5\n\
                dwm.exe,2,0,1000,1\n\
                Game.exe,1,16.7,16.7,5\n";
    let err = parse(text, "pm2.csv", &options(Some("nosuch.exe"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pm2.csv: no PresentMon rows for application \"nosuch.exe\"; applications present: \
         Game.exe (2 rows), dwm.exe (1 row)"
    );
}

//! The trace module's readers, writers and generators, end to end.

use std::path::PathBuf;

use proptest::prelude::*;

use super::*;

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/traces")
}

fn mean_ms(trace: &FrameTrace) -> f64 {
    trace.total_ns() as f64 / trace.len() as f64 / 1e6
}

#[test]
fn write_csv_then_parse_gives_back_the_same_nanoseconds() {
    let trace = FrameTrace {
        source: "two\nlines".to_owned(),
        frame_times_ns: vec![0, 1, 16_666_667, 999_999, 60_000_000_000, 33_333_333],
        display_ns: None,
        display_anchor_ns: None,
        notes: Vec::new(),
    };
    let mut out = Vec::new();
    write_csv(&trace, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with(
        "# frame-time trace written by timestep-lab\n# source: two lines\n# frames: 6, total: 60.051000 s\nframe_time_ms\n0.000000\n0.000001\n16.666667\n"
    ));
    let back = parse(&text, "rec.csv", &LoadOptions::default()).unwrap();
    assert_eq!(back.frame_times_ns, trace.frame_times_ns);
    assert_eq!(back.source, "rec.csv");
}

#[test]
fn generated_trace_round_trips_through_write_csv() {
    let trace = generate("jitter:144:1.5:9", 5.0).unwrap();
    let mut out = Vec::new();
    write_csv(&trace, &mut out).unwrap();
    let back = parse(
        &String::from_utf8(out).unwrap(),
        "rec.csv",
        &LoadOptions::default(),
    );
    assert_eq!(back.unwrap().frame_times_ns, trace.frame_times_ns);
}

fn read_bytes(bytes: &[u8]) -> Result<FrameTrace, TraceError> {
    read(bytes, "t.csv", &LoadOptions::default())
}

#[test]
fn byte_order_marks_and_utf16_without_one_are_understood() {
    let trace = parse("\u{feff}1.5\n", "bom.txt", &LoadOptions::default());
    assert_eq!(trace.unwrap().frame_times_ns, [1_500_000]);
    let utf16le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("2\r\n".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let trace = read_bytes(&utf16le).unwrap();
    assert_eq!(trace.frame_times_ns, [2_000_000]);
    assert!(trace.notes.is_empty(), "{:?}", trace.notes);
    let utf16be: Vec<u8> = [0xFE, 0xFF]
        .into_iter()
        .chain("3\n".encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    assert_eq!(read_bytes(&utf16be).unwrap().frame_times_ns, [3_000_000]);
    // What PowerShell's `>` writes, its byte-order mark lost on the way.
    let text = "Application,MsBetweenPresents\r\ngame.exe,16.5\r\n";
    let no_bom: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let trace = read_bytes(&no_bom).unwrap();
    assert_eq!(trace.frame_times_ns, [16_500_000]);
    assert!(
        trace.notes[0].starts_with("t.csv: read as UTF-16 (little-endian) text"),
        "{:?}",
        trace.notes
    );
}

#[test]
fn a_lone_carriage_return_ends_a_line_and_keeps_the_line_numbers() {
    let trace = read_bytes(b"# old Mac\r16.5\r17\r").unwrap();
    assert_eq!(trace.frame_times_ns, [16_500_000, 17_000_000]);
    let err = read_bytes(b"16.5\rfast\r").unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.csv:2: frame time \"fast\" is not a number"
    );
    let err = read_bytes(b"frame_time_ms\r16\rx\r").unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.csv:3, column 1 (frame_time_ms): frame time \"x\" is not a number"
    );
}

#[test]
fn control_characters_from_the_file_are_escaped_in_every_message() {
    // An ESC sequence in a value, an application name, a warning and the source name.
    let err = read_bytes(b"16.5\n\x1b[2J\x1b[31mfast\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.csv:2: frame time \"\\u{1b}[2J\\u{1b}[31mfast\" is not a number"
    );
    let text = b"Application,MsBetweenPresents\n\x1b]0;pwned\x07.exe,16\ngame.exe,16\n\
                 game.exe,17\nwarning: lost\x1b[1A\n";
    let trace = read_bytes(text).unwrap();
    let notes = trace.notes.join("\n");
    assert!(
        !notes.contains('\x1b') && !notes.contains('\x07'),
        "{notes}"
    );
    assert!(
        notes.contains("\\u{1b}]0;pwned\\u{7}.exe (1 row)"),
        "{notes}"
    );
    assert!(
        notes.contains("PresentMon says: warning: lost\\u{1b}[1A"),
        "{notes}"
    );
    let options = LoadOptions {
        process: Some("\x1b[5mnone".to_owned()),
        ..LoadOptions::default()
    };
    let err = read(&text[..], "a\x1b[2Kb.csv", &options).unwrap_err();
    assert!(!err.to_string().contains('\x1b'), "{err}");
    assert!(err.to_string().starts_with("a\\u{1b}[2Kb.csv: "), "{err}");
}

/// An error the line-end layer meets (a NUL) is met where it is in the text, whatever the
/// size of the reads: a bad value on an earlier line is the error either way (the fuzzer
/// found the whole text and one byte at a time disagreeing).
#[test]
fn a_nul_byte_is_met_where_it_is_whatever_the_reads() {
    let mut text = b"frame_time_ms\ntimd3\n".to_vec();
    text.extend("16.7\n".repeat(12).as_bytes());
    text.extend(b"1\x006\n");
    let whole = read(&text[..], "t", &LoadOptions::default()).unwrap_err();
    let bytewise = read(
        std::io::BufReader::with_capacity(1, &text[..]),
        "t",
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(whole.to_string(), bytewise.to_string());
    assert!(whole.to_string().starts_with("t:2, "), "{whole}");
    // With the earlier line good, the NUL is the error, both ways.
    let good = [&text[..14], b"16.7\n", &text[20..]].concat();
    for error in [
        read(&good[..], "t", &LoadOptions::default()).unwrap_err(),
        read(
            std::io::BufReader::with_capacity(1, &good[..]),
            "t",
            &LoadOptions::default(),
        )
        .unwrap_err(),
    ] {
        assert!(
            matches!(error, TraceError::NulByte { line: 15, .. }),
            "{error}"
        );
    }
}

#[test]
fn binary_data_and_endless_lines_are_refused_at_once() {
    let err = read(std::io::repeat(0), "/dev/zero", &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, TraceError::NotText { .. }), "{err}");
    // No line breaks: refused after MAX_LINE_BYTES, not at the end of the (endless) input.
    let err = read(std::io::repeat(b'1'), "ones", &LoadOptions::default()).unwrap_err();
    assert!(
        matches!(
            err,
            TraceError::LineTooLong {
                line: 1,
                limit: MAX_LINE_BYTES,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("65536 bytes"), "{err}");
}

#[test]
fn a_quoted_field_may_hold_a_line_break() {
    let text = "frame,note,frame_time_ms\n1,\"two\nlines\",16.5\n2,\"\",x\n";
    let err = parse(text, "t.csv", &LoadOptions::default()).unwrap_err();
    // The second row starts on line 4: the quoted line break counts.
    assert_eq!(
        err.to_string(),
        "t.csv:4, column 3 (frame_time_ms): frame time \"x\" is not a number"
    );
    let text = "frame,note,frame_time_ms\n1,\"two\r\nlines, and a comma\",16.5\n";
    let trace = parse(text, "t.csv", &LoadOptions::default()).unwrap();
    assert_eq!(trace.frame_times_ns, [16_500_000]);
}

#[test]
fn a_trace_of_only_zero_frames_is_refused() {
    let err = parse("0\n0.0\n0\n", "z.txt", &LoadOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "z.txt: all 3 frame times are 0 ms, so no time passes and there is nothing to \
         simulate"
    );
    // Some zero frames among others are fine.
    assert!(parse("0\n16\n", "z.txt", &LoadOptions::default()).is_ok());
}

#[test]
fn presentmon_options_on_another_format_are_refused_naming_the_option() {
    let process = LoadOptions {
        process: Some("game".to_owned()),
        ..LoadOptions::default()
    };
    let err = parse("16.7\n", "p.txt", &process).unwrap_err();
    assert_eq!(
        err.to_string(),
        "p.txt: --process applies to PresentMon captures only (it picks their rows), and \
         this file is a plain list of frame times"
    );
    let swap_chain = LoadOptions {
        swap_chain: Some("0x1".to_owned()),
        ..LoadOptions::default()
    };
    let err = parse("fps,frametime\n60,16.7\n", "m.csv", &swap_chain).unwrap_err();
    assert!(err.to_string().contains("--swap-chain"), "{err}");
    assert!(err.to_string().ends_with("a MangoHud CSV"), "{err}");
}

#[test]
fn read_as_reads_the_format_asked_for_whatever_the_text_looks_like() {
    let as_format =
        |text: &str, format| read_as(text.as_bytes(), "t.csv", format, &LoadOptions::default());
    let mangohud = "os,cpu\nLinux,x\nfps,frametime\n60,16.5\n";
    assert_eq!(
        as_format(mangohud, TraceFormat::MangoHud).unwrap(),
        parse(mangohud, "t.csv", &LoadOptions::default()).unwrap()
    );
    let pm = "Application,MsBetweenPresents\ngame.exe,16.5\n";
    assert_eq!(
        as_format(pm, TraceFormat::PresentMon)
            .unwrap()
            .frame_times_ns,
        [16_500_000]
    );
    // Another format's text gets the asked format's errors.
    assert_eq!(
        as_format("16.5\n17\n", TraceFormat::FrameTimeCsv)
            .unwrap_err()
            .to_string(),
        "t.csv:1: plain CSV header has no \"frame_time_ms\" column"
    );
    assert_eq!(
        as_format("16.5\n17\n", TraceFormat::MangoHud)
            .unwrap_err()
            .to_string(),
        "t.csv:1: MangoHud header has no \"frametime\" column"
    );
    assert_eq!(
        as_format(pm, TraceFormat::Plain).unwrap_err().to_string(),
        "t.csv:1: frame time \"Application,MsBetweenPresents\" is not a number"
    );
    // The PresentMon options still belong to PresentMon alone.
    let process = LoadOptions {
        process: Some("game".to_owned()),
        ..LoadOptions::default()
    };
    let err = read_as(&b"16.5\n"[..], "t.txt", TraceFormat::Plain, &process).unwrap_err();
    assert!(matches!(err, TraceError::PresentMonOption { .. }), "{err}");
    assert!(read_as(pm.as_bytes(), "t.csv", TraceFormat::PresentMon, &process).is_ok());
}

#[test]
fn load_of_a_missing_file_names_the_path() {
    let err = load(Path::new("no/such/trace.csv"), &LoadOptions::default()).unwrap_err();
    assert_eq!(err.to_string(), "cannot read trace file no/such/trace.csv");
    // The cause travels as the error's source, so it is printed once, after the path.
    let cause = std::error::Error::source(&err).expect("the io error is the source");
    let io = cause.downcast_ref::<std::io::Error>().expect("an io error");
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn empty_text_is_an_empty_trace() {
    let err = parse("", "empty.txt", &LoadOptions::default()).unwrap_err();
    assert_eq!(err.to_string(), "empty.txt: the trace has no frame times");
}

#[test]
fn trace_totals() {
    let trace = FrameTrace {
        source: String::new(),
        frame_times_ns: vec![500_000_000, 250_000_000],
        display_ns: None,
        display_anchor_ns: None,
        notes: Vec::new(),
    };
    assert_eq!((trace.len(), trace.is_empty()), (2, false));
    assert_eq!(trace.total_ns(), 750_000_000);
    assert_eq!(trace.wall_time_s(), 0.75);
}

#[test]
fn shipped_presentmon_trace_is_sixty_hz_vsync_of_the_game() {
    let trace = load(
        &assets().join("vsync60-presentmon.csv"),
        &LoadOptions::default(),
    )
    .unwrap();
    assert_eq!(trace.len(), 591);
    assert!(
        (16.7..17.3).contains(&mean_ms(&trace)),
        "mean {}",
        mean_ms(&trace)
    );
    assert!((9.9..10.2).contains(&trace.wall_time_s()));
    // PresentMon 1.x with -simple says nothing about the display.
    assert_eq!(trace.display_ns, None);
    assert!(
        trace.notes[0].contains("\"ExampleGame.exe\""),
        "{:?}",
        trace.notes
    );
    assert!(trace.notes[0].contains("dwm.exe"), "{:?}", trace.notes);
    assert!(
        trace.notes[1].contains("skipped 1 row"),
        "{:?}",
        trace.notes
    );
    // Missed vsyncs show up as two refresh periods.
    assert!(
        trace
            .frame_times_ns
            .iter()
            .any(|&ns| (33_000_000..33_700_000).contains(&ns))
    );
    let dwm = LoadOptions {
        process: Some("dwm.exe".to_owned()),
        ..LoadOptions::default()
    };
    assert!(
        load(&assets().join("vsync60-presentmon.csv"), &dwm)
            .unwrap()
            .len()
            < 50
    );
}

#[test]
fn shipped_presentmon2_trace_has_display_times_of_the_game() {
    let trace = load(
        &assets().join("presentmon2-display.csv"),
        &LoadOptions::default(),
    )
    .unwrap();
    assert_eq!(trace.len(), 9);
    assert!(
        (16.4..16.6).contains(&mean_ms(&trace)),
        "mean {}",
        mean_ms(&trace)
    );
    let display = trace.display_ns.as_ref().expect("display times");
    assert_eq!(display.len(), trace.len());
    assert_eq!(display.iter().filter(|delay| delay.is_none()).count(), 1);
    assert!(trace.notes[0].contains("\"Game.exe\""), "{:?}", trace.notes);
}

#[test]
fn shipped_mangohud_trace_is_jittery_144_hz() {
    let trace = load(
        &assets().join("jitter144-mangohud.csv"),
        &LoadOptions::default(),
    )
    .unwrap();
    assert_eq!(trace.len(), 1445);
    assert!(
        (6.8..7.1).contains(&mean_ms(&trace)),
        "mean {}",
        mean_ms(&trace)
    );
    assert!(trace.notes.is_empty(), "{:?}", trace.notes);
    let min = *trace.frame_times_ns.iter().min().unwrap();
    let max = *trace.frame_times_ns.iter().max().unwrap();
    assert!(min < 6_500_000 && max > 7_500_000, "{min}..{max}");
}

#[test]
fn shipped_plain_trace_is_thirty_fps_with_hitches() {
    let trace = load(&assets().join("hitches30.txt"), &LoadOptions::default()).unwrap();
    assert_eq!(trace.len(), 286);
    let hitches = trace
        .frame_times_ns
        .iter()
        .filter(|&&ns| ns > 100_000_000)
        .count();
    assert_eq!(hitches, 4);
    assert!((9.9..10.2).contains(&trace.wall_time_s()));
}

proptest! {
    #[test]
    fn parse_never_panics_on_arbitrary_text(
        text in any::<String>(),
        process in proptest::option::of("[a-zA-Z.]{0,8}"),
        swap_chain in proptest::option::of("[0-9a-fA-Fx]{0,6}"),
    ) {
        let _ = parse(&text, "fuzz", &LoadOptions { process, swap_chain });
    }

    #[test]
    fn parse_never_panics_on_csv_like_text(
        header in prop::sample::select(vec![
            "",
            "frame_time_ms\n",
            "Application,MsBetweenPresents\n",
            "ProcessName,SwapChainAddress,msBetweenPresents\n",
            "Application,SwapChainAddress,MsBetweenAppStart,MsCPUBusy,MsBetweenPresents,\
             MsUntilDisplayed,DisplayLatency\n",
            "Application,SwapChainAddress,Dropped,msBetweenPresents,msUntilDisplayed\n",
            "Application,ProcessID,CPUStartTime,CPUBusy,CPUWait,DisplayLatency,\
             DisplayedTime\n",
            "Application,SwapChainAddress,CPUStartTime,FrameTime,CPUBusy,CPUWait,\
             DisplayLatency,DisplayedTime\n",
            "os,cpu\nLinux,x\nfps,frametime\n",
        ]),
        body in "[0-9a-zA-Z.,;#\"\r\n\t -]{0,300}",
    ) {
        let text = format!("{header}{body}");
        let _ = parse(&text, "fuzz", &LoadOptions::default());
    }

    #[test]
    fn read_never_panics_on_arbitrary_bytes(
        bytes in prop::collection::vec(any::<u8>(), 0..400),
        process in proptest::option::of("[a-zA-Z.]{0,8}"),
    ) {
        let _ = read(bytes.as_slice(), "fuzz", &LoadOptions { process, swap_chain: None });
    }

    #[test]
    fn generate_never_panics(
        spec in "(steady|jitter|hitch|ramp|[a-z]{0,5})(:[0-9.e-]{0,6}){0,4}",
        duration_s in -0.01..0.01_f64,
    ) {
        let _ = generate(&spec, duration_s);
    }

    #[test]
    fn write_csv_round_trips_any_valid_frame_times_and_any_source(
        frames in prop::collection::vec(0..=60_000_000_000_u64, 1..50),
        source in any::<String>(),
    ) {
        prop_assume!(frames.iter().any(|&frame| frame > 0));
        let trace = FrameTrace {
            source,
            frame_times_ns: frames,
            display_ns: None,
            display_anchor_ns: None,
            notes: Vec::new(),
        };
        let mut out = Vec::new();
        write_csv(&trace, &mut out).unwrap();
        let back = read(out.as_slice(), "p", &LoadOptions::default()).unwrap();
        prop_assert_eq!(back.frame_times_ns, trace.frame_times_ns);
    }
}

//! Recordings written and read back: events, headers, bad rows, other versions.

use super::*;
use timestep_lab_core::display::Refresh;
use timestep_lab_core::feedback::FeedbackSource;
use timestep_lab_core::live::{DisplayTimesBy, MeasuredFacts, PresentModeId, replay_all};
use timestep_lab_core::timestep::Strategy;

fn header() -> RecordingHeader {
    RecordingHeader {
        version: "0.1.0".into(),
        adapter: "llvmpipe\n(LLVM)\u{1b}[31m".into(),
        settings: LiveSettings::default(),
        paused: true,
        screen: ScreenFacts {
            present_mode: Some(PresentModeId::Fifo),
            monitor_hz: Some(143.856),
        },
        measured: Some(MeasuredFacts {
            source: FeedbackSource::X11Present,
            refresh: None,
            vblank: false,
        }),
    }
}

#[test]
fn events_and_header_are_read_back_as_written() {
    let header = header();
    let mut writer = RecordingWriter::new(Vec::new(), &header).unwrap();
    let faster = LiveSettings {
        rate_hz: 100.0,
        strategy: Strategy::Accumulator,
        ..header.settings
    };
    // A second apart, so that the inputs before row 2 arrived before it started.
    let row = |i: u64| RecordedFrame {
        time: i * 1_000_000_000,
        frame_time: 16_666_667,
        load: i,
        carried: 0,
        present: i.is_multiple_of(2).then_some((i * 1_000_000_000 + 5, 7)),
        line: 0,
    };
    let events = [
        vec![],
        vec![LiveRequest::Kick, LiveRequest::Settings(faster)],
        vec![
            LiveRequest::Pause,
            LiveRequest::SingleStep,
            LiveRequest::Resume,
            LiveRequest::Reset,
            LiveRequest::Screen(ScreenFacts::default()),
            LiveRequest::Input(InputEvent {
                at: 1_234_567_891,
                kind: InputKind::Press(MoveKey::Left),
            }),
            LiveRequest::Input(InputEvent {
                at: 1_234_567_892,
                kind: InputKind::Look {
                    yaw_rad: 0.1 + 0.2,
                    pitch_rad: -1e-17,
                },
            }),
            LiveRequest::Input(InputEvent {
                at: 2_000_000_000,
                kind: InputKind::Release(MoveKey::Left),
            }),
            LiveRequest::Measured(Some(MeasuredFacts {
                source: FeedbackSource::WaylandPresentation,
                refresh: Some(Refresh::new(59.940_06).unwrap().with_phase(15_906_024)),
                vblank: true,
            })),
            LiveRequest::Measured(Some(MeasuredFacts {
                source: FeedbackSource::X11Present,
                refresh: Some(Refresh::new(143.9).unwrap()),
                vblank: false,
            })),
            LiveRequest::Measured(None),
        ],
    ];
    for (i, events) in events.iter().enumerate() {
        writer.frame(&row(i as u64), events).unwrap();
    }
    let bytes = writer.finish().unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(
        text.contains("# adapter: llvmpipe (LLVM)\\u{1b}[31m\n"),
        "{text}"
    );
    assert!(
        text.contains("\"kick; set { rate_hz = 100.0, strategy = \"\"accumulator\"\" }\""),
        "{text}"
    );
    let recording = read_recording(bytes, "rec.csv").unwrap();
    let read = recording.header.clone().unwrap();
    assert_eq!(read.settings, header.settings);
    assert_eq!(read.screen, header.screen);
    assert_eq!(read.measured, header.measured);
    assert!(text.contains("# measured: x11-present\n"), "{text}");
    assert!(
        text.contains(
            "measured wayland-presentation-time 59.94006 at 15.906024; measured x11-present \
             143.9; measured -"
        ),
        "{text}"
    );
    assert!(read.paused);
    assert_eq!(read.version, "0.1.0");
    let expected: Vec<(usize, LiveRequest)> = events
        .iter()
        .enumerate()
        .flat_map(|(i, events)| events.iter().map(move |&e| (i, e)))
        .collect();
    let mut reader = recording.frames.open().unwrap();
    let (mut read_events, mut frames) = (Vec::new(), 0);
    let mut each = Vec::new();
    while let Some(frame) = reader.next_frame(&mut each).unwrap() {
        assert_eq!(RecordedFrame { line: 0, ..frame }, row(frames));
        read_events.extend(each.iter().map(|&event| (frames as usize, event)));
        frames += 1;
    }
    assert_eq!(read_events, expected);
    assert_eq!(frames as usize, recording.summary.frames);
    assert_eq!(recording.summary.events, expected.len());
}

const HEAD: &str = "# timestep-lab session recording\n# version: 0.1.0\n\
    # settings: {rate_hz = 50.0}\n\
    frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n";

/// A recording cut short (by a full disk or a crash) ends in the middle of a row: that
/// row is left out with a note naming its line, and the rows before it replay; it used to
/// be refused whole.
#[test]
fn a_recording_cut_short_replays_to_its_last_whole_row() {
    let whole = format!("{HEAD}0,0,0,0,0,,,\n1,16.7,16.7,0,0,,,\n2,33.4,16.7,0,0,,,\n");
    let read = read_recording(whole.as_bytes(), "rec.csv").unwrap();
    assert_eq!(read.summary.frames, 3);
    assert!(read.notes.is_empty(), "{:?}", read.notes);
    // Cut inside the last row: what is there would not read ("33." has no place for
    // the rest), and with a few more bytes gone it would.
    for cut in [whole.len() - 8, whole.len() - 12] {
        let read = read_recording(&whole.as_bytes()[..cut], "rec.csv").unwrap();
        assert_eq!(read.summary.frames, 2, "cut at {cut}");
        assert_eq!(
            read.notes,
            [
                "rec.csv:7: the last row has no line end, as when recording stopped on a full \
              disk or a crash: it is left out, and the 2 rows before it replay"
            ]
        );
        let replayed = replay_all(&Arc::new(read), None).unwrap();
        assert_eq!(replayed.run_metrics().frames, 2);
    }
    // A line end is all it takes to be whole.
    let read = read_recording(&whole.as_bytes()[..whole.len() - 1], "rec.csv").unwrap();
    assert_eq!(read.summary.frames, 2);
}

/// A recording from a newer version, or without a version line, is read as this
/// version's format with a note saying so; one from this version or an older one
/// without.
#[test]
fn another_version_is_read_with_a_note() {
    let row = "0,0,0,0,0,,,\n";
    let with = |version: &str| {
        let text = HEAD.replace("# version: 0.1.0\n", version) + row;
        read_recording(text.as_bytes(), "rec.csv").unwrap().notes
    };
    assert!(with("# version: 0.1.0\n").is_empty());
    assert!(with("# version: 0.0.9\n").is_empty());
    let newer = with("# version: 0.10.0\n");
    assert_eq!(newer.len(), 1);
    assert!(
        newer[0].starts_with("rec.csv: recorded by version 0.10.0, not this one"),
        "{newer:?}"
    );
    let odd = with("# version: 2.0-\u{1b}[31m\n");
    assert!(odd[0].contains("2.0-\\u{1b}[31m"), "escaped: {odd:?}");
    let none = with("");
    assert!(
        none[0].starts_with("rec.csv: the recording has no \"# version:\" line"),
        "{none:?}"
    );
}

/// An input stamped after the start of the frame it comes before cannot come from the
/// window (it stamps inputs as they arrive): refused with its line.
#[test]
fn an_input_stamped_after_its_frame_starts_is_refused() {
    let text = format!("{HEAD}0,10,0,0,0,,,press forward at 10.000000\n");
    assert!(read_recording(text.as_bytes(), "rec.csv").is_ok());
    let late = text.replace("at 10.000000", "at 10.000001");
    let error = read_recording(late.as_bytes(), "rec.csv").unwrap_err();
    assert_eq!(
        error.to_string(),
        "rec.csv:5: an input stamped at 10.000001 ms comes before a frame that starts \
         earlier, at 10.000000 ms: the window stamps an input when it arrives, before the \
         frame that takes it"
    );
}

#[test]
fn bad_events_name_the_line_and_the_event() {
    let head = "# timestep-lab session recording\n# settings: {rate_hz = 50.0}\n\
                frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n";
    let cases = [
        ("0,0,0,0,0,,,jump", "rec.csv:4: unknown event \"jump\""),
        (
            "0,0,0,0,0,,,set {rate_hz = 0.0}",
            "rec.csv:4: physics rate 0 Hz is out of range",
        ),
        (
            "0,0,0,0,0,,,set {warp = 9}",
            "rec.csv:4: unknown setting `warp`",
        ),
        (
            "0,0,0,0,0,,,set {rate_hz = 5",
            "rec.csv:4: event \"set {rate_hz = 5\" has no closing brace",
        ),
        (
            "0,0,0,0,0,,,screen fifo",
            "rec.csv:4: screen \"fifo\" is not a present mode",
        ),
    ];
    for (row, message) in cases {
        let text = format!("{head}{row}\n");
        let error = read_recording(text.as_bytes(), "rec.csv")
            .unwrap_err()
            .to_string();
        assert!(error.starts_with(message), "{error}");
    }
    let no_settings = "# timestep-lab session recording\nframe,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n0,0,0,0,0,,,\n";
    let error = read_recording(no_settings.as_bytes(), "r").unwrap_err();
    assert_eq!(
        error.to_string(),
        "r:1: the header has no \"# settings:\" line"
    );
    // A header and no row: nothing to replay.
    let no_rows = format!("{head}\n");
    let error = read_recording(no_rows.as_bytes(), "r").unwrap_err();
    assert_eq!(error.to_string(), "r: the trace has no frame times");
}

#[test]
fn measured_display_times_are_written_and_read_back_as_a_trace() {
    let mut writer = RecordingWriter::new(Vec::new(), &header()).unwrap();
    let start = |i: u64| i * 16_666_667;
    // Frame i is answered two rows later: shown 20 ms after it started, but frame 2 was
    // discarded and frame 4 never answered.
    for i in 0..6u64 {
        let events: Vec<LiveRequest> = match i.checked_sub(2) {
            Some(2) => vec![LiveRequest::Displayed { frame: 2, at: None }],
            Some(frame) if frame < 4 => vec![LiveRequest::Displayed {
                frame,
                at: Some(start(frame) + 20_000_123),
            }],
            _ => vec![],
        };
        let row = RecordedFrame {
            time: start(i),
            frame_time: 16_666_667,
            ..RecordedFrame::default()
        };
        writer.frame(&row, &events).unwrap();
    }
    let bytes = writer.finish().unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains("shown 0 at 20.000123"), "{text}");
    assert!(text.contains("discarded 2"), "{text}");
    let path =
        std::env::temp_dir().join(format!("timestep-lab-displayed-{}.csv", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let trace = recording_trace(&path);
    let _ = std::fs::remove_file(&path);
    let trace = trace.unwrap();
    // Frames 4 and 5, never answered before the recording stopped, are left out.
    assert_eq!(trace.frame_times_ns, vec![16_666_667; 4]);
    assert_eq!(
        trace.display_ns,
        Some(vec![
            Some(20_000_123),
            Some(20_000_123),
            None,
            Some(20_000_123)
        ])
    );
    assert!(
        trace.notes.iter().any(|note| note.contains(
            "display times measured as recorded for 3 of 4 frames; the 2 after the last \
             answered are left out"
        )),
        "{:?}",
        trace.notes
    );
    // A replay settles the frames by them, as the live run did: 3 frames shown (frame 2
    // was discarded; 4 and 5 were still waiting when the recording stopped). The same rows
    // without them are settled by the model, which shows all 5 it presented.
    let without: String = text
        .lines()
        .map(
            |line| match line.find("shown").or_else(|| line.find("discarded")) {
                Some(at) => &line[..at],
                None => line,
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    assert!(!without.contains("shown") && !without.contains("discarded"));
    let shown = |bytes: Vec<u8>| {
        let recording = std::sync::Arc::new(read_recording(bytes, "displayed.csv").unwrap());
        let live = replay_all(&recording, Some(Strategy::Interpolated)).unwrap();
        let refreshes = live.panes()[0].run_metrics().refreshes.unwrap();
        (
            refreshes.latency.iter().sum::<u64>(),
            live.screen().display_times(),
        )
    };
    assert_eq!(
        shown(bytes),
        (
            3,
            DisplayTimesBy::Measurement(Some(FeedbackSource::X11Present))
        )
    );
    assert_eq!(shown(without.into_bytes()), (5, DisplayTimesBy::Model));
}

#[test]
fn bad_display_events_name_the_problem() {
    for (event, message) in [
        (
            "shown 3",
            "display event \"shown 3\" is not shown FRAME at MS",
        ),
        (
            "shown x at 5",
            "frame \"x\" is not a row number (0 or more)",
        ),
        (
            "shown 3 at -5",
            "display time \"-5\" is not a time in ms (0 or more)",
        ),
        (
            "discarded -1",
            "frame \"-1\" is not a row number (0 or more)",
        ),
        (
            "measured wayland",
            "unknown feedback source \"wayland\" (allowed: wayland-presentation-time, \
             x11-present, vk-google-display-timing)",
        ),
        (
            "measured x11-present sixty",
            "measured refresh \"sixty\" is not HZ or HZ at MS",
        ),
        (
            "measured x11-present 5000 at 1",
            "refresh rate 5000 Hz is out of range (allowed 1 to 1000 Hz)",
        ),
        (
            "measured x11-present NaN at 1",
            "refresh rate NaN Hz is out of range",
        ),
        (
            "measured x11-present 60 at -1",
            "refresh phase \"-1\" is not a time in ms (0 or more)",
        ),
    ] {
        let text = format!(
            "# timestep-lab session recording\n# version: 0.1.0\n# settings: {{}}\n\
             frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n\
             0,0,16.666667,0,0,,,{event}\n"
        );
        let error = read_recording(text.into_bytes(), "bad.csv").unwrap_err();
        assert!(error.to_string().contains(message), "{event}: {error}");
    }
}

/// A recording of rows 0, 1, 2 starting at 0, 100 and 200 ms, `answers` written in row 2
/// (line 7) and row 1 (line 6) as given.
fn answered(in_row_1: &str, in_row_2: &str) -> String {
    format!(
        "# timestep-lab session recording\n# version: 0.1.0\n# settings: {{}}\n\
         frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n\
         0,0,16.666667,0,0,,,\n\
         1,100,100,0,0,,,{in_row_1}\n\
         2,200,100,0,0,,,{in_row_2}\n"
    )
}

#[test]
fn every_reader_refuses_an_answer_no_window_can_record_with_its_line() {
    // What the window can record: an answer for an earlier frame, between its start and
    // a minute after, once each.
    let fine = answered("shown 0 at 30", "discarded 1");
    assert!(read_recording(fine.into_bytes(), "rec.csv").is_ok());
    let far = (1..=ANSWER_REACH + 1)
        .map(|i| format!("{i},{i},1,0,0,,,\n"))
        .collect::<String>();
    let header = "# timestep-lab session recording\n# settings: {}\n\
                  frame,time_ms,frame_time_ms,load_ms,carried_ms,present_ms,acquire_wait_ms,events\n\
                  0,0,1,0,0,,,\n";
    let row = ANSWER_REACH + 2;
    let reach = |frame: usize| format!("{header}{far}{row},{row},1,0,0,,,discarded {frame}\n");
    assert!(read_recording(reach(2).into_bytes(), "rec.csv").is_ok());
    let path =
        std::env::temp_dir().join(format!("timestep-lab-answers-{}.csv", std::process::id()));
    for (text, line, message) in [
        (
            answered("shown 1 at 150", ""),
            6,
            "\"shown 1 at 150.000000\" answers for frame 1, whose row is not written yet (this is \
             row 1)",
        ),
        (
            answered("", "discarded 7"),
            7,
            "\"discarded 7\" answers for frame 7, whose row is not written yet",
        ),
        (
            answered("", "discarded 18446744073709551615"),
            7,
            "answers for frame 18446744073709551615, whose row is not written yet",
        ),
        (
            answered("shown 0 at 30; shown 0 at 31", ""),
            6,
            "\"shown 0 at 31.000000\" answers for frame 0 a second time",
        ),
        (
            answered("shown 0 at 30", "discarded 0"),
            7,
            "\"discarded 0\" answers for frame 0 a second time",
        ),
        (
            answered("", "shown 1 at 99.999999"),
            7,
            "\"shown 1 at 99.999999\" puts frame 1 on the screen before it started (at 100.000000 ms)",
        ),
        (
            answered("", "shown 1 at 60100.000001"),
            7,
            "puts frame 1 on the screen more than a minute after it started (at 100.000000 ms)",
        ),
        (
            reach(1),
            ANSWER_REACH + 6,
            "\"discarded 1\" answers for a frame 1025 rows back: the window forgets a present \
             64 presents after it",
        ),
    ] {
        // The window's --replay and bench's replay read it through load_recording, bench
        // --display trace through recording_trace, and a replay's passes through the same
        // rows: each refuses it with the same line.
        std::fs::write(&path, &text).unwrap();
        let errors = [
            read_recording(text.clone().into_bytes(), "rec.csv").map(|_| ()),
            super::load_recording(&path).map(|_| ()),
            recording_trace(&path).map(|_| ()),
        ];
        for error in errors {
            let error = error.unwrap_err().to_string();
            assert!(
                error.contains(&format!(":{line}: ")) && error.contains(message),
                "{message}: {error}"
            );
        }
    }
    let _ = std::fs::remove_file(&path);
}

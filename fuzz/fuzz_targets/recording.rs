//! Fuzzes the reading of a recording: any bytes through the file layer and its meaning
//! (`recording::read_recording`: the header's settings, screen and pause state, and every row
//! and request between frames, the settings read key by key through serde), then a replay's
//! pass over the frames. Never a panic; an error names its problem printably, with a 1-based
//! line; a recording understood starts from valid settings, a pass gives as many frames and
//! requests as the check counted, every requested setting is valid, every presentation
//! answer names a frame read before, once, shown no earlier than that frame started and at
//! most a minute after; and whatever
//! `is_recording`'s test (`starts_with_recording_mark`) calls a recording is read as one, in
//! any encoding.

#![no_main]

use libfuzzer_sys::fuzz_target;
use timestep_lab::live::LiveRequest;
use timestep_lab::recording::read_recording;
use timestep_lab::trace::starts_with_recording_mark;
use timestep_lab_fuzz::{SOURCE, assert_printable, check_error};

fuzz_target!(|data: &[u8]| {
    let marked = starts_with_recording_mark(data);
    let recording = match read_recording(data, SOURCE) {
        Ok(recording) => recording,
        Err(error) => {
            let message = error.to_string();
            assert!(
                !(marked && message.contains("not a recording")),
                "told a recording, then refused as none: {message}"
            );
            return check_error(&error);
        }
    };
    assert!(marked, "read as a recording without its mark");
    assert_printable("a recording's source", &recording.source);
    let header = recording
        .header
        .as_ref()
        .expect("a recording read from a file has a header");
    assert!(
        header.settings.validate().is_ok(),
        "the header's settings are valid: {header:?}"
    );
    let mut reader = recording.frames.open().expect("a checked recording opens again");
    let (mut frames, mut requests, mut events) = (0, 0, Vec::new());
    let (mut starts, mut answered) = (Vec::new(), std::collections::HashSet::new());
    while let Some(frame) = reader
        .next_frame(&mut events)
        .expect("a checked recording reads again")
    {
        frames += 1;
        requests += events.len();
        for event in &events {
            if let LiveRequest::Settings(settings) = event {
                assert!(
                    settings.validate().is_ok(),
                    "requested settings are valid: {settings:?}"
                );
            }
            if let LiveRequest::Displayed { frame: shown, at } = *event {
                let start: u64 = *usize::try_from(shown)
                    .ok()
                    .and_then(|f| starts.get(f))
                    .expect("an answer names a frame read before");
                assert!(answered.insert(shown), "frame {shown} answered twice");
                if let Some(at) = at {
                    assert!(
                        at >= start && at - start <= 60_000_000_000,
                        "frame {shown} shown at {at}, started at {start}"
                    );
                }
            }
        }
        starts.push(frame.time);
    }
    assert_eq!(frames, recording.summary.frames, "frames counted");
    assert_eq!(requests, recording.summary.events, "requests counted");
});

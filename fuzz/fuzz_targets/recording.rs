//! Fuzzes the reading of a recording: any bytes through the file layer
//! (`trace::read_recording_file`) and then its meaning (`recording::read_recording`: the
//! header's settings, screen and pause state, and every request between frames, the settings
//! read key by key through serde). Never a panic; an error names its problem printably, with
//! a 1-based line; a recording understood starts from valid settings, and every request sits
//! before a frame it has.

#![no_main]

use libfuzzer_sys::fuzz_target;
use timestep_lab::live::RecordedEvent;
use timestep_lab::recording::read_recording;
use timestep_lab::trace::read_recording_file;
use timestep_lab_fuzz::{SOURCE, assert_printable, check_error};

fuzz_target!(|data: &[u8]| {
    let file = match read_recording_file(data, SOURCE) {
        Ok(file) => file,
        Err(error) => return check_error(&error),
    };
    let recording = match read_recording(file) {
        Ok(recording) => recording,
        Err(error) => return check_error(&error),
    };
    assert_printable("a recording's source", &recording.source);
    let header = recording
        .header
        .as_ref()
        .expect("a recording read from a file has a header");
    assert!(
        header.settings.validate().is_ok(),
        "the header's settings are valid: {header:?}"
    );
    let frames = recording.frames.len();
    let mut last = 0;
    for (index, event) in &recording.events {
        assert!(
            *index <= frames,
            "request {event:?} at frame {index} of {frames}"
        );
        assert!(*index >= last, "requests in frame order");
        last = *index;
        if let RecordedEvent::Settings(settings) = event {
            assert!(
                settings.validate().is_ok(),
                "requested settings are valid: {settings:?}"
            );
        }
    }
});

//! What the fuzz targets share: the invariants every trace reader keeps, and the way a fuzz
//! input chooses the PresentMon options.
//!
//! A violated invariant panics, which libFuzzer reports as a crash with the input that did it.

use std::io::Read;

use timestep_lab::trace::{FrameTrace, LoadOptions, MAX_FRAME_TIME_MS, TraceError};

/// The name every target gives its input: what messages and [`FrameTrace::source`] show.
pub const SOURCE: &str = "fuzz.csv";

/// The longest frame time (and display delay) a trace may hold, in ns.
pub const MAX_FRAME_NS: u64 = (MAX_FRAME_TIME_MS * 1e6) as u64;

/// Whether `ch` is one the project escapes in every message: a control character or one
/// that reorders text on screen (the same set as `crates/core/src/text.rs`).
pub fn is_unsafe(ch: char) -> bool {
    ch.is_control()
        || matches!(
            ch,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// Panics unless `text` (a message, a note, a source) is safe to print on a terminal.
pub fn assert_printable(what: &str, text: &str) {
    if let Some(ch) = text.chars().find(|&ch| is_unsafe(ch)) {
        panic!("{what} holds the raw character {ch:?}: {text:?}");
    }
}

/// Panics unless `error` reads as the project's messages do: printable, not empty, every
/// cause too, and any line number of [`SOURCE`] 1-based.
pub fn check_error(error: &(dyn std::error::Error + 'static)) {
    let mut cause = Some(error);
    while let Some(error) = cause {
        let message = error.to_string();
        assert!(!message.trim().is_empty(), "an empty message: {error:?}");
        assert_printable("an error message", &message);
        for zero_line in [format!("{SOURCE}:0:"), format!("{SOURCE}:0,")] {
            assert!(
                !message.contains(&zero_line),
                "line numbers are 1-based: {message}"
            );
        }
        cause = error.source();
    }
}

/// Panics unless a trace reader's result keeps the invariants of [`FrameTrace`]: at least
/// one frame, some time passing, every frame time and display delay from 0 to a minute, one
/// display entry per frame, the source as given and printable notes; or a well-formed error.
pub fn check_trace(result: &Result<FrameTrace, TraceError>) {
    let trace = match result {
        Ok(trace) => trace,
        Err(error) => return check_error(error),
    };
    assert_eq!(trace.source, SOURCE);
    check_frames(trace);
}

/// The invariants of any trace's frames and notes, read or generated.
pub fn check_frames(trace: &FrameTrace) {
    assert!(!trace.is_empty(), "a trace without frames");
    assert!(trace.total_ns() > 0, "a trace in which no time passes");
    if let Some(&frame) = trace
        .frame_times_ns
        .iter()
        .find(|&&frame| frame > MAX_FRAME_NS)
    {
        panic!("frame time {frame} ns is over the limit of {MAX_FRAME_NS} ns");
    }
    if let Some(display) = &trace.display_ns {
        assert_eq!(
            display.len(),
            trace.len(),
            "display times and frames differ in number"
        );
        if let Some(delay) = display
            .iter()
            .flatten()
            .find(|&&delay| delay > MAX_FRAME_NS)
        {
            panic!("display delay {delay} ns is over the limit of {MAX_FRAME_NS} ns");
        }
    }
    assert_printable("the source", &trace.source);
    for note in &trace.notes {
        assert!(!note.trim().is_empty(), "an empty note");
        assert_printable("a note", note);
    }
}

/// The PresentMon options an input asks for: a line `#process:NAME` or `#swap-chain:ADDR`
/// anywhere in it (a comment to every reader, so seeds stay real trace files). The last of
/// each wins.
pub fn options_in(data: &[u8]) -> LoadOptions {
    let mut options = LoadOptions::default();
    for line in data.split(|&byte| byte == b'\n' || byte == b'\r') {
        if let Some(name) = line.strip_prefix(b"#process:") {
            options.process = Some(String::from_utf8_lossy(name).into_owned());
        } else if let Some(address) = line.strip_prefix(b"#swap-chain:") {
            options.swap_chain = Some(String::from_utf8_lossy(address).into_owned());
        }
    }
    options
}

/// A reader that hands out its bytes in small pieces of varying size (1 to 16 bytes, sizes
/// taken from the bytes themselves), as a pipe or a slow disk may: a streaming reader must
/// give the same result whatever the pieces.
pub struct Pieces<'a> {
    data: &'a [u8],
    at: usize,
    turn: usize,
}

impl<'a> Pieces<'a> {
    /// Reads `data` piece by piece.
    pub fn new(data: &'a [u8]) -> Self {
        Pieces {
            data,
            at: 0,
            turn: 0,
        }
    }
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = &self.data[self.at..];
        if left.is_empty() || buf.is_empty() {
            return Ok(0);
        }
        let size = 1 + usize::from(self.data[self.turn % self.data.len()] % 16);
        self.turn += 1;
        let size = size.min(left.len()).min(buf.len());
        buf[..size].copy_from_slice(&left[..size]);
        self.at += size;
        Ok(size)
    }
}

/// A result as text, for comparing two reads of the same input.
pub fn outcome(result: &Result<FrameTrace, TraceError>) -> String {
    match result {
        Ok(trace) => format!("{trace:?}"),
        Err(error) => format!("error: {error}"),
    }
}

/// Reads `data` with `read` twice, from one slice and [piece by piece](Pieces), checks the
/// result's invariants ([`check_trace`]) and that both reads agree.
pub fn check_read<F>(data: &[u8], read: F)
where
    F: Fn(&mut dyn Read) -> Result<FrameTrace, TraceError>,
{
    let whole = read(&mut &data[..]);
    check_trace(&whole);
    let pieces = read(&mut Pieces::new(data));
    assert_eq!(
        outcome(&whole),
        outcome(&pieces),
        "reading the input in pieces changed the result"
    );
}

//! The file of a recorded session (the data and its meaning are the core's
//! `live::recording`): `#` header lines (`# key: value`) with the version, adapter, screen,
//! settings and pause state, then the [`crate::trace`] layer's CSV with one row per frame and
//! the requests taken before it (`kick`, `reset`, `pause`, `resume`, `step`,
//! `screen MODE HZ`, `set {changed settings}` as TOML, key presses and mouse turns, and
//! what the platform's presentation feedback said: `measured SOURCE [HZ [at MS]]`,
//! `measured -` or, when the window gave up on it, `measured - silent` or `measured - broken`,
//! `shown FRAME at MS`, `discarded FRAME`). Times
//! are milliseconds with six decimals, read back exactly, so a replay runs the very same
//! frames.

mod answers;
mod screen;
pub mod settings;

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use timestep_lab_core::input::{InputEvent, InputKind, MoveKey};
use timestep_lab_core::live::{
    FrameReader, LiveRequest, LiveSettings, RecordedFrame, RecordedFrames, Recording,
    RecordingHeader, RecordingSink, RecordingSummary, ScreenFacts,
};
use timestep_lab_core::text::{escape, escape_path};
use timestep_lab_core::timestep::Nanos;

use crate::trace::{
    FrameTrace, RECORDING_COLUMNS, RECORDING_MARK, RecordingHead, RecordingRows, TraceError,
    exact_ns, ms_text, open_recording_rows,
};
pub use answers::ANSWER_REACH;
use answers::Answers;
use screen::{measured_text, parse_measured, parse_screen, screen_text};
use settings::{apply_settings_table, settings_table};

/// Reads the recording at `path`: its header and every row and request are read and checked
/// now, in one pass that keeps none of them; a replay reads the file again (see
/// [`Recording`]). Memory does not grow with the number of frames.
pub fn load_recording(path: &Path) -> Result<Recording, TraceError> {
    load_recording_with(path, |_| {})
}

/// [`load_recording`], handing each frame to `each` as the check reads it (what `bench`
/// keeps of every frame it takes in this pass, instead of another).
pub fn load_recording_with(
    path: &Path,
    mut each: impl FnMut(&RecordedFrame),
) -> Result<Recording, TraceError> {
    load_recording_observed(path, |frame, _| each(frame))
}

/// [`load_recording`], handing each frame and the requests before it to `each`.
fn load_recording_observed(
    path: &Path,
    each: impl FnMut(&RecordedFrame, &[LiveRequest]),
) -> Result<Recording, TraceError> {
    let source = RecordingSource {
        origin: escape_path(path),
        bytes: Bytes::File(path.to_owned()),
    };
    checked(source, each)
}

/// The recording at `path` as a trace: its frame times and, when the window measured the
/// screen as it recorded, each frame's display time as the time from its start. A frame the
/// platform answered as discarded counts as never shown; the frames after the last one
/// answered (their answers were still on their way when the recording stopped) are left
/// out, so none is taken for dropped. The reader checked the answers ([`ANSWER_REACH`]).
pub fn recording_trace(path: &Path) -> Result<FrameTrace, TraceError> {
    let (mut frame_times, mut starts) = (Vec::new(), Vec::new());
    let mut display_ns: Vec<Option<Nanos>> = Vec::new();
    let mut last_answered = None;
    let recording = load_recording_observed(path, |frame, events| {
        for event in events {
            // The reader checked that an answer names a frame read already.
            if let LiveRequest::Displayed { frame: shown, at } = *event
                && let Some(f) = usize::try_from(shown).ok().filter(|&f| f < starts.len())
            {
                display_ns[f] = at.map(|at| at.saturating_sub(starts[f]));
                last_answered = last_answered.max(Some(f));
            }
        }
        frame_times.push(frame.frame_time);
        starts.push(frame.time);
        display_ns.push(None);
    })?;
    let mut notes = recording.notes;
    let display_ns = last_answered.map(|last| {
        let kept = last + 1;
        notes.push(format!(
            "{}: display times measured as recorded for {} of {} frames; the {} after the \
             last answered are left out",
            recording.source,
            display_ns[..kept].iter().filter(|d| d.is_some()).count(),
            kept,
            frame_times.len() - kept
        ));
        frame_times.truncate(kept);
        display_ns.truncate(kept);
        display_ns
    });
    Ok(FrameTrace {
        source: recording.source,
        frame_times_ns: frame_times,
        display_ns,
        display_anchor_ns: None,
        notes,
    })
}

/// [`load_recording`] of a recording held in memory; `source` names it in messages.
pub fn read_recording(bytes: impl Into<Arc<[u8]>>, source: &str) -> Result<Recording, TraceError> {
    let source = RecordingSource {
        origin: escape(source),
        bytes: Bytes::Memory(bytes.into()),
    };
    checked(source, |_, _| {})
}

/// The recording `source` holds, its header understood and every row and request checked;
/// each frame is handed to `each` as it is read.
fn checked(
    source: RecordingSource,
    mut each: impl FnMut(&RecordedFrame, &[LiveRequest]),
) -> Result<Recording, TraceError> {
    let (header, mut frames) = source.read()?;
    let mut summary = RecordingSummary::default();
    let mut events = Vec::new();
    while let Some(frame) = frames.frame(&mut events)? {
        summary.add(&frame, &events);
        each(&frame, &events);
    }
    if summary.frames == 0 {
        return Err(TraceError::Empty {
            origin: source.origin,
        });
    }
    let origin = &source.origin;
    let mut notes = Vec::new();
    notes.extend(version_note(&header.version, origin));
    if let Some(line) = frames.rows.cut_short() {
        notes.push(format!(
            "{origin}:{line}: the last row has no line end, as when recording stopped on a \
             full disk or a crash: it is left out, and the {} rows before it replay",
            summary.frames
        ));
    }
    Ok(Recording {
        source: origin.clone(),
        header: Some(header),
        frames: Arc::new(source),
        summary,
        notes,
    })
}

/// A note for a recording made by another version than this one, or that does not say by
/// which: it is read as this version's format all the same (the columns and the requests
/// are what the format is; anything this version does not know is refused with its line).
fn version_note(version: &str, origin: &str) -> Option<String> {
    const THIS: &str = env!("CARGO_PKG_VERSION");
    let numbers = |version: &str| -> Option<Vec<u64>> {
        version.split('.').map(|part| part.parse().ok()).collect()
    };
    if version.is_empty() {
        return Some(format!(
            "{origin}: the recording has no \"# version:\" line; it is read as a recording \
             of this version ({THIS})"
        ));
    }
    let newer = match (numbers(version), numbers(THIS)) {
        (Some(recorded), Some(this)) => recorded > this,
        // Not a version number: say so rather than guess.
        _ => true,
    };
    newer.then(|| {
        format!(
            "{origin}: recorded by version {}, not this one ({THIS}) or an older one; it is \
             read as this version's format, and anything this version does not know is \
             refused with its line",
            escape(version)
        )
    })
}

/// Where a recording's bytes are.
#[derive(Debug)]
enum Bytes {
    /// A file, opened again for each pass.
    File(PathBuf),
    /// Memory.
    Memory(Arc<[u8]>),
}

/// A recording's file (or bytes), read again from the start for each pass over its frames.
#[derive(Debug)]
struct RecordingSource {
    /// The file, fit for messages.
    origin: String,
    /// Its bytes.
    bytes: Bytes,
}

impl RecordingSource {
    /// Opens a pass: the header understood, and the frames to read.
    fn read(&self) -> Result<(RecordingHeader, FileFrames), TraceError> {
        let reader: Box<dyn Read + Send> = match &self.bytes {
            Bytes::File(path) => {
                Box::new(
                    std::fs::File::open(path).map_err(|source| TraceError::Read {
                        path: self.origin.clone(),
                        source,
                    })?,
                )
            }
            Bytes::Memory(bytes) => Box::new(std::io::Cursor::new(Arc::clone(bytes))),
        };
        let (head, rows) = open_recording_rows(reader, &self.origin)?;
        let header = read_header(&head)?;
        let frames = FileFrames {
            rows,
            settings: header.settings,
            answers: Answers::default(),
            origin: self.origin.clone(),
        };
        Ok((header, frames))
    }
}

impl RecordedFrames for RecordingSource {
    fn open(&self) -> Result<Box<dyn FrameReader>, String> {
        match self.read() {
            Ok((_, frames)) => Ok(Box::new(frames)),
            Err(error) => Err(error.to_string()),
        }
    }
}

/// One pass over a recording's rows, their requests understood.
struct FileFrames {
    /// The rows.
    rows: RecordingRows<Box<dyn Read + Send>>,
    /// The settings as of the last request read (a `set` names only what changed).
    settings: LiveSettings,
    /// The rows the presentation answers are checked against.
    answers: Answers,
    /// The file, fit for messages.
    origin: String,
}

impl FileFrames {
    /// The next frame and, in `events`, the requests before it; `None` after the last.
    fn frame(
        &mut self,
        events: &mut Vec<LiveRequest>,
    ) -> Result<Option<RecordedFrame>, TraceError> {
        events.clear();
        let Some((frame, text)) = self.rows.next_row()? else {
            return Ok(None);
        };
        if let Some(text) = text {
            let read = parse_events(&text, &mut self.settings).map_err(|message| {
                TraceError::Recording {
                    origin: self.origin.clone(),
                    line: frame.line,
                    message,
                }
            })?;
            events.extend(read);
        }
        let refused = |message| TraceError::Recording {
            origin: self.origin.clone(),
            line: frame.line,
            message,
        };
        for event in events.iter() {
            if let LiveRequest::Displayed { frame, at } = *event {
                self.answers.answer(frame, at).map_err(refused)?;
            }
            // The window stamps an input when it arrives, before the frame that takes it
            // starts.
            if let LiveRequest::Input(input) = event
                && input.at > frame.time
            {
                return Err(refused(format!(
                    "an input stamped at {} ms comes before a frame that starts earlier, \
                         at {} ms: the window stamps an input when it arrives, before the \
                         frame that takes it",
                    ms_text(input.at),
                    ms_text(frame.time)
                )));
            }
        }
        self.answers.row(frame.time);
        Ok(Some(frame))
    }
}

impl FrameReader for FileFrames {
    fn next_frame(
        &mut self,
        events: &mut Vec<LiveRequest>,
    ) -> Result<Option<RecordedFrame>, String> {
        self.frame(events).map_err(|error| error.to_string())
    }
}

/// A recording's header lines understood, or the first problem, naming its line.
fn read_header(head: &RecordingHead) -> Result<RecordingHeader, TraceError> {
    let origin = head.origin.as_str();
    let bad = |line: usize, message: String| TraceError::Recording {
        origin: origin.to_owned(),
        line,
        message,
    };
    let field = |key: &str| head.header.iter().find(|(_, k, _)| k == key);
    let (settings_line, _, settings_text) = field("settings")
        .ok_or_else(|| bad(1, "the header has no \"# settings:\" line".to_owned()))?;
    let mut settings = LiveSettings::default();
    let table = parse_table(settings_text).map_err(|why| bad(*settings_line, why))?;
    apply_settings_table(&mut settings, &table)
        .map_err(|why| bad(*settings_line, format!("settings: {why}")))?;
    let paused = match field("paused") {
        None => false,
        Some((_, _, value)) if value == "yes" => true,
        Some((_, _, value)) if value == "no" => false,
        Some((line, _, value)) => {
            return Err(bad(
                *line,
                format!("paused \"{}\" is not yes or no", escape(value)),
            ));
        }
    };
    let screen = match field("screen") {
        None => ScreenFacts::default(),
        Some((line, _, value)) => parse_screen(value).map_err(|why| bad(*line, why))?,
    };
    let measured = match field("measured") {
        None => None,
        Some((line, _, value)) => parse_measured(value).map_err(|why| bad(*line, why))?,
    };
    let text = |key: &str| field(key).map_or_else(String::new, |(_, _, v)| v.clone());
    Ok(RecordingHeader {
        version: text("version"),
        adapter: text("adapter"),
        settings,
        paused,
        screen,
        measured,
    })
}

/// A trace's frames as a recording with nothing else: each frame starts where the one before
/// ended, the first at zero. What the trace's reader noticed stays in its notes.
pub fn recording_from_trace(trace: FrameTrace) -> Recording {
    let mut recording = Recording::from_frame_times(trace.source, trace.frame_times_ns);
    recording.notes = trace.notes;
    recording
}

/// Writes a session as it runs: the header first, then one row per frame with the requests
/// taken before it. Settings are written as what changed.
#[derive(Debug)]
pub struct RecordingWriter<W: Write> {
    /// The CSV writer.
    csv: csv::Writer<W>,
    /// The settings as of the last row written.
    settings: LiveSettings,
    /// Rows written.
    frames: u64,
}

impl<W: Write> RecordingWriter<W> {
    /// Writes the header to `out`.
    pub fn new(mut out: W, header: &RecordingHeader) -> std::io::Result<Self> {
        let mut text = String::new();
        let _ = writeln!(text, "{RECORDING_MARK}");
        let _ = writeln!(text, "# version: {}", clean(&header.version));
        let _ = writeln!(text, "# adapter: {}", clean(&header.adapter));
        let _ = writeln!(text, "# screen: {}", screen_text(header.screen));
        if header.measured.is_some() {
            let _ = writeln!(text, "# measured: {}", measured_text(header.measured));
        }
        let _ = writeln!(
            text,
            "# settings: {}",
            toml::Value::Table(settings_table(&header.settings))
        );
        let _ = writeln!(
            text,
            "# paused: {}",
            if header.paused { "yes" } else { "no" }
        );
        out.write_all(text.as_bytes())?;
        let mut csv = csv::Writer::from_writer(out);
        csv.write_record(RECORDING_COLUMNS)?;
        Ok(Self {
            csv,
            settings: header.settings,
            frames: 0,
        })
    }

    /// Flushes everything written and gives the output back.
    pub fn finish(self) -> std::io::Result<W> {
        self.csv
            .into_inner()
            .map_err(|error| std::io::Error::other(error.into_error()))
    }
}

impl<W: Write + Send> RecordingSink for RecordingWriter<W> {
    fn frame(&mut self, row: &RecordedFrame, events: &[LiveRequest]) -> std::io::Result<()> {
        let mut text = String::new();
        for event in events {
            let piece = match event {
                LiveRequest::Settings(settings) => {
                    let before = settings_table(&self.settings);
                    let changed: toml::Table = settings_table(settings)
                        .into_iter()
                        .filter(|(key, value)| before.get(key) != Some(value))
                        .collect();
                    self.settings = *settings;
                    if changed.is_empty() {
                        continue;
                    }
                    format!("set {}", toml::Value::Table(changed))
                }
                LiveRequest::Reset => "reset".to_owned(),
                LiveRequest::Kick => "kick".to_owned(),
                LiveRequest::Pause => "pause".to_owned(),
                LiveRequest::Resume => "resume".to_owned(),
                LiveRequest::SingleStep => "step".to_owned(),
                LiveRequest::Screen(facts) => format!("screen {}", screen_text(*facts)),
                LiveRequest::Input(event) => input_text(event),
                LiveRequest::Displayed {
                    frame,
                    at: Some(at),
                } => format!("shown {frame} at {}", ms_text(*at)),
                LiveRequest::Displayed { frame, at: None } => format!("discarded {frame}"),
                LiveRequest::Measured(facts) => format!("measured {}", measured_text(*facts)),
                LiveRequest::GaveUp(why) => format!("measured - {why}"),
            };
            if !text.is_empty() {
                text.push_str("; ");
            }
            text.push_str(&piece);
        }
        let (present, wait) = row
            .present
            .map_or((String::new(), String::new()), |(at, wait)| {
                (ms_text(at), ms_text(wait))
            });
        self.csv.write_record([
            self.frames.to_string(),
            ms_text(row.time),
            ms_text(row.frame_time),
            ms_text(row.load),
            ms_text(row.carried),
            present,
            wait,
            text,
        ])?;
        self.frames += 1;
        Ok(())
    }

    fn frames(&self) -> u64 {
        self.frames
    }

    fn finish(self: Box<Self>) -> std::io::Result<()> {
        RecordingWriter::finish(*self)?.flush()
    }
}

/// Text for a header line: on one line, without control characters.
fn clean(text: &str) -> String {
    escape(&text.replace(['\r', '\n'], " "))
}

/// Reads `{key = value, ...}`.
fn parse_table(text: &str) -> Result<toml::Table, String> {
    let document: toml::Table =
        format!("t = {text}")
            .parse()
            .map_err(|error: toml::de::Error| {
                format!(
                    "\"{}\" is not a table of settings ({})",
                    escape(&shortened(text)),
                    error.message()
                )
            })?;
    match document.get("t") {
        Some(toml::Value::Table(table)) => Ok(table.clone()),
        _ => Err(format!(
            "\"{}\" is not a table of settings",
            escape(&shortened(text))
        )),
    }
}

/// An input as a recording writes it: `press forward at 1234.5`, `release left at …`,
/// `look 0.01 -0.002 at …` (radians, written so that they read back to the same bits).
fn input_text(event: &InputEvent) -> String {
    let what = match event.kind {
        InputKind::Press(key) => format!("press {key}"),
        InputKind::Release(key) => format!("release {key}"),
        InputKind::Look { yaw_rad, pitch_rad } => format!("look {yaw_rad} {pitch_rad}"),
    };
    format!("{what} at {}", ms_text(event.at))
}

/// Reads an input written by [`input_text`] (`verb` already split off).
fn parse_input(verb: &str, rest: &str) -> Result<InputEvent, String> {
    let shown = || escape(&shortened(&format!("{verb} {rest}")));
    let (what, at) = rest
        .rsplit_once(" at ")
        .ok_or_else(|| format!("input \"{}\" has no \"at MS\" time", shown()))?;
    let at = exact_ns(at.trim()).ok_or_else(|| {
        format!(
            "input \"{}\": the time is not milliseconds with at most 6 decimals",
            shown()
        )
    })?;
    let key = |text: &str| {
        text.trim()
            .parse::<MoveKey>()
            .map_err(|error| format!("input \"{}\": {}", shown(), escape(&error.to_string())))
    };
    let kind = match verb {
        "press" => InputKind::Press(key(what)?),
        "release" => InputKind::Release(key(what)?),
        _ => {
            let mut angles = what.split_whitespace().map(|text| {
                text.parse::<f64>()
                    .ok()
                    .filter(|angle| angle.is_finite() && angle.abs() <= 1e6)
            });
            match (angles.next(), angles.next(), angles.next()) {
                (Some(Some(yaw_rad)), Some(Some(pitch_rad)), None) => {
                    InputKind::Look { yaw_rad, pitch_rad }
                }
                _ => {
                    return Err(format!(
                        "input \"{}\": a look is two angles in radians (each within \
                         ±1000000), yaw then pitch",
                        shown()
                    ));
                }
            }
        }
    };
    Ok(InputEvent { at, kind })
}

/// At most 60 characters of `text`.
fn shortened(text: &str) -> String {
    text.chars().take(60).collect()
}

/// A frame's row number in a display event (`shown 12 at ...`, `discarded 12`).
fn parse_frame(text: &str) -> Result<u64, String> {
    let text = text.trim();
    text.parse().map_err(|_| {
        format!(
            "frame \"{}\" is not a row number (0 or more)",
            escape(&shortened(text))
        )
    })
}

/// `FRAME at MS`: when the recording's frame `FRAME` reached the screen.
fn parse_shown(text: &str) -> Result<LiveRequest, String> {
    let bad = || {
        format!(
            "display event \"shown {}\" is not shown FRAME at MS",
            escape(&shortened(text))
        )
    };
    let (frame, at) = text.split_once(" at ").ok_or_else(bad)?;
    let at = exact_ns(at.trim()).ok_or_else(|| {
        format!(
            "display time \"{}\" is not a time in ms (0 or more)",
            escape(&shortened(at.trim()))
        )
    })?;
    Ok(LiveRequest::Displayed {
        frame: parse_frame(frame)?,
        at: Some(at),
    })
}

/// Reads one row's events (`kick; set {...}; pause`), applying setting changes to
/// `settings`, which holds the settings as of the row before.
fn parse_events(text: &str, settings: &mut LiveSettings) -> Result<Vec<LiveRequest>, String> {
    let mut events = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let (piece, after) = if let Some(body) = rest.strip_prefix("set ") {
            // A table's values never hold braces, so the first `}` closes it.
            let end = body.find('}').ok_or_else(|| {
                format!(
                    "event \"{}\" has no closing brace",
                    escape(&shortened(rest))
                )
            })?;
            (&rest[..4 + end + 1], &body[end + 1..])
        } else {
            rest.split_once(';').unwrap_or((rest, ""))
        };
        let piece = piece.trim();
        let event = match piece.split_once(' ').map_or((piece, ""), |(a, b)| (a, b)) {
            ("kick", "") => LiveRequest::Kick,
            ("reset", "") => LiveRequest::Reset,
            ("pause", "") => LiveRequest::Pause,
            ("resume", "") => LiveRequest::Resume,
            ("step", "") => LiveRequest::SingleStep,
            ("screen", facts) => LiveRequest::Screen(parse_screen(facts)?),
            ("measured", facts) => match facts.trim().strip_prefix("- ") {
                Some(why) => LiveRequest::GaveUp(why.trim().parse().map_err(
                    |error: timestep_lab_core::feedback::UnknownGaveUp| escape(&error.to_string()),
                )?),
                None => LiveRequest::Measured(parse_measured(facts)?),
            },
            (verb @ ("press" | "release" | "look"), rest) => {
                LiveRequest::Input(parse_input(verb, rest)?)
            }
            ("shown", rest) => parse_shown(rest)?,
            ("discarded", frame) => LiveRequest::Displayed {
                frame: parse_frame(frame)?,
                at: None,
            },
            ("set", table) => {
                let table = parse_table(table.trim())?;
                apply_settings_table(settings, &table)?;
                LiveRequest::Settings(*settings)
            }
            _ => {
                return Err(format!(
                    "unknown event \"{}\" (expected kick, reset, pause, resume, step, \
                     screen MODE HZ, measured SOURCE [HZ [at MS]], measured - [silent|broken], press KEY at MS, release KEY \
                     at MS, look YAW PITCH at MS, shown FRAME at MS, discarded FRAME or \
                     set {{...}})",
                    escape(&shortened(piece))
                ));
            }
        };
        events.push(event);
        rest = after.trim_start().strip_prefix(';').unwrap_or(after).trim();
    }
    Ok(events)
}

#[cfg(test)]
mod tests;

//! Frame-time traces: sequences of real frame times that drive the headless bench.
//!
//! A trace comes from a file or a generator. Files are recognised by their content, not their
//! extension:
//!
//! - **plain**: one frame time in milliseconds per line, `#` starting a comment; or a CSV whose
//!   header has a `frame_time_ms` column (what [`write_csv`] writes).
//! - **PresentMon** CSV: a header with `MsBetweenPresents` and `Application` (or
//!   `ProcessName`). Rows of several processes and swap chains are mixed, so one application
//!   is chosen ([`LoadOptions::process`], else the one with the most rows), then one of its
//!   swap chains ([`LoadOptions::swap_chain`], else the one with the most rows). Frame times
//!   are CPU start to CPU start (`MsBetweenAppStart` of the previous row) in PresentMon 2.x
//!   files, else `MsBetweenPresents`; rows without one (the first of a swap chain, `NA`) are
//!   skipped. When the file says when each frame reached the screen (`MsUntilDisplayed`,
//!   `DisplayLatency`), [`FrameTrace::display_ns`] holds it.
//! - **MangoHud** CSV: a system-information preamble, then a header with `frametime` in ms.
//!
//! Generators ([`generate()`]) make `steady`, `jitter`, `hitch` and `ramp` traces from a
//! short spec; they are seeded ([`Rng`]) and give the same trace on every platform.
//!
//! Frame times are whole nanoseconds, converted once from milliseconds with
//! `(ms * 1e6).round()`, so the bench's integer time accounting starts exact. Every value is
//! checked to be a number from 0 to [`MAX_FRAME_TIME_MS`]; errors name the file, the line and
//! the value. Things the user should know but that are not errors (which application was
//! chosen, how many rows were skipped) are returned as [`FrameTrace::notes`].

mod csv;
mod error;
mod generate;
mod mangohud;
mod plain;
mod presentmon;
mod rng;

use std::io::Write;
use std::path::Path;

pub use error::TraceError;
pub use generate::{
    DEFAULT_DURATION_S, DEFAULT_JITTER_SEED, GENERATORS, MAX_DURATION_S, MAX_GENERATED_FRAMES,
    generate,
};
pub use rng::Rng;

/// Longest frame time accepted, in milliseconds. A minute is far beyond any real hitch, so a
/// larger value almost always means a unit mistake (µs or ns where ms were expected).
pub const MAX_FRAME_TIME_MS: f64 = 60_000.0;

/// The column [`write_csv`] writes and plain CSV files are read from.
pub const FRAME_TIME_COLUMN: &str = "frame_time_ms";

/// A sequence of frame times with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameTrace {
    /// Human-readable source: file path, or the generator spec with duration, e.g.
    /// "jitter:60:2:7 (10 s)".
    pub source: String,
    /// Frame times in nanoseconds, in order.
    pub frame_times_ns: Vec<u64>,
    /// Per frame, when the capture says its image reached the screen, as the time from the
    /// frame's reference event (the event whose intervals `frame_times_ns` measures) to the
    /// display, ns; `None` for a frame never shown. `None` overall when the trace has no
    /// display times (plain, MangoHud, generated, PresentMon without display columns).
    ///
    /// When `Some`, its length equals `frame_times_ns.len()`.
    pub display_ns: Option<Vec<Option<u64>>>,
    /// Things the loader wants the user to know (printed on stderr by the CLI), e.g. which
    /// PresentMon process was chosen and how many NA rows were skipped.
    pub notes: Vec<String>,
}

impl FrameTrace {
    /// Number of frames.
    pub fn len(&self) -> usize {
        self.frame_times_ns.len()
    }

    /// Whether there are no frames (loaders and generators never return such a trace).
    pub fn is_empty(&self) -> bool {
        self.frame_times_ns.is_empty()
    }

    /// Sum of the frame times in nanoseconds (saturating, which no real trace reaches).
    pub fn total_ns(&self) -> u64 {
        self.frame_times_ns
            .iter()
            .fold(0_u64, |total, &frame| total.saturating_add(frame))
    }

    /// Sum of the frame times in seconds, for display.
    pub fn wall_time_s(&self) -> f64 {
        self.total_ns() as f64 / 1e9
    }
}

/// How to read a trace file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// PresentMon only: the application whose rows to use (ASCII case ignored; `game` also
    /// finds `Game.exe`). `None` uses the application with the most rows.
    pub process: Option<String>,
    /// PresentMon only: the swap chain of the chosen application whose rows to use, as its
    /// `SwapChainAddress` (ASCII case ignored; `0x1A2B`, `1a2b` and `0x00001A2B` are the same
    /// address). `None` uses the swap chain with the most rows.
    pub swap_chain: Option<String>,
}

/// Reads a trace file, detects its format from its content and parses it.
///
/// Text is UTF-8 (invalid bytes replaced) or UTF-16 with a byte-order mark, which is what
/// Windows PowerShell writes when PresentMon's output is redirected.
pub fn load(path: &Path, options: &LoadOptions) -> Result<FrameTrace, TraceError> {
    let origin = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| TraceError::Read {
        path: origin.clone(),
        source,
    })?;
    parse(&decode(&bytes), &origin, options)
}

/// Detects the format of `text` and parses it; `source` names it in messages and becomes
/// [`FrameTrace::source`].
pub fn parse(text: &str, source: &str, options: &LoadOptions) -> Result<FrameTrace, TraceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trace = match detect(text, source)? {
        Format::Plain => plain::parse_lines(text, source)?,
        Format::PlainCsv => plain::parse_csv(text, source)?,
        Format::PresentMon => presentmon::parse(text, source, options)?,
        Format::MangoHud { header_line } => mangohud::parse(text, source, header_line)?,
    };
    if trace.is_empty() {
        return Err(TraceError::Empty {
            origin: source.to_owned(),
        });
    }
    Ok(trace)
}

/// Writes the lab's own recording format: `#` comment lines naming the source, a
/// `frame_time_ms` header, then one frame time per line with 6 decimals, which is exact for
/// whole nanoseconds, so [`parse`] reads back the same values.
pub fn write_csv(trace: &FrameTrace, out: &mut impl Write) -> std::io::Result<()> {
    // A newline in the source would end the comment and turn the rest into data.
    let source = trace.source.replace(['\r', '\n'], " ");
    writeln!(out, "# frame-time trace written by timestep-lab")?;
    writeln!(out, "# source: {source}")?;
    writeln!(
        out,
        "# frames: {}, total: {:.6} s",
        trace.len(),
        trace.wall_time_s()
    )?;
    writeln!(out, "{FRAME_TIME_COLUMN}")?;
    for &ns in &trace.frame_times_ns {
        writeln!(out, "{}.{:06}", ns / 1_000_000, ns % 1_000_000)?;
    }
    Ok(())
}

/// The formats [`parse`] tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Plain,
    PlainCsv,
    PresentMon,
    MangoHud { header_line: usize },
}

/// Decides the format from the first data line (and, for MangoHud, the few after it).
fn detect(text: &str, origin: &str) -> Result<Format, TraceError> {
    let Some((line, first)) = csv::records(text).next() else {
        return Err(TraceError::Empty {
            origin: origin.to_owned(),
        });
    };
    let header = csv::split_fields(first);
    if csv::column(&header, &[presentmon::PRESENTS_COLUMN]).is_some() {
        return Ok(Format::PresentMon);
    }
    if csv::column(&header, &[FRAME_TIME_COLUMN]).is_some() {
        return Ok(Format::PlainCsv);
    }
    let first_value = first.split('#').next().unwrap_or_default().trim();
    if first_value.parse::<f64>().is_ok() {
        return Ok(Format::Plain);
    }
    if let Some(header_line) = mangohud::find_header(text) {
        return Ok(Format::MangoHud { header_line });
    }
    if first.contains(',') {
        return Err(TraceError::UnrecognisedFormat {
            origin: origin.to_owned(),
            line,
            header: error::quoted(first),
        });
    }
    // A single word: plain, whose parser reports it as not a number.
    Ok(Format::Plain)
}

/// Text from file bytes: UTF-16 when it starts with a byte-order mark, else UTF-8 with
/// invalid sequences replaced (an odd byte in an application name is no reason to fail).
fn decode(bytes: &[u8]) -> String {
    let utf16 = |rest: &[u8], from_bytes: fn([u8; 2]) -> u16| {
        let units = rest
            .chunks_exact(2)
            .map(|pair| from_bytes([pair[0], pair[1]]));
        char::decode_utf16(units)
            .map(|unit| unit.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect()
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, u16::from_be_bytes),
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use proptest::prelude::*;

    use super::*;

    fn assets() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/traces")
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

    #[test]
    fn byte_order_marks_are_understood() {
        assert_eq!(decode(b"\xEF\xBB\xBF1.5\n"), "\u{feff}1.5\n");
        let trace = parse(
            &decode(b"\xEF\xBB\xBF1.5\n"),
            "bom.txt",
            &LoadOptions::default(),
        );
        assert_eq!(trace.unwrap().frame_times_ns, [1_500_000]);
        let utf16le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("2\r\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode(&utf16le), "2\r\n");
        let utf16be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("3\n".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode(&utf16be), "3\n");
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
                "os,cpu\nLinux,x\nfps,frametime\n",
            ]),
            body in "[0-9a-zA-Z.,#\"\r\n -]{0,300}",
        ) {
            let text = format!("{header}{body}");
            let _ = parse(&text, "fuzz", &LoadOptions::default());
            let _ = decode(text.as_bytes());
        }

        #[test]
        fn generate_never_panics(
            spec in "(steady|jitter|hitch|ramp|[a-z]{0,5})(:[0-9.e-]{0,6}){0,4}",
            duration_s in -0.01..0.01_f64,
        ) {
            let _ = generate(&spec, duration_s);
        }

        #[test]
        fn write_csv_round_trips_any_valid_frame_times(
            frames in prop::collection::vec(0..=60_000_000_000_u64, 1..50),
        ) {
            let trace = FrameTrace {
                source: "p".to_owned(),
                frame_times_ns: frames,
                display_ns: None,
                notes: Vec::new(),
            };
            let mut out = Vec::new();
            write_csv(&trace, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let back = parse(&text, "p", &LoadOptions::default()).unwrap();
            prop_assert_eq!(back.frame_times_ns, trace.frame_times_ns);
        }
    }
}

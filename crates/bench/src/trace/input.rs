//! From the bytes of a file to lines of UTF-8 text, streamed: the encoding, the line endings,
//! and the limits that keep a hostile file from taking unbounded memory or time.
//!
//! The layers, outermost last: [`FirstRead`] (tells when a pipe keeps us waiting),
//! [`decode`] (UTF-8, or UTF-16 with or without a byte-order mark, to UTF-8), [`Normalised`]
//! (every line ending becomes `\n`, lines are capped at [`MAX_LINE_BYTES`], the text ends with
//! `\n`), then [`peek`] reads the first lines for format detection.

use std::io::{self, BufRead, Read};
use std::ops::Range;
use std::sync::mpsc;
use std::time::Duration;

use super::{MAX_LINE_BYTES, TraceError};

/// Bytes looked at to tell the encoding: enough for a few characters of UTF-16.
const SNIFF_BYTES: usize = 64;
/// Meaningful (not blank, not comment) lines kept for format detection: a MangoHud header
/// comes after a two-line preamble and sometimes a separator line; the margin costs nothing.
pub(super) const PEEK_LINES: usize = 10;
/// Bytes kept for format detection at most, however many comment lines sit between the first
/// meaningful lines.
const PEEK_BYTES: usize = 1 << 20;
/// How long a read may keep us waiting before the user is told (a pipe with no writer yet).
pub(super) const WAIT_NOTICE_AFTER: Duration = Duration::from_secs(1);

/// The error an I/O layer reports: the trace error it carries, else a read error of `origin`.
pub(super) fn from_io(error: io::Error, origin: &str) -> TraceError {
    error
        .downcast::<TraceError>()
        .unwrap_or_else(|source| TraceError::Read {
            path: origin.to_owned(),
            source,
        })
}

/// A reader that says, through a channel, when its first read returned; until then a watcher
/// thread may call the user's notice.
pub(super) struct FirstRead<R> {
    /// The file.
    inner: R,
    /// Dropped at the first read's return, which ends the watcher's wait.
    arrived: Option<mpsc::Sender<()>>,
}

impl<R: Read> FirstRead<R> {
    /// Starts a watcher that calls `on_wait` if no read has returned after
    /// [`WAIT_NOTICE_AFTER`], then opens the reader with `open` (opening a FIFO blocks until a
    /// writer comes, so the watcher starts first).
    pub fn open(
        open: impl FnOnce() -> io::Result<R>,
        on_wait: impl FnOnce() + Send + 'static,
    ) -> io::Result<FirstRead<R>> {
        let (arrived, waiting) = mpsc::channel::<()>();
        // Without a thread there is only no notice; the trace is read all the same.
        let _ = std::thread::Builder::new()
            .name("trace-wait-notice".to_owned())
            .spawn(move || {
                if waiting.recv_timeout(WAIT_NOTICE_AFTER) == Err(mpsc::RecvTimeoutError::Timeout) {
                    on_wait();
                }
            });
        Ok(FirstRead {
            inner: open()?,
            arrived: Some(arrived),
        })
    }
}

impl<R: Read> Read for FirstRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let result = self.inner.read(buf);
        self.arrived = None;
        result
    }
}

/// The text encodings a trace may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Encoding {
    /// UTF-8, with or without a byte-order mark (invalid bytes are kept and shown as U+FFFD
    /// where text is needed).
    Utf8,
    /// UTF-16, little-endian (what Windows PowerShell writes) or big-endian.
    Utf16 {
        /// Big-endian.
        big_endian: bool,
        /// Whether the file starts with a byte-order mark (else it was recognised by its
        /// zero bytes).
        bom: bool,
    },
}

/// Reads the first bytes of `reader`, decides its encoding, and returns a reader of the text
/// as UTF-8 (byte-order mark removed) with the encoding found.
///
/// A file that starts with a NUL byte and is not UTF-16 (a binary file, `/dev/zero`) is
/// refused here, before anything else is read; a NUL further on is refused by
/// [`Normalised`], which knows its line.
pub(super) fn decode<R: Read>(
    mut reader: R,
    origin: &str,
) -> Result<(Decoded<R>, Encoding), TraceError> {
    let mut sample = Vec::with_capacity(SNIFF_BYTES);
    (&mut reader)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut sample)
        .map_err(|source| TraceError::Read {
            path: origin.to_owned(),
            source,
        })?;
    let encoding = sniff(&sample).ok_or_else(|| TraceError::NotText {
        origin: origin.to_owned(),
    })?;
    let text = match encoding {
        Encoding::Utf8 => {
            let bom = if sample.starts_with(b"\xEF\xBB\xBF") {
                3
            } else {
                0
            };
            sample.drain(..bom);
            Decoded::Utf8(io::Cursor::new(sample).chain(reader))
        }
        Encoding::Utf16 { big_endian, bom } => {
            if bom {
                sample.drain(..2);
            }
            Decoded::Utf16(Utf16Reader::new(
                io::Cursor::new(sample).chain(reader),
                big_endian,
            ))
        }
    };
    Ok((text, encoding))
}

/// A file's text as UTF-8: [`decode`]'s reader (`Send` when the file's reader is).
pub(super) enum Decoded<R> {
    /// UTF-8 already: the bytes looked at, then the rest.
    Utf8(io::Chain<io::Cursor<Vec<u8>>, R>),
    /// UTF-16, decoded as it is read.
    Utf16(Utf16Reader<io::Chain<io::Cursor<Vec<u8>>, R>>),
}

impl<R: Read> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Decoded::Utf8(text) => text.read(buf),
            Decoded::Utf16(text) => text.read(buf),
        }
    }
}

/// The encoding of a file from its first bytes, or `None` for binary data.
///
/// Without a byte-order mark, UTF-16 text that is mostly ASCII (as traces are) has a zero in
/// every other byte: the odd ones for little-endian, the even ones for big-endian. UTF-8 text
/// has no zero bytes at all.
fn sniff(sample: &[u8]) -> Option<Encoding> {
    match sample {
        [0xEF, 0xBB, 0xBF, ..] => return Some(Encoding::Utf8),
        [0xFF, 0xFE, ..] => {
            return Some(Encoding::Utf16 {
                big_endian: false,
                bom: true,
            });
        }
        [0xFE, 0xFF, ..] => {
            return Some(Encoding::Utf16 {
                big_endian: true,
                bom: true,
            });
        }
        _ => {}
    }
    if !sample.contains(&0) {
        return Some(Encoding::Utf8);
    }
    if sample.len() < 2 {
        return None;
    }
    let pairs = sample.len() / 2;
    let zeros = |offset: usize| {
        sample
            .chunks_exact(2)
            .filter(|pair| pair[offset] == 0)
            .count()
    };
    let (even, odd) = (zeros(0), zeros(1));
    // Nearly all of one side zero, nearly none of the other.
    let mostly = |count: usize| count * 4 >= pairs * 3;
    let rarely = |count: usize| count * 10 <= pairs;
    if pairs > 0 && mostly(odd) && rarely(even) {
        Some(Encoding::Utf16 {
            big_endian: false,
            bom: false,
        })
    } else if pairs > 0 && mostly(even) && rarely(odd) {
        Some(Encoding::Utf16 {
            big_endian: true,
            bom: false,
        })
    } else if sample[0] == 0 {
        None
    } else {
        // Text with a stray NUL: read as UTF-8, so the NUL is refused with its line.
        Some(Encoding::Utf8)
    }
}

/// Decodes UTF-16 to UTF-8 as it is read; unpaired surrogates and a dangling odd byte become
/// U+FFFD.
pub(super) struct Utf16Reader<R> {
    /// The UTF-16 bytes.
    inner: R,
    /// Big-endian.
    big_endian: bool,
    /// Input bytes not decoded yet: an odd byte, or a high surrogate waiting for its pair.
    carry: Vec<u8>,
    /// Decoded UTF-8 not handed out yet, from `out_start`.
    out: Vec<u8>,
    /// Where the undelivered part of `out` starts.
    out_start: usize,
}

/// Input bytes decoded per refill.
const UTF16_CHUNK: usize = 8 * 1024;

impl<R: Read> Utf16Reader<R> {
    fn new(inner: R, big_endian: bool) -> Self {
        Utf16Reader {
            inner,
            big_endian,
            carry: Vec::new(),
            out: Vec::new(),
            out_start: 0,
        }
    }

    /// Decodes the next chunk into `out`; false at the end of the input.
    fn refill(&mut self) -> io::Result<bool> {
        self.out.clear();
        self.out_start = 0;
        while self.out.is_empty() {
            let had = self.carry.len();
            self.carry.resize(had + UTF16_CHUNK, 0);
            let read = loop {
                match self.inner.read(&mut self.carry[had..]) {
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    other => break other,
                }
            };
            let read = match read {
                Ok(read) => read,
                Err(error) => {
                    self.carry.truncate(had);
                    return Err(error);
                }
            };
            self.carry.truncate(had + read);
            let at_end = read == 0;
            if at_end && self.carry.is_empty() {
                return Ok(false);
            }
            let mut units: Vec<u16> = self
                .carry
                .chunks_exact(2)
                .map(|pair| {
                    let pair = [pair[0], pair[1]];
                    if self.big_endian {
                        u16::from_be_bytes(pair)
                    } else {
                        u16::from_le_bytes(pair)
                    }
                })
                .collect();
            let mut used = units.len() * 2;
            // A high surrogate at the end waits for its pair in the next chunk.
            if !at_end
                && units
                    .last()
                    .is_some_and(|unit| (0xD800..0xDC00).contains(unit))
            {
                units.pop();
                used -= 2;
            }
            for ch in char::decode_utf16(units) {
                let ch = ch.unwrap_or(char::REPLACEMENT_CHARACTER);
                self.out
                    .extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
            }
            self.carry.drain(..used);
            if at_end && !self.carry.is_empty() {
                self.carry.clear();
                self.out.extend_from_slice("\u{FFFD}".as_bytes());
            }
        }
        Ok(true)
    }
}

impl<R: Read> Read for Utf16Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.out_start == self.out.len() && !self.refill()? {
            return Ok(0);
        }
        let available = &self.out[self.out_start..];
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.out_start += n;
        Ok(n)
    }
}

/// UTF-8 text with every line ending (`\r\n`, `\n`, and a lone `\r` as old Mac tools write)
/// turned into `\n`, each line at most [`MAX_LINE_BYTES`] long, and a final `\n` added where
/// the file lacks one, so every record the CSV reader sees ends with one.
///
/// A NUL byte is refused with its line and column: no text format the lab reads holds one,
/// and a parser further on would split a number at it or drop it, reading `1<NUL>6` as 1
/// or 16 without a word.
pub(super) struct Normalised<R> {
    /// The decoded text.
    inner: R,
    /// The file path or other source name, for the error.
    origin: String,
    /// The last byte read was `\r`, so a `\n` right after it belongs to the same line end.
    after_cr: bool,
    /// Bytes of the current line so far.
    line_bytes: usize,
    /// 1-based number of the current line.
    line: usize,
    /// Whether the text so far ends with a line end (true for no text: nothing to end).
    ended: bool,
    /// The input is exhausted (and the final `\n` given, if it was needed).
    done: bool,
    /// The text lacked a final line end, and one was given.
    added_line_end: bool,
    /// An error met after the bytes last handed out, for the next read.
    pending: Option<io::Error>,
}

impl<R: Read> Normalised<R> {
    /// Wraps decoded text; `origin` names it in the too-long error.
    pub fn new(inner: R, origin: &str) -> Self {
        Normalised {
            inner,
            origin: origin.to_owned(),
            after_cr: false,
            line_bytes: 0,
            line: 1,
            ended: true,
            done: false,
            added_line_end: false,
            pending: None,
        }
    }

    /// Whether the text ended without a line end, so its last line may be cut short (true
    /// once the end has been read).
    pub fn added_line_end(&self) -> bool {
        self.added_line_end
    }

    /// Rewrites `buf` in place; returns how many bytes remain.
    fn normalise(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut kept = 0;
        for index in 0..buf.len() {
            let byte = match buf[index] {
                b'\r' => {
                    self.after_cr = true;
                    b'\n'
                }
                b'\n' if self.after_cr => {
                    self.after_cr = false;
                    continue;
                }
                0 => {
                    let error = TraceError::NulByte {
                        origin: self.origin.clone(),
                        line: self.line,
                        column: self.line_bytes + 1,
                    };
                    return self.stop_at(buf, kept, error);
                }
                other => {
                    self.after_cr = false;
                    other
                }
            };
            buf[kept] = byte;
            kept += 1;
            if byte == b'\n' {
                self.line += 1;
                self.line_bytes = 0;
            } else {
                self.line_bytes += 1;
                if self.line_bytes > MAX_LINE_BYTES {
                    let error = TraceError::LineTooLong {
                        origin: self.origin.clone(),
                        line: self.line,
                        limit: MAX_LINE_BYTES,
                    };
                    return self.stop_at(buf, kept - 1, error);
                }
            }
        }
        if kept > 0 {
            self.ended = buf[kept - 1] == b'\n';
        }
        Ok(kept)
    }

    /// Ends the text at `error`, after the `kept` bytes before it: they are handed out first
    /// and the error on the next read, so a reader meets the error where it is in the text,
    /// whatever the size of the reads (an error earlier in the text, found by a parser, is
    /// then always the one reported).
    fn stop_at(&mut self, buf: &[u8], kept: usize, error: TraceError) -> io::Result<usize> {
        let error = io::Error::new(io::ErrorKind::InvalidData, error);
        self.done = true;
        if kept == 0 {
            return Err(error);
        }
        self.pending = Some(error);
        self.ended = buf[kept - 1] == b'\n';
        Ok(kept)
    }
}

impl<R: Read> Read for Normalised<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(error) = self.pending.take() {
            return Err(error);
        }
        if buf.is_empty() {
            return Ok(0);
        }
        while !self.done {
            let read = match self.inner.read(buf) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                other => other?,
            };
            if read == 0 {
                self.done = true;
                if !self.ended {
                    self.ended = true;
                    self.added_line_end = true;
                    buf[0] = b'\n';
                    return Ok(1);
                }
                break;
            }
            let kept = self.normalise(&mut buf[..read])?;
            // A chunk that was only the `\n` of a `\r\n` is no end of input: read on.
            if kept > 0 {
                return Ok(kept);
            }
        }
        Ok(0)
    }
}

/// The first lines of a text, read for format detection and then handed back for parsing.
#[derive(Debug, Default)]
pub(super) struct Prefix {
    /// 1-based number of the first line in `text` (the blank and comment lines before it
    /// were dropped).
    pub first_line: usize,
    /// The lines from the first meaningful one on, as read (each ends with `\n`).
    pub text: Vec<u8>,
    /// The meaningful lines (not blank, not a `#` comment) in `text`: their 1-based numbers
    /// and byte ranges, at most [`PEEK_LINES`].
    pub lines: Vec<(usize, Range<usize>)>,
}

impl Prefix {
    /// The meaningful lines: their numbers and text (without the `\n`).
    pub fn lines(&self) -> impl Iterator<Item = (usize, &[u8])> {
        self.lines
            .iter()
            .map(|(line, range)| (*line, &self.text[range.clone()]))
    }
}

/// Whether a line carries data: not blank and not a `#` comment.
pub(super) fn is_meaningful(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    !line.is_empty() && !line.starts_with(b"#")
}

/// Reads the first [`PEEK_LINES`] meaningful lines of `input` (or fewer, at the end of the
/// text or after [`PEEK_BYTES`]); blank and comment lines before the first are counted, not
/// kept.
pub(super) fn peek(input: &mut impl BufRead, origin: &str) -> Result<Prefix, TraceError> {
    let mut prefix = Prefix {
        first_line: 1,
        ..Prefix::default()
    };
    let mut line = 1;
    let mut buffer = Vec::new();
    while prefix.lines.len() < PEEK_LINES && prefix.text.len() < PEEK_BYTES {
        buffer.clear();
        let read = input
            .read_until(b'\n', &mut buffer)
            .map_err(|error| from_io(error, origin))?;
        if read == 0 {
            break;
        }
        let content = buffer.strip_suffix(b"\n").unwrap_or(&buffer);
        let meaningful = is_meaningful(content);
        if prefix.lines.is_empty() && !meaningful {
            prefix.first_line = line + 1;
        } else {
            let start = prefix.text.len();
            if meaningful {
                prefix.lines.push((line, start..start + content.len()));
            }
            prefix.text.extend_from_slice(&buffer);
        }
        line += 1;
    }
    Ok(prefix)
}

/// A note for a file read as UTF-16 without a byte-order mark (with one, the encoding is
/// plain to see and needs no word).
pub(super) fn encoding_note(encoding: Encoding, origin: &str) -> Option<String> {
    match encoding {
        Encoding::Utf16 {
            big_endian,
            bom: false,
        } => Some(format!(
            "{origin}: read as UTF-16 ({}) text: it has no byte-order mark, but every other \
             byte is zero",
            if big_endian {
                "big-endian"
            } else {
                "little-endian"
            }
        )),
        _ => None,
    }
}

/// `text` as UTF-16 bytes, big- or little-endian, with or without a byte-order mark: what
/// the tests of every reader feed them.
#[cfg(test)]
pub(super) fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    if bom {
        bytes.extend(if big_endian {
            [0xFE, 0xFF]
        } else {
            [0xFF, 0xFE]
        });
    }
    for unit in text.encode_utf16() {
        bytes.extend(if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(bytes: &[u8]) -> (String, Encoding) {
        let (mut reader, encoding) = decode(bytes, "t").unwrap();
        let mut text = String::new();
        reader.read_to_string(&mut text).unwrap();
        (text, encoding)
    }

    fn normalised(text: &[u8]) -> Result<String, TraceError> {
        let mut out = Vec::new();
        // One byte at a time finds the places where a `\r\n` is split between reads.
        let mut reader = Normalised::new(io::BufReader::with_capacity(1, text), "t");
        reader
            .read_to_end(&mut out)
            .map_err(|error| from_io(error, "t"))?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn utf8_with_or_without_a_byte_order_mark_is_read_as_is() {
        assert_eq!(decoded(b"1.5\n"), ("1.5\n".to_owned(), Encoding::Utf8));
        assert_eq!(decoded(b"\xEF\xBB\xBF1.5\n").0, "1.5\n");
        assert_eq!(decoded(b"").0, "");
    }

    #[test]
    fn utf16_is_recognised_with_and_without_a_byte_order_mark() {
        let text = "Application,MsBetweenPresents\r\nGäme.exe,16.7\r\n";
        for big_endian in [false, true] {
            for bom in [false, true] {
                let (back, encoding) = decoded(&utf16(text, big_endian, bom));
                assert_eq!(back, text, "big_endian {big_endian}, bom {bom}");
                assert_eq!(encoding, Encoding::Utf16 { big_endian, bom });
            }
        }
        assert!(
            encoding_note(
                Encoding::Utf16 {
                    big_endian: false,
                    bom: false
                },
                "pm.csv"
            )
            .unwrap()
            .starts_with("pm.csv: read as UTF-16 (little-endian)")
        );
    }

    #[test]
    fn utf16_surrogate_pairs_survive_chunk_boundaries_and_broken_ones_become_replacements() {
        // Enough text that the decoder refills many times, with pairs at every offset.
        let text: String = "a😀".repeat(UTF16_CHUNK);
        assert_eq!(decoded(&utf16(&text, false, true)).0, text);
        // A lone high surrogate, then an odd trailing byte.
        let mut bytes = utf16("x", false, true);
        bytes.extend([0x3D, 0xD8, b'y', 0, 7]);
        assert_eq!(decoded(&bytes).0, "x\u{FFFD}y\u{FFFD}");
    }

    #[test]
    fn zero_bytes_that_are_not_utf16_are_binary() {
        let err = decode(&[0_u8; 4096][..], "/dev/zero").err().unwrap();
        assert_eq!(
            err.to_string(),
            "/dev/zero: not a text trace: it starts with NUL bytes, as binary files (or \
             /dev/zero) do"
        );
        assert!(decode(&b"\0\x01\x02\x03"[..], "x").is_err());
    }

    #[test]
    fn a_nul_byte_inside_text_is_refused_with_its_line_and_column() {
        // Thirteen good lines first, so the NUL lies past the bytes the encoding is told from.
        let mut text = "16.7\n".repeat(13).into_bytes();
        text.extend(b"1\x006\n16.7\n");
        let (reader, encoding) = decode(&text[..], "t.txt").unwrap();
        assert_eq!(encoding, Encoding::Utf8);
        let mut out = Vec::new();
        let err = Normalised::new(reader, "t.txt")
            .read_to_end(&mut out)
            .unwrap_err();
        assert_eq!(
            from_io(err, "t.txt").to_string(),
            "t.txt:14: a NUL byte (0x00) at column 2: no text trace holds one; is the file \
             binary, or cut short by a crash?"
        );
        // A NUL in the first bytes, after text: the text's line, not "starts with NUL".
        assert!(matches!(
            normalised(b"16.7\n16\0.6\n"),
            Err(TraceError::NulByte {
                line: 2,
                column: 3,
                ..
            })
        ));
        // A line holding only NUL, and a UTF-16 text with a NUL character in it.
        assert!(matches!(
            normalised(b"1\n\0\n2\n"),
            Err(TraceError::NulByte {
                line: 2,
                column: 1,
                ..
            })
        ));
        let bytes = utf16("16.7\r\n1\u{0}6\r\n", false, true);
        let (mut reader, _) = decode(&bytes[..], "t").unwrap();
        let mut decoded = Vec::new();
        reader.read_to_end(&mut decoded).unwrap();
        assert!(matches!(
            normalised(&decoded),
            Err(TraceError::NulByte {
                line: 2,
                column: 2,
                ..
            })
        ));
    }

    #[test]
    fn every_line_ending_becomes_a_newline_and_the_text_ends_with_one() {
        assert_eq!(normalised(b"a\r\nb\rc\nd").unwrap(), "a\nb\nc\nd\n");
        assert_eq!(normalised(b"a\r\r\nb\n\n").unwrap(), "a\n\nb\n\n");
        assert_eq!(normalised(b"").unwrap(), "");
        assert_eq!(normalised(b"\r").unwrap(), "\n");
    }

    #[test]
    fn a_line_longer_than_the_cap_is_refused_with_its_number() {
        let ok = [b'1'; MAX_LINE_BYTES];
        assert_eq!(normalised(&ok).unwrap().len(), MAX_LINE_BYTES + 1);
        let mut text = b"1\r2\r\n".to_vec();
        text.extend([b'x'; MAX_LINE_BYTES + 1]);
        let err = normalised(&text).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "t:3: line is longer than {MAX_LINE_BYTES} bytes, the longest a trace line may \
                 be; is this a text trace with line breaks?"
            )
        );
    }

    #[test]
    fn peek_keeps_the_first_meaningful_lines_and_counts_the_ones_before() {
        let text = "# comment\n\n  \nos,cpu\nLinux,x\n# between\nfps,frametime\n1,2\n";
        let prefix = peek(&mut text.as_bytes(), "t").unwrap();
        assert_eq!(prefix.first_line, 4);
        let lines: Vec<(usize, &[u8])> = prefix.lines().collect();
        assert_eq!(lines[0], (4, &b"os,cpu"[..]));
        assert_eq!(lines[2], (7, &b"fps,frametime"[..]));
        assert_eq!(lines.len(), 4);
        assert!(prefix.text.starts_with(b"os,cpu\n"));
        let many = "1\n".repeat(50);
        let prefix = peek(&mut many.as_bytes(), "t").unwrap();
        assert_eq!(prefix.lines.len(), PEEK_LINES);
        assert_eq!(prefix.text.len(), 2 * PEEK_LINES);
    }
}

//! Recording the live loop to a file from the window: which file (the one given, or the
//! first free `timestep-lab-recording-N.csv`, always created new), starting and finishing
//! the recording, and what the panel and the exit report say about it. On a page, which
//! writes no files, the recording is held in memory and offered as a download when it
//! stops (`app::page::offer_download`).
//!
//! No window or GPU type here: this is the live loop's side of recording, and belongs with
//! the loop (the core) rather than with the window.

#[cfg(not(target_arch = "wasm32"))]
use std::fs::File;
#[cfg(not(target_arch = "wasm32"))]
use std::io::ErrorKind;
#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;
use std::path::PathBuf;
#[cfg(target_arch = "wasm32")]
use std::sync::{Arc, Mutex};

use crate::live::{LiveLoop, Stopwatch};
use crate::recording::RecordingWriter;
use crate::text::escape_path;

/// Most numbered file names tried before giving up: far more recordings than anyone keeps
/// in one directory, and a bound on the search.
#[cfg(not(target_arch = "wasm32"))]
const MAX_NUMBERED_RECORDINGS: u32 = 10_000;

/// Creates the file to record to: `path` when given, else the first free
/// `timestep-lab-recording-N.csv` in `dir` (N from 1; an empty `dir` is the current
/// directory). The file is created new, so nothing is overwritten; the path is returned
/// with the outcome, to name it in a message either way.
#[cfg(not(target_arch = "wasm32"))]
pub fn create_recording_file(
    path: Option<PathBuf>,
    dir: &Path,
) -> (PathBuf, std::io::Result<File>) {
    if let Some(path) = path {
        let file = File::create_new(&path);
        return (path, file);
    }
    let mut n = 1;
    loop {
        let path = dir.join(format!("timestep-lab-recording-{n}.csv"));
        match File::create_new(&path) {
            Err(error)
                if error.kind() == ErrorKind::AlreadyExists && n < MAX_NUMBERED_RECORDINGS =>
            {
                n += 1;
            }
            file => break (path, file),
        }
    }
}

/// The platform's folder for recordings ([`crate::remembered::RECORDINGS_DIRS`]); `None` where there is no home
/// directory.
#[cfg(not(target_arch = "wasm32"))]
fn recordings_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "timestep-lab")
        .map(|dirs| dirs.data_dir().join("recordings"))
}

/// Creates the first free numbered recording in `dir`, or where `dir` cannot take a file
/// (an application started from Finder or Explorer runs in `/` or `C:\Windows\System32`;
/// a directory removed meanwhile) in `fallback`, made if missing. Where both fail, the first
/// failure is the one told.
#[cfg(not(target_arch = "wasm32"))]
pub fn create_numbered_recording(
    dir: &Path,
    fallback: Option<PathBuf>,
) -> (PathBuf, std::io::Result<File>) {
    let (path, file) = create_recording_file(None, dir);
    let cannot_write_here = matches!(
        &file,
        Err(error) if matches!(
            error.kind(),
            ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem | ErrorKind::NotFound
        )
    );
    match fallback {
        Some(other) if cannot_write_here && std::fs::create_dir_all(&other).is_ok() => {
            match create_recording_file(None, &other) {
                (path, Ok(file)) => (path, Ok(file)),
                _ => (path, file),
            }
        }
        _ => (path, file),
    }
}

/// The recording the window runs, if any, and what came of the ones before.
#[derive(Debug, Default)]
pub struct Recorder {
    /// The file being recorded to.
    path: Option<PathBuf>,
    /// What the session row says: a recording written, or why one stopped.
    notice: Option<String>,
    /// Why a recording failed, for the exit status.
    error: Option<String>,
    /// Recordings written: the file and its frames.
    recorded: Vec<(PathBuf, u64)>,
    /// On a page, the recording running, held until it is downloaded.
    #[cfg(target_arch = "wasm32")]
    held: Option<Held>,
}

/// A recording's bytes in memory, shared between the live loop's writer and the recorder
/// that downloads them when it stops.
#[cfg(target_arch = "wasm32")]
#[derive(Clone, Debug, Default)]
struct Held(Arc<Mutex<Vec<u8>>>);

#[cfg(target_arch = "wasm32")]
impl Held {
    /// The bytes written, taken.
    fn take(&self) -> Vec<u8> {
        std::mem::take(
            &mut *self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }
}

#[cfg(target_arch = "wasm32")]
impl std::io::Write for Held {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut held = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        held.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Recorder {
    /// Starts recording `live` to `path`, or to the first free numbered file in the current
    /// directory, else in the platform's recordings folder (see
    /// [`create_numbered_recording`]); `adapter` goes in the file's header. On a
    /// page, into memory, to be downloaded as `path` (or a numbered name) when it stops.
    pub fn start<S: Stopwatch>(
        &mut self,
        live: &mut LiveLoop<S>,
        path: Option<PathBuf>,
        adapter: &str,
    ) {
        #[cfg(not(target_arch = "wasm32"))]
        let (path, sink) = {
            let (path, file) = match path {
                Some(path) => create_recording_file(Some(path), Path::new("")),
                None => create_numbered_recording(Path::new(""), recordings_dir()),
            };
            (path, file.map(std::io::BufWriter::new))
        };
        #[cfg(target_arch = "wasm32")]
        let (path, sink) = {
            let numbered = || format!("timestep-lab-recording-{}.csv", self.recorded.len() + 1);
            let held = Held::default();
            self.held = Some(held.clone());
            (path.unwrap_or_else(|| numbered().into()), Ok(held))
        };
        let started = sink.and_then(|sink| {
            live.start_recording(adapter, |header| {
                let writer = RecordingWriter::new(sink, header)?;
                Ok(Box::new(writer))
            })
        });
        match started {
            Ok(()) => {
                self.notice = None;
                self.path = Some(path);
            }
            Err(error) => {
                self.failed(format!("cannot record to {}: {error}", escape_path(&path)));
            }
        }
    }

    /// Finishes the recording running, if one is (its last frame, the flush); on a page,
    /// offers it as a download.
    pub fn stop<S: Stopwatch>(&mut self, live: &mut LiveLoop<S>) {
        let Some(path) = self.path.take() else {
            return;
        };
        let finished = live.stop_recording().map_err(|error| error.to_string());
        #[cfg(target_arch = "wasm32")]
        let finished = finished.and_then(|frames| {
            let bytes = self.held.take().map(|held| held.take()).unwrap_or_default();
            super::page::offer_download(&path.display().to_string(), &bytes, "text/csv")?;
            Ok(frames)
        });
        match finished {
            Ok(frames) => {
                self.notice = Some(format!(
                    "recorded {frames} frames to {}",
                    escape_path(&path)
                ));
                self.recorded.push((path, frames));
            }
            Err(error) => {
                self.failed(format!(
                    "the recording to {} failed: {error}",
                    escape_path(&path)
                ));
            }
        }
    }

    /// After a frame: a write to the recording that failed stops it.
    pub fn check<S: Stopwatch>(&mut self, live: &mut LiveLoop<S>) {
        if let Some(error) = live.take_recording_error() {
            self.failed(error);
        }
    }

    /// A recording that stopped on an error: said now (on stderr), in the panel, and at
    /// exit.
    fn failed(&mut self, error: String) {
        eprintln!("timestep-lab: {error}");
        self.path = None;
        self.notice = Some(error.clone());
        self.error = Some(error);
    }

    /// Whether a recording runs.
    pub fn is_recording(&self) -> bool {
        self.path.is_some()
    }

    /// The recording running, for the panel: the file (as shown) and the frames written.
    pub fn status<S: Stopwatch>(&self, live: &LiveLoop<S>) -> Option<(String, u64)> {
        live.recording()
            .zip(self.path.as_ref())
            .map(|(status, path)| (escape_path(path), status.frames))
    }

    /// The last thing to tell the person: a recording written, or why one stopped.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// Why a recording failed, if one did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Recordings written: the file and its frames.
    pub fn recorded(&self) -> &[(PathBuf, u64)] {
        &self.recorded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh, empty directory for one test.
    fn empty_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "timestep-lab-recording-test-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        dir
    }

    #[test]
    fn numbered_recordings_take_the_first_free_number_and_overwrite_nothing() {
        let dir = empty_dir("numbered");
        std::fs::write(dir.join("timestep-lab-recording-1.csv"), "kept").expect("written");
        std::fs::write(dir.join("timestep-lab-recording-3.csv"), "kept").expect("written");
        let (path, file) = create_recording_file(None, &dir);
        assert!(file.is_ok());
        assert_eq!(path, dir.join("timestep-lab-recording-2.csv"));
        let (path, file) = create_recording_file(None, &dir);
        assert!(file.is_ok());
        assert_eq!(path, dir.join("timestep-lab-recording-4.csv"));
        for kept in [1, 3] {
            let kept = dir.join(format!("timestep-lab-recording-{kept}.csv"));
            assert_eq!(std::fs::read_to_string(kept).expect("still there"), "kept");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_named_recording_is_created_new_or_refused() {
        let dir = empty_dir("named");
        let named = dir.join("mine.csv");
        let (path, file) = create_recording_file(Some(named.clone()), &dir);
        assert_eq!(path, named);
        drop(file.expect("created"));
        let (path, file) = create_recording_file(Some(named.clone()), &dir);
        assert_eq!(path, named);
        let error = file.expect_err("not overwritten");
        assert_eq!(error.kind(), ErrorKind::AlreadyExists);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Where the current directory takes no file (`/proc`, where even root cannot make one,
    /// stands for the `/` an application started from Finder runs in), the numbered
    /// recording goes to the fallback folder, made if missing.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_directory_that_takes_no_file_sends_the_recording_to_the_fallback() {
        let fallback = empty_dir("fallback").join("recordings");
        let (path, file) = create_numbered_recording(Path::new("/proc"), Some(fallback.clone()));
        assert!(file.is_ok(), "{file:?}");
        assert_eq!(path, fallback.join("timestep-lab-recording-1.csv"));
        // Without a fallback, the first failure is told, naming the file tried.
        let (path, file) = create_numbered_recording(Path::new("/proc"), None);
        assert!(file.is_err());
        assert_eq!(path, Path::new("/proc/timestep-lab-recording-1.csv"));
        // A directory that takes files keeps them.
        let here = empty_dir("here");
        let (path, file) = create_numbered_recording(&here, Some(fallback.clone()));
        assert!(file.is_ok());
        assert_eq!(path, here.join("timestep-lab-recording-1.csv"));
        let _ = std::fs::remove_dir_all(fallback.parent().expect("a parent"));
        let _ = std::fs::remove_dir_all(&here);
    }

    #[test]
    fn the_current_directory_is_named_by_an_empty_dir() {
        // Messages and the exit report name a numbered file as before: a bare file name.
        assert_eq!(
            Path::new("").join("timestep-lab-recording-1.csv"),
            PathBuf::from("timestep-lab-recording-1.csv")
        );
    }
}

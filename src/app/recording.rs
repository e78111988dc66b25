//! Recording the live loop to a file from the window: which file (the one given, or the
//! first free `timestep-lab-recording-N.csv`, always created new), starting and finishing
//! the recording, and what the panel and the exit report say about it.
//!
//! No window or GPU type here: this is the live loop's side of recording, and belongs with
//! the loop (the core) rather than with the window.

use std::fs::File;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::live::{LiveLoop, Stopwatch};
use crate::recording::RecordingWriter;
use crate::text::escape_path;

/// Most numbered file names tried before giving up: far more recordings than anyone keeps
/// in one directory, and a bound on the search.
const MAX_NUMBERED_RECORDINGS: u32 = 10_000;

/// Creates the file to record to: `path` when given, else the first free
/// `timestep-lab-recording-N.csv` in `dir` (N from 1; an empty `dir` is the current
/// directory). The file is created new, so nothing is overwritten; the path is returned
/// with the outcome, to name it in a message either way.
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
}

impl Recorder {
    /// Starts recording `live` to `path`, or to the first free numbered file in the current
    /// directory (see [`create_recording_file`]); `adapter` goes in the file's header.
    pub fn start<S: Stopwatch>(
        &mut self,
        live: &mut LiveLoop<S>,
        path: Option<PathBuf>,
        adapter: &str,
    ) {
        let (path, file) = create_recording_file(path, Path::new(""));
        let started = file.and_then(|file| {
            live.start_recording(adapter, |header| {
                let writer = RecordingWriter::new(std::io::BufWriter::new(file), header)?;
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

    /// Finishes the recording running, if one is (its last frame, the flush).
    pub fn stop<S: Stopwatch>(&mut self, live: &mut LiveLoop<S>) {
        let Some(path) = self.path.take() else {
            return;
        };
        match live.stop_recording() {
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

    #[test]
    fn the_current_directory_is_named_by_an_empty_dir() {
        // Messages and the exit report name a numbered file as before: a bare file name.
        assert_eq!(
            Path::new("").join("timestep-lab-recording-1.csv"),
            PathBuf::from("timestep-lab-recording-1.csv")
        );
    }
}

//! The files a bench run writes (`--csv`, `--plot`): created new, and write errors said with
//! the path.

use std::path::{Path, PathBuf};

/// An output file that could not be created or written: the command ran and failed (exit
/// status 1, where a bad value given is 2). Says the path and what the system said.
#[derive(Debug, thiserror::Error)]
#[error("{option} {}: {error}", path.display())]
pub struct WriteError {
    /// The option that named it (`--csv`, `--plot`).
    pub option: &'static str,
    /// The file.
    pub path: PathBuf,
    /// What the system said.
    pub error: std::io::Error,
}

/// Whether two paths name one existing file, under any name: the same name, a symbolic
/// link (followed) or a hard link (another name for the same file, which no comparison of
/// names can see). Compared by what the file is: its device and inode on Unix (read without
/// opening it, so a named pipe never blocks the check), its volume and file index on
/// Windows (the `same-file` crate: std keeps them unstable).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
            _ => false,
        }
    }
    #[cfg(windows)]
    {
        same_file::is_same_file(a, b).unwrap_or(false)
    }
    #[cfg(not(any(unix, windows)))]
    {
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    }
}

/// Whether two output paths would write one file: [`same_file`] where both exist (links
/// followed), else the same name in the same directory (`./a.png` and `a.png`).
pub fn same_output(a: &Path, b: &Path) -> bool {
    if same_file(a, b) {
        return true;
    }
    let place = |path: &Path| {
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        Some((
            std::fs::canonicalize(parent).ok()?,
            path.file_name()?.to_owned(),
        ))
    };
    a == b || place(a).is_some_and(|a| Some(a) == place(b))
}

/// Creates (or truncates) the output file `option` names.
pub(super) fn create(option: &'static str, path: &Path) -> Result<std::fs::File, WriteError> {
    std::fs::File::create(path).map_err(|error| WriteError {
        option,
        path: path.to_owned(),
        error,
    })
}

/// Ends a `--csv` file whose rows are written (`written`: the buffered file, or why the
/// rows could not all be): the buffer flushed, any error said with the path.
pub(crate) fn close_csv(
    written: Result<std::io::BufWriter<std::fs::File>, csv::Error>,
    path: &Path,
) -> Result<(), WriteError> {
    written
        .and_then(|out| {
            out.into_inner()
                .map(drop)
                .map_err(|error| csv::Error::from(error.into_error()))
        })
        .map_err(|error| csv_write_error(path, error.into_kind()))
}

/// A CSV writer's error as a [`WriteError`] (one that is not the system's cannot happen
/// with the rows written here, and is reported as an I/O error all the same).
pub(crate) fn csv_write_error(path: &Path, kind: csv::ErrorKind) -> WriteError {
    let error = match kind {
        csv::ErrorKind::Io(error) => error,
        other => std::io::Error::other(format!("{other:?}")),
    };
    WriteError {
        option: "--csv",
        path: path.to_owned(),
        error,
    }
}

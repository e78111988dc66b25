//! The files the commands read and write, checked before anything runs (the bench crate
//! creates `bench`'s and says its write errors).

use std::path::Path;

use anyhow::Context as _;

use crate::bench::same_output;
use crate::recording::{load_recording, read_recording, recording_from_trace};
use crate::trace::{self, LoadOptions};

/// Checks `--csv` and `--plot` before any work is done, so a typo does not cost a whole
/// run: each names a file (not a directory) in a directory that exists, the plot's ends in
/// `.png`, and they are not the same file.
pub(super) fn check_report_paths(
    csv: Option<&Path>,
    plot: Option<&Path>,
    (csv_example, plot_example): (&str, &str),
) -> anyhow::Result<()> {
    if let Some(path) = csv {
        check_output_path(path, csv_example).context("--csv")?;
    }
    if let Some(path) = plot {
        check_output_path(path, plot_example).context("--plot")?;
        check_png_path(path).context("--plot")?;
    }
    if let (Some(csv), Some(plot)) = (csv, plot)
        && same_output(csv, plot)
    {
        anyhow::bail!(
            "--csv and --plot both name {}: name two files",
            csv.display()
        );
    }
    Ok(())
}

/// Checks that an output path names a file, not a directory, in a directory that exists
/// (`example` is a file name to suggest).
pub(super) fn check_output_path(path: &std::path::Path, example: &str) -> anyhow::Result<()> {
    if names_a_directory(path) {
        anyhow::bail!(
            "{} is a directory; name the file to write (e.g. {})",
            path.display(),
            path.join(example).display()
        );
    }
    check_parent_directory(path)
}

/// Whether `path` is a directory, or is written as one (ends in a separator).
pub(super) fn names_a_directory(path: &std::path::Path) -> bool {
    path.is_dir()
        || path
            .as_os_str()
            .to_string_lossy()
            .ends_with(std::path::is_separator)
}

/// Checks that the directory an output file goes into exists (and is one).
pub(super) fn check_parent_directory(path: &std::path::Path) -> anyhow::Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        if parent.exists() {
            anyhow::bail!(
                "{}: {} is not a directory",
                path.display(),
                parent.display()
            );
        }
        anyhow::bail!(
            "{}: the directory {} does not exist",
            path.display(),
            parent.display()
        );
    }
    Ok(())
}

/// Checks that `path` can become a new file: it does not exist (nothing is overwritten),
/// is not a directory, and its directory exists.
pub fn check_new_file(option: &str, path: &std::path::Path) -> anyhow::Result<()> {
    if names_a_directory(path) {
        anyhow::bail!("{option} {}: is a directory; name a file", path.display());
    }
    if path.exists() {
        anyhow::bail!(
            "{option} {}: the file exists and is not overwritten; remove it or name another",
            path.display()
        );
    }
    check_parent_directory(path).with_context(|| option.to_owned())
}

/// Reads what `--replay` plays: a session recording, or any trace the bench reads
/// (`options` choose a PresentMon capture's rows). A named pipe that gives nothing for a
/// second gets the same notice as in `bench`.
pub fn load_replay(
    path: &std::path::Path,
    options: &LoadOptions,
) -> anyhow::Result<crate::live::Recording> {
    let is_recording = trace::is_recording(path);
    // A recording is the lab's own, not a capture of several applications.
    if is_recording {
        for (option, given) in [
            ("--process", options.process.is_some()),
            ("--swap-chain", options.swap_chain.is_some()),
        ] {
            if given {
                anyhow::bail!(
                    "{option} applies to PresentMon captures only, and {} is a recorded session",
                    crate::text::escape_path(path)
                );
            }
        }
    }
    let recording = if is_recording {
        load_recording(path)?
    } else {
        recording_from_trace(trace::load_with_wait_notice(path, options, wait_notice)?)
    };
    for note in &recording.notes {
        eprintln!("note: {note}");
    }
    Ok(recording)
}

/// What `--replay` plays, from `bytes` held in memory (a file opened on a page), `name`
/// naming it in messages: a session recording, or any trace the bench reads (a PresentMon
/// capture's rows chosen as `--replay` chooses them by default). Refused as `--replay`
/// refuses the same file, with the same messages (the line and the value); what the reader
/// noticed is in the recording's `notes`.
pub fn read_replay(bytes: Vec<u8>, name: &str) -> anyhow::Result<crate::live::Recording> {
    if trace::starts_with_recording_mark(bytes.as_slice()) {
        return Ok(read_recording(bytes, name)?);
    }
    let trace = trace::read(bytes.as_slice(), name, &LoadOptions::default())?;
    Ok(recording_from_trace(trace))
}

/// Says why nothing happens while a file keeps us waiting: a named pipe with no writer
/// blocks the read. `path` is shown as messages show it (escaped).
pub(super) fn wait_notice(path: &str) {
    eprintln!("note: waiting for data on {path} …");
}

/// Checks that an output path names a PNG file in a directory that exists, before any
/// work is done, so a typo does not cost a whole run.
pub fn check_png_path(path: &std::path::Path) -> anyhow::Result<()> {
    if names_a_directory(path) {
        anyhow::bail!(
            "{}: names a directory, not the image file to write (e.g. {})",
            path.display(),
            path.join("frame.png").display()
        );
    }
    let is_png = path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("png"));
    if !is_png {
        anyhow::bail!("{}: the image file must end in .png", path.display());
    }
    check_parent_directory(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The traces and the recording the project ships, by path.
    fn shipped() -> Vec<std::path::PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/traces");
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .expect("assets/traces")
            .map(|entry| entry.expect("an entry").path())
            .filter(|path| {
                path.extension()
                    .is_some_and(|ext| ext == "csv" || ext == "txt")
            })
            .collect();
        paths.sort();
        paths
    }

    #[test]
    fn a_file_read_from_memory_replays_as_the_same_file_read_by_name() {
        let paths = shipped();
        assert!(paths.iter().any(|path| trace::is_recording(path)));
        for path in paths {
            let by_name = load_replay(&path, &LoadOptions::default()).expect("shipped");
            let bytes = std::fs::read(&path).expect("readable");
            let in_memory = read_replay(bytes, &path.display().to_string()).expect("shipped");
            assert_eq!(in_memory.summary, by_name.summary, "{}", path.display());
            assert_eq!(in_memory.header, by_name.header, "{}", path.display());
            assert_eq!(in_memory.source, by_name.source, "{}", path.display());
        }
    }

    #[test]
    fn a_bad_file_read_from_memory_is_refused_with_the_message_of_replay() {
        let dir =
            std::env::temp_dir().join(format!("timestep-lab-read-replay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let recording = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/traces/lab-session.csv"),
        )
        .expect("shipped");
        // A recording with a row cut to a bad value, a trace with a word for a frame time,
        // one with no frames at all, and a frame time past the reader's range.
        let mut bad_row = recording.lines().map(str::to_owned).collect::<Vec<_>>();
        let middle = bad_row.len() / 2;
        bad_row[middle] = "x,y,z".to_owned();
        let cases = [
            ("bad-row.csv", bad_row.join("\n") + "\n"),
            ("word.txt", "16.7\n16.7\nsixteen\n".to_owned()),
            ("empty.txt", String::new()),
            ("huge.txt", "16.7\n1e300\n".to_owned()),
        ];
        for (name, text) in cases {
            let path = dir.join(name);
            std::fs::write(&path, &text).expect("written");
            let by_name = load_replay(&path, &LoadOptions::default()).expect_err(name);
            let in_memory =
                read_replay(text.into_bytes(), &path.display().to_string()).expect_err(name);
            assert_eq!(format!("{in_memory:#}"), format!("{by_name:#}"));
        }
        assert!(
            format!(
                "{:#}",
                read_replay(b"16.7\n16.7\nsixteen\n".to_vec(), "word.txt").expect_err("a word")
            )
            .starts_with("word.txt:3: frame time \"sixteen\" is not a number"),
            "the line is named"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

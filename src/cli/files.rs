//! The files the commands read and write, checked before anything runs (the bench crate
//! creates `bench`'s and says its write errors).

use std::path::Path;

use anyhow::Context as _;

use crate::bench::same_output;
use crate::recording::{load_recording, recording_from_trace};
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
    if trace::is_recording(path) {
        // A recording is the lab's own, not a capture of several applications.
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
        let recording = load_recording(path)?;
        for note in &recording.notes {
            eprintln!("note: {note}");
        }
        Ok(recording)
    } else {
        let trace = trace::load_with_wait_notice(path, options, wait_notice)?;
        for note in &trace.notes {
            eprintln!("note: {note}");
        }
        Ok(recording_from_trace(trace))
    }
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

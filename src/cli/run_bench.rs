//! Running `bench`: its options become a [`BenchRequest`](crate::bench::BenchRequest)
//! ([`BenchArgs::request`]), which the bench crate runs; what it returns is printed by
//! `main`. `sweep` likewise ([`SweepArgs::request`]).

use std::path::PathBuf;

use crate::bench::BenchError;
use crate::bench::plot;

use super::*;

/// Runs `bench` and returns what it prints on stdout (notes about the trace go to `notes`).
/// `--csv` and `--plot` are written before it returns. An error that the run failed while
/// running (a file it could not write, a plot it could not draw) is a [`BenchError`] for
/// which [`BenchError::failed_while_running`] holds; anything else was a bad value.
pub fn run_bench(args: &BenchArgs, notes: &mut Vec<String>) -> anyhow::Result<String> {
    let request = args.request()?;
    notes.extend(args.run.unused_step_options(&request.strategies));
    request.run(notes, files::wait_notice).map_err(flag_range)
}

/// Runs `sweep` as [`run_bench`] runs `bench`: what it prints on stdout, its notes, and
/// errors told apart the same way.
pub fn run_sweep(args: &SweepArgs, notes: &mut Vec<String>) -> anyhow::Result<String> {
    let request = args.request()?;
    notes.extend(args.run.unused_step_options(&request.strategies));
    request.run(notes, files::wait_notice).map_err(flag_range)
}

/// A bench error as the command's: a range error names the option that sets the value.
fn flag_range(error: BenchError) -> anyhow::Error {
    match error {
        BenchError::Range(error) => flagged(error),
        error => error.into(),
    }
}

/// The font file `TIMESTEP_LAB_FONT` names for the plot's text, if any (else the plot uses
/// its embedded font).
pub(super) fn font_override() -> Option<PathBuf> {
    std::env::var_os(plot::FONT_ENV)
        .filter(|path| !path.is_empty())
        .map(PathBuf::from)
}

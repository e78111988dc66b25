//! The `timestep-lab` binary.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;
use timestep_lab::app::{run_bench_render, run_render, run_window};
use timestep_lab::cli::{Cli, Command, run_bench};

/// Exit code for a bad value given by the user (nothing was run).
const EXIT_BAD_INPUT: u8 = 2;

/// Exit code for a failure while running (no GPU, no display, a write that failed).
const EXIT_FAILURE: u8 = 1;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench(args)) => {
            let mut notes = Vec::new();
            let outcome = run_bench(&args, &mut notes);
            for note in notes {
                eprintln!("note: {note}");
            }
            finish(outcome, EXIT_BAD_INPUT)
        }
        Some(Command::Render(args)) => {
            if let Err(error) = args.check() {
                eprintln!("error: {error:#}");
                return ExitCode::from(EXIT_BAD_INPUT);
            }
            finish(run_render(&args), EXIT_FAILURE)
        }
        Some(Command::BenchRender(args)) => finish(run_bench_render(&args), EXIT_FAILURE),
        None => {
            let options = match cli.window.options() {
                Ok(options) => options,
                Err(error) => {
                    eprintln!("error: {error:#}");
                    return ExitCode::from(EXIT_BAD_INPUT);
                }
            };
            finish(
                run_window(options).map(|summary| summary.to_string()),
                EXIT_FAILURE,
            )
        }
    }
}

/// Prints the output, or the error with the given exit code.
fn finish(outcome: anyhow::Result<String>, error_code: u8) -> ExitCode {
    match outcome {
        Ok(output) => {
            // A closed pipe (e.g. `| head`) is not an error worth a panic.
            let _ = std::io::stdout().write_all(output.as_bytes());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(error_code)
        }
    }
}

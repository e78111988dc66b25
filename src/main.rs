//! The `timestep-lab` binary.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;
use timestep_lab::cli::{Cli, Command, run_bench};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench(args)) => {
            let mut notes = Vec::new();
            let outcome = run_bench(&args, &mut notes);
            for note in notes {
                eprintln!("note: {note}");
            }
            match outcome {
                Ok(output) => {
                    // A closed pipe (e.g. `| head`) is not an error worth a panic.
                    let _ = std::io::stdout().write_all(output.as_bytes());
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("error: {error:#}");
                    ExitCode::from(2)
                }
            }
        }
        None => {
            eprintln!(
                "timestep-lab: the interactive window is not part of this build yet.\n\
                 Measure the strategies headless meanwhile: `timestep-lab bench` \
                 (see `timestep-lab bench --help`)."
            );
            ExitCode::SUCCESS
        }
    }
}

//! The `timestep-lab` binary. Built for the web (wasm32 with the window), it is the page's
//! entry instead (`app::page::start`), and the command line's parts below are unused there.
#![cfg_attr(
    all(target_arch = "wasm32", feature = "window"),
    allow(dead_code, unused_imports)
)]

use std::io::Write as _;
use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _};
use timestep_lab::bench::BenchError;
use timestep_lab::cli::{Cli, Command, WindowArgs, run_bench, run_sweep};
use timestep_lab::options::{KeepSettings, WindowOptions};
use timestep_lab::remembered::{restore, settings_path};

/// Exit code for a bad value given by the user (nothing was run).
const EXIT_BAD_INPUT: u8 = 2;

/// Exit code for a failure while running (no GPU, no display, a write that failed).
const EXIT_FAILURE: u8 = 1;

/// The page's entry: the lab on a web page.
#[cfg(all(target_arch = "wasm32", feature = "window"))]
fn main() {
    timestep_lab::app::page::start();
}

#[cfg(not(all(target_arch = "wasm32", feature = "window")))]
fn main() -> ExitCode {
    let matches = Cli::command()
        .try_get_matches()
        .unwrap_or_else(|error| exit_clap(error));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| exit_clap(error));
    match cli.command {
        Some(Command::Bench(args)) => report(|notes| run_bench(&args, notes)),
        Some(Command::Sweep(args)) => report(|notes| run_sweep(&args, notes)),
        Some(Command::Render(args)) => match args.options() {
            Ok(options) => {
                keep_off_the_display();
                shell::render(&options)
            }
            Err(error) => bad_input(&error),
        },
        Some(Command::BenchRender(args)) => {
            keep_off_the_display();
            shell::bench_render(&args.options())
        }
        None => match window_options(&cli.window, &matches) {
            Ok(options) => {
                explain_wayland_noise();
                shell::window(options)
            }
            Err(error) => bad_input(&error),
        },
    }
}

/// The window's options: the command line over the settings remembered from the last run
/// (unless `--no-config`), whose problems are warned about on stderr.
fn window_options(args: &WindowArgs, matches: &clap::ArgMatches) -> anyhow::Result<WindowOptions> {
    if args.no_config {
        return args.options();
    }
    let Some(path) = settings_path() else {
        eprintln!("note: no config directory (no home directory): settings are not remembered");
        return args.options();
    };
    let restored = restore(&path);
    for warning in &restored.warnings {
        eprintln!("warning: {}", printable(warning));
    }
    if let Some(backup) = &restored.backup {
        eprintln!(
            "note: the settings file as it was is kept as {}",
            timestep_lab::text::escape_path(backup)
        );
    }
    let mut options = args.options_over(matches, &restored.remembered)?;
    let safe_to_save = restored.safe_to_save();
    if safe_to_save {
        options.keep_settings = KeepSettings::File(path);
    }
    options.tour_offer = restored.first_run && options.tour.is_none();
    if !safe_to_save {
        // Saving over what could not be read (and could not be copied) might lose it.
        eprintln!(
            "note: the settings will not be saved when the window closes, so that the file \
             stays as it is"
        );
    }
    Ok(options)
}

/// The commands that draw: through the shell when this build has it.
#[cfg(feature = "window")]
mod shell {
    use std::process::ExitCode;

    use timestep_lab::app::{run_bench_render, run_render, run_window};
    use timestep_lab::options::{BenchRenderOptions, RenderOptions, WindowOptions};

    use super::{EXIT_FAILURE, finish};

    /// `render`.
    pub fn render(options: &RenderOptions) -> ExitCode {
        finish(run_render(options), EXIT_FAILURE)
    }

    /// `bench-render`.
    pub fn bench_render(options: &BenchRenderOptions) -> ExitCode {
        finish(run_bench_render(options), EXIT_FAILURE)
    }

    /// The window. Its outcome is printed as soon as the run ends, from inside the event
    /// loop (on macOS the menu's Quit ends the process there).
    pub fn window(options: WindowOptions) -> ExitCode {
        let code = std::rc::Rc::new(std::cell::Cell::new(ExitCode::SUCCESS));
        let reported = std::rc::Rc::clone(&code);
        run_window(options, move |outcome| {
            // A run that ended and then failed (its settings not saved, its recording's
            // last write) still prints its summary, then the error.
            let mut code = match outcome.summary {
                Some(summary) => finish(Ok(summary.to_string()), EXIT_FAILURE),
                None => ExitCode::SUCCESS,
            };
            if let Some(error) = outcome.error {
                code = finish(Err(error), EXIT_FAILURE);
            }
            reported.set(code);
        });
        code.get()
    }
}

/// The commands that draw, in a build without the shell: each says so (after its options
/// were checked like in a full build).
#[cfg(not(feature = "window"))]
mod shell {
    use std::process::ExitCode;

    use timestep_lab::options::{BenchRenderOptions, RenderOptions, WindowOptions};

    use super::{EXIT_FAILURE, finish};

    /// `render`.
    pub fn render(_: &RenderOptions) -> ExitCode {
        no_window("render")
    }

    /// `bench-render`.
    pub fn bench_render(_: &BenchRenderOptions) -> ExitCode {
        no_window("bench-render")
    }

    /// The window.
    pub fn window(_: WindowOptions) -> ExitCode {
        no_window("the window")
    }

    /// The error for a command this build cannot run.
    fn no_window(what: &str) -> ExitCode {
        finish(
            Err(anyhow::anyhow!(
                "{what} needs the window and GPU renderer, and this build has no window \
                 (it was built with --no-default-features: only `bench` works). \
                 Build with the default features to draw."
            )),
            EXIT_FAILURE,
        )
    }
}

/// Keeps a command that opens no window (`render`, `bench-render`) away from the window
/// systems. Mesa's Vulkan device-selection layer, which the Vulkan loader loads into every
/// program, looks for the display's GPU by connecting to Wayland (and X11) whenever an
/// instance is created; without `XDG_RUNTIME_DIR` libwayland then prints "error:
/// XDG_RUNTIME_DIR is invalid or not set in the environment." once per instance, twice a
/// run. A headless command has no display to favour and picks its adapter itself
/// (`--backend`, `WGPU_ADAPTER_NAME`), so the layer is turned off through its own switch,
/// `NODEVICE_SELECT`, unless the person steers it (`NODEVICE_SELECT`, `DRI_PRIME` or
/// `MESA_VK_DEVICE_SELECT` set).
#[allow(unsafe_code)]
fn keep_off_the_display() {
    let steered = ["NODEVICE_SELECT", "DRI_PRIME", "MESA_VK_DEVICE_SELECT"]
        .iter()
        .any(|name| std::env::var_os(name).is_some());
    if cfg!(target_os = "linux") && !steered {
        // SAFETY: called on the main thread before anything that starts a thread or reads
        // the environment concurrently (no GPU instance, thread pool or window exists yet).
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}

/// Says, before the system's Wayland library does, that its complaint about
/// `XDG_RUNTIME_DIR` is harmless: with the variable unset (as under a bare X server, a
/// container or ssh) and no Wayland session, libwayland prints "error: XDG_RUNTIME_DIR is
/// invalid or not set in the environment." once for each library that probes for Wayland
/// (the window system and the Vulkan driver), and then X11 is used.
fn explain_wayland_noise() {
    if !cfg!(all(feature = "window", target_os = "linux")) {
        return;
    }
    let runtime_dir = std::env::var_os("XDG_RUNTIME_DIR");
    let usable = runtime_dir.is_some_and(|dir| std::path::Path::new(&dir).is_dir());
    if !usable && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        eprintln!(
            "note: XDG_RUNTIME_DIR is not set, so the system's Wayland library may print \
             \"error: XDG_RUNTIME_DIR is invalid or not set\" below. It is harmless: there is \
             no Wayland session, and the lab uses X11."
        );
    }
}

/// `message` fit for a terminal: every control character (and every character that
/// reorders text) written as an escape, line breaks kept. Whatever a message quotes from
/// the command line or a file cannot move the cursor or send the terminal a sequence.
fn printable(message: &str) -> String {
    timestep_lab::text::escape_lines(message)
}

/// Ends on a command-line error: help and version as clap prints them, an error (exit 2)
/// with what it quotes from the command line escaped ([`printable`]).
fn exit_clap(error: clap::Error) -> ! {
    if !error.use_stderr() {
        error.exit();
    }
    let text = error.render().to_string();
    eprint!("{}", printable(&text));
    if !text.ends_with('\n') {
        eprintln!();
    }
    std::process::exit(error.exit_code());
}

/// Reports a bad value given by the user.
fn bad_input(error: &anyhow::Error) -> ExitCode {
    eprintln!("error: {}", printable(&format!("{error:#}")));
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Prints the output, or the error with the given exit code. Output that cannot be
/// written (a full disk) fails the command; a reader that has gone away (a closed pipe, as
/// with `| head`) did not want the rest, and is no error.
/// Runs a reporting command (`bench`, `sweep`): prints its notes on stderr and its report
/// on stdout, and exits 1 for a report it could not write or draw (it failed while
/// running), 2 for anything else (a bad value).
fn report(run: impl FnOnce(&mut Vec<String>) -> anyhow::Result<String>) -> ExitCode {
    let mut notes = Vec::new();
    let outcome = run(&mut notes);
    for note in notes {
        eprintln!("note: {}", printable(&note));
    }
    let code = match &outcome {
        Err(error)
            if error
                .downcast_ref::<BenchError>()
                .is_some_and(BenchError::failed_while_running) =>
        {
            EXIT_FAILURE
        }
        _ => EXIT_BAD_INPUT,
    };
    finish(outcome, code)
}

fn finish(outcome: anyhow::Result<String>, error_code: u8) -> ExitCode {
    match outcome {
        Ok(output) => match print(&output) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: cannot write to standard output: {error}");
                ExitCode::from(EXIT_FAILURE)
            }
        },
        Err(error) => {
            eprintln!("error: {}", printable(&format!("{error:#}")));
            ExitCode::from(error_code)
        }
    }
}

/// Writes `output` to standard output and flushes it (a flush at exit would drop its error).
fn print(output: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(output.as_bytes())?;
    stdout.flush()
}

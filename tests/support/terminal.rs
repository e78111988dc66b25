//! Running the binary on a terminal: a pseudo-terminal from util-linux's `script`, for the
//! tests of what only a terminal gets (the progress bars). Shared by the test binaries that
//! include it with `#[path]`.

use std::path::Path;
use std::process::{Command, Stdio};

/// What a run on a terminal showed: whether it succeeded, and the terminal's screen (its
/// stderr, as the person sees it).
pub struct OnTerminal {
    /// Whether the run exited with success.
    pub success: bool,
    /// Everything written to the terminal.
    pub screen: String,
}

/// Runs the binary with `args` on a terminal, stdout sent to the file `stdout_to`, with the
/// progress bar allowed at once (`TIMESTEP_LAB_PROGRESS_AFTER_MS=0`); `None` (with a note)
/// where `script` is missing.
pub fn run_on_terminal<S: AsRef<str>>(args: &[S], stdout_to: &Path) -> Option<OnTerminal> {
    if !Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
    {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return None;
    }
    let quoted = |text: &str| format!("'{}'", text.replace('\'', r"'\''"));
    let args: Vec<String> = args.iter().map(|arg| quoted(arg.as_ref())).collect();
    let command = format!(
        "{} {} > {}",
        quoted(env!("CARGO_BIN_EXE_timestep-lab")),
        args.join(" "),
        quoted(&stdout_to.to_string_lossy())
    );
    let terminal = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TIMESTEP_LAB_PROGRESS_AFTER_MS", "0")
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    Some(OnTerminal {
        success: terminal.status.success(),
        screen: String::from_utf8_lossy(&terminal.stdout).into_owned(),
    })
}

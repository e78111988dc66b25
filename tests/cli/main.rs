//! The real binary, as a user runs it: `timestep-lab bench` over generated and shipped
//! traces, its JSON, and its errors on bad input.

mod bench;
mod options;
mod output;
mod recording;
mod sweep;
// Linux only: util-linux's `script` makes the terminal (BSD `script` takes other options).
#[cfg(target_os = "linux")]
#[path = "../support/terminal.rs"]
mod terminal;
mod traces;

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Runs the binary with `args`, its settings directory in a private temporary one (the
/// window's remembered settings must not leak between tests or into the user's).
fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_timestep-lab"))
        .env("TIMESTEP_LAB_CONFIG_DIR", config_dir())
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The settings folder every run of the window's command here is given (the lab's own
/// variable), so no test reads or writes a real user's settings.
fn config_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("timestep-lab-cli-config-{}", std::process::id()))
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn bench_json(args: &[&str]) -> Value {
    command_json("bench", args)
}

/// `COMMAND --json ARGS...`, which must succeed with exactly one JSON object.
fn command_json(command: &str, args: &[&str]) -> Value {
    let mut all = vec![command, "--json"];
    all.extend_from_slice(args);
    let output = lab(&all);
    assert!(
        output.status.success(),
        "{all:?} failed: {}",
        stderr(&output)
    );
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 1, "exactly one JSON object: {text}");
    serde_json::from_str(&text).expect("valid JSON")
}

fn result<'a>(report: &'a Value, strategy: &str) -> &'a Value {
    report["results"]
        .as_array()
        .expect("results is an array")
        .iter()
        .find(|r| r["strategy"] == strategy)
        .unwrap_or_else(|| panic!("no {strategy} in {report}"))
}

fn asset(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "assets", "traces", name]
        .iter()
        .collect();
    path.to_string_lossy().into_owned()
}

fn fails_with(args: &[&str], needles: &[&str]) {
    let output = lab(args);
    assert_eq!(output.status.code(), Some(2), "{args:?} should fail");
    let message = stderr(&output);
    for needle in needles {
        assert!(
            message.contains(needle),
            "{args:?}: {message:?} lacks {needle:?}"
        );
    }
    assert!(!message.contains("panicked"), "{message}");
}

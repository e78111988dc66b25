//! The window ended from outside: Ctrl+C in its terminal (SIGINT), `kill` or the session
//! ending (SIGTERM), its terminal closed (SIGHUP), a Windows console's Ctrl+C or Ctrl+Break.
//! Each ends the run as closing the window does, through winit's `exiting`: the settings
//! saved, a recording finished and flushed, the summary printed. A second one ends the
//! process at once, for a run that does not end.
//!
//! The `ctrlc` crate catches them: it turns each signal into a call on a thread of its own
//! (a signal handler itself may do almost nothing), on Unix and on Windows alike, which the
//! lab would otherwise write twice with `unsafe` code.

use std::sync::atomic::{AtomicBool, Ordering};

use winit::event_loop::EventLoopProxy;

use super::wake::Wake;

/// The exit status of a process ended by a second signal: 128 + SIGINT's number, as shells
/// report a process Ctrl+C ended.
const ENDED_AT_ONCE: i32 = 130;

/// Ends the run through `wake` on the first signal, the process on the second. Where the
/// handler cannot be set (the system refuses), the signals keep their default action, which
/// ends the process as before, and a warning says so.
pub fn end_on_signals(wake: EventLoopProxy<Wake>) {
    let asked = AtomicBool::new(false);
    // `set_handler`, not `try_set_handler`: the latter refuses a signal inherited as
    // ignored (`nohup` ignores SIGHUP, a shell's background job SIGINT) and then leaves the
    // others at their default, so one refusal lost all three. The window's own handler takes
    // them all; under `nohup` a hang-up then ends the window as closing it would.
    let set = ctrlc::set_handler(move || {
        if asked.swap(true, Ordering::SeqCst) {
            eprintln!("timestep-lab: asked to end twice: ending at once");
            std::process::exit(ENDED_AT_ONCE);
        }
        // The event loop is gone when the run has ended already: nothing is left to end.
        let _ = wake.send_event(Wake::Signalled);
    });
    if let Err(error) = set {
        eprintln!(
            "warning: Ctrl+C and the system's request to end will end the window without \
             saving its settings or finishing a recording ({error})"
        );
    }
}

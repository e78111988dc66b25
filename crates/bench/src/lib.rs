//! timestep-lab's traces and bench: reading, writing and generating frame-time traces and
//! recordings ([`trace`], [`recording`]), and the closed-loop bench that runs the core's
//! strategies over them and reports a table, JSON, a per-frame CSV and plots ([`mod@bench`]),
//! and the sweep of a load over a range that finds where each strategy breaks ([`sweep`]);
//! [`png_file`] encodes every PNG the lab writes (the plot, the window's screenshots).
//! It depends on the core (`timestep-lab-core`) and on no window, GPU, UI or command-line
//! crate.

pub mod bench;
pub mod png_file;
pub mod recording;
pub mod sweep;
pub mod trace;

// The core's modules under their own names, so that paths read as in the core.
use timestep_lab_core::{display, drive, input, live, metrics, run, scene, stats, timestep};

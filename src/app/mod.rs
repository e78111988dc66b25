//! The window (the shell): a winit application that drives the live loop and draws it,
//! and the headless commands that draw through the same code.
//!
//! The window is `window` (winit ↔ live loop ↔ present) with `active` (the window's
//! GPU side) and `surface`; the person's keys and mouse are `hands`. `recording` names
//! and creates recording files (the live loop writes them); replay control is the live
//! loop's own (`live::ReplayControl`). The exit report is `summary` (with `frame_costs`,
//! what the main thread spends a frame), `automation` is what tests and scripts ask of a
//! run, and `os_errors` puts the window system's errors in words.

mod active;
mod automation;
mod compose;
pub mod feedback;
mod frame_costs;
mod gpu_start;
mod hands;
mod headless;
mod os_errors;
#[cfg(target_arch = "wasm32")]
pub mod page;
mod png;
mod present_mode;
mod recording;
mod screenshot;
#[cfg(not(target_arch = "wasm32"))]
mod signals;
mod summary;
mod surface;
mod tour;
mod ui_pass;
mod viewports;
mod wake;
mod window;

pub use compose::{FrameComposer, UiFrame};
pub use headless::{BenchRenderReport, render_grid, run_bench_render, run_render};
pub use summary::WindowSummary;
pub use ui_pass::{UiPass, snapshot_panes};
pub use viewports::{grid_viewports, pane_viewports, scene_area};
pub use window::{WindowOutcome, run_window};

/// The window's clock: the monotonic clock natively; on a page, the browser's frame stamps
/// (`page::PageClock`).
#[cfg(not(target_arch = "wasm32"))]
pub type Clock = crate::live::RealStopwatch;
/// The window's clock: the monotonic clock natively; on a page, the browser's frame stamps
/// (`page::PageClock`).
#[cfg(target_arch = "wasm32")]
pub type Clock = page::PageClock;

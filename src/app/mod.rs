//! The window (the shell): a winit application that drives the live loop and draws it,
//! and the headless commands that draw through the same code.

mod compose;
mod headless;
mod layout;
mod png;
mod present_mode;
mod ui_pass;
mod window;

pub use compose::{FrameComposer, UiFrame};
pub use headless::{BenchRenderReport, render_grid, run_bench_render, run_render};
pub use layout::{grid_viewports, pane_viewports, scene_area};
pub use ui_pass::{UiPass, snapshot_panes};
pub use window::{WindowSummary, run_window};

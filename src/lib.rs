//! timestep-lab, the application: the command line, the window (winit), the renderer
//! (wgpu), the panel (egui) and the remembered settings, over the core
//! (`timestep-lab-core`: time, strategies, scene, display model, metrics, input, the live
//! loop) and the traces and bench (`timestep-lab-bench`). ARCHITECTURE.md maps them.
//!
//! The shell (cargo feature `window`, on by default) draws what the core decides and
//! returns requests as values: `render` (wgpu), `ui` (egui) and `app` (the winit window
//! and the headless `render` / `bench-render` commands). [`cli`] parses the command line;
//! without the feature the binary is the bench alone.

#[cfg(feature = "window")]
pub mod app;
pub mod cli;
pub mod options;
pub mod remembered;
#[cfg(feature = "window")]
pub mod render;
#[cfg(feature = "window")]
pub mod ui;

pub use timestep_lab_bench::{bench, png_file, recording, sweep, trace};
pub use timestep_lab_core::{
    display, feedback, grid, input, live, metrics, ring, run, scene, setting, sim, stats, text,
    timestep, tour, view, world,
};

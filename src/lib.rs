//! timestep-lab: see, measure and understand game-loop timesteps.
//!
//! The pure core (no window or GPU types): [`timestep`] turns frame times into steps,
//! [`scene`] simulates the spring and the orbit, [`metrics`] measures smoothness, and
//! [`trace`] reads and generates frame-time traces. [`mod@bench`] runs them together
//! headless; [`live`] drives them from a clock with artificial load, as the window does;
//! [`view`] describes what one pane draws as plain data, and [`world`] how big everything
//! drawn is.
//!
//! The shell draws what the core decides: [`render`] (wgpu), [`ui`] (egui) and [`app`]
//! (the winit window and the headless `render` / `bench-render` commands).

#[cfg(feature = "window")]
pub mod app;
pub mod bench;
pub mod cli;
mod id;
pub mod layout;
pub mod live;
pub mod metrics;
pub mod options;
#[cfg(feature = "window")]
pub mod render;
pub mod ring;
pub mod run;
pub mod scene;
pub mod sim;
pub mod stats;
pub mod timestep;
pub mod trace;
#[cfg(feature = "window")]
pub mod ui;
pub mod view;
pub mod world;

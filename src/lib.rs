//! timestep-lab: see, measure and understand game-loop timesteps.
//!
//! The pure core (no window or GPU types): [`timestep`] turns frame times into steps,
//! [`scene`] simulates the spring and the orbit, [`display`] models when each frame's image
//! reaches the screen (FIFO, mailbox, immediate, VRR, or a capture's own times),
//! [`metrics`] measures smoothness on the CPU's clock and at the screen, and [`trace`]
//! reads and generates frame-time traces, and [`input`] routes the person's keys and mouse
//! to the steps under four delivery policies and measures them. [`run`] is one pane's run (simulation,
//! metrics, spiral detection): [`mod@bench`] runs one per strategy over a trace, headless;
//! [`live`] runs one per pane from a clock with artificial load, as the window does, and
//! ends each frame in a [`live::Snapshot`]. [`view`] describes what one pane draws as plain
//! data, [`world`] how big everything drawn is, [`layout`] how the panes tile the scene,
//! [`stats`] the medians and percentiles every summary uses, and [`options`] what the
//! shell is asked to do. The core builds alone (`--no-default-features`).
//!
//! The shell (cargo feature `window`, on by default) draws what the core decides and
//! returns requests as values: `render` (wgpu), `ui` (egui) and `app` (the winit window
//! and the headless `render` / `bench-render` commands). [`cli`] parses the command line.

#[cfg(feature = "window")]
pub mod app;
pub mod bench;
pub mod cli;
pub mod display;
mod id;
pub mod input;
pub mod layout;
pub mod live;
pub mod metrics;
pub mod options;
pub mod remembered;
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

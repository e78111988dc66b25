//! timestep-lab: see, measure and understand game-loop timesteps.
//!
//! The pure core (no window or GPU types): [`timestep`] turns frame times into steps,
//! [`scene`] simulates the spring and the orbit, [`metrics`] measures smoothness, and
//! [`trace`] reads and generates frame-time traces. [`bench`] runs them together headless.

pub mod app;
pub mod bench;
pub mod cli;
mod id;
pub mod live;
pub mod metrics;
pub mod render;
mod ring;
pub mod scene;
pub mod sim;
pub mod timestep;
pub mod trace;
pub mod ui;
pub mod view;

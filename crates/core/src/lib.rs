//! timestep-lab's core: everything that decides and measures, with no window, GPU, UI,
//! command line or file format in sight (ARCHITECTURE.md, "Code map").
//!
//! [`timestep`] turns frame times into steps (strategies, engine presets, filters, guards),
//! [`scene`] simulates the spring, the orbit, the camera and the player, [`display`] models
//! when each frame's image reaches the screen, [`metrics`] measures smoothness on the CPU's
//! clock and at the screen, and [`input`] routes the person's keys and mouse to the steps
//! under four delivery policies. [`run`] is one pane's run (simulation, metrics, spiral
//! detection), and [`drive`] the one frame driver that advances a set of them: the bench
//! drives one per strategy over a trace, the [`live`] loop one per pane from a clock,
//! ending each frame in a [`live::Snapshot`]. [`view`] says what one pane
//! draws as plain data, [`world`] how big everything drawn is, [`grid`] how the panes tile
//! the scene, [`stats`] the medians and percentiles every summary uses, [`setting`] how a
//! settings file's value is read through serde.

// Tests may compare with the platform's own functions; the library's own code never uses
// them (the lib target is linted without `test`, clippy.toml says why).
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod display;
pub mod drive;
pub mod feedback;
pub mod grid;
mod id;
pub mod input;
pub mod live;
pub mod metrics;
pub mod ring;
pub mod rng;
pub mod run;
pub mod scene;
pub mod setting;
pub mod sim;
pub mod stats;
pub mod text;
pub mod timestep;
pub mod tour;
pub mod view;
pub mod world;

//! The egui control panel (the shell): reads the live loop's readouts and edits its
//! settings; the window applies what changed.
//!
//! [`lab_ui`] draws everything for one frame — the side panel with controls, readouts and
//! plots, and the spiral / explosion banner — handles the keyboard shortcuts, and returns
//! the part of the window left for the scene.

mod panel;
mod plots;
mod readouts;
pub mod timeline;

pub use panel::{PANEL_WIDTH, PanelActions, PanelModel, lab_ui};
pub use plots::PLOT_SPAN_S;
pub use readouts::Readouts;
pub use timeline::{TIMELINE_WINDOW, TimelineLane, timeline_ui};

//! The egui control panel (the shell): reads the live loop's [`crate::live::Snapshot`] and
//! returns what the person asked for as values; the window applies them.
//!
//! [`lab_ui`] draws everything for one frame — the side panel with controls, readouts and
//! plots, the frame timeline, each comparison pane's label, and the spiral / explosion
//! banner — handles the keyboard shortcuts, and returns a [`UiOutput`]: actions, changed
//! settings, a present-mode request, a load ramp request and the panes' rectangles. It
//! imports nothing from the window: what it shows of the display, the recording and the tour
//! comes in as a [`ShellStatus`].

mod banner;
mod display;
mod frame_stats;
mod hands;
mod help;
mod in_refreshes;
mod load;
mod pane_labels;
mod panel;
mod plots;
mod ramp;
mod readouts;
mod record_replay;
mod scene;
mod shared;
mod shortcuts;
mod strategy;
pub mod timeline;
mod tour;

pub use help::{CONCEPTS, KEYS};
pub use panel::{PANEL_WIDTH, UiOutput, grid_rects, lab_ui};
pub use plots::PLOT_SPAN_S;
pub use ramp::PANE_COLORS;
pub use readouts::MONITOR_RATE;
pub use shared::{
    DisplayStatus, PanelActions, PanelState, RecordReplayRequest, RecordReplayStatus, ShellStatus,
};
pub use timeline::{TIMELINE_WINDOW, TimelinePane, TimelineScreen, timeline_ui};

//! What the shell shows of one frame, as values and read-only borrows: the live loop ends
//! each frame in a [`Snapshot`]; the panel reads it and the renderer draws its panes. The
//! shell asks for changes by returning values (settings, actions), never by editing it.

use super::frame_spans::FrameSpans;
use super::history::History;
use super::ramp::Ramp;
use super::readouts::Readouts;
use super::screen::RefreshMark;
use super::settings::{LiveSettings, MAX_PANES};
use crate::feedback::MeasuredScreen;
use crate::ring::Ring;
use crate::timestep::{Nanos, Strategy};
use crate::view::PaneView;

/// One pane as the shell sees it after a frame.
#[derive(Clone, Copy, Debug)]
pub struct PaneSnapshot<'a> {
    /// The pane's strategy.
    pub strategy: Strategy,
    /// The pane's physics step.
    pub dt: Nanos,
    /// The pane's recent frames (plots and timeline).
    pub history: &'a History,
    /// What to draw; `None` before the first frame or after a reset.
    pub view: Option<PaneView<'a>>,
}

/// The live loop after a frame, for the shell to show.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot<'a> {
    /// The settings in force.
    pub settings: LiveSettings,
    /// The numbers: the focused pane's, the loop's, and every pane's label.
    pub readouts: Readouts,
    /// The panes in order; the first [`Readouts::pane_count`] are in use.
    pub panes: [Option<PaneSnapshot<'a>>; MAX_PANES],
    /// The modeled screen's recent refreshes, oldest first (the timeline's refresh row).
    pub refreshes: &'a Ring<RefreshMark>,
    /// The measured screen, when the platform reports presentation (the timeline marks
    /// its new images on the refresh row).
    pub measured: Option<&'a MeasuredScreen>,
    /// The loop's real frame times over the frame statistics' windows (their plots).
    pub frame_spans: &'a FrameSpans,
    /// The load ramp running, or the last one (its curves) until the next ramp or a reset.
    pub ramp: Option<&'a Ramp>,
}

impl<'a> Snapshot<'a> {
    /// The panes in use, in order.
    pub fn panes(&self) -> impl Iterator<Item = &PaneSnapshot<'a>> + '_ {
        self.panes[..self.readouts.pane_count.min(MAX_PANES)]
            .iter()
            .flatten()
    }

    /// The focused pane, if the loop has any.
    pub fn focus(&self) -> Option<&PaneSnapshot<'a>> {
        self.panes.get(self.readouts.focus)?.as_ref()
    }
}

//! The modeled screen's refreshes on the timeline's axis.
//!
//! # From the stopwatch to the axis
//!
//! The axis is simulated time, but refreshes happen on the loop's stopwatch. Frame `i`
//! starts at `wall_i` on the stopwatch, and the time it simulates, `(T_{i-1}, T_i]`, is the
//! real time `(wall_{i-1}, wall_i]` that fed it. So each sample of the window, with the one
//! before the first frame, is a knot `(wall_i, T_i)`, and a stopwatch time between two
//! knots maps linearly between their `T`s ([`TimelineModel::axis_time`]). A frame's image,
//! presented at the end of the frame and shown at a later refresh, therefore lies right of
//! its box. A paused frame (its `T` does not move) squeezes its stopwatch time into a point,
//! dropped time (off the axis) squeezes it into less, a time scale stretches it. Stopwatch
//! times before the first knot or after the last lie outside the window: they clamp to the
//! axis' ends, and the refresh row keeps only the refreshes between the knots.

use std::ops::RangeInclusive;

use crate::display::{DisplaySpec, RepeatCauses};
use crate::feedback::{FeedbackSource, MeasuredRefresh};
use crate::live::{OnScreen, RefreshKind, RefreshMark};
use crate::ring::Ring;
use crate::timestep::Nanos;

use super::model::{TimelineFrame, TimelineModel, TimelineRefresh};

impl TimelineModel {
    /// The stopwatch times the window covers: from the start of the frame before the first
    /// to the start of the newest; `None` without frames.
    pub(super) fn wall_range(&self) -> Option<RangeInclusive<Nanos>> {
        let (first, last) = (self.frames.first()?, self.frames.last()?);
        Some(first.start_wall..=last.sample.wall)
    }

    /// Where stopwatch time `wall` lies on the axis: linear between the knots
    /// `(wall_i, T_i)` of the frames around it (the module's doc says why), clamped to the
    /// axis' ends outside the window. Without frames, the axis' start.
    pub(super) fn axis_time(&self, wall: Nanos) -> Nanos {
        let (Some(first), Some(last)) = (self.frames.first(), self.frames.last()) else {
            return self.axis_start;
        };
        let t = if wall <= first.start_wall {
            first.start
        } else if wall >= last.sample.wall {
            last.end()
        } else {
            // The first frame ending at or after `wall`: it starts before `wall`, since the
            // one before it (or the first knot) ends before.
            let frame = &self.frames[self.frames.partition_point(|f| f.sample.wall < wall)];
            let (wall_span, t_span) = (
                frame.sample.wall - frame.start_wall,
                frame.end() - frame.start,
            );
            let into = u128::from(wall - frame.start_wall) * u128::from(t_span)
                / u128::from(wall_span.max(1));
            frame.start + Nanos::try_from(into).unwrap_or(t_span).min(t_span)
        };
        t.clamp(self.axis_start, self.axis_end)
    }

    /// Where the frame's image first reached the screen on the axis, if it did within the
    /// window.
    pub(super) fn shown_at(&self, frame: &TimelineFrame) -> Option<Nanos> {
        let OnScreen::Shown { at, .. } = frame.sample.screen else {
            return None;
        };
        self.wall_range()?.contains(&at).then(|| self.axis_time(at))
    }

    /// The refreshes that showed the previous image again while the screen waited for
    /// `frame`'s, by cause: the run of repeats just before the refresh that first showed
    /// it. `None` when that refresh is not in the window (the frame's image was dropped,
    /// is not on screen yet, or reached it outside the window), or the run may start
    /// before the window.
    pub(super) fn repeats_before(&self, frame: &TimelineFrame) -> Option<RepeatCauses> {
        let shown = self.refreshes.iter().position(|refresh| {
            refresh.mark.kind == RefreshKind::New && refresh.mark.frame == frame.sample.frame
        })?;
        let mut causes = RepeatCauses::default();
        for refresh in self.refreshes[..shown].iter().rev() {
            match refresh.mark.kind {
                RefreshKind::Repeat(cause) => causes.add(cause, 1),
                RefreshKind::New | RefreshKind::Torn => return Some(causes),
            }
        }
        None
    }

    /// Places the measured new images of `shown` that reached the screen within the
    /// window's stopwatch times on the axis, in `measured`, in time order.
    pub(super) fn place_measured(&mut self, shown: &Ring<MeasuredRefresh>) {
        self.measured.clear();
        let Some(walls) = self.wall_range() else {
            return;
        };
        // Answers come in any order: look at every one kept (a few hundred).
        for refresh in shown.iter().filter(|refresh| walls.contains(&refresh.at)) {
            self.measured.push(self.axis_time(refresh.at));
        }
        self.measured.sort_unstable();
    }

    /// Places the refreshes of `marks` (oldest first, on the stopwatch) that happened within
    /// the window's stopwatch times on the axis. Each lasts until the next mark, in the
    /// window or not. Costs the marks since the window's start, not all of them.
    pub(super) fn place_refreshes(&mut self, marks: &Ring<RefreshMark>) {
        self.refreshes.clear();
        let Some(walls) = self.wall_range() else {
            return;
        };
        let since_start = marks
            .iter()
            .rev()
            .take_while(|mark| mark.at >= *walls.start())
            .count();
        let mut marks = marks.iter_from(marks.len() - since_start).peekable();
        while let Some(mark) = marks.next() {
            if mark.at > *walls.end() {
                break;
            }
            let start = self.axis_time(mark.at);
            let end = marks
                .peek()
                .map_or(self.axis_end, |next| self.axis_time(next.at))
                .max(start);
            self.refreshes.push(TimelineRefresh {
                start,
                end,
                mark: *mark,
            });
        }
    }
}

/// The screen row's full label, naming the display model behind it and the measurement
/// beside it, e.g. `screen (modeled: fifo:60:2)` or `screen (modeled: fifo:60:2; marks:
/// measured by X11 Present)`.
pub(super) fn screen_label(model: DisplaySpec, measured: Option<FeedbackSource>) -> String {
    let model = crate::ui::readouts::model_spec(model);
    match measured {
        Some(source) => format!(
            "screen (modeled: {model}; marks: measured by {})",
            source.label()
        ),
        None => format!("screen (modeled: {model})"),
    }
}

//! The timeline's geometry: [`Axis`] maps axis time to x and back, [`Rows`] places each row,
//! and the sizes and margins, all in points.

use std::ops::RangeInclusive;

use egui::{Pos2, Rangef, Rect};

use crate::timestep::Nanos;

use super::model::TimelineModel;

/// Width of the label column on the left, points.
pub(super) const LABEL_WIDTH: f32 = 74.0;
/// Space left of a label in the label column, points.
const LABEL_INDENT: f32 = 4.0;
/// The widest a label's text may be, points: the column less the indent and a gap before
/// the strip. A longer name is cut short with an ellipsis.
pub(super) const LABEL_TEXT_WIDTH: f32 = LABEL_WIDTH - LABEL_INDENT - 4.0;
/// Gap between the strip and the right edge, points.
const RIGHT_MARGIN: f32 = 2.0;
/// Height of the frames row, points.
const FRAMES_ROW_HEIGHT: f32 = 18.0;
/// Space between the frames row and the screen row, where each frame's connector runs to
/// the refresh that first showed it, points.
pub(super) const SCREEN_GAP: f32 = 12.0;
/// Height of the screen row, points.
const SCREEN_ROW_HEIGHT: f32 = 12.0;
/// Space under the screen row where the connectors to the shown states start to slant,
/// points.
pub(super) const CONNECTOR_GAP: f32 = 6.0;
/// Height of one pane row, points.
const PANE_ROW_HEIGHT: f32 = 16.0;
/// Height of the alpha row, points.
const ALPHA_ROW_HEIGHT: f32 = 16.0;
/// Height of the caption row, points.
const CAPTION_HEIGHT: f32 = 14.0;
/// Gap between rows, points.
const ROW_GAP: f32 = 1.0;
/// Narrowest strip drawn, points (narrower widths overflow rather than divide by zero).
pub(super) const MIN_STRIP_WIDTH: f32 = 60.0;

/// Maps axis time (ns) to x (points) and back.
#[derive(Clone, Copy, Debug)]
pub(super) struct Axis {
    /// Axis time at the left edge.
    pub(super) start: Nanos,
    /// Axis time at the right edge (greater than `start`).
    pub(super) end: Nanos,
    /// x of the left edge.
    left: f32,
    /// Width of the strip.
    width: f32,
}

impl Axis {
    /// The axis of `model` over `x_range`.
    pub(super) fn new(model: &TimelineModel, x_range: Rangef) -> Self {
        Self {
            start: model.axis_start,
            end: model.axis_end.max(model.axis_start + 1),
            left: x_range.min,
            width: x_range.span().max(1.0),
        }
    }

    /// Nanoseconds one point stands for.
    pub(super) fn ns_per_point(&self) -> f64 {
        (self.end - self.start) as f64 / f64::from(self.width)
    }

    /// x of axis time `t`, clamped far outside the strip so far-off times stay finite.
    pub(super) fn x(&self, t: Nanos) -> f32 {
        let offset = (t as f64 - self.start as f64) / self.ns_per_point();
        let margin = f64::from(self.width) * 4.0;
        (f64::from(self.left) + offset.clamp(-margin, f64::from(self.width) + margin)) as f32
    }

    /// Axis time at `x`.
    pub(super) fn time_at(&self, x: f32) -> f64 {
        self.start as f64 + f64::from(x - self.left) * self.ns_per_point()
    }

    /// The axis' time range.
    pub(super) fn range(&self) -> RangeInclusive<Nanos> {
        self.start..=self.end
    }
}

/// Where each row of the timeline goes.
pub(super) struct Rows {
    /// The whole timeline.
    rect: Rect,
    /// Number of pane rows.
    panes: usize,
}

impl Rows {
    /// The rows of a timeline with `panes` pane rows in `rect`.
    pub(super) fn new(rect: Rect, panes: usize) -> Self {
        Self { rect, panes }
    }

    /// Height a timeline with `panes` pane rows needs.
    pub(super) fn height(panes: usize) -> f32 {
        FRAMES_ROW_HEIGHT
            + SCREEN_GAP
            + SCREEN_ROW_HEIGHT
            + CONNECTOR_GAP
            + panes as f32 * (PANE_ROW_HEIGHT + ROW_GAP)
            + ALPHA_ROW_HEIGHT
            + ROW_GAP
            + CAPTION_HEIGHT
    }

    /// Horizontal extent of the strip (everything right of the labels).
    pub(super) fn strip_x(&self) -> Rangef {
        Rangef::new(
            self.rect.left() + LABEL_WIDTH,
            self.rect.right() - RIGHT_MARGIN,
        )
    }

    /// A row of the strip from `top`, `height` tall.
    fn row(&self, top: f32, height: f32) -> Rect {
        Rect::from_x_y_ranges(self.strip_x(), top..=top + height)
    }

    /// The frames row.
    pub(super) fn frames(&self) -> Rect {
        self.row(self.rect.top(), FRAMES_ROW_HEIGHT)
    }

    /// The screen row: the modeled screen's refreshes.
    pub(super) fn screen(&self) -> Rect {
        self.row(self.frames().bottom() + SCREEN_GAP, SCREEN_ROW_HEIGHT)
    }

    /// Pane row `index`.
    pub(super) fn pane(&self, index: usize) -> Rect {
        let top =
            self.screen().bottom() + CONNECTOR_GAP + index as f32 * (PANE_ROW_HEIGHT + ROW_GAP);
        self.row(top, PANE_ROW_HEIGHT)
    }

    /// The alpha row.
    pub(super) fn alpha(&self) -> Rect {
        self.row(self.pane(self.panes).top(), ALPHA_ROW_HEIGHT)
    }

    /// The caption row.
    pub(super) fn caption(&self) -> Rect {
        self.row(self.alpha().bottom() + ROW_GAP, CAPTION_HEIGHT)
    }

    /// The strip: every row, right of the labels.
    pub(super) fn strip_rect(&self) -> Rect {
        Rect::from_x_y_ranges(self.strip_x(), self.rect.top()..=self.alpha().bottom())
    }

    /// Where the label of `row` starts.
    pub(super) fn label_pos(&self, row: Rect) -> Pos2 {
        Pos2::new(self.rect.left() + LABEL_INDENT, row.center().y)
    }

    /// The label column beside `row`, a point taller each way (what answers the pointer
    /// over a label).
    pub(super) fn label_rect(&self, row: Rect) -> Rect {
        Rect::from_x_y_ranges(
            self.rect.left()..=self.rect.left() + LABEL_WIDTH - 2.0,
            row.y_range().expand(1.0),
        )
    }
}

/// The part of the segment `a`–`b` within `x_range`, or `None`.
pub(super) fn clip_segment_x(a: Pos2, b: Pos2, x_range: Rangef) -> Option<[Pos2; 2]> {
    let clip = |p: Pos2, q: Pos2| -> Pos2 {
        let x = p.x.clamp(x_range.min, x_range.max);
        if x == p.x || q.x == p.x {
            p
        } else {
            Pos2::new(x, p.y + (q.y - p.y) * (x - p.x) / (q.x - p.x))
        }
    };
    let outside_same_side =
        (a.x < x_range.min && b.x < x_range.min) || (a.x > x_range.max && b.x > x_range.max);
    (!outside_same_side).then(|| [clip(a, b), clip(b, a)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_clipped_to_the_strip() {
        let range = Rangef::new(0.0, 100.0);
        let [a, b] = clip_segment_x(Pos2::new(50.0, 0.0), Pos2::new(150.0, 10.0), range)
            .expect("partly inside");
        assert_eq!(a, Pos2::new(50.0, 0.0));
        assert_eq!(b, Pos2::new(100.0, 5.0));
        assert_eq!(
            clip_segment_x(Pos2::new(150.0, 0.0), Pos2::new(250.0, 10.0), range),
            None
        );
    }

    #[test]
    fn the_screen_row_sits_between_the_frames_and_the_panes() {
        let rect = Rect::from_min_size(Pos2::new(10.0, 20.0), egui::vec2(400.0, Rows::height(3)));
        let rows = Rows::new(rect, 3);
        let (frames, screen, pane) = (rows.frames(), rows.screen(), rows.pane(0));
        assert_eq!(frames.top(), rect.top());
        assert_eq!(screen.top() - frames.bottom(), SCREEN_GAP);
        assert_eq!(pane.top() - screen.bottom(), CONNECTOR_GAP);
        assert_eq!(rows.caption().bottom(), rect.bottom());
        // The label beside it answers the pointer, left of the strip.
        let label = rows.label_rect(screen);
        assert!(label.right() <= rows.strip_x().min);
        assert!(label.contains(rows.label_pos(screen)));
    }
}

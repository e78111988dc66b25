//! The frame timeline: the last [`TIMELINE_WINDOW`] of frames drawn to scale, so a viewer
//! sees the render frames, what the modeled screen did with them, each physics step, the
//! alpha sawtooth, dropped time and hitches.
//!
//! The horizontal axis is time in the simulated-time base: frame `i` spans
//! `(T_{i-1}, T_i]` of the focus pane's `presented_time`, and each pane's steps sit at the
//! simulated time they end at. A thin line joins each frame's `T_i` to the `S_i` it shows,
//! so an un-interpolated accumulator's uneven jumps are visible as connectors of varying
//! slant, and interpolation as a constant slant one `dt` behind.
//!
//! From top to bottom the strip shows:
//!
//! - **frames**: a box per render frame with the focus pane's step count in it; hitches
//!   (a real frame time more than twice the window's median) in orange, dropped time as a
//!   red bar at the frame's end. The frame's time on the axis excludes what it dropped. A
//!   red cross marks a frame whose image the modeled screen dropped (replaced before a
//!   refresh showed it).
//! - **screen**: each refresh of the modeled screen (the display model in force, named in
//!   the caption and on hovering the label), lasting until the next; where the platform
//!   reports presentation, a mark on the row's top edge where each new image measurably
//!   reached the screen, beside the model's cells. Refreshes are on the stopwatch; they are placed on the axis piecewise-linearly
//!   between the frames' `(wall_i, T_i)` (see `refreshes.rs`). A new image is a filled cell, a
//!   repeat an outlined one, both in the shade of the shown frame's sequence number, so a
//!   frame held on screen reads as a run of one shade; a torn refresh is an orange zigzag.
//!   A line joins each frame's `T_i` to the refresh that first showed its image. Without
//!   refreshes in the window the row says so.
//! - **a row per pane**: a tick at the simulated time each step ends, and a note at the
//!   right when the pane's newest state is off the axis (`fixed` runs ahead of real time
//!   when the display is faster than the step rate).
//! - **alpha**: the focus pane's `alpha` held over each frame (the sawtooth), or a note
//!   when its strategy carries no accumulator.
//! - **caption**: how much time the strip spans, the screen's model and the `T` at its
//!   right edge.
//!
//! Hovering a frame highlights it and shows its numbers in a tooltip, with what the screen
//! did with its image.
//!
//! The files divide the work so that the numbers can be tested without egui:
//!
//! - `model.rs` is the pure model, in integer nanoseconds with no egui import: the frames in
//!   the window, hitches, shades and the axis' ends; with `refreshes.rs` (the
//!   stopwatch-to-axis mapping and the refreshes in the window) and `steps.rs` (where each
//!   step ends, and where a pane lies off the axis), as pure. Most tests are theirs, in
//!   `tests/`, and run headless.
//! - `layout.rs` is the geometry: `Axis` maps axis time to x and back, `Rows` places each
//!   row, and the sizes and margins in points.
//! - `paint.rs` draws with the two: colours, fonts, one function per row, and the tooltip.
//!   It merges or skips what would fall within one point of the last thing drawn, so an
//!   uncapped loop's thousands of frames cost no more than the strip's width.
//!
//! [`timeline_ui`], below, ties them together: it takes the space, rebuilds the model from
//! the focus pane and the screen's refreshes (keeping its buffers in egui's memory between
//! frames) and paints.

mod geometry;
mod model;
mod paint;
mod refreshes;
mod steps;
#[cfg(test)]
mod tests;

use egui::{Align2, Sense, Vec2};

use crate::display::DisplaySpec;
use crate::feedback::{FeedbackSource, MeasuredRefresh};
use crate::live::{DisplayTimesBy, History, RefreshMark};
use crate::ring::Ring;
use crate::timestep::{Nanos, Strategy};

use geometry::{Axis, LABEL_WIDTH, MIN_STRIP_WIDTH, Rows};
use model::TimelineModel;
use paint::{
    CAPTION, LABEL_FONT, PaintContext, SCREEN_HELP, STRIP_BACKGROUND, frame_tooltip_ui,
    paint_timeline,
};
use refreshes::screen_label;

/// One pane's history for the timeline.
pub struct TimelinePane<'a> {
    /// The pane's strategy (labels the row and decides whether alpha is drawn).
    pub strategy: Strategy,
    /// The pane's frames.
    pub history: &'a History,
}

/// The modeled screen, for the timeline's screen row.
#[derive(Clone, Copy, Debug)]
pub struct TimelineScreen<'a> {
    /// Its recent refreshes, oldest first, on the loop's stopwatch.
    pub refreshes: &'a Ring<RefreshMark>,
    /// The display model that produced them (named on the row: they are modeled).
    pub model: DisplaySpec,
    /// The measured screen's new images, oldest answer first, on the loop's stopwatch, and
    /// where they were measured from; `None` where the platform reports nothing.
    pub measured: Option<(&'a Ring<MeasuredRefresh>, FeedbackSource)>,
    /// Where the frames' display times come from (the frame tooltips say).
    pub display_times: DisplayTimesBy,
}

/// Real time the timeline covers (0.5 s): long enough to see a 50 Hz step pattern repeat
/// several times, short enough that each 60 Hz frame is a few points wide.
pub const TIMELINE_WINDOW: Nanos = 500_000_000;

/// Fewest frames the timeline shows: when the loop runs slower than 60 fps (a software
/// rasterizer draws a few frames a second), it reaches back past [`TIMELINE_WINDOW`] so the
/// pattern of steps per frame still shows.
pub const TIMELINE_MIN_FRAMES: usize = 30;

/// Draws the timeline for `panes` (1 to [`crate::live::MAX_PANES`], all fed the same frames: their samples have
/// identical `wall`, `real_frame` and `fed`) over the refreshes of `screen`, detailing pane
/// `focus`; `dt` is the current step in ns. Takes the available width and the height it
/// needs.
pub fn timeline_ui(
    ui: &mut egui::Ui,
    panes: &[TimelinePane<'_>],
    screen: TimelineScreen<'_>,
    focus: usize,
    dt: Nanos,
) {
    let focus = focus.min(panes.len().saturating_sub(1));
    let model_id = ui.make_persistent_id("frame_timeline");
    let width = if ui.available_width().is_finite() {
        ui.available_width().max(LABEL_WIDTH + MIN_STRIP_WIDTH)
    } else {
        LABEL_WIDTH + 600.0
    };
    let pane_rows = panes.len().max(1);
    let (_, rect) = ui.allocate_space(Vec2::new(width, Rows::height(pane_rows)));
    let rows = Rows::new(rect, pane_rows);
    // Only the strip (right of the labels) answers the pointer.
    let response = ui.interact(rows.strip_rect(), model_id.with("strip"), Sense::hover());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::accesskit::Role::Figure, true, "frame timeline")
    });
    let source = screen.measured.map(|(_, source)| source);
    screen_label_ui(ui, &rows, model_id, screen.model, source);
    pane_row_names_ui(ui, &rows, model_id, panes);
    if !ui.is_rect_visible(rect) {
        return;
    }
    let painter = ui.painter_at(rect);

    // The model keeps its buffers between frames so a full window does not allocate.
    let mut model: TimelineModel = ui
        .data_mut(|data| data.remove_temp(model_id))
        .unwrap_or_default();
    match panes.get(focus) {
        Some(pane) => model.rebuild(pane.history),
        None => model.clear(),
    }
    model.place_refreshes(screen.refreshes);
    if let Some((shown, _)) = screen.measured {
        model.place_measured(shown);
    }

    painter.rect_filled(rows.strip_rect(), 2.0, STRIP_BACKGROUND);
    let axis = Axis::new(&model, rows.strip_x());
    let hovered = response
        .hover_pos()
        .and_then(|pos| model.frame_near(axis.time_at(pos.x)));
    let context = PaintContext {
        model: &model,
        axis,
        rows: &rows,
        panes,
        focus,
        dt,
        screen_model: screen.model,
        measured: source,
    };
    paint_timeline(&painter, &context, hovered);
    if model.frames.is_empty() {
        painter.text(
            rows.frames().center(),
            Align2::CENTER_CENTER,
            "no frames yet",
            LABEL_FONT,
            CAPTION,
        );
    }
    if let Some(index) = hovered {
        response.on_hover_ui_at_pointer(|ui| {
            let measured = screen.display_times != DisplayTimesBy::Model;
            frame_tooltip_ui(ui, &model, index, panes, focus, measured);
        });
    }
    ui.data_mut(|data| data.insert_temp(model_id, model));
}

/// Each pane row's name answers the pointer with the pane's strategy in full (a long id
/// is cut short in the column), and names it for a screen reader.
fn pane_row_names_ui(ui: &egui::Ui, rows: &Rows, id: egui::Id, panes: &[TimelinePane<'_>]) {
    for (index, pane) in panes.iter().enumerate() {
        let strategy = pane.strategy;
        let response = ui.interact(
            rows.label_rect(rows.pane(index)),
            id.with(("pane label", index)),
            Sense::hover(),
        );
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::accesskit::Role::Label, true, strategy.id())
        });
        // Built only when shown: the rows' names are asked every frame.
        response.on_hover_ui(|ui| {
            ui.label(format!("{}: {}", strategy.id(), strategy.name()));
        });
    }
}

/// The screen row's label answers the pointer: it names the display model (for a screen
/// reader too) and says what the row shows.
fn screen_label_ui(
    ui: &egui::Ui,
    rows: &Rows,
    id: egui::Id,
    model: DisplaySpec,
    measured: Option<FeedbackSource>,
) {
    let label = screen_label(model, measured);
    let response = ui.interact(
        rows.label_rect(rows.screen()),
        id.with("screen_label"),
        Sense::hover(),
    );
    response.widget_info(|| egui::WidgetInfo::labeled(egui::accesskit::Role::Label, true, &label));
    response.on_hover_ui(|ui| {
        ui.label(egui::RichText::new(&label).strong());
        ui.label(SCREEN_HELP);
    });
}

//! The timeline's painting: colours, fonts, one function per row, the connectors, the
//! caption and the hovered frame's tooltip. What would fall within a point of the last
//! thing drawn is merged or skipped, so the cost is bounded by the strip's width.

use egui::{Align2, Color32, FontId, Pos2, Rangef, Rect, RichText, Stroke, Vec2};

use crate::display::DisplaySpec;
use crate::feedback::FeedbackSource;
use crate::timestep::{NANOS_PER_SECOND, Nanos, ms_from_ns, secs_from_ns};

use super::TimelinePane;
use super::geometry::{Axis, LABEL_TEXT_WIDTH, Rows, SCREEN_GAP, clip_segment_x};
use super::model::TimelineRefresh;
use super::model::{HITCH_FACTOR, TimelineFrame, TimelineModel, window_frames};
use super::refreshes::screen_label;
use super::steps::{PaneOffset, duration_text, step_ends};

/// Frames narrower than this are merged with their neighbours into one box, points.
const MIN_FRAME_WIDTH: f32 = 1.5;
/// Closest two drawn step ticks or frame ticks may be, points.
const MIN_TICK_GAP: f32 = 1.0;
/// Closest two drawn connectors, frame grid lines or dropped-time bars may be, points.
const MIN_CONNECTOR_GAP: f32 = 3.0;
/// Frames at least this wide get their own ticks, connector and grid line; narrower ones
/// are too dense to tell apart, and a comb of lines would hide the steps.
const MIN_DETAILED_FRAME: f32 = 4.0;

/// Font of row labels and notes.
pub(super) const LABEL_FONT: FontId = FontId::proportional(11.0);
/// Font of the step counts in the frame boxes.
const DIGIT_FONT: FontId = FontId::monospace(10.0);

/// Background of the strip.
pub(super) const STRIP_BACKGROUND: Color32 = Color32::from_gray(18);
/// Frame boxes, alternating.
const FRAME_LIGHT: Color32 = Color32::from_gray(74);
/// Frame boxes, alternating.
const FRAME_DARK: Color32 = Color32::from_gray(44);
/// Frames merged because each is narrower than a point.
const FRAME_MERGED: Color32 = Color32::from_gray(58);
/// Hitch frames.
const HITCH: Color32 = Color32::from_rgb(235, 140, 45);
/// Refreshes showing an image, alternating with its frame's sequence number: filled for a
/// new image, outlined for a repeat.
const SHOWN_LIGHT: Color32 = Color32::from_rgb(96, 190, 172);
/// Refreshes showing an image, alternating.
const SHOWN_DARK: Color32 = Color32::from_rgb(50, 126, 114);
/// Refreshes merged because each is narrower than a point.
const SHOWN_MERGED: Color32 = Color32::from_rgb(72, 156, 142);
/// Torn refreshes.
const TORN: Color32 = Color32::from_rgb(245, 105, 45);

/// A measured new image on the screen row.
const MEASURED: Color32 = Color32::from_rgb(240, 240, 240);
/// The connector from a frame to the refresh that first showed it.
const SCREEN_CONNECTOR: Color32 = Color32::from_rgba_premultiplied(86, 160, 148, 190);
/// The tick at each `T_i`.
const FRAME_TICK: Color32 = Color32::from_gray(150);
/// Step counts in the frame boxes.
const DIGIT: Color32 = Color32::from_gray(230);
/// Step counts on a hitch box.
const DIGIT_ON_HITCH: Color32 = Color32::from_gray(20);
/// Faint frame boundaries through the pane rows.
const FRAME_GRID: Color32 = Color32::from_gray(38);
/// Pane rows.
const PANE_BACKGROUND: Color32 = Color32::from_gray(28);
/// The focus pane's row.
const FOCUS_BACKGROUND: Color32 = Color32::from_rgb(28, 38, 52);
/// The focus pane's step ticks.
const FOCUS_STEP: Color32 = Color32::from_rgb(110, 195, 255);
/// Other panes' step ticks.
const PANE_STEP: Color32 = Color32::from_rgb(150, 158, 172);
/// Row labels.
const LABEL: Color32 = Color32::from_gray(160);
/// The focus pane's label.
const FOCUS_LABEL: Color32 = Color32::from_rgb(140, 210, 255);
/// The "what is shown" connectors.
const CONNECTOR: Color32 = Color32::from_rgba_premultiplied(200, 200, 200, 200);
/// The alpha polyline.
const ALPHA_LINE: Color32 = Color32::from_rgb(240, 200, 90);
/// Guides at alpha 0 and 1.
const ALPHA_GUIDE: Color32 = Color32::from_gray(44);
/// Dropped time.
const DROPPED: Color32 = Color32::from_rgb(230, 60, 60);
/// Lead and lag notes.
const NOTE: Color32 = Color32::from_rgb(240, 200, 90);
/// Caption text.
pub(super) const CAPTION: Color32 = Color32::from_gray(130);
/// Fill over the hovered frame's column.
const HOVER_FILL: Color32 = Color32::from_rgba_premultiplied(22, 22, 22, 22);
/// Outline of the hovered frame's box.
const HOVER_STROKE: Color32 = Color32::from_gray(240);

/// Everything the painting functions read.
pub(super) struct PaintContext<'a, 'h> {
    /// The focus pane's frames.
    pub(super) model: &'a TimelineModel,
    /// The time axis.
    pub(super) axis: Axis,
    /// Row placement.
    pub(super) rows: &'a Rows,
    /// Every pane.
    pub(super) panes: &'a [TimelinePane<'h>],
    /// Index of the focus pane (valid).
    pub(super) focus: usize,
    /// The current step, ns.
    pub(super) dt: Nanos,
    /// The display model behind the screen row.
    pub(super) screen_model: DisplaySpec,
    /// Where the screen row's measured marks come from, if the screen is measured.
    pub(super) measured: Option<FeedbackSource>,
}

/// What hovering the screen row's label says.
pub(super) const SCREEN_HELP: &str = "Each refresh of the modeled screen, from when it \
    starts to the next: filled when it shows a new image, outlined when it repeats the one on \
    screen, orange zigzag when torn. Shades alternate with the shown frame's number, so a \
    run of one shade is one frame held on screen. A line joins each frame to the refresh \
    that first showed it; a red \u{00d7} on a frame: its image was dropped. Modeled from \
    the present mode and refresh rate. Where the platform reports presentation (Wayland \
    presentation-time, X11 Present), a white mark on the row's top edge shows when each new \
    image really reached the screen, beside the model's cells.";

/// Paints every row, the connectors and the hovered frame's highlight.
pub(super) fn paint_timeline(
    painter: &egui::Painter,
    context: &PaintContext<'_, '_>,
    hovered: Option<usize>,
) {
    let rows = context.rows;
    let strip = painter.with_clip_rect(rows.strip_rect());
    paint_frame_grid(&strip, context);
    for (index, pane) in context.panes.iter().enumerate() {
        paint_pane(&strip, context, index, pane);
    }
    paint_alpha(&strip, context);
    paint_screen(&strip, context);
    paint_frames(&strip, context);
    paint_screen_connectors(&strip, context);
    paint_connectors(&strip, context);
    for (index, pane) in context.panes.iter().enumerate() {
        paint_pane_note(&strip, context, index, pane);
    }
    if let Some(frame) = hovered.and_then(|index| context.model.frames.get(index)) {
        let (x0, x1) = (context.axis.x(frame.start), context.axis.x(frame.end()));
        let x_range = Rangef::new(x0.min(x1 - 2.0), x1);
        strip.rect_filled(
            Rect::from_x_y_ranges(x_range, rows.strip_rect().y_range()),
            0.0,
            HOVER_FILL,
        );
        strip.rect_stroke(
            Rect::from_x_y_ranges(x_range, rows.frames().y_range()),
            0.0,
            Stroke::new(1.0, HOVER_STROKE),
            egui::StrokeKind::Inside,
        );
    }
    paint_row_labels(painter, context);
    paint_caption(painter, context);
}

/// Each row's name in the label column, after the strip's shapes so that the panel's
/// shapes clipped to the timeline come together (one mesh, one draw, rather than one for
/// each row as the clip changed). A name wider than the column is cut short with an
/// ellipsis rather than run into the strip.
fn paint_row_labels(painter: &egui::Painter, context: &PaintContext<'_, '_>) {
    let rows = context.rows;
    let label = |row: Rect, text: &str, color: Color32| {
        let galley = painter.layout_job(row_label_job(text, color));
        let pos = rows.label_pos(row) - Vec2::new(0.0, galley.size().y / 2.0);
        painter.galley(pos, galley, color);
    };
    label(rows.frames(), "frames", LABEL);
    for (index, pane) in context.panes.iter().enumerate() {
        let focused = index == context.focus;
        label(
            rows.pane(index),
            pane.strategy.id(),
            if focused { FOCUS_LABEL } else { LABEL },
        );
    }
    label(rows.alpha(), "alpha", LABEL);
    label(rows.screen(), "screen", LABEL);
}

/// A row's name as laid out in the label column: one line, at most [`LABEL_TEXT_WIDTH`]
/// wide, cut short with an ellipsis.
pub(super) fn row_label_job(text: &str, color: Color32) -> egui::text::LayoutJob {
    let mut job = egui::text::LayoutJob::simple_singleline(text.to_owned(), LABEL_FONT, color);
    job.wrap = egui::text::TextWrapping::truncate_at_width(LABEL_TEXT_WIDTH);
    job
}

/// Faint lines at every frame boundary through the pane and alpha rows, so a frame's steps
/// can be read against it.
fn paint_frame_grid(strip: &egui::Painter, context: &PaintContext<'_, '_>) {
    let rows = context.rows;
    let y_range = Rangef::new(rows.pane(0).top(), rows.alpha().bottom());
    let mut last_x = f32::NEG_INFINITY;
    for frame in &context.model.frames {
        let (x0, x) = (context.axis.x(frame.start), context.axis.x(frame.end()));
        if x - x0 >= MIN_DETAILED_FRAME && x - last_x >= 2.0 * MIN_CONNECTOR_GAP {
            strip.vline(x, y_range, Stroke::new(1.0, FRAME_GRID));
            last_x = x;
        }
    }
}

/// The frames row: a box per frame (merged when narrower than [`MIN_FRAME_WIDTH`]), hitches
/// in orange, the focus pane's step count in each box wide enough, a tick at each `T_i` of
/// a frame wide enough to tell apart, dropped time in red, and a red cross on each frame
/// whose image the screen dropped (a slash under a frame too narrow for a cross).
fn paint_frames(strip: &egui::Painter, context: &PaintContext<'_, '_>) {
    let row = context.rows.frames();
    let axis = &context.axis;
    let frames = &context.model.frames;
    let digit_width = strip.fonts_mut(|fonts| fonts.glyph_width(&DIGIT_FONT, '0'));
    // Sub-point frames in a row collect into one box: (x range, any hitch).
    let mut merged: Option<(Rangef, bool)> = None;
    let flush = |merged: &mut Option<(Rangef, bool)>| {
        if let Some((x_range, hitch)) = merged.take() {
            let fill = if hitch { HITCH } else { FRAME_MERGED };
            let x_range = Rangef::new(x_range.min, x_range.max.max(x_range.min + 1.0));
            strip.rect_filled(Rect::from_x_y_ranges(x_range, row.y_range()), 0.0, fill);
        }
    };
    for frame in frames {
        let (x0, x1) = (axis.x(frame.start), axis.x(frame.end()));
        if x1 - x0 >= MIN_FRAME_WIDTH {
            flush(&mut merged);
            paint_frame_box(
                strip,
                frame,
                Rect::from_x_y_ranges(x0..=x1, row.y_range()),
                digit_width,
            );
        } else {
            let (range, hitch) = merged.get_or_insert((Rangef::new(x0, x1), false));
            *range = Rangef::new(range.min.min(x0), range.max.max(x1));
            *hitch |= frame.hitch;
            if range.span() >= MIN_FRAME_WIDTH {
                flush(&mut merged);
            }
        }
    }
    flush(&mut merged);

    // Ticks, dropped-time bars and dropped-image slashes go over every box.
    let tick_y = Rangef::new(row.top(), row.bottom() + SCREEN_GAP * 0.4);
    let mut last_tick = f32::NEG_INFINITY;
    let mut last_bar = f32::NEG_INFINITY;
    let mut last_slash = f32::NEG_INFINITY;
    for frame in frames {
        let (x0, x) = (axis.x(frame.start), axis.x(frame.end()));
        if x - x0 >= MIN_DETAILED_FRAME {
            for edge in [x0, x] {
                if edge - last_tick >= MIN_TICK_GAP {
                    strip.vline(edge, tick_y, Stroke::new(1.0, FRAME_TICK));
                    last_tick = edge;
                }
            }
        } else if frame.dropped_image() && x - last_slash >= MIN_CONNECTOR_GAP {
            let (bottom, top) = (row.bottom() - 1.0, row.bottom() - 7.0);
            strip.line_segment(
                [Pos2::new(x - 2.0, bottom), Pos2::new(x + 1.0, top)],
                Stroke::new(1.25, DROPPED),
            );
            last_slash = x;
        }
        if frame.sample.dropped > 0 && x - last_bar >= MIN_CONNECTOR_GAP {
            let bar = Rect::from_x_y_ranges(x - 3.0..=x, row.y_range());
            strip.rect_filled(bar, 0.0, DROPPED);
            last_bar = x;
        }
    }
}

/// One frame's box in `rect`: its shade (orange for a hitch), a red cross when the screen
/// dropped its image and the box is wide enough to tell apart, the focus pane's step count
/// and, where it fits, the time it dropped.
fn paint_frame_box(strip: &egui::Painter, frame: &TimelineFrame, rect: Rect, digit_width: f32) {
    let fill = match (frame.hitch, frame.shade) {
        (true, _) => HITCH,
        (false, true) => FRAME_LIGHT,
        (false, false) => FRAME_DARK,
    };
    strip.rect_filled(rect, 0.0, fill);
    if frame.dropped_image() && rect.width() >= MIN_DETAILED_FRAME {
        paint_cross(strip, rect.shrink(2.0), DROPPED);
    }
    let digits_width = decimal_digits(frame.sample.steps) as f32 * digit_width;
    let mut count_x = rect.x_range();
    if frame.sample.dropped > 0 {
        let label = strip.layout_no_wrap(
            format!("\u{2212}{}", duration_text(frame.sample.dropped)),
            LABEL_FONT,
            DROPPED,
        );
        // The label goes right (clear of the red bar), the count centred in what is left.
        let size = label.size();
        if size.x + digits_width + 16.0 <= rect.width() {
            let pos = Pos2::new(rect.right() - 6.0 - size.x, rect.center().y - size.y / 2.0);
            strip.rect_filled(
                Rect::from_min_size(pos, size).expand(1.0),
                2.0,
                STRIP_BACKGROUND,
            );
            strip.galley(pos, label, DROPPED);
            count_x = Rangef::new(rect.left(), pos.x - 2.0);
        }
    }
    if count_x.span() >= digits_width + 3.0 {
        let color = if frame.hitch { DIGIT_ON_HITCH } else { DIGIT };
        strip.text(
            Pos2::new(count_x.center(), rect.center().y),
            Align2::CENTER_CENTER,
            frame.sample.steps,
            DIGIT_FONT,
            color,
        );
    }
}

/// A cross from corner to corner of `rect`.
fn paint_cross(strip: &egui::Painter, rect: Rect, color: Color32) {
    let stroke = Stroke::new(1.5, color);
    strip.line_segment([rect.left_top(), rect.right_bottom()], stroke);
    strip.line_segment([rect.left_bottom(), rect.right_top()], stroke);
}

/// Number of decimal digits in `n`.
fn decimal_digits(n: u32) -> u32 {
    n.checked_ilog10().map_or(1, |log| log + 1)
}

/// A pane row: its background and a tick at the simulated end of each step (its name is
/// painted with the other rows' names, [`paint_row_labels`]).
fn paint_pane(
    strip: &egui::Painter,
    context: &PaintContext<'_, '_>,
    index: usize,
    pane: &TimelinePane<'_>,
) {
    let rows = context.rows;
    let axis = &context.axis;
    let row = rows.pane(index);
    let focused = index == context.focus;
    strip.rect_filled(
        row,
        0.0,
        if focused {
            FOCUS_BACKGROUND
        } else {
            PANE_BACKGROUND
        },
    );
    let (color, width) = if focused {
        (FOCUS_STEP, 2.0)
    } else {
        (PANE_STEP, 1.5)
    };
    let tick_y = Rangef::new(row.top() + 3.0, row.bottom() - 3.0);
    // Whole steps closer together than a point are thinned to about one per point.
    let stride = if context.dt == 0 {
        1
    } else {
        (axis.ns_per_point() / context.dt as f64).ceil().max(1.0) as u64
    };
    let mut last_x = f32::NEG_INFINITY;
    for (before, sample) in window_frames(pane.history) {
        let ends = step_ends(
            before.latest_time,
            sample.latest_time,
            sample.steps,
            context.dt,
            axis.range(),
            stride,
        );
        for end in ends {
            let x = axis.x(end);
            if x - last_x >= MIN_TICK_GAP {
                strip.rect_filled(Rect::from_x_y_ranges(x - width..=x, tick_y), 0.0, color);
                last_x = x;
            }
        }
    }
}

/// The note at the right of pane row `index` when the pane's newest simulated time is off
/// the axis, e.g. `fixed` running ahead of real time.
fn paint_pane_note(
    strip: &egui::Painter,
    context: &PaintContext<'_, '_>,
    index: usize,
    pane: &TimelinePane<'_>,
) {
    let row = context.rows.pane(index);
    let axis = &context.axis;
    let offset = pane
        .history
        .latest()
        .and_then(|newest| PaneOffset::of(newest.latest_time, axis.start, axis.end));
    if let Some(offset) = offset {
        let galley = strip.layout_no_wrap(offset.note(), LABEL_FONT, NOTE);
        let pos = Pos2::new(
            row.right() - 4.0 - galley.size().x,
            row.center().y - galley.size().y / 2.0,
        );
        strip.rect_filled(
            Rect::from_min_size(pos, galley.size()).expand(2.0),
            2.0,
            STRIP_BACKGROUND,
        );
        strip.galley(pos, galley, NOTE);
    }
}

/// The alpha row: the focus pane's alpha held over each frame, or a note when its strategy
/// has no accumulator.
fn paint_alpha(strip: &egui::Painter, context: &PaintContext<'_, '_>) {
    let rows = context.rows;
    let row = rows.alpha();
    strip.rect_filled(row, 0.0, PANE_BACKGROUND);
    let Some(pane) = context.panes.get(context.focus) else {
        return;
    };
    if !pane.strategy.carries_accumulator() {
        strip.text(
            row.left_center() + Vec2::new(6.0, 0.0),
            Align2::LEFT_CENTER,
            format!("{}: no accumulator, no alpha", pane.strategy.id()),
            LABEL_FONT,
            CAPTION,
        );
        return;
    }
    let top = row.top() + 2.0;
    let bottom = row.bottom() - 2.0;
    for y in [top, bottom] {
        strip.hline(row.x_range(), y, Stroke::new(1.0, ALPHA_GUIDE));
    }
    let y = |alpha: f32| bottom - alpha.clamp(0.0, 1.0) * (bottom - top);
    let frames = &context.model.frames;
    let mut points = Vec::with_capacity((2 * frames.len()).min(4 * row.width() as usize + 4));
    let mut last_x = f32::NEG_INFINITY;
    for frame in frames {
        let (x0, x1) = (context.axis.x(frame.start), context.axis.x(frame.end()));
        // Frames within a point of the last one drawn are skipped: the line is a point wide.
        if x1 - last_x < MIN_TICK_GAP {
            continue;
        }
        let y = y(frame.sample.alpha);
        points.push(Pos2::new(x0, y));
        points.push(Pos2::new(x1, y));
        last_x = x1;
    }
    strip.add(egui::Shape::line(points, Stroke::new(1.25, ALPHA_LINE)));
}

/// The screen row: a cell per refresh of the modeled screen, from its start to the next
/// refresh's (merged when narrower than [`MIN_FRAME_WIDTH`]), or a note when none is in the
/// window. Cells take the shade of the shown frame's sequence number: filled for a new
/// image, outlined for a repeat, so a frame held on screen reads as one shade; a torn
/// refresh is outlined with an orange zigzag.
fn paint_screen(strip: &egui::Painter, context: &PaintContext<'_, '_>) {
    let rows = context.rows;
    let axis = &context.axis;
    let row = rows.screen();
    strip.rect_filled(row, 0.0, PANE_BACKGROUND);
    let refreshes = &context.model.refreshes;
    if refreshes.is_empty() {
        strip.text(
            row.left_center() + Vec2::new(6.0, 0.0),
            Align2::LEFT_CENTER,
            format!("no refreshes in the window ({})", context.screen_model),
            LABEL_FONT,
            CAPTION,
        );
        return;
    }
    let y_range = Rangef::new(row.top() + 1.0, row.bottom() - 1.0);
    // Sub-point refreshes in a row collect into one cell: (x range, any torn).
    let mut merged: Option<(Rangef, bool)> = None;
    let flush = |merged: &mut Option<(Rangef, bool)>| {
        if let Some((x_range, torn)) = merged.take() {
            let fill = if torn { TORN } else { SHOWN_MERGED };
            let x_range = Rangef::new(x_range.min, x_range.max.max(x_range.min + 1.0));
            strip.rect_filled(Rect::from_x_y_ranges(x_range, y_range), 0.0, fill);
        }
    };
    for refresh in refreshes {
        let (x0, x1) = (axis.x(refresh.start), axis.x(refresh.end));
        if x1 - x0 >= MIN_FRAME_WIDTH {
            flush(&mut merged);
            paint_refresh_cell(strip, refresh, Rect::from_x_y_ranges(x0..=x1, y_range));
        } else {
            let (range, torn) = merged.get_or_insert((Rangef::new(x0, x1), false));
            *range = Rangef::new(range.min.min(x0), range.max.max(x1));
            *torn |= refresh.torn();
            if range.span() >= MIN_FRAME_WIDTH {
                flush(&mut merged);
            }
        }
    }
    flush(&mut merged);
    paint_measured(strip, context, row);
}

/// The measured screen's new images: a small mark hanging from the top of the screen row
/// where each reached the screen (one per point at most).
fn paint_measured(strip: &egui::Painter, context: &PaintContext<'_, '_>, row: Rect) {
    let mut last_x = f32::NEG_INFINITY;
    for &at in &context.model.measured {
        let x = context.axis.x(at);
        if x - last_x < 1.0 {
            continue;
        }
        last_x = x;
        let top = row.top() + 1.0;
        strip.add(egui::Shape::convex_polygon(
            vec![
                Pos2::new(x - 3.0, top),
                Pos2::new(x + 3.0, top),
                Pos2::new(x, top + 5.0),
            ],
            MEASURED,
            Stroke::NONE,
        ));
    }
}

/// One refresh's cell in `rect`, a point short of the next one's where there is room.
fn paint_refresh_cell(strip: &egui::Painter, refresh: &TimelineRefresh, rect: Rect) {
    let rect = if rect.width() >= MIN_DETAILED_FRAME {
        Rect::from_x_y_ranges(rect.left()..=rect.right() - 1.0, rect.y_range())
    } else {
        rect
    };
    let color = if refresh.shade() {
        SHOWN_LIGHT
    } else {
        SHOWN_DARK
    };
    let outline = |color: Color32| {
        strip.rect_stroke(rect, 1.0, Stroke::new(1.0, color), egui::StrokeKind::Inside);
    };
    if refresh.torn() {
        outline(TORN);
        paint_zigzag(strip, rect.shrink(1.5), TORN);
    } else if refresh.repeat() {
        outline(color);
    } else {
        strip.rect_filled(rect, 1.0, color);
    }
}

/// A zigzag across `rect` from left to right, a tooth every 3 points.
fn paint_zigzag(strip: &egui::Painter, rect: Rect, color: Color32) {
    const TOOTH: f32 = 3.0;
    let teeth = (rect.width() / TOOTH).floor().max(1.0) as usize;
    let step = rect.width() / teeth as f32;
    let points = (0..=teeth)
        .map(|k| {
            let y = if k % 2 == 0 {
                rect.bottom()
            } else {
                rect.top()
            };
            Pos2::new(rect.left() + k as f32 * step, y)
        })
        .collect();
    strip.add(egui::Shape::line(points, Stroke::new(1.25, color)));
}

/// The screen connectors, for the focus pane's frames: from the bottom of each frame box
/// wide enough to tell apart, at its `T_i`, to the start of the refresh that first showed
/// its image, when that refresh is in the window.
fn paint_screen_connectors(strip: &egui::Painter, context: &PaintContext<'_, '_>) {
    let rows = context.rows;
    let axis = &context.axis;
    let model = context.model;
    let (top, bottom) = (rows.frames().bottom(), rows.screen().top());
    let stroke = Stroke::new(1.0, SCREEN_CONNECTOR);
    let mut last_x = f32::NEG_INFINITY;
    for frame in &model.frames {
        let (x0, x) = (axis.x(frame.start), axis.x(frame.end()));
        if x - x0 < MIN_DETAILED_FRAME || x - last_x < MIN_CONNECTOR_GAP {
            continue;
        }
        let Some(shown) = model.shown_at(frame) else {
            continue;
        };
        last_x = x;
        let to = Pos2::new(axis.x(shown), bottom);
        strip.line_segment([Pos2::new(x, top), to], stroke);
        strip.circle_filled(to, 1.5, SCREEN_CONNECTOR);
    }
}

/// The "what is shown" connectors: from under the screen row at `T_i` of each frame wide
/// enough to tell apart down to `S_i` on the focus pane's row.
fn paint_connectors(strip: &egui::Painter, context: &PaintContext<'_, '_>) {
    let rows = context.rows;
    let axis = &context.axis;
    let top = rows.screen().bottom();
    let bottom = rows.pane(context.focus).center().y;
    let stroke = Stroke::new(1.0, CONNECTOR);
    let mut last_x = f32::NEG_INFINITY;
    for frame in &context.model.frames {
        let from = Pos2::new(axis.x(frame.end()), top);
        if from.x - axis.x(frame.start) < MIN_DETAILED_FRAME || from.x - last_x < MIN_CONNECTOR_GAP
        {
            continue;
        }
        last_x = from.x;
        let to = Pos2::new(axis.x(frame.sample.shown_time), bottom);
        if let Some([a, b]) = clip_segment_x(from, to, rows.strip_x()) {
            strip.line_segment([a, b], stroke);
            if b == to {
                strip.circle_filled(to, 1.75, CONNECTOR);
            }
        }
    }
}

/// The caption row: how much time the strip spans and where it ends.
fn paint_caption(painter: &egui::Painter, context: &PaintContext<'_, '_>) {
    let row = context.rows.caption();
    let axis = &context.axis;
    let span = axis.end - axis.start;
    let left = if span < 10 * NANOS_PER_SECOND {
        format!("\u{2212}{:.1} ms", ms_from_ns(span))
    } else {
        format!("\u{2212}{}", duration_text(span))
    };
    let right = format!("T = {:.3} s", secs_from_ns(axis.end));
    let left = painter.layout_no_wrap(left, LABEL_FONT, CAPTION);
    let right = painter.layout_no_wrap(right, LABEL_FONT, CAPTION);
    let y = row.center().y - left.size().y / 2.0;
    let (left_width, right_width) = (left.size().x, right.size().x);
    painter.galley(Pos2::new(row.left(), y), left, CAPTION);
    painter.galley(Pos2::new(row.right() - right_width, y), right, CAPTION);
    // The longest legend that fits: the screen row's model first, and what measures it.
    let screen = screen_label(context.screen_model, context.measured);
    let legends = [
        format!("{screen} · ticks: steps at simulated time · lines: frame to state shown"),
        format!("{screen} · ticks: steps · lines: frame to state shown"),
        screen,
    ];
    // Centred, so it must clear the wider of the two ends on both sides.
    let room = row.width() - 2.0 * left_width.max(right_width) - 24.0;
    let legend = legends
        .into_iter()
        .map(|text| painter.layout_no_wrap(text, LABEL_FONT, CAPTION))
        .find(|legend| legend.size().x <= room);
    if let Some(legend) = legend {
        let x = row.center().x - legend.size().x / 2.0;
        painter.galley(Pos2::new(x, y), legend, CAPTION);
    }
}

/// The hovered frame's numbers; `measured`: the screen's display times are the platform's.
pub(super) fn frame_tooltip_ui(
    ui: &mut egui::Ui,
    model: &TimelineModel,
    index: usize,
    panes: &[TimelinePane<'_>],
    focus: usize,
    measured: bool,
) {
    let (Some(frame), Some(focus_pane)) = (model.frames.get(index), panes.get(focus)) else {
        return;
    };
    let sample = &frame.sample;
    ui.label(
        RichText::new(format!(
            "frame at T = {:.5} s",
            secs_from_ns(sample.presented_time)
        ))
        .strong(),
    );
    egui::Grid::new("timeline_tooltip")
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            let mut row = |name: &str, value: String| {
                ui.label(name);
                ui.label(value);
                ui.end_row();
            };
            let hitch = if frame.hitch {
                format!(
                    "yes: more than {HITCH_FACTOR}× the median {:.2} ms",
                    ms_from_ns(model.median_frame)
                )
            } else {
                "no".to_owned()
            };
            row("real frame", ms_text(sample.real_frame));
            row("hitch", hitch);
            row("fed", ms_text(sample.fed));
            row("owed", ms_text(sample.owed));
            row(
                "dropped",
                if sample.dropped > 0 {
                    format!(
                        "{} (not on the axis: T excludes it)",
                        ms_text(sample.dropped)
                    )
                } else {
                    ms_text(0)
                },
            );
            row(
                "alpha",
                if focus_pane.strategy.carries_accumulator() {
                    format!("{:.3}", sample.alpha)
                } else {
                    "none".to_owned()
                },
            );
            row(
                "T (shown at)",
                format!("{:.5} s", secs_from_ns(sample.presented_time)),
            );
            row(
                "S (state time)",
                format!("{:.5} s", secs_from_ns(sample.shown_time)),
            );
            row(
                "latency T \u{2212} S",
                format!("{:.2} ms", frame.latency_ms()),
            );
            row("screen", frame.screen_text(measured));
            row(
                "repeated before it",
                model.repeats_before(frame).map_or_else(
                    || "not in the window".to_owned(),
                    |causes| causes.describe(),
                ),
            );
            for pane in panes {
                let steps = pane
                    .history
                    .iter()
                    .rev()
                    .find(|s| s.wall <= sample.wall)
                    .filter(|s| s.wall == sample.wall)
                    .map_or_else(|| "no frame".to_owned(), |s| steps_text(s.steps));
                row(&format!("steps, {}", pane.strategy.id()), steps);
            }
        });
}

/// `16.67 ms`.
fn ms_text(ns: Nanos) -> String {
    format!("{:.2} ms", ms_from_ns(ns))
}

/// `1 step`, `2 steps`.
fn steps_text(steps: u32) -> String {
    if steps == 1 {
        "1 step".to_owned()
    } else {
        format!("{steps} steps")
    }
}

//! The frame timeline: the last [`TIMELINE_WINDOW`] of frames drawn to scale, so a viewer
//! sees the render frames, each physics step, the alpha sawtooth, dropped time and hitches.
//!
//! The horizontal axis is time in the simulated-time base: frame `i` spans
//! `(T_{i-1}, T_i]` of the focus lane's `presented_time`, and each lane's steps sit at the
//! simulated time they end at. A thin line joins each frame's `T_i` to the `S_i` it shows,
//! so an un-interpolated accumulator's uneven jumps are visible as connectors of varying
//! slant, and interpolation as a constant slant one `dt` behind.
//!
//! The geometry (frame intervals, step positions, hitches) is computed in nanoseconds by
//! `TimelineModel` and the free functions below, apart from the painting, and tested
//! without egui. Painting merges or skips what would fall within one point of the last
//! thing drawn, so an uncapped loop's thousands of frames cost no more than the strip's
//! width.

use std::ops::RangeInclusive;

use egui::{Align2, Color32, FontId, Pos2, Rangef, Rect, RichText, Sense, Stroke, Vec2};

use crate::live::{FrameSample, History};
use crate::stats::upper_median;
use crate::timestep::{NANOS_PER_SECOND, Nanos, Strategy, ms_from_ns, secs_from_ns};

/// One pane's history for the timeline.
pub struct TimelineLane<'a> {
    /// The pane's strategy (labels the row and decides whether alpha is drawn).
    pub strategy: Strategy,
    /// The pane's frames.
    pub history: &'a History,
}

/// Real time the timeline covers (0.5 s): long enough to see a 50 Hz step pattern repeat
/// several times, short enough that each 60 Hz frame is a few points wide.
pub const TIMELINE_WINDOW: Nanos = 500_000_000;

/// Fewest frames the timeline shows: when the loop runs slower than 60 fps (a software
/// rasterizer draws a few frames a second), it reaches back past [`TIMELINE_WINDOW`] so the
/// pattern of steps per frame still shows.
pub const TIMELINE_MIN_FRAMES: usize = 30;

/// A frame is a hitch when its real frame time is more than this many times the median.
const HITCH_FACTOR: u64 = 2;

/// Width of the label column on the left, points.
const LABEL_WIDTH: f32 = 74.0;
/// Gap between the strip and the right edge, points.
const RIGHT_MARGIN: f32 = 2.0;
/// Height of the frames row, points.
const FRAMES_ROW_HEIGHT: f32 = 18.0;
/// Space under the frames row where the connectors start to slant, points.
const CONNECTOR_GAP: f32 = 6.0;
/// Height of one lane row, points.
const LANE_ROW_HEIGHT: f32 = 16.0;
/// Height of the alpha row, points.
const ALPHA_ROW_HEIGHT: f32 = 16.0;
/// Height of the caption row, points.
const CAPTION_HEIGHT: f32 = 14.0;
/// Gap between rows, points.
const ROW_GAP: f32 = 1.0;
/// Narrowest strip drawn, points (narrower widths overflow rather than divide by zero).
const MIN_STRIP_WIDTH: f32 = 60.0;
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
const LABEL_FONT: FontId = FontId::proportional(11.0);
/// Font of the step counts in the frame boxes.
const DIGIT_FONT: FontId = FontId::monospace(10.0);

/// Background of the strip.
const STRIP_BACKGROUND: Color32 = Color32::from_gray(18);
/// Frame boxes, alternating.
const FRAME_LIGHT: Color32 = Color32::from_gray(74);
/// Frame boxes, alternating.
const FRAME_DARK: Color32 = Color32::from_gray(44);
/// Frames merged because each is narrower than a point.
const FRAME_MERGED: Color32 = Color32::from_gray(58);
/// Hitch frames.
const HITCH: Color32 = Color32::from_rgb(235, 140, 45);
/// The tick at each `T_i`.
const FRAME_TICK: Color32 = Color32::from_gray(150);
/// Step counts in the frame boxes.
const DIGIT: Color32 = Color32::from_gray(230);
/// Step counts on a hitch box.
const DIGIT_ON_HITCH: Color32 = Color32::from_gray(20);
/// Faint frame boundaries through the lane rows.
const FRAME_GRID: Color32 = Color32::from_gray(38);
/// Pane rows.
const LANE_BACKGROUND: Color32 = Color32::from_gray(28);
/// The focus lane's row.
const FOCUS_BACKGROUND: Color32 = Color32::from_rgb(28, 38, 52);
/// The focus lane's step ticks.
const FOCUS_STEP: Color32 = Color32::from_rgb(110, 195, 255);
/// Other lanes' step ticks.
const LANE_STEP: Color32 = Color32::from_rgb(150, 158, 172);
/// Row labels.
const LABEL: Color32 = Color32::from_gray(160);
/// The focus lane's label.
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
const CAPTION: Color32 = Color32::from_gray(130);
/// Fill over the hovered frame's column.
const HOVER_FILL: Color32 = Color32::from_rgba_premultiplied(22, 22, 22, 22);
/// Outline of the hovered frame's box.
const HOVER_STROKE: Color32 = Color32::from_gray(240);

/// Draws the timeline for `lanes` (1 to 6, all fed the same frames: their samples have
/// identical `wall`, `real_frame` and `fed`), detailing lane `focus`; `dt` is the current
/// step in ns. Takes the available width and the height it needs.
pub fn timeline_ui(ui: &mut egui::Ui, lanes: &[TimelineLane<'_>], focus: usize, dt: Nanos) {
    let focus = focus.min(lanes.len().saturating_sub(1));
    let model_id = ui.make_persistent_id("frame_timeline");
    let width = if ui.available_width().is_finite() {
        ui.available_width().max(LABEL_WIDTH + MIN_STRIP_WIDTH)
    } else {
        LABEL_WIDTH + 600.0
    };
    let lane_rows = lanes.len().max(1);
    let (_, rect) = ui.allocate_space(Vec2::new(width, Rows::height(lane_rows)));
    let rows = Rows::new(rect, lane_rows);
    // Only the strip (right of the labels) answers the pointer.
    let response = ui.interact(rows.strip_rect(), model_id.with("strip"), Sense::hover());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::accesskit::Role::Figure, true, "frame timeline")
    });
    if !ui.is_rect_visible(rect) {
        return;
    }
    let painter = ui.painter_at(rect);

    // The model keeps its buffers between frames so a full window does not allocate.
    let mut model: TimelineModel = ui
        .data_mut(|data| data.remove_temp(model_id))
        .unwrap_or_default();
    match lanes.get(focus) {
        Some(lane) => model.rebuild(lane.history),
        None => model.clear(),
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
        lanes,
        focus,
        dt,
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
            frame_tooltip_ui(ui, &model, index, lanes, focus);
        });
    }
    ui.data_mut(|data| data.insert_temp(model_id, model));
}

/// One render frame on the axis.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct TimelineFrame {
    /// `T_{i-1}`: where the frame starts on the axis.
    start: Nanos,
    /// Simulated time of the latest state before the frame's steps: where they start.
    steps_from: Nanos,
    /// The focus lane's sample; its `presented_time` (`T_i`) is where the frame ends.
    sample: FrameSample,
    /// Whether its real frame time is more than [`HITCH_FACTOR`] times the window's median.
    hitch: bool,
    /// Which of the two alternating shades its box takes; stable as the window slides.
    shade: bool,
}

impl TimelineFrame {
    /// `T_i`: where the frame ends on the axis.
    fn end(&self) -> Nanos {
        self.sample.presented_time
    }

    /// `T_i - S_i`: how far the shown state is behind the time it is shown at (negative
    /// when ahead).
    fn latency_ms(&self) -> f64 {
        (i128::from(self.sample.presented_time) - i128::from(self.sample.shown_time)) as f64 / 1e6
    }
}

/// The focus lane's frames in the window, on the axis; rebuilt in place every frame.
#[derive(Clone, Debug, Default)]
struct TimelineModel {
    /// The frames, oldest first.
    frames: Vec<TimelineFrame>,
    /// Axis time at the left edge of the strip.
    axis_start: Nanos,
    /// Axis time at the right edge of the strip (greater than `axis_start`).
    axis_end: Nanos,
    /// Median real frame time of the window's frames (0 when there are none).
    median_frame: Nanos,
    /// Reused buffer for the median.
    scratch: Vec<Nanos>,
    /// Wall time and shade of the newest frame last time, so shades do not flicker as the
    /// window slides by one frame.
    shade_anchor: Option<(Nanos, bool)>,
}

impl TimelineModel {
    /// Forgets every frame.
    fn clear(&mut self) {
        self.frames.clear();
        self.median_frame = 0;
        (self.axis_start, self.axis_end) = (0, TIMELINE_WINDOW);
    }

    /// Recomputes the frames of the last [`TIMELINE_WINDOW`] of `history`.
    fn rebuild(&mut self, history: &History) {
        self.clear();
        self.frames.extend(
            window_frames(history).map(|(before, sample)| TimelineFrame {
                start: before.presented_time.min(sample.presented_time),
                steps_from: before.latest_time,
                sample: *sample,
                hitch: false,
                shade: false,
            }),
        );
        let (Some(first), Some(last)) = (self.frames.first(), self.frames.last()) else {
            self.shade_anchor = None;
            return;
        };
        (self.axis_start, self.axis_end) = (first.start, last.end());
        if self.axis_end <= self.axis_start {
            // Paused for the whole window: show the last window of simulated time.
            self.axis_start = self.axis_end.saturating_sub(TIMELINE_WINDOW);
            self.axis_end = self.axis_start + TIMELINE_WINDOW;
        }

        self.scratch.clear();
        self.scratch
            .extend(self.frames.iter().map(|f| f.sample.real_frame));
        self.median_frame = upper_median(&mut self.scratch).unwrap_or(0);
        let threshold = self.median_frame.saturating_mul(HITCH_FACTOR);
        let anchor = self.shade_anchor.and_then(|(wall, shade)| {
            let index = self.frames.partition_point(|f| f.sample.wall < wall);
            (self.frames.get(index)?.sample.wall == wall).then_some((index, shade))
        });
        let (anchor_index, anchor_shade) = anchor.unwrap_or((0, false));
        for (index, frame) in self.frames.iter_mut().enumerate() {
            frame.hitch = self.median_frame > 0 && frame.sample.real_frame > threshold;
            frame.shade = anchor_shade ^ ((index + anchor_index) % 2 == 1);
        }
        self.shade_anchor = self.frames.last().map(|f| (f.sample.wall, f.shade));
    }

    /// The frame at axis time `t`: the one whose interval contains it, else (before the
    /// first, after the last, or among zero-width paused frames) the one ending nearest.
    fn frame_near(&self, t: f64) -> Option<usize> {
        let last = self.frames.len().checked_sub(1)?;
        let after = self.frames.partition_point(|f| (f.end() as f64) < t);
        if after <= last && (self.frames[after].start as f64) < t {
            return Some(after);
        }
        let distance = |index: usize| (self.frames[index].end() as f64 - t).abs();
        let candidates = [after.saturating_sub(1), after.min(last)];
        candidates
            .into_iter()
            .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
    }
}

/// The samples of the last [`TIMELINE_WINDOW`] (at least [`TIMELINE_MIN_FRAMES`] of them) of
/// `history`, each with the sample before it
/// (whose `presented_time` and `latest_time` are where this frame's interval and steps
/// start), oldest first. When the history keeps no sample before the window, its oldest
/// sample only bounds the next one.
fn window_frames(history: &History) -> impl Iterator<Item = (&FrameSample, &FrameSample)> + '_ {
    let count = history
        .recent(TIMELINE_WINDOW)
        .count()
        .max(TIMELINE_MIN_FRAMES);
    let mut samples = history.iter().skip(history.len().saturating_sub(count + 1));
    let first = samples.next();
    samples.scan(first, |previous, sample| {
        let before = previous.replace(sample)?;
        Some((before, sample))
    })
}

/// Simulated end times, in order, of the `steps` steps a frame took from `from` to
/// `latest`, keeping those within `range`. Every step but the last is a whole `dt`; the
/// last ends exactly at `latest` (variable: the only step; semi-fixed: the remainder).
/// With `stride` above 1 only every `stride`-th whole step is kept: painting asks for that
/// when several would share a point. If `dt` does not fit the frame (zero, or changed
/// since), the frame's time is split evenly instead.
fn step_ends(
    from: Nanos,
    latest: Nanos,
    steps: u32,
    dt: Nanos,
    range: RangeInclusive<Nanos>,
    stride: u64,
) -> impl Iterator<Item = Nanos> + use<> {
    let (low, high) = (*range.start(), *range.end());
    let whole = u64::from(steps).saturating_sub(1);
    let covered = latest.saturating_sub(from);
    let step = if dt == 0 || whole.saturating_mul(dt) > covered {
        covered / u64::from(steps.max(1))
    } else {
        dt
    };
    // Whole step k (1-based) ends at from + k * step.
    let (first, last) = if step == 0 {
        (1, 0)
    } else {
        let first = low.saturating_sub(from).div_ceil(step).max(1);
        let last = if high >= from {
            (high - from) / step
        } else {
            0
        };
        (first, last.min(whole))
    };
    let stride = usize::try_from(stride.max(1)).unwrap_or(usize::MAX);
    let last_step = (steps > 0 && range.contains(&latest)).then_some(latest);
    (first..=last)
        .step_by(stride)
        .map(move |k| from.saturating_add(k.saturating_mul(step)).min(latest))
        .chain(last_step)
}

/// Where a lane's newest simulated time lies when it is off the axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LaneOffset {
    /// Ahead of the axis end (`fixed` at a display rate above the step rate) by this much.
    Ahead(Nanos),
    /// Behind the axis start; behind the axis end by this much.
    Behind(Nanos),
}

impl LaneOffset {
    /// Where `newest_latest` lies against the axis `[start, end]`, if off it.
    fn of(newest_latest: Nanos, start: Nanos, end: Nanos) -> Option<Self> {
        if newest_latest > end {
            Some(Self::Ahead(newest_latest - end))
        } else if newest_latest < start {
            Some(Self::Behind(end - newest_latest))
        } else {
            None
        }
    }

    /// The note at the row's right, e.g. `ahead +1.23 s`.
    fn note(self) -> String {
        match self {
            Self::Ahead(by) => format!("ahead +{}", duration_text(by)),
            Self::Behind(by) => format!("behind {}", duration_text(by)),
        }
    }
}

/// A duration for a note: milliseconds below a second, else seconds.
fn duration_text(ns: Nanos) -> String {
    if ns < 1_000_000_000 {
        format!("{:.0} ms", ms_from_ns(ns))
    } else {
        format!("{:.2} s", secs_from_ns(ns))
    }
}

/// Maps axis time (ns) to x (points) and back.
#[derive(Clone, Copy, Debug)]
struct Axis {
    /// Axis time at the left edge.
    start: Nanos,
    /// Axis time at the right edge (greater than `start`).
    end: Nanos,
    /// x of the left edge.
    left: f32,
    /// Width of the strip.
    width: f32,
}

impl Axis {
    /// The axis of `model` over `x_range`.
    fn new(model: &TimelineModel, x_range: Rangef) -> Self {
        Self {
            start: model.axis_start,
            end: model.axis_end.max(model.axis_start + 1),
            left: x_range.min,
            width: x_range.span().max(1.0),
        }
    }

    /// Nanoseconds one point stands for.
    fn ns_per_point(&self) -> f64 {
        (self.end - self.start) as f64 / f64::from(self.width)
    }

    /// x of axis time `t`, clamped far outside the strip so far-off times stay finite.
    fn x(&self, t: Nanos) -> f32 {
        let offset = (t as f64 - self.start as f64) / self.ns_per_point();
        let margin = f64::from(self.width) * 4.0;
        (f64::from(self.left) + offset.clamp(-margin, f64::from(self.width) + margin)) as f32
    }

    /// Axis time at `x`.
    fn time_at(&self, x: f32) -> f64 {
        self.start as f64 + f64::from(x - self.left) * self.ns_per_point()
    }

    /// The axis' time range.
    fn range(&self) -> RangeInclusive<Nanos> {
        self.start..=self.end
    }
}

/// Where each row of the timeline goes.
struct Rows {
    /// The whole timeline.
    rect: Rect,
    /// Number of lane rows.
    lanes: usize,
}

impl Rows {
    /// The rows of a timeline with `lanes` lane rows in `rect`.
    fn new(rect: Rect, lanes: usize) -> Self {
        Self { rect, lanes }
    }

    /// Height a timeline with `lanes` lane rows needs.
    fn height(lanes: usize) -> f32 {
        FRAMES_ROW_HEIGHT
            + CONNECTOR_GAP
            + lanes as f32 * (LANE_ROW_HEIGHT + ROW_GAP)
            + ALPHA_ROW_HEIGHT
            + ROW_GAP
            + CAPTION_HEIGHT
    }

    /// Horizontal extent of the strip (everything right of the labels).
    fn strip_x(&self) -> Rangef {
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
    fn frames(&self) -> Rect {
        self.row(self.rect.top(), FRAMES_ROW_HEIGHT)
    }

    /// Pane row `index`.
    fn lane(&self, index: usize) -> Rect {
        let top = self.rect.top()
            + FRAMES_ROW_HEIGHT
            + CONNECTOR_GAP
            + index as f32 * (LANE_ROW_HEIGHT + ROW_GAP);
        self.row(top, LANE_ROW_HEIGHT)
    }

    /// The alpha row.
    fn alpha(&self) -> Rect {
        self.row(self.lane(self.lanes).top(), ALPHA_ROW_HEIGHT)
    }

    /// The caption row.
    fn caption(&self) -> Rect {
        self.row(self.alpha().bottom() + ROW_GAP, CAPTION_HEIGHT)
    }

    /// The strip: every row, right of the labels.
    fn strip_rect(&self) -> Rect {
        Rect::from_x_y_ranges(self.strip_x(), self.rect.top()..=self.alpha().bottom())
    }

    /// Where the label of `row` starts.
    fn label_pos(&self, row: Rect) -> Pos2 {
        Pos2::new(self.rect.left() + 4.0, row.center().y)
    }
}

/// Everything the painting functions read.
struct PaintContext<'a, 'h> {
    /// The focus lane's frames.
    model: &'a TimelineModel,
    /// The time axis.
    axis: Axis,
    /// Row placement.
    rows: &'a Rows,
    /// Every lane.
    lanes: &'a [TimelineLane<'h>],
    /// Index of the focus lane (valid).
    focus: usize,
    /// The current step, ns.
    dt: Nanos,
}

/// Paints every row, the connectors and the hovered frame's highlight.
fn paint_timeline(painter: &egui::Painter, context: &PaintContext<'_, '_>, hovered: Option<usize>) {
    let rows = context.rows;
    let strip = painter.with_clip_rect(rows.strip_rect());
    painter.text(
        rows.label_pos(rows.frames()),
        Align2::LEFT_CENTER,
        "frames",
        LABEL_FONT,
        LABEL,
    );
    paint_frame_grid(&strip, context);
    for (index, lane) in context.lanes.iter().enumerate() {
        paint_lane(painter, &strip, context, index, lane);
    }
    paint_alpha(painter, &strip, context);
    paint_frames(&strip, context);
    paint_connectors(&strip, context);
    for (index, lane) in context.lanes.iter().enumerate() {
        paint_lane_note(&strip, context, index, lane);
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
    paint_caption(painter, context);
}

/// Faint lines at every frame boundary through the lane and alpha rows, so a frame's steps
/// can be read against it.
fn paint_frame_grid(strip: &egui::Painter, context: &PaintContext<'_, '_>) {
    let rows = context.rows;
    let y_range = Rangef::new(rows.lane(0).top(), rows.alpha().bottom());
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
/// in orange, the focus lane's step count in each box wide enough, a tick at each `T_i` of
/// a frame wide enough to tell apart, and dropped time in red.
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

    // Ticks and dropped-time bars go over every box.
    let tick_y = Rangef::new(row.top(), row.bottom() + CONNECTOR_GAP * 0.5);
    let mut last_tick = f32::NEG_INFINITY;
    let mut last_bar = f32::NEG_INFINITY;
    for frame in frames {
        let (x0, x) = (axis.x(frame.start), axis.x(frame.end()));
        if x - x0 >= MIN_DETAILED_FRAME {
            for edge in [x0, x] {
                if edge - last_tick >= MIN_TICK_GAP {
                    strip.vline(edge, tick_y, Stroke::new(1.0, FRAME_TICK));
                    last_tick = edge;
                }
            }
        }
        if frame.sample.dropped > 0 && x - last_bar >= MIN_CONNECTOR_GAP {
            let bar = Rect::from_x_y_ranges(x - 3.0..=x, row.y_range());
            strip.rect_filled(bar, 0.0, DROPPED);
            last_bar = x;
        }
    }
}

/// One frame's box in `rect`: its shade (orange for a hitch), the focus lane's step count
/// and, where it fits, the time it dropped.
fn paint_frame_box(strip: &egui::Painter, frame: &TimelineFrame, rect: Rect, digit_width: f32) {
    let fill = match (frame.hitch, frame.shade) {
        (true, _) => HITCH,
        (false, true) => FRAME_LIGHT,
        (false, false) => FRAME_DARK,
    };
    strip.rect_filled(rect, 0.0, fill);
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

/// Number of decimal digits in `n`.
fn decimal_digits(n: u32) -> u32 {
    n.checked_ilog10().map_or(1, |log| log + 1)
}

/// A lane row: its label and a tick at the simulated end of each step.
fn paint_lane(
    painter: &egui::Painter,
    strip: &egui::Painter,
    context: &PaintContext<'_, '_>,
    index: usize,
    lane: &TimelineLane<'_>,
) {
    let rows = context.rows;
    let axis = &context.axis;
    let row = rows.lane(index);
    let focused = index == context.focus;
    strip.rect_filled(
        row,
        0.0,
        if focused {
            FOCUS_BACKGROUND
        } else {
            LANE_BACKGROUND
        },
    );
    painter.text(
        rows.label_pos(row),
        Align2::LEFT_CENTER,
        lane.strategy.id(),
        LABEL_FONT,
        if focused { FOCUS_LABEL } else { LABEL },
    );

    let (color, width) = if focused {
        (FOCUS_STEP, 2.0)
    } else {
        (LANE_STEP, 1.5)
    };
    let tick_y = Rangef::new(row.top() + 3.0, row.bottom() - 3.0);
    // Whole steps closer together than a point are thinned to about one per point.
    let stride = if context.dt == 0 {
        1
    } else {
        (axis.ns_per_point() / context.dt as f64).ceil().max(1.0) as u64
    };
    let mut last_x = f32::NEG_INFINITY;
    for (before, sample) in window_frames(lane.history) {
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

/// The note at the right of lane row `index` when the lane's newest simulated time is off
/// the axis, e.g. `fixed` running ahead of real time.
fn paint_lane_note(
    strip: &egui::Painter,
    context: &PaintContext<'_, '_>,
    index: usize,
    lane: &TimelineLane<'_>,
) {
    let row = context.rows.lane(index);
    let axis = &context.axis;
    let offset = lane
        .history
        .latest()
        .and_then(|newest| LaneOffset::of(newest.latest_time, axis.start, axis.end));
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

/// The alpha row: the focus lane's alpha held over each frame, or a note when its strategy
/// has no accumulator.
fn paint_alpha(painter: &egui::Painter, strip: &egui::Painter, context: &PaintContext<'_, '_>) {
    let rows = context.rows;
    let row = rows.alpha();
    strip.rect_filled(row, 0.0, LANE_BACKGROUND);
    painter.text(
        rows.label_pos(row),
        Align2::LEFT_CENTER,
        "alpha",
        LABEL_FONT,
        LABEL,
    );
    let Some(lane) = context.lanes.get(context.focus) else {
        return;
    };
    if !lane.strategy.carries_accumulator() {
        strip.text(
            row.left_center() + Vec2::new(6.0, 0.0),
            Align2::LEFT_CENTER,
            format!("{}: no accumulator, no alpha", lane.strategy.id()),
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

/// The "what is shown" connectors: from the tick at `T_i` of each frame wide enough to tell
/// apart down to `S_i` on the focus lane's row.
fn paint_connectors(strip: &egui::Painter, context: &PaintContext<'_, '_>) {
    let rows = context.rows;
    let axis = &context.axis;
    let top = rows.frames().bottom();
    let bottom = rows.lane(context.focus).center().y;
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

/// The part of the segment `a`–`b` within `x_range`, or `None`.
fn clip_segment_x(a: Pos2, b: Pos2, x_range: Rangef) -> Option<[Pos2; 2]> {
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
    let legend = painter.layout_no_wrap(
        "ticks: steps at simulated time · lines: frame to state shown".to_owned(),
        LABEL_FONT,
        CAPTION,
    );
    if legend.size().x + left_width + right_width + 24.0 <= row.width() {
        let x = row.center().x - legend.size().x / 2.0;
        painter.galley(Pos2::new(x, y), legend, CAPTION);
    }
}

/// The hovered frame's numbers.
fn frame_tooltip_ui(
    ui: &mut egui::Ui,
    model: &TimelineModel,
    index: usize,
    lanes: &[TimelineLane<'_>],
    focus: usize,
) {
    let (Some(frame), Some(focus_lane)) = (model.frames.get(index), lanes.get(focus)) else {
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
                if focus_lane.strategy.carries_accumulator() {
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
            for lane in lanes {
                let steps = lane
                    .history
                    .iter()
                    .rev()
                    .find(|s| s.wall <= sample.wall)
                    .filter(|s| s.wall == sample.wall)
                    .map_or_else(|| "no frame".to_owned(), |s| steps_text(s.steps));
                row(&format!("steps, {}", lane.strategy.id()), steps);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::{LiveLoop, LiveSettings, VirtualStopwatch};

    const MS: Nanos = 1_000_000;
    /// One 60 Hz display frame.
    const FRAME_60HZ: Nanos = 16_666_667;
    /// The default step (50 Hz).
    const DT: Nanos = 20 * MS;

    /// The history of a live loop under `settings` fed `frames` (after a first, empty
    /// frame at time zero).
    fn history(settings: LiveSettings, frames: impl IntoIterator<Item = Nanos>) -> History {
        let mut live =
            LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings");
        live.frame();
        for frame in frames {
            live.stopwatch_mut().advance(frame);
            live.frame();
        }
        live.history().clone()
    }

    /// Default settings with `strategy`.
    fn with(strategy: Strategy) -> LiveSettings {
        LiveSettings {
            strategy,
            ..LiveSettings::default()
        }
    }

    fn model_of(history: &History) -> TimelineModel {
        let mut model = TimelineModel::default();
        model.rebuild(history);
        model
    }

    /// Every step end of the model's frames, in order.
    fn all_step_ends(model: &TimelineModel, dt: Nanos) -> Vec<Nanos> {
        model
            .frames
            .iter()
            .flat_map(|f| {
                step_ends(
                    f.steps_from,
                    f.sample.latest_time,
                    f.sample.steps,
                    dt,
                    0..=Nanos::MAX,
                    1,
                )
            })
            .collect()
    }

    #[test]
    fn accumulator_takes_0_1_2_steps_exactly_dt_apart() {
        // 60 Hz display with a missed vsync every tenth frame, 50 Hz steps.
        let frames = (1..=60).map(|i| {
            if i % 10 == 0 {
                2 * FRAME_60HZ
            } else {
                FRAME_60HZ
            }
        });
        let model = model_of(&history(with(Strategy::Accumulator), frames));
        let counts: Vec<u32> = model.frames.iter().map(|f| f.sample.steps).collect();
        for wanted in [0, 1, 2] {
            assert!(counts.contains(&wanted), "no {wanted} in {counts:?}");
        }
        let ends = all_step_ends(&model, DT);
        assert_eq!(
            ends.len() as u32,
            counts.iter().sum::<u32>(),
            "one end per step"
        );
        assert!(ends.windows(2).all(|w| w[1] - w[0] == DT), "{ends:?}");
        // The frames tile the axis: each starts where the one before ended.
        assert!(model.frames.windows(2).all(|w| w[1].start == w[0].end()));
        assert_eq!(model.axis_start, model.frames[0].start);
        assert_eq!(model.axis_end, model.frames[model.frames.len() - 1].end());
    }

    #[test]
    fn steady_60hz_accumulator_repeats_0_1_1_1_1_1() {
        let model = model_of(&history(with(Strategy::Accumulator), [FRAME_60HZ; 60]));
        let counts: Vec<u32> = model.frames.iter().map(|f| f.sample.steps).collect();
        // 6 frames of 16.67 ms owe exactly 5 steps of 20 ms.
        let pattern = [0, 1, 1, 1, 1, 1];
        assert!(
            counts.windows(6).any(|w| w == pattern),
            "{counts:?} lacks the 60/50 pattern"
        );
        assert!(counts.iter().all(|&c| c <= 1));
    }

    #[test]
    fn variable_takes_one_step_per_frame_ending_at_t() {
        let model = model_of(&history(with(Strategy::Variable), [FRAME_60HZ; 40]));
        assert!(!model.frames.is_empty());
        for frame in &model.frames {
            let ends = all_step_ends(
                &TimelineModel {
                    frames: vec![*frame],
                    ..TimelineModel::default()
                },
                DT,
            );
            assert_eq!(ends, [frame.end()], "{frame:?}");
        }
    }

    #[test]
    fn semi_fixed_ends_with_the_remainder() {
        let model = model_of(&history(
            with(Strategy::SemiFixed),
            [FRAME_60HZ, FRAME_60HZ, 50 * MS],
        ));
        let long = model.frames.last().expect("frames");
        assert_eq!(long.sample.steps, 3);
        let from = long.steps_from;
        let ends: Vec<Nanos> = step_ends(
            from,
            long.sample.latest_time,
            long.sample.steps,
            DT,
            0..=Nanos::MAX,
            1,
        )
        .collect();
        assert_eq!(ends, [from + DT, from + 2 * DT, from + 50 * MS]);
        // A 16.67 ms frame is one short step, the remainder alone.
        let short = &model.frames[model.frames.len() - 2];
        assert_eq!(short.sample.steps, 1);
        assert_eq!(short.sample.latest_time - short.steps_from, FRAME_60HZ);
    }

    #[test]
    fn hitches_are_frames_over_twice_the_median() {
        let mut frames = vec![FRAME_60HZ; 20];
        frames[5] = 2 * FRAME_60HZ; // exactly twice: not a hitch
        frames[12] = 50 * MS;
        let model = model_of(&history(with(Strategy::Interpolated), frames));
        assert_eq!(model.median_frame, FRAME_60HZ);
        let hitches: Vec<Nanos> = model
            .frames
            .iter()
            .filter(|f| f.hitch)
            .map(|f| f.sample.real_frame)
            .collect();
        assert_eq!(hitches, [50 * MS]);
    }

    #[test]
    fn dropped_time_is_off_the_axis() {
        let settings = LiveSettings {
            max_steps: 2,
            ..with(Strategy::Accumulator)
        };
        let model = model_of(&history(settings, [FRAME_60HZ, FRAME_60HZ, 100 * MS]));
        let frame = model.frames.last().expect("frames");
        // 100 ms + 13.33 ms carried owe 5 whole steps; 2 are taken, 3 dropped.
        assert_eq!(frame.sample.steps, 2);
        assert_eq!(frame.sample.dropped, 3 * DT);
        assert_eq!(
            frame.end() - frame.start,
            frame.sample.fed - frame.sample.dropped
        );
    }

    #[test]
    fn fixed_runs_ahead_of_the_axis() {
        let lane = history(with(Strategy::Fixed), [FRAME_60HZ; 60]);
        let model = model_of(&lane);
        let newest = lane.latest().expect("frames").latest_time;
        assert_eq!(newest, 60 * DT);
        let offset = LaneOffset::of(newest, model.axis_start, model.axis_end);
        assert_eq!(offset, Some(LaneOffset::Ahead(60 * DT - 60 * FRAME_60HZ)));
        assert_eq!(
            offset.map(LaneOffset::note).as_deref(),
            Some("ahead +200 ms")
        );
        assert_eq!(LaneOffset::Ahead(1_234_000_000).note(), "ahead +1.23 s");
        assert_eq!(
            LaneOffset::of(model.axis_end, model.axis_start, model.axis_end),
            None
        );
        assert_eq!(
            LaneOffset::of(0, model.axis_start, model.axis_end),
            Some(LaneOffset::Behind(model.axis_end))
        );
    }

    #[test]
    fn a_slow_loop_still_shows_the_minimum_of_frames() {
        // 5 fps in slow motion (a software rasterizer): 0.5 s holds 2-3 frames, too few
        // to show a pattern, so the timeline reaches back to the last 30.
        let settings = LiveSettings {
            time_scale: 0.1,
            ..with(Strategy::Accumulator)
        };
        let slow = history(settings, std::iter::repeat_n(200 * MS, 100));
        let model = model_of(&slow);
        assert_eq!(model.frames.len(), TIMELINE_MIN_FRAMES);
        assert_eq!(
            model.frames.last().map(|f| f.sample.wall),
            slow.latest().map(|s| s.wall)
        );
        // At 120 fps the window itself holds more: the frames that started in 0.5 s.
        let fast = history(
            with(Strategy::Accumulator),
            std::iter::repeat_n(FRAME_60HZ / 2, 200),
        );
        assert_eq!(model_of(&fast).frames.len(), 61);
    }

    #[test]
    fn empty_and_single_frame_histories_have_no_frames() {
        let mut model = model_of(&History::default());
        assert!(model.frames.is_empty());
        assert_eq!(model.frame_near(0.0), None);
        let mut single = History::default();
        single.push(FrameSample::default());
        model.rebuild(&single);
        assert!(model.frames.is_empty());
        assert!(model.axis_end > model.axis_start);
    }

    #[test]
    fn paused_frames_have_zero_width_and_can_be_picked() {
        let mut live = LiveLoop::new(VirtualStopwatch::default(), with(Strategy::Interpolated))
            .expect("valid settings");
        live.frame();
        for _ in 0..10 {
            live.stopwatch_mut().advance(FRAME_60HZ);
            live.frame();
        }
        live.set_paused(true);
        for _ in 0..5 {
            live.stopwatch_mut().advance(FRAME_60HZ);
            live.frame();
        }
        let model = model_of(live.history());
        let paused = &model.frames[model.frames.len() - 5..];
        assert!(
            paused
                .iter()
                .all(|f| f.start == f.end() && f.sample.steps == 0)
        );
        let t = paused[0].end();
        // Inside the last running frame: that frame; past the end: the nearest (a paused one).
        assert_eq!(
            model.frame_near(t as f64 - 1.0),
            Some(model.frames.len() - 6)
        );
        let picked = model.frame_near(t as f64 + 5e6).expect("a frame");
        assert_eq!(model.frames[picked].end(), t);

        // Paused for the whole window: the axis still spans a window.
        for _ in 0..60 {
            live.stopwatch_mut().advance(FRAME_60HZ);
            live.frame();
        }
        let model = model_of(live.history());
        assert!(model.frames.iter().all(|f| f.start == f.end()));
        assert_eq!(model.axis_end - model.axis_start, TIMELINE_WINDOW);
    }

    #[test]
    fn frame_near_picks_the_frame_under_the_pointer() {
        let model = model_of(&history(with(Strategy::Accumulator), [10 * MS; 5]));
        // Frames (0,10], (10,20], ... (40,50] ms.
        assert_eq!(model.frames.len(), 5);
        assert_eq!(model.frame_near(15.0 * 1e6), Some(1));
        assert_eq!(model.frame_near(20.0 * 1e6), Some(1));
        assert_eq!(model.frame_near(20.0 * 1e6 + 1.0), Some(2));
        assert_eq!(model.frame_near(-5.0), Some(0));
        assert_eq!(model.frame_near(1e12), Some(4));
    }

    #[test]
    fn a_full_history_of_tiny_frames_stays_bounded() {
        let mut history = History::default();
        for i in 0..(crate::live::HISTORY_CAPACITY as Nanos + 100) {
            history.push(FrameSample {
                wall: i * 50_000,
                real_frame: 50_000,
                fed: 50_000,
                presented_time: i * 50_000,
                latest_time: (i * 50_000 / DT) * DT,
                steps: u32::from((i * 50_000) % DT < 50_000),
                ..FrameSample::default()
            });
        }
        let model = model_of(&history);
        // Every kept frame is in the window; the oldest only bounds the next.
        assert_eq!(model.frames.len(), crate::live::HISTORY_CAPACITY - 1);
        assert!(model.axis_end > model.axis_start);
        // Thinned to a stride, a frame of a million steps yields few ends.
        let ends = step_ends(0, 1_000_000 * DT, 1_000_000, DT, 0..=100 * DT, 10).count();
        assert_eq!(ends, 10);
    }

    #[test]
    fn step_ends_survive_a_zero_or_stale_dt() {
        let split: Vec<Nanos> = step_ends(100, 160, 3, 0, 0..=Nanos::MAX, 1).collect();
        assert_eq!(split, [120, 140, 160]);
        // dt grew since the frame: the frame's own time is split, never overrun.
        let stale: Vec<Nanos> = step_ends(0, 30, 3, 50, 0..=Nanos::MAX, 1).collect();
        assert_eq!(stale, [10, 20, 30]);
        assert_eq!(step_ends(0, 0, 0, DT, 0..=Nanos::MAX, 1).count(), 0);
        // Range limits keep only visible ends.
        let visible: Vec<Nanos> = step_ends(0, 100, 10, 10, 35..=62, 1).collect();
        assert_eq!(visible, [40, 50, 60]);
    }

    #[test]
    fn shades_alternate_and_stay_put_as_the_window_slides() {
        let mut live = LiveLoop::new(VirtualStopwatch::default(), with(Strategy::Accumulator))
            .expect("valid settings");
        live.frame();
        let mut model = TimelineModel::default();
        let mut previous: Vec<(Nanos, bool)> = Vec::new();
        for _ in 0..80 {
            live.stopwatch_mut().advance(FRAME_60HZ);
            live.frame();
            model.rebuild(live.history());
            assert!(model.frames.windows(2).all(|w| w[0].shade != w[1].shade));
            for frame in &model.frames {
                if let Some(&(_, shade)) = previous.iter().find(|(w, _)| *w == frame.sample.wall) {
                    assert_eq!(
                        frame.shade, shade,
                        "frame at {} changed shade",
                        frame.sample.wall
                    );
                }
            }
            previous = model
                .frames
                .iter()
                .map(|f| (f.sample.wall, f.shade))
                .collect();
        }
    }

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
}

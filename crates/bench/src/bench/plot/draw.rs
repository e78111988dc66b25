//! The plot's layout and charts, drawn with plotters into an RGB buffer.
//!
//! Top to bottom: the title and the key to the two colours; the trace's frame times; one
//! panel per strategy, two to a row, each with `T - S` (blue: the CPU's clock) and the
//! animation error at the screen (orange); and the summary, mean latency and RMS judder
//! per strategy, blue for the CPU's clock and orange for the screen (the screen's bars
//! only when the display is one). One key serves every chart, so no legend covers data.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::font::FAMILY;
use super::{Envelope, PlotError, PlotRecorder, StrategySeries};

/// Measured on the CPU's clock: `T - S`, latency, judder.
pub(super) const CPU_COLOR: RGBColor = RGBColor(31, 119, 180);

/// Measured at the screen: animation error, display latency and judder.
pub(super) const SCREEN_COLOR: RGBColor = RGBColor(230, 110, 0);

/// The trace's frame times.
pub(super) const TRACE_COLOR: RGBColor = RGBColor(70, 70, 70);

/// Text, axes and captions.
pub(crate) const INK: RGBColor = RGBColor(20, 20, 20);

/// Relative heights of the bands: the trace, one row of strategy panels, the summary.
const TRACE_WEIGHT: f64 = 0.8;
const ROW_WEIGHT: f64 = 1.0;
const SUMMARY_WEIGHT: f64 = 1.1;

/// Font sizes, pixels, for the default 1600x1200 plot; others scale them.
const TITLE_PX: f64 = 26.0;
const CAPTION_PX: f64 = 19.0;
const LABEL_PX: f64 = 14.0;

/// A drawing area of the plot.
pub(crate) type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// A chart with numbers on both axes.
type Chart<'a, 'b> =
    ChartContext<'a, BitMapBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A chart's place in the image, pixels: columns and rows.
pub type PixelRect = (Range<i32>, Range<i32>);

/// Where one chart was drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChartArea {
    /// The whole panel: caption, axes, labels and data.
    pub panel: PixelRect,
    /// The data's rectangle inside it: every line and bar lies within.
    pub plot: PixelRect,
}

/// Where each chart was drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChartAreas {
    /// The trace's frame times.
    pub trace: ChartArea,
    /// One panel per strategy, in the order run.
    pub strategies: Vec<ChartArea>,
    /// Latency, then judder.
    pub summary: Vec<ChartArea>,
}

/// Text sizes for a plot's size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fonts {
    /// The title's.
    pub(crate) title: f64,
    /// Each chart's caption.
    pub(crate) caption: f64,
    /// Tick labels, axis names and legends.
    pub(crate) label: f64,
}

impl Fonts {
    /// Sizes that keep the default plot's proportions, never below readable.
    pub(crate) fn for_size((width, height): (u32, u32)) -> Self {
        let scale = (f64::from(width) / 1600.0).min(f64::from(height) / 1200.0);
        let scale = scale.max(0.6);
        Self {
            title: TITLE_PX * scale,
            caption: CAPTION_PX * scale,
            label: (LABEL_PX * scale).max(11.0),
        }
    }

    /// The title's size: as set, or smaller so that `title` fits in `width` pixels. It
    /// allows 0.55 of the size a character, more than a title in Ubuntu Light takes (about
    /// 0.4).
    pub(crate) fn title_for(&self, title: &str, width: u32) -> f64 {
        let fits = 0.95 * f64::from(width) / (0.55 * title.chars().count().max(1) as f64);
        self.title.min(fits)
    }

    /// How many value labels an axis `pixels` long has room for, 2 to `most`.
    pub(crate) fn labels_along(&self, pixels: u32, most: usize) -> usize {
        ((f64::from(pixels) / (self.label * 2.6)) as usize).clamp(2, most)
    }

    /// A text style of `size` pixels in the plot's ink.
    pub(crate) fn style(size: f64) -> TextStyle<'static> {
        (FAMILY, size).into_font().color(&INK)
    }
}

/// Draws `recorder`'s plot, headed by `title`, into `rgb` (3 bytes a pixel, its size);
/// returns where each chart went.
pub(super) fn draw(
    recorder: &PlotRecorder,
    title: &str,
    rgb: &mut [u8],
) -> Result<ChartAreas, PlotError> {
    let fonts = Fonts::for_size(recorder.size);
    let root = BitMapBackend::with_buffer(rgb, recorder.size).into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let body = root
        .margin(8, 0, 4, 4)
        .titled(title, Fonts::style(fonts.title_for(title, recorder.size.0)))
        .map_err(draw_error)?;
    let key_height = (fonts.label * 3.6).round() as i32;
    let (key_band, body) = body.split_vertically(key_height);
    key(&key_band, recorder.screen, fonts)?;

    let panels_per_row = if recorder.runs.len() > 1 { 2 } else { 1 };
    let rows = recorder.runs.len().div_ceil(panels_per_row);
    let weights = std::iter::once(TRACE_WEIGHT)
        .chain(std::iter::repeat_n(ROW_WEIGHT, rows))
        .chain(std::iter::once(SUMMARY_WEIGHT));
    let bands = split_rows(&body, weights);
    let (trace_band, rest) = bands.split_first().ok_or_else(no_room)?;
    let (summary_band, strategy_bands) = rest.split_last().ok_or_else(no_room)?;

    let x_range = 0.0..time_extent(recorder);
    let mut areas = ChartAreas {
        trace: trace_chart(trace_band, &recorder.trace, x_range.clone(), fonts)?,
        ..ChartAreas::default()
    };
    for (band, runs) in strategy_bands
        .iter()
        .zip(recorder.runs.chunks(panels_per_row))
    {
        let panels = band.split_evenly((1, panels_per_row));
        for (panel, run) in panels.iter().zip(runs) {
            areas
                .strategies
                .push(strategy_chart(panel, run, x_range.clone(), fonts)?);
        }
    }
    areas.summary = summary_charts(summary_band, recorder, fonts)?;
    root.present().map_err(draw_error)?;
    Ok(areas)
}

/// The trace's frame times against the time each frame started.
fn trace_chart(
    area: &Area<'_>,
    trace: &Envelope,
    x_range: Range<f64>,
    fonts: Fonts,
) -> Result<ChartArea, PlotError> {
    let (_, high) = trace.y_range().unwrap_or((0.0, 1.0));
    let y_range = 0.0..padded_top(high);
    let mut chart = chart_on(area, "The trace: frame times", 3.0, x_range, y_range, fonts)?;
    let y_labels = fonts.labels_along(area.dim_in_pixel().1, 6);
    mesh(&mut chart, "time (s)", "frame time (ms)", y_labels, fonts)?;
    chart
        .draw_series(LineSeries::new(trace.points(), TRACE_COLOR.stroke_width(1)))
        .map_err(draw_error)?;
    Ok(chart_area(area, &chart))
}

/// One strategy's `T - S` and animation error against time.
fn strategy_chart(
    area: &Area<'_>,
    run: &StrategySeries,
    x_range: Range<f64>,
    fonts: Fonts,
) -> Result<ChartArea, PlotError> {
    let (low, high) = [run.lag.y_range(), run.animation_error.y_range()]
        .into_iter()
        .flatten()
        .fold((0.0f64, 0.0f64), |(low, high), (l, h)| {
            (low.min(l), high.max(h))
        });
    let y_range = padded(low, high);
    let mut chart = chart_on(area, run.strategy.id(), 3.0, x_range, y_range, fonts)?;
    let y_labels = fonts.labels_along(area.dim_in_pixel().1, 6);
    mesh(&mut chart, "time (s)", "ms", y_labels, fonts)?;
    // One pixel wide: plotters joins thicker lines with unbounded mitres, and a downsampled
    // series turns back on itself within a pixel, so its joins would spike off the chart.
    // `T - S` goes on top: it is the panel's subject, and often lies inside the error's band.
    chart
        .draw_series(LineSeries::new(
            run.animation_error.points(),
            SCREEN_COLOR.stroke_width(1),
        ))
        .map_err(draw_error)?;
    chart
        .draw_series(LineSeries::new(run.lag.points(), CPU_COLOR.stroke_width(1)))
        .map_err(draw_error)?;
    Ok(chart_area(area, &chart))
}

/// The key to the colours, two lines: what is blue and what is orange.
fn key(area: &Area<'_>, screen: bool, fonts: Fonts) -> Result<(), PlotError> {
    let screen_name = if screen {
        "Screen, D"
    } else {
        "Screen, D (= T on the cpu display)"
    };
    let entries = [
        (
            CPU_COLOR,
            "CPU clock, T. Lines: T − S per frame (the drawn state's lag; a sawtooth is \
             stutter). Bars: mean T − S, RMS judder"
                .to_owned(),
        ),
        (
            SCREEN_COLOR,
            format!(
                "{screen_name}. Lines: animation error (S_i − S_j) − (D_i − D_j) per frame \
                 shown. Bars: mean D − S, its RMS"
            ),
        ),
    ];
    let line_height = fonts.label * 1.5;
    let left = 16;
    for (row, (color, text)) in entries.into_iter().enumerate() {
        let y = (line_height * (row as f64 + 0.7)).round() as i32;
        area.draw(&PathElement::new(
            vec![(left, y), (left + 28, y)],
            color.stroke_width(4),
        ))
        .map_err(draw_error)?;
        let style = Fonts::style(fonts.label).pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(text, (left + 38, y), style))
            .map_err(draw_error)?;
    }
    Ok(())
}

/// Mean latency and RMS judder per strategy, side by side; returns where each went.
fn summary_charts(
    area: &Area<'_>,
    recorder: &PlotRecorder,
    fonts: Fonts,
) -> Result<Vec<ChartArea>, PlotError> {
    let halves = area.split_evenly((1, 2));
    let runs = &recorder.runs;
    let latency: Vec<(f64, f64)> = runs
        .iter()
        .map(|run| (run.summary.latency_ms, run.summary.display_latency_ms))
        .collect();
    let judder: Vec<(f64, f64)> = runs
        .iter()
        .map(|run| (run.summary.judder_ms, run.summary.display_judder_ms))
        .collect();
    let names: Vec<&str> = runs.iter().map(|run| run.strategy.id()).collect();
    let screen = recorder.screen;
    let charts = [
        (
            if screen {
                "Latency: mean T − S, and D − S at the screen"
            } else {
                "Latency: mean T − S"
            },
            "latency (ms)",
            latency,
        ),
        (
            if screen {
                "Judder: RMS, and animation error at the screen"
            } else {
                "Judder: RMS of (S_i − S_i-1) − (T_i − T_i-1)"
            },
            "judder (ms)",
            judder,
        ),
    ];
    halves
        .iter()
        .zip(charts)
        .map(|(half, (caption, y_desc, values))| {
            bar_chart(half, caption, y_desc, &names, &values, screen, fonts)
        })
        .collect()
}

/// `name`, or its first `fits - 1` characters and an ellipsis when it is longer.
fn shortened(name: &str, fits: usize) -> String {
    if name.chars().count() <= fits {
        name.to_owned()
    } else {
        name.chars().take(fits - 1).chain(['…']).collect()
    }
}

/// Bars of `(cpu, screen)` values per strategy; the screen's only when `screen`.
fn bar_chart(
    area: &Area<'_>,
    caption: &str,
    y_desc: &str,
    names: &[&str],
    values: &[(f64, f64)],
    screen: bool,
    fonts: Fonts,
) -> Result<ChartArea, PlotError> {
    let (low, high) = values
        .iter()
        .flat_map(|&(cpu, at_screen)| [cpu, if screen { at_screen } else { cpu }])
        .fold((0.0f64, 0.0f64), |(low, high), v| (low.min(v), high.max(v)));
    // Room above (and below) the bars for their values.
    let y_range = padded(low, high);
    let count = names.len().max(1);
    let x_range = -0.5..count as f64 - 0.5;
    // A name longer than its bar's share of the width (at about 0.5 em a character, the
    // ids' lower-case letters) is cut short with an ellipsis; the panels above carry the
    // whole name.
    let fits = 0.92 * f64::from(area.dim_in_pixel().0) / count as f64 / (0.5 * fonts.label);
    let fits = (fits as usize).max(4);
    let name_of = |x: &f64| {
        let i = x.round();
        let on_a_bar = (x - i).abs() < 1e-6 && i >= 0.0;
        on_a_bar
            .then(|| names.get(i as usize).map(|name| shortened(name, fits)))
            .flatten()
            .unwrap_or_default()
    };
    let mut chart = chart_on(area, caption, 2.5, x_range, y_range, fonts)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(count + 1)
        .x_label_formatter(&name_of)
        .y_labels(fonts.labels_along(area.dim_in_pixel().1, 8))
        .y_label_formatter(&tick)
        .y_desc(y_desc)
        .label_style(Fonts::style(fonts.label))
        .axis_desc_style(Fonts::style(fonts.label))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .draw()
        .map_err(draw_error)?;
    // Two bars a strategy with the screen, one without.
    let (width, offsets) = if screen {
        (0.36, [-0.19, 0.19])
    } else {
        (0.6, [0.0, 0.0])
    };
    let series: &[(usize, RGBColor)] = if screen {
        &[(0, CPU_COLOR), (1, SCREEN_COLOR)]
    } else {
        &[(0, CPU_COLOR)]
    };
    for &(which, color) in series {
        let bars = values
            .iter()
            .enumerate()
            .map(move |(i, &(cpu, at_screen))| {
                let value = if which == 0 { cpu } else { at_screen };
                let centre = i as f64 + offsets[which];
                let left = centre - width / 2.0;
                Rectangle::new([(left, 0.0), (left + width, value)], color.filled())
            });
        chart.draw_series(bars).map_err(draw_error)?;
        let above = Pos::new(HPos::Center, VPos::Bottom);
        let below = Pos::new(HPos::Center, VPos::Top);
        let values_text = values
            .iter()
            .enumerate()
            .map(move |(i, &(cpu, at_screen))| {
                let value = if which == 0 { cpu } else { at_screen };
                let centre = i as f64 + offsets[which];
                let style =
                    Fonts::style(fonts.label * 0.9).pos(if value < 0.0 { below } else { above });
                Text::new(bar_value(value), (centre, value), style)
            });
        chart.draw_series(values_text).map_err(draw_error)?;
    }
    Ok(chart_area(area, &chart))
}

/// Where a chart built on `panel` lies.
pub(crate) fn chart_area(panel: &Area<'_>, chart: &Chart<'_, '_>) -> ChartArea {
    ChartArea {
        panel: panel.get_pixel_range(),
        plot: chart.plotting_area().get_pixel_range(),
    }
}

/// An axis value as a tick label: short (`2`, `2.5`, `-400`, `-6.0e6`), so that a run
/// that drifts by hours (`fixed`) still fits its label area.
pub(crate) fn tick(value: &f64) -> String {
    let value = *value;
    match value.abs() {
        magnitude if magnitude >= 1e5 => format!("{value:.1e}"),
        magnitude if magnitude >= 100.0 => format!("{value:.0}"),
        _ => {
            let text = format!("{value:.2}");
            let text = text.trim_end_matches('0').trim_end_matches('.');
            if text == "-0" {
                "0".to_owned()
            } else {
                text.to_owned()
            }
        }
    }
}

/// A bar's value as its label: three significant digits or so, short enough to stay over
/// its bar.
fn bar_value(value: f64) -> String {
    match value.abs() {
        0.0 => "0".to_owned(),
        magnitude if magnitude >= 1e5 => format!("{value:.2e}"),
        magnitude if magnitude >= 100.0 => format!("{value:.0}"),
        magnitude if magnitude >= 10.0 => format!("{value:.1}"),
        _ => format!("{value:.2}"),
    }
}

/// A chart on `area` under `caption`, with room for `x_label_rows` label heights under it
/// and its numbers over `x_range` and `y_range`.
pub(crate) fn chart_on<'a, 'b>(
    area: &'a Area<'b>,
    caption: &str,
    x_label_rows: f64,
    x_range: Range<f64>,
    y_range: Range<f64>,
    fonts: Fonts,
) -> Result<Chart<'a, 'b>, PlotError> {
    ChartBuilder::on(area)
        .caption(caption, Fonts::style(fonts.caption))
        .margin(8)
        .margin_right(24)
        .x_label_area_size(fonts.label * x_label_rows)
        .y_label_area_size(fonts.label * 5.0)
        .build_cartesian_2d(x_range, y_range)
        .map_err(draw_error)
}

/// The grid, tick labels and axis names of a time chart.
pub(crate) fn mesh(
    chart: &mut Chart<'_, '_>,
    x_desc: &str,
    y_desc: &str,
    y_labels: usize,
    fonts: Fonts,
) -> Result<(), PlotError> {
    mesh_with(chart, (x_desc, y_desc), y_labels, &tick, fonts)
}

/// [`mesh`] with the `y` values labelled by `y_label` (a chart whose values are on another
/// scale than its labels).
pub(crate) fn mesh_with(
    chart: &mut Chart<'_, '_>,
    (x_desc, y_desc): (&str, &str),
    y_labels: usize,
    y_label: &dyn Fn(&f64) -> String,
    fonts: Fonts,
) -> Result<(), PlotError> {
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(10)
        .y_labels(y_labels)
        .x_label_formatter(&tick)
        .y_label_formatter(y_label)
        .label_style(Fonts::style(fonts.label))
        .axis_desc_style(Fonts::style(fonts.label))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.12))
        .draw()
        .map_err(draw_error)
}

/// Splits `area` into bands one above the other, as tall as their weights say.
pub(crate) fn split_rows<'a>(
    area: &Area<'a>,
    weights: impl Iterator<Item = f64> + Clone,
) -> Vec<Area<'a>> {
    let total: f64 = weights.clone().sum();
    let (_, height) = area.dim_in_pixel();
    let mut breaks = Vec::new();
    let mut top = 0.0;
    let mut weights = weights.peekable();
    while let Some(weight) = weights.next() {
        top += weight;
        if weights.peek().is_some() {
            breaks.push((f64::from(height) * top / total).round() as i32);
        }
    }
    area.split_by_breakpoints(Vec::<i32>::new(), breaks)
}

/// The latest time any series reaches, seconds (at least a millisecond, so the axis has
/// a length).
fn time_extent(recorder: &PlotRecorder) -> f64 {
    let runs = recorder
        .runs
        .iter()
        .flat_map(|run| [run.lag.x_max(), run.animation_error.x_max()]);
    std::iter::once(recorder.trace.x_max())
        .chain(runs)
        .flatten()
        .fold(1e-3, f64::max)
}

/// A value range from `low` to `high` with a margin, never empty.
pub(crate) fn padded(low: f64, high: f64) -> Range<f64> {
    let span = (high - low).max(1e-3);
    let margin = span * 0.12;
    (if low < 0.0 { low - margin } else { low })..high + margin
}

/// `0..high` with room above the highest value.
pub(crate) fn padded_top(high: f64) -> f64 {
    (high * 1.12).max(1e-3)
}

/// plotters' error, as text.
pub(crate) fn draw_error(error: impl std::fmt::Display) -> PlotError {
    PlotError::Draw(error.to_string())
}

/// The error for a plot too small to split (never with the sizes allowed).
fn no_room() -> PlotError {
    PlotError::Draw("no room for the charts".into())
}

//! `sweep --plot`: simulation speed and latency against the load, one line per strategy,
//! each onset marked with its load. Drawn with the bench plot's fonts, axes and encoder.

use std::io::Write;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Level, StrategySweepJson, SweepReport};
use crate::bench::plot::{
    Area, ChartArea, Envelope, Fonts, INK, PlotError, chart_area, chart_on, draw_error,
    ensure_font, mesh, mesh_with, padded, split_rows,
};
use crate::png_file::{self, Channels, PngError};

/// One colour per strategy, in order: Tableau 20's strong colours, then its light ones,
/// so that every lab strategy and engine preset run together (23) is told apart but by
/// the three that reuse the first.
const PALETTE: [RGBColor; 20] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(174, 199, 232),
    RGBColor(255, 187, 120),
    RGBColor(152, 223, 138),
    RGBColor(255, 152, 150),
    RGBColor(197, 176, 213),
    RGBColor(196, 156, 148),
    RGBColor(247, 182, 210),
    RGBColor(199, 199, 199),
    RGBColor(219, 219, 141),
    RGBColor(158, 218, 229),
];

/// The colour of the `index`th strategy.
pub(super) fn color(index: usize) -> RGBColor {
    PALETTE[index % PALETTE.len()]
}

/// Milliseconds on a scale that is linear within ±1 ms and logarithmic beyond (`±1` is 1
/// ms, `±2` 10 ms, `±3` 100 ms): latencies from a fraction of a step to minutes, on one
/// axis.
fn symlog(ms: f64) -> f64 {
    if ms.abs() <= 1.0 {
        ms
    } else {
        ms.signum() * (1.0 + ms.abs().log10())
    }
}

/// The milliseconds at `symlog`'s `value`.
fn unsymlog(value: f64) -> f64 {
    if value.abs() <= 1.0 {
        value
    } else {
        value.signum() * 10f64.powf(value.abs() - 1.0)
    }
}

/// Where each chart of a sweep's plot went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepChartAreas {
    /// Simulation speed against the load.
    pub speed: ChartArea,
    /// Latency against the load.
    pub latency: ChartArea,
}

/// One strategy's lines: simulation speed and latency (on [`symlog`]'s scale) against the
/// load, the levels that spiralled, and the onset. Each series keeps at most a few points
/// per pixel column, whatever the number of levels.
#[derive(Clone, Debug)]
struct StrategyLines {
    /// Simulation speed.
    speed: Envelope,
    /// Latency, `symlog`'d.
    latency: Envelope,
    /// Speed at the levels that spiralled.
    spiral_speed: Envelope,
    /// Latency at the levels that spiralled.
    spiral_latency: Envelope,
    /// The onset: load, speed, latency.
    onset: Option<(f64, f64, f64)>,
}

/// `sweep --plot`: records every level as the sweep hands it on, then draws.
#[derive(Clone, Debug)]
pub struct SweepPlot {
    /// The image's size, pixels.
    size: (u32, u32),
    /// One per strategy, in order.
    lines: Vec<StrategyLines>,
}

impl SweepPlot {
    /// A plot of `strategies` strategies over `levels` levels, `size` pixels.
    pub fn new(strategies: usize, levels: u32, size: (u32, u32)) -> Self {
        let envelope = || Envelope::new(u64::from(levels), size.0);
        Self {
            size,
            lines: (0..strategies)
                .map(|_| StrategyLines {
                    speed: envelope(),
                    latency: envelope(),
                    spiral_speed: envelope(),
                    spiral_latency: envelope(),
                    onset: None,
                })
                .collect(),
        }
    }

    /// Takes level `index` of strategy `which`.
    pub fn record(&mut self, which: usize, index: usize, level: &Level) {
        let Some(lines) = self.lines.get_mut(which) else {
            return;
        };
        let (x, index) = (level.load_ms, index as u64);
        let speed = level.result.kept_speed();
        let latency = symlog(level.result.metrics.latency_ms);
        lines.speed.push(index, x, speed);
        lines.latency.push(index, x, latency);
        if level.result.spiral {
            lines.spiral_speed.push(index, x, speed);
            lines.spiral_latency.push(index, x, latency);
        }
        if lines.onset.is_none() && level.broken() {
            lines.onset = Some((x, speed, latency));
        }
    }

    /// Draws the plot of `report`, headed by `title`: its pixels (RGB) and where the
    /// charts went.
    pub fn draw_rgb(
        &self,
        report: &SweepReport,
        title: &str,
    ) -> Result<(Vec<u8>, SweepChartAreas), PlotError> {
        ensure_font()?;
        let size = self.size;
        let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
        let areas = self.draw(report, title, &mut rgb)?;
        Ok((rgb, areas))
    }

    /// Draws the plot and writes it to `out` as a PNG.
    pub fn write_png(
        &self,
        report: &SweepReport,
        title: &str,
        out: impl Write,
    ) -> Result<(), PlotError> {
        let (rgb, _) = self.draw_rgb(report, title)?;
        png_file::write_png(out, self.size, Channels::Rgb, &rgb).map_err(|error| match error {
            PngError::Write(error) => PlotError::Write(error),
            PngError::Encode(why) => PlotError::Encode(why),
        })
    }

    /// The layout: the title, the key (one entry per strategy), then speed over latency.
    fn draw(
        &self,
        report: &SweepReport,
        title: &str,
        rgb: &mut [u8],
    ) -> Result<SweepChartAreas, PlotError> {
        let size = self.size;
        let fonts = Fonts::for_size(size);
        let root = BitMapBackend::with_buffer(rgb, size).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let body = root
            .margin(8, 0, 4, 4)
            .titled(title, Fonts::style(fonts.title_for(title, size.0)))
            .map_err(draw_error)?;
        let per_row = 5;
        let key_rows = report.results.len().div_ceil(per_row).max(1);
        let key_height = (fonts.label * 1.6 * key_rows as f64 + fonts.label).round() as i32;
        let (key_band, body) = body.split_vertically(key_height);
        key(&key_band, &report.results, per_row, fonts)?;
        let bands = split_rows(&body, [1.2, 1.0].into_iter());
        let load = &report.load;
        let x_desc = format!("{} (ms)", load.name);
        let x_range = load.from_ms..load.to_ms;
        let speed = chart(
            &bands[0],
            &format!(
                "Speed kept: (simulated + carried) / real time; dashed: {}, below it a run has \
                 broken; dots: onsets; ×: spiralled",
                report.onset_speed
            ),
            (&x_desc, "simulated / real time"),
            x_range.clone(),
            self.lines.iter().map(|lines| {
                (
                    &lines.speed,
                    &lines.spiral_speed,
                    lines.onset.map(|(x, y, _)| (x, y)),
                )
            }),
            Some(report.onset_speed),
            fonts,
        )?;
        let latency = chart(
            &bands[1],
            "Latency (mean T − S) against the load; logarithmic beyond ±1 ms; ×: spiralled",
            (&x_desc, "latency (ms)"),
            x_range,
            self.lines.iter().map(|lines| {
                (
                    &lines.latency,
                    &lines.spiral_latency,
                    lines.onset.map(|(x, _, y)| (x, y)),
                )
            }),
            None,
            fonts,
        )?;
        root.present().map_err(draw_error)?;
        Ok(SweepChartAreas { speed, latency })
    }
}

/// One chart: each strategy's line, its spiralled levels as crosses and its onset as a dot
/// labelled with its load, and a dashed line at `threshold` if any (the speed chart; the
/// other is the latency's, labelled in ms through [`unsymlog`]).
fn chart<'a>(
    area: &Area<'_>,
    caption: &str,
    (x_desc, y_desc): (&str, &str),
    x_range: std::ops::Range<f64>,
    strategies: impl Iterator<Item = (&'a Envelope, &'a Envelope, Option<(f64, f64)>)> + Clone,
    threshold: Option<f64>,
    fonts: Fonts,
) -> Result<ChartArea, PlotError> {
    let (low, high) = strategies
        .clone()
        .filter_map(|(line, _, _)| line.y_range())
        .chain(threshold.map(|t| (t, t)))
        .fold((0.0f64, 0.0f64), |(low, high), (l, h)| {
            (low.min(l), high.max(h))
        });
    let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
    let y_range = padded(finite(low), finite(high));
    let (bottom, top) = (y_range.start, y_range.end);
    let mut chart = chart_on(area, caption, 3.0, x_range.clone(), y_range, fonts)?;
    let y_labels = fonts.labels_along(area.dim_in_pixel().1, 8);
    if threshold.is_some() {
        mesh(&mut chart, x_desc, y_desc, y_labels, fonts)?;
    } else {
        // The latency chart: its values are `symlog`'s, its labels the milliseconds.
        let label = |value: &f64| {
            let ms = unsymlog(*value);
            if ms.abs() >= 10.0 {
                format!("{ms:.0}")
            } else {
                let text = format!("{ms:.2}");
                text.trim_end_matches('0').trim_end_matches('.').to_owned()
            }
        };
        mesh_with(&mut chart, (x_desc, y_desc), y_labels, &label, fonts)?;
    }
    if let Some(threshold) = threshold {
        let dashes = DashedLineSeries::new(
            [(x_range.start, threshold), (x_range.end, threshold)],
            8,
            6,
            INK.mix(0.5).stroke_width(1),
        );
        chart.draw_series(dashes).map_err(draw_error)?;
    }
    let clamp = |(x, y): (f64, f64)| {
        (
            x,
            if y.is_finite() {
                y.clamp(bottom, top)
            } else {
                top
            },
        )
    };
    // Labels are placed by pixel, relative to this chart's panel.
    let origin = area.get_base_pixel();
    let mut onsets: Vec<f64> = Vec::new();
    for (index, (line, spirals, onset)) in strategies.enumerate() {
        let color = color(index);
        chart
            .draw_series(LineSeries::new(
                line.points().map(clamp),
                color.stroke_width(2),
            ))
            .map_err(draw_error)?;
        if let Some(point) = onset {
            let at = clamp(point);
            chart
                .draw_series(std::iter::once(Circle::new(at, 5, color.filled())))
                .map_err(draw_error)?;
            // Labels near the right edge go to the dot's left, inside the chart; onsets at
            // one load stack their labels in the strategies' order.
            let right = at.0 > x_range.start + 0.85 * (x_range.end - x_range.start);
            let anchor = Pos::new(if right { HPos::Right } else { HPos::Left }, VPos::Bottom);
            let style = Fonts::style(fonts.label * 0.9).pos(anchor);
            let same_load = onsets.iter().filter(|&&x| x == at.0).count();
            onsets.push(at.0);
            let (x, y) = chart.backend_coord(&at);
            let lift = (fonts.label * 1.1 * same_load as f64).round() as i32;
            let nudge = if right { -6 } else { 6 };
            area.draw(&Text::new(
                format!("{:.3} ms", at.0),
                (x + nudge - origin.0, y - 4 - lift - origin.1),
                style,
            ))
            .map_err(draw_error)?;
        }
        // The crosses over the dots: a spiral at the onset stays visible.
        let crosses = spirals
            .points()
            .map(|point| Cross::new(clamp(point), 4, color.stroke_width(1)));
        chart.draw_series(crosses).map_err(draw_error)?;
    }
    Ok(chart_area(area, &chart))
}

/// The key: each strategy's colour and id, with its onset.
fn key(
    area: &Area<'_>,
    results: &[StrategySweepJson],
    per_row: usize,
    fonts: Fonts,
) -> Result<(), PlotError> {
    let (width, _) = area.dim_in_pixel();
    let column = (f64::from(width) - 32.0) / per_row as f64;
    let line_height = fonts.label * 1.6;
    for (index, result) in results.iter().enumerate() {
        let (row, col) = (index / per_row, index % per_row);
        let x = 16 + (column * col as f64).round() as i32;
        let y = (line_height * (row as f64 + 0.7)).round() as i32;
        area.draw(&PathElement::new(
            vec![(x, y), (x + 24, y)],
            color(index).stroke_width(4),
        ))
        .map_err(draw_error)?;
        let onset = result
            .onset_ms
            .map_or_else(|| "holds".to_owned(), |ms| format!("onset {ms:.3} ms"));
        let style = Fonts::style(fonts.label).pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(
            format!("{}: {onset}", result.strategy),
            (x + 32, y),
            style,
        ))
        .map_err(draw_error)?;
    }
    Ok(())
}

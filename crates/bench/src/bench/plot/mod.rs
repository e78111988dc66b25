//! `bench --plot`: a PNG of a bench run. On top the trace's frame times; below, per
//! strategy, `T - S` on every frame (the picture's lag behind real time: a sawtooth is the
//! stutter) and the animation error of every frame shown at the screen; at the foot the
//! run's mean latency and RMS judder per strategy, side by side.
//!
//! [`PlotRecorder`] watches the run (a [`FrameObserver`]) and keeps each series at a
//! bounded size ([`Envelope`]), whatever the trace's length. Drawing is plotters' bitmap
//! backend into a buffer, encoded by [`crate::png_file`] like every PNG the lab writes.

mod draw;
mod font;
mod series;

use std::io::Write;
use std::path::PathBuf;

pub(crate) use draw::{
    Area, Fonts, INK, chart_area, chart_on, draw_error, mesh, mesh_with, padded, split_rows,
};
pub use draw::{ChartArea, ChartAreas, PixelRect};
pub(crate) use font::ensure_font;
pub use font::{EMBEDDED_FONT, FONT_ENV, load_font};
pub use series::Envelope;

use super::{BenchFrame, BenchResult, FrameObserver};
use crate::display::DisplaySpec;
use crate::metrics::ScreenFrame;
use crate::png_file::{self, Channels, PngError};
use crate::timestep::{Nanos, Strategy, secs_from_ns};
use crate::trace::FrameSource;

/// The smallest plot, pixels: below it the labels of six strategy panels overlap.
pub const MIN_SIZE: (u32, u32) = (960, 720);

/// The largest plot, pixels (the RGB buffer is 3 bytes a pixel: 200 MB at most).
pub const MAX_SIZE: (u32, u32) = (8192, 8192);

/// The default plot size, pixels: room for six strategy panels with readable labels.
pub const DEFAULT_SIZE: (u32, u32) = (1600, 1200);

/// Why a plot could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The font file that [`FONT_ENV`] names could not be read.
    #[error(
        "{FONT_ENV} names {path} as the plot's font, and it cannot be read: {error}. Name \
         a TrueType or OpenType font file there, or unset it for the embedded font"
    )]
    FontMissing {
        /// The font file.
        path: PathBuf,
        /// Why it could not be read.
        error: std::io::Error,
    },
    /// The font file that [`FONT_ENV`] names is not a font.
    #[error(
        "{path} is not a TrueType or OpenType font; name one in {FONT_ENV}, or unset it for \
         the embedded font"
    )]
    FontInvalid {
        /// The font file.
        path: PathBuf,
    },
    /// The size is out of range.
    #[error(
        "a plot of {0}x{1} pixels is out of range (allowed {min_w}x{min_h} to {max_w}x{max_h})",
        min_w = MIN_SIZE.0, min_h = MIN_SIZE.1, max_w = MAX_SIZE.0, max_h = MAX_SIZE.1
    )]
    Size(u32, u32),
    /// plotters failed to draw.
    #[error("drawing the plot failed: {0}")]
    Draw(String),
    /// The PNG could not be encoded.
    #[error("encoding the PNG failed: {0}")]
    Encode(String),
    /// The PNG could not be written.
    #[error(transparent)]
    Write(std::io::Error),
}

/// The mean latency and RMS judder of one strategy's run, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Summary {
    /// Mean `T - S`.
    latency_ms: f64,
    /// RMS of `(S_i - S_{i-1}) - (T_i - T_{i-1})`.
    judder_ms: f64,
    /// Mean `D - S` over the frames shown.
    display_latency_ms: f64,
    /// RMS animation error over the frames shown.
    display_judder_ms: f64,
}

/// What the plot keeps of one strategy's run.
#[derive(Clone, Debug)]
struct StrategySeries {
    /// The strategy.
    strategy: Strategy,
    /// `T - S` per frame, ms, against `T` in seconds.
    lag: Envelope,
    /// The animation error per frame shown, ms, against `D` in seconds.
    animation_error: Envelope,
    /// The run's totals, once it is over.
    summary: Summary,
}

/// Watches a bench run and draws it as a PNG (see the module doc). Holds at most four
/// points per pixel column per series, however long the trace.
#[derive(Clone, Debug)]
pub struct PlotRecorder {
    /// Width and height of the image, pixels.
    size: (u32, u32),
    /// Frames in the trace.
    frames: u64,
    /// The trace's frame times, ms, against the time the frame started, seconds.
    trace: Envelope,
    /// Whether the display is a screen of its own (not `cpu`, where `D = T`).
    screen: bool,
    /// One entry per strategy run, in order.
    runs: Vec<StrategySeries>,
}

impl PlotRecorder {
    /// A recorder for runs over `frame_times` on `display`, for an image of `size` pixels
    /// (checked against [`MIN_SIZE`] and [`MAX_SIZE`]).
    pub fn new(
        frame_times: &(impl FrameSource + ?Sized),
        display: DisplaySpec,
        size: (u32, u32),
    ) -> Result<Self, PlotError> {
        let (width, height) = size;
        if !(MIN_SIZE.0..=MAX_SIZE.0).contains(&width)
            || !(MIN_SIZE.1..=MAX_SIZE.1).contains(&height)
        {
            return Err(PlotError::Size(width, height));
        }
        let frames = frame_times.frame_count();
        let mut trace = Envelope::new(frames, width);
        let mut start: Nanos = 0;
        for (i, frame_time) in frame_times.frame_times().enumerate() {
            trace.push(i as u64, secs_from_ns(start), ms(frame_time as f64));
            start = start.saturating_add(frame_time);
        }
        Ok(Self {
            size,
            frames,
            trace,
            screen: display != DisplaySpec::Cpu,
            runs: Vec::new(),
        })
    }

    /// Draws the plot, headed by `title`: its pixels (RGB, 3 bytes a pixel, row by row)
    /// and where each chart is among them.
    pub fn draw_rgb(&self, title: &str) -> Result<(Vec<u8>, ChartAreas), PlotError> {
        font::ensure_font()?;
        let (width, height) = self.size;
        let mut rgb = vec![0u8; width as usize * height as usize * 3];
        let areas = draw::draw(self, title, &mut rgb)?;
        Ok((rgb, areas))
    }

    /// Draws the plot, headed by `title`, and writes it to `out` as a PNG.
    pub fn write_png(&self, title: &str, out: impl Write) -> Result<(), PlotError> {
        let (rgb, _) = self.draw_rgb(title)?;
        png_file::write_png(out, self.size, Channels::Rgb, &rgb).map_err(|error| match error {
            PngError::Write(error) => PlotError::Write(error),
            PngError::Encode(why) => PlotError::Encode(why),
        })
    }
}

impl FrameObserver for PlotRecorder {
    fn start(&mut self, strategy: Strategy) {
        let columns = self.size.0;
        self.runs.push(StrategySeries {
            strategy,
            lag: Envelope::new(self.frames, columns),
            animation_error: Envelope::new(self.frames, columns),
            summary: Summary::default(),
        });
    }

    fn frame(&mut self, frame: &BenchFrame<'_>) {
        if let Some(run) = self.runs.last_mut() {
            let report = frame.report;
            let lag = i128::from(report.presented_time) - i128::from(report.shown_time);
            run.lag.push(
                frame.index,
                secs_from_ns(report.presented_time),
                ms(lag as f64),
            );
        }
    }

    fn screen(&mut self, screen: &ScreenFrame) {
        if let (Some(run), Some(error)) = (self.runs.last_mut(), screen.animation_error) {
            run.animation_error
                .push(screen.frame, secs_from_ns(screen.display_time), ms(error));
        }
    }

    fn finish(&mut self, result: &BenchResult) {
        if let Some(run) = self.runs.last_mut() {
            let metrics = &result.metrics;
            run.summary = Summary {
                latency_ms: metrics.latency_ms,
                judder_ms: metrics.judder_ms,
                display_latency_ms: metrics.display_latency_ms,
                display_judder_ms: metrics.display_judder_ms,
            };
        }
    }
}

/// Nanoseconds to milliseconds.
fn ms(ns: f64) -> f64 {
    ns / 1e6
}

#[cfg(test)]
mod tests;

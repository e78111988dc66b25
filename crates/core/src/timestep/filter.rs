//! Optional frame-time filters, applied after the time scale and before the strategy.
//!
//! Both filters hold back or pay out time but never create or destroy it: after any
//! sequence of frames `sum(out) + held() == sum(in)` exactly, with `held()` bounded.

use super::{Nanos, RangeError};

/// Glaiel's snapping tolerance (`vsync_maxerror`, 0.2 ms): wider than present-timestamp
/// noise. Too narrow for the CPU-start wobble of a queued FIFO loop (15 / 18.3 ms around
/// 16.7 ms), so `snap` without a tolerance uses [`SNAP_TOLERANCE_FRACTION`] instead.
pub const DEFAULT_SNAP_TOLERANCE: Nanos = 200_000;
/// `snap` without a tolerance snaps frames within this fraction of the refresh period of a
/// multiple (1/8: 2.08 ms at 60 Hz, 0.87 ms at 144 Hz). Wider snapping loses no time,
/// since the difference is carried into the next frame.
pub const SNAP_TOLERANCE_FRACTION: f64 = 0.125;
/// Largest snapping tolerance accepted, ms.
pub const MAX_SNAP_TOLERANCE_MS: f64 = 100.0;
/// Frames the refresh-period estimate looks back over.
const REFRESH_WINDOW: usize = 16;
/// Most frames the averaging filter may span.
pub const MAX_AVERAGE_FRAMES: usize = 32;

/// Snaps a frame time to a whole number of refresh periods when it is within the tolerance,
/// carrying the difference into the next frame (vsync'd frames are really whole periods;
/// the measured noise around them is what causes needless stutter).
#[derive(Clone, Debug)]
pub struct SnapFilter {
    /// The display's refresh period; `None` = estimate it from recent frames.
    refresh: Option<Nanos>,
    /// How close a frame time must be to a multiple of the period to snap; `None` =
    /// [`SNAP_TOLERANCE_FRACTION`] of the period.
    tolerance: Option<Nanos>,
    /// Time taken in but not yet put out (may be negative: time paid out early).
    residual: i64,
    /// Recent raw frame times, for the estimate.
    recent: [Nanos; REFRESH_WINDOW],
    /// Number of valid entries in `recent`.
    recent_len: usize,
    /// Next slot of `recent` to write.
    recent_next: usize,
}

impl SnapFilter {
    /// A snap filter with a known refresh period (or `None` to estimate it) and a tolerance
    /// (or `None` for [`SNAP_TOLERANCE_FRACTION`] of the period).
    pub fn new(refresh: Option<Nanos>, tolerance: Option<Nanos>) -> Self {
        Self {
            refresh: refresh.filter(|&period| period > 0),
            tolerance,
            residual: 0,
            recent: [0; REFRESH_WINDOW],
            recent_len: 0,
            recent_next: 0,
        }
    }

    /// The refresh period used now: the set one, or an estimate from recent frames.
    ///
    /// The estimate is the recent frames' total over their total number of refresh periods,
    /// each frame counted as its nearest multiple of the median frame. A plain median would
    /// be biased by the noise, and the bias would pile up in the carried residual.
    pub fn refresh_period(&self) -> Option<Nanos> {
        if self.refresh.is_some() {
            return self.refresh;
        }
        let recent = &self.recent[..self.recent_len];
        let mut scratch = self.recent;
        let median = crate::stats::upper_median(&mut scratch[..self.recent_len])
            .filter(|&median| median > 0)?;
        let (median, mut time, mut periods) = (u128::from(median), 0u128, 0u128);
        for &frame in recent {
            let multiple = (u128::from(frame) + median / 2) / median;
            if multiple > 0 {
                time += u128::from(frame);
                periods += multiple;
            }
        }
        (periods > 0).then(|| Nanos::try_from((time + periods / 2) / periods).unwrap_or(Nanos::MAX))
    }

    /// Filters one frame time.
    pub fn apply(&mut self, frame: Nanos) -> Nanos {
        self.recent[self.recent_next] = frame;
        self.recent_next = (self.recent_next + 1) % REFRESH_WINDOW;
        self.recent_len = (self.recent_len + 1).min(REFRESH_WINDOW);

        let wanted = i128::from(frame) + i128::from(self.residual);
        let out = match self.refresh_period() {
            Some(period) if wanted > 0 => {
                let period = i128::from(period);
                let multiple = ((wanted + period / 2) / period).max(1) * period;
                let tolerance = self.tolerance.map_or_else(
                    || (period as f64 * SNAP_TOLERANCE_FRACTION).round() as i128,
                    i128::from,
                );
                if (wanted - multiple).abs() <= tolerance {
                    multiple
                } else {
                    wanted
                }
            }
            _ => wanted.max(0),
        };
        self.residual = i64::try_from(wanted - out).unwrap_or(0);
        Nanos::try_from(out).unwrap_or(0)
    }

    /// Time held back (positive) or paid out early (negative).
    pub fn held(&self) -> i64 {
        self.residual
    }
}

/// Averages the frame time over the last N frames, paying back what the average holds so
/// that no time is lost.
#[derive(Clone, Debug)]
pub struct AverageFilter {
    /// Recent inputs.
    window: [Nanos; MAX_AVERAGE_FRAMES],
    /// Frames averaged over.
    frames: usize,
    /// Valid entries in `window`.
    len: usize,
    /// Next slot to write.
    next: usize,
    /// Input not yet put out (negative: put out early).
    held: i64,
}

impl AverageFilter {
    /// Averages over `frames` frames, 2 to 32.
    pub fn new(frames: usize) -> Result<Self, RangeError> {
        if !(2..=MAX_AVERAGE_FRAMES).contains(&frames) {
            return Err(RangeError {
                name: "averaged frames",
                value: frames.to_string(),
                allowed: format!("2 to {MAX_AVERAGE_FRAMES}"),
            });
        }
        Ok(Self {
            window: [0; MAX_AVERAGE_FRAMES],
            frames,
            len: 0,
            next: 0,
            held: 0,
        })
    }

    /// Filters one frame time.
    pub fn apply(&mut self, frame: Nanos) -> Nanos {
        self.window[self.next] = frame;
        self.next = (self.next + 1) % self.frames;
        self.len = (self.len + 1).min(self.frames);
        let sum: u128 = self.window[..self.len].iter().map(|&f| u128::from(f)).sum();
        let mean = i128::try_from(sum / self.len as u128).unwrap_or(i128::MAX);
        // Pay back (or hold) a share of what the average has diverged from the input.
        let held = i128::from(self.held) + i128::from(frame);
        let out = (mean + (held - mean) / self.frames as i128).clamp(0, held.max(0));
        self.held = i64::try_from(held - out).unwrap_or(0);
        Nanos::try_from(out).unwrap_or(0)
    }

    /// Time held back.
    pub fn held(&self) -> i64 {
        self.held
    }
}

/// The optional filters, in the order they apply: snap, then average.
#[derive(Clone, Debug, Default)]
pub struct FrameFilters {
    /// Refresh snapping, if on.
    pub snap: Option<SnapFilter>,
    /// N-frame averaging, if on.
    pub average: Option<AverageFilter>,
}

impl FrameFilters {
    /// Filters one frame time.
    pub fn apply(&mut self, frame: Nanos) -> Nanos {
        let frame = self.snap.as_mut().map_or(frame, |snap| snap.apply(frame));
        self.average.as_mut().map_or(frame, |avg| avg.apply(frame))
    }

    /// Time held inside the filters.
    pub fn held(&self) -> i64 {
        self.snap.as_ref().map_or(0, SnapFilter::held)
            + self.average.as_ref().map_or(0, AverageFilter::held)
    }
}

/// Which filters a run applies, as the user names them: `none`, `snap[:TOL_MS]` or
/// `average:N`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum FilterSpec {
    /// Frame times pass unchanged.
    #[default]
    None,
    /// [`SnapFilter`]: frame times within the tolerance of a whole number of refresh periods
    /// become that number, the difference carried.
    Snap {
        /// The tolerance; `None` = [`SNAP_TOLERANCE_FRACTION`] of the period.
        tolerance: Option<Nanos>,
    },
    /// [`AverageFilter`] over this many frames (2 to [`MAX_AVERAGE_FRAMES`]).
    Average(usize),
}

/// The forms [`FilterSpec::parse`] reads, for messages and help.
pub const FILTER_SPECS: &str = "none, snap, snap:TOL_MS or average:N";

impl FilterSpec {
    /// Parses a filter; the error names the spec and what is wrong with it.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let spec = spec.trim();
        let fail = |problem: String| format!("filter {spec:?}: {problem}");
        let (kind, arg) = match spec.split_once(':') {
            Some((kind, arg)) => (kind, Some(arg.trim())),
            None => (spec, None),
        };
        match (kind.to_ascii_lowercase().as_str(), arg) {
            ("none", None) => Ok(Self::None),
            ("snap", None) => Ok(Self::Snap { tolerance: None }),
            ("snap", Some(text)) => {
                let ms = text
                    .parse::<f64>()
                    .ok()
                    .filter(|ms| ms.is_finite())
                    .ok_or_else(|| fail(format!("tolerance {text:?} is not a number of ms")))?;
                if !(ms > 0.0 && ms <= MAX_SNAP_TOLERANCE_MS) {
                    return Err(fail(format!(
                        "tolerance {} ms is out of range (allowed above 0 to {MAX_SNAP_TOLERANCE_MS} ms)",
                        crate::text::number(ms)
                    )));
                }
                Ok(Self::Snap {
                    tolerance: Some(super::ns_from_ms(ms).max(1)),
                })
            }
            ("average", Some(text)) => text
                .parse::<usize>()
                .ok()
                .filter(|frames| (2..=MAX_AVERAGE_FRAMES).contains(frames))
                .map(Self::Average)
                .ok_or_else(|| {
                    fail(format!(
                        "frames {text:?} is not a whole number from 2 to {MAX_AVERAGE_FRAMES}"
                    ))
                }),
            ("average", None) => Err(fail("expected average:N".into())),
            _ => Err(fail(format!("unknown filter (known: {FILTER_SPECS})"))),
        }
    }

    /// The filters, snapping to `refresh` when the display's period is known (else the
    /// snap filter estimates it from recent frames).
    pub fn build(&self, refresh: Option<Nanos>) -> FrameFilters {
        match *self {
            Self::None => FrameFilters::default(),
            Self::Snap { tolerance } => FrameFilters {
                snap: Some(SnapFilter::new(refresh, tolerance)),
                average: None,
            },
            Self::Average(frames) => FrameFilters {
                snap: None,
                average: AverageFilter::new(frames.clamp(2, MAX_AVERAGE_FRAMES)).ok(),
            },
        }
    }
}

impl std::fmt::Display for FilterSpec {
    /// The spec in the form [`FilterSpec::parse`] reads.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::None => write!(f, "none"),
            Self::Snap { tolerance: None } => write!(f, "snap"),
            Self::Snap {
                tolerance: Some(ns),
            } => write!(f, "snap:{}", *ns as f64 / 1e6),
            Self::Average(frames) => write!(f, "average:{frames}"),
        }
    }
}

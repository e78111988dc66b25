//! The measured screen: the images the platform says reached the screen, the refresh period
//! they reveal (and whether it varies), and the display model scored against them frame by
//! frame. Fixed memory: nothing allocates after it is made.

use super::matcher::{FeedbackCounts, FeedbackMatcher, MatchedFeedback, UNSCORED};
use super::{ClockMap, FeedbackSource, PresentFeedback};
use crate::ring::Ring;
use crate::timestep::Nanos;

/// New images the measured screen keeps, newest last (the timeline's measured refreshes).
pub const MEASURED_REFRESHES: usize = 256;

/// Per-refresh intervals kept for the period and the VRR test.
const PERIOD_SAMPLES: usize = 32;

/// Frames whose model outcome or measurement waits for the other, by frame number.
const PAIRED_FRAMES: usize = 256;

/// Spread of the per-refresh intervals, from the 10th to the 90th percentile over the
/// median, above which the refresh varies: VRR. A fixed refresh measured by a hardware
/// clock varies by well under a percent, a compositor's software timestamps by a few; the
/// percentiles leave out the odd late timestamp.
const VRR_SPREAD: f64 = 0.10;

/// Recent new images the refresh's phase is measured over.
const PHASE_IMAGES: usize = 16;

/// How far from a refresh's start an image may land, in periods, and still be on the grid:
/// a compositor's software timestamps stray by well under this, images stamped by a timer
/// of its own (headless Weston's) by far more.
const ON_VBLANK: f64 = 0.05;

/// The refresh grid the measured images reveal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VblankTiming {
    /// The refresh period, ns.
    pub period: Nanos,
    /// When a refresh starts, on the stopwatch, modulo the period: when the recent images
    /// land on one grid (within `ON_VBLANK` of a period); `None` when they do not.
    pub phase: Option<Nanos>,
}

/// One new image on the screen, as measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeasuredRefresh {
    /// When it reached the screen, on the stopwatch.
    pub at: Nanos,
    /// The frame whose image it was.
    pub frame: u64,
}

/// How the display model did against the measured screen, over the frames both judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelScore {
    /// Frames both the model and the screen showed: their display times compared.
    pub compared: u64,
    /// Their errors' magnitudes (measured − modeled) added up, ns.
    pub abs_error_sum: u64,
    /// Their errors added up with sign, ns (positive: the screen was later).
    pub error_sum: i64,
    /// The largest error's magnitude, ns.
    pub worst: Nanos,
    /// Frames both dropped.
    pub both_dropped: u64,
    /// Frames the model showed and the screen dropped.
    pub model_only: u64,
    /// Frames the screen showed and the model dropped.
    pub measured_only: u64,
}

impl ModelScore {
    /// Mean magnitude of the display-time error, ms (0 without frames compared).
    pub fn mean_abs_ms(&self) -> f64 {
        if self.compared == 0 {
            0.0
        } else {
            self.abs_error_sum as f64 / self.compared as f64 / 1e6
        }
    }

    /// Mean signed error, ms: positive when the screen shows frames later than the model.
    pub fn mean_ms(&self) -> f64 {
        if self.compared == 0 {
            0.0
        } else {
            self.error_sum as f64 / self.compared as f64 / 1e6
        }
    }

    /// Frames judged by both.
    pub fn judged(&self) -> u64 {
        self.compared + self.both_dropped + self.model_only + self.measured_only
    }

    /// Share of the frames judged by both on which they agree (shown by both, or dropped
    /// by both); 1 without frames.
    pub fn agreement(&self) -> f64 {
        let judged = self.judged();
        if judged == 0 {
            1.0
        } else {
            (self.compared + self.both_dropped) as f64 / judged as f64
        }
    }

    /// Scores one frame: its modeled and measured display times (`None`: dropped).
    fn count(&mut self, modeled: Option<Nanos>, measured: Option<Nanos>) {
        match (modeled, measured) {
            (Some(modeled), Some(measured)) => {
                let error = i128::from(measured) - i128::from(modeled);
                let magnitude = Nanos::try_from(error.unsigned_abs()).unwrap_or(Nanos::MAX);
                self.compared += 1;
                self.abs_error_sum = self.abs_error_sum.saturating_add(magnitude);
                let signed =
                    i64::try_from(error).unwrap_or(if error < 0 { i64::MIN } else { i64::MAX });
                self.error_sum = self.error_sum.saturating_add(signed);
                self.worst = self.worst.max(magnitude);
            }
            (None, None) => self.both_dropped += 1,
            (Some(_), None) => self.model_only += 1,
            (None, Some(_)) => self.measured_only += 1,
        }
    }
}

/// The measured screen's numbers, for the panel and the summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredReadouts {
    /// Where the feedback comes from.
    pub source: FeedbackSource,
    /// The presents and what became of their feedback.
    pub counts: FeedbackCounts,
    /// The measured refresh period, ns ([`MeasuredScreen::period`]).
    pub period: Option<Nanos>,
    /// Whether the refresh varies (VRR).
    pub variable: bool,
    /// The model against the measurements.
    pub score: ModelScore,
}

impl MeasuredReadouts {
    /// The measured refresh rate, Hz.
    pub fn refresh_hz(&self) -> Option<f64> {
        self.period
            .filter(|&period| period > 0)
            .map(|period| 1e9 / period as f64)
    }
}

/// One frame's outcome from one side, waiting for the other's.
#[derive(Clone, Copy, Debug, Default)]
struct Half {
    /// The frame number plus one (0: the slot is free).
    key: u64,
    /// Its display time on the stopwatch; `None`: dropped.
    at: Option<Nanos>,
}

/// The screen as the platform reports it (see the module's doc).
#[derive(Clone, Debug)]
pub struct MeasuredScreen {
    /// Where the feedback comes from.
    source: FeedbackSource,
    /// Presents and their feedback.
    matcher: FeedbackMatcher,
    /// Recent new images, in the order their feedback came.
    shown: Ring<MeasuredRefresh>,
    /// The last shown image's time and refresh counter, for the intervals.
    previous: Option<(Nanos, Option<u64>)>,
    /// Recent per-refresh intervals, ns, at `samples_next` round robin.
    samples: [Nanos; PERIOD_SAMPLES],
    /// Intervals kept (up to [`PERIOD_SAMPLES`]).
    samples_len: usize,
    /// Where the next interval goes.
    samples_next: usize,
    /// Whether the intervals came from the platform's refresh counter (else they are the
    /// gaps between new images).
    numbered: bool,
    /// The refresh period the platform reported last, ns.
    reported: Option<Nanos>,
    /// Recent shown images numbered by the platform's refresh counter: (counter, time).
    counted: Ring<(u64, Nanos)>,
    /// The model's outcomes waiting for their measurement, by frame.
    modeled: [Half; PAIRED_FRAMES],
    /// Measurements waiting for the model's outcome, by frame.
    measured: [Half; PAIRED_FRAMES],
    /// The model against the measurements.
    score: ModelScore,
}

impl MeasuredScreen {
    /// A screen measured by `source`, whose clock maps onto the stopwatch by `clock`.
    pub fn new(source: FeedbackSource, clock: ClockMap) -> Self {
        Self {
            source,
            matcher: FeedbackMatcher::new(clock),
            shown: Ring::new(MEASURED_REFRESHES),
            previous: None,
            samples: [0; PERIOD_SAMPLES],
            samples_len: 0,
            samples_next: 0,
            numbered: false,
            reported: None,
            counted: Ring::new(PERIOD_SAMPLES),
            modeled: [Half::default(); PAIRED_FRAMES],
            measured: [Half::default(); PAIRED_FRAMES],
            score: ModelScore::default(),
        }
    }

    /// Where the feedback comes from.
    pub fn source(&self) -> FeedbackSource {
        self.source
    }

    /// The numbers for the panel and the summary.
    pub fn readouts(&self) -> MeasuredReadouts {
        MeasuredReadouts {
            source: self.source,
            counts: self.counts(),
            period: self.period(),
            variable: self.variable(),
            score: self.score,
        }
    }

    /// The model's frames are numbered from scratch (a new model, at a recording's start or
    /// a replay's): frames waiting to be paired with the model's outcome are forgotten, and
    /// the presents waiting for feedback are still counted but no longer scored. The
    /// surface and the presents' numbering go on, as the platform's do.
    pub fn restart(&mut self) {
        self.modeled = [Half::default(); PAIRED_FRAMES];
        self.measured = [Half::default(); PAIRED_FRAMES];
        self.matcher.forget_frames();
    }

    /// The presents and what became of their feedback.
    pub fn counts(&self) -> FeedbackCounts {
        self.matcher.counts()
    }

    /// The model against the measurements so far.
    pub fn score(&self) -> ModelScore {
        self.score
    }

    /// Recent new images, in the order their feedback came.
    pub fn shown(&self) -> &Ring<MeasuredRefresh> {
        &self.shown
    }

    /// The surface was recreated at `now` (see [`FeedbackMatcher::new_surface`]); returns
    /// the new generation. The intervals start over: the next image may follow a gap.
    pub fn new_surface(&mut self, now: Nanos) -> u32 {
        self.previous = None;
        self.counted.clear();
        self.matcher.new_surface(now)
    }

    /// Maps platform times through `clock` from now on ([`FeedbackMatcher::set_clock`]).
    pub fn set_clock(&mut self, clock: ClockMap) {
        self.matcher.set_clock(clock);
    }

    /// The surface generation presents go to now.
    pub fn generation(&self) -> u32 {
        self.matcher.generation()
    }

    /// The window presented `frame`, which started at `started`, at `at`: its number for
    /// the feedback to name.
    pub fn presented(&mut self, frame: u64, started: Nanos, at: Nanos) -> u64 {
        self.matcher.presented(frame, started, at)
    }

    /// The model decided `frame`'s display time (`None`: dropped): scored once its
    /// measurement is in.
    pub fn modeled(&mut self, frame: u64, at: Option<Nanos>) {
        if let Some(measured) = take(&mut self.measured, frame) {
            self.score.count(at, measured);
        } else {
            put(&mut self.modeled, frame, at);
        }
    }

    /// Takes feedback from the source; returns the frame it matched, if any.
    pub fn feedback(&mut self, feedback: PresentFeedback) -> Option<MatchedFeedback> {
        let matched = self.matcher.take(feedback)?;
        if matched.frame != UNSCORED {
            if let Some(modeled) = take(&mut self.modeled, matched.frame) {
                self.score.count(modeled, matched.shown_at);
            } else {
                put(&mut self.measured, matched.frame, matched.shown_at);
            }
        }
        if let Some(refresh) = matched.refresh {
            self.reported = Some(refresh);
        }
        if let (Some(at), Some(sequence)) = (matched.shown_at, matched.sequence) {
            if self
                .counted
                .latest()
                .is_some_and(|&(before, _)| sequence <= before)
            {
                self.counted.clear();
            }
            self.counted.push((sequence, at));
        }
        if let Some(at) = matched.shown_at {
            self.shown.push(MeasuredRefresh {
                at,
                frame: matched.frame,
            });
            if let Some((before, before_sequence)) = self.previous.replace((at, matched.sequence))
                && at > before
            {
                let refreshes = match (before_sequence, matched.sequence) {
                    (Some(before), Some(now)) if now > before => now - before,
                    (Some(_), Some(_)) => 0,
                    _ => 1,
                };
                if let Some(interval) = (at - before).checked_div(refreshes) {
                    self.numbered = before_sequence.is_some() && matched.sequence.is_some();
                    self.samples[self.samples_next] = interval;
                    self.samples_next = (self.samples_next + 1) % PERIOD_SAMPLES;
                    self.samples_len = (self.samples_len + 1).min(PERIOD_SAMPLES);
                }
            }
        }
        Some(matched)
    }

    /// The refresh period, ns: the median of the recent per-refresh intervals when the
    /// platform numbers its refreshes, else what it reports, else the shortest interval
    /// between new images; `None` before two images.
    pub fn period(&self) -> Option<Nanos> {
        let mut samples = self.samples;
        let samples = &mut samples[..self.samples_len];
        if samples.is_empty() {
            return self.reported;
        }
        samples.sort_unstable();
        Some(samples[samples.len() / 2])
            .filter(|_| self.numbered())
            .or(self.reported)
            .or_else(|| samples.first().copied())
    }

    /// Whether the refresh varies between refreshes (VRR): the per-refresh intervals spread
    /// by more than `VRR_SPREAD` of their median. Needs numbered refreshes.
    pub fn variable(&self) -> bool {
        if !self.numbered() || self.samples_len < PERIOD_SAMPLES / 2 {
            return false;
        }
        let mut samples = self.samples;
        let samples = &mut samples[..self.samples_len];
        samples.sort_unstable();
        let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
        let median = at(0.5).max(1) as f64;
        (at(0.9) - at(0.1)) as f64 / median > VRR_SPREAD
    }

    /// The refresh grid, once a steady period (not VRR) is known over at least half of
    /// `PERIOD_SAMPLES` intervals. With the platform's refresh counter: the line through
    /// the recent images' (counter, time) pairs, whose slope is the period (exact however
    /// the timestamps wobble) and whose refreshes give the phase, when all but an eighth of
    /// the images lie within `ON_VBLANK` of a period of it. Without one, the period the platform reports
    /// and the phase of the last `PHASE_IMAGES` images (their circular mean, each within
    /// `ON_VBLANK` of it).
    pub fn vblank_timing(&self) -> Option<VblankTiming> {
        if self.samples_len < PERIOD_SAMPLES / 2 || self.variable() {
            return None;
        }
        if self.numbered() && self.counted.len() >= PERIOD_SAMPLES / 2 {
            return self.fitted();
        }
        let period = self.reported.filter(|&period| period > 0)?;
        Some(VblankTiming {
            period,
            phase: self.phase(period),
        })
    }

    /// The least-squares line through the counted images (see [`Self::vblank_timing`]); once more
    /// without the images off it, so one late timestamp moves neither the period nor the
    /// phase. The phase needs all but an eighth of the images on the line.
    fn fitted(&self) -> Option<VblankTiming> {
        let &(first_count, first_at) = self.counted.iter().next()?;
        let points = || {
            self.counted.iter().map(move |&(count, at)| {
                ((count - first_count) as f64, at as f64 - first_at as f64)
            })
        };
        let all = Line::through(points, |_| true)?;
        let tolerance = |line: &Line| ON_VBLANK * line.slope;
        let line = Line::through(points, |point| all.off(point) <= tolerance(&all)).unwrap_or(all);
        let period = line.slope.round() as Nanos;
        if period == 0 {
            return None;
        }
        let off = points()
            .filter(|&point| line.off(point) > tolerance(&line))
            .count();
        let phase = (off * 8 <= self.counted.len()).then(|| {
            let start = (first_at as f64 + line.start).round().max(0.0) as Nanos;
            start % period
        });
        Some(VblankTiming { period, phase })
    }

    /// The phase of the last [`PHASE_IMAGES`] images on a grid of `period`, when they land
    /// on one (see [`Self::vblank_timing`]).
    fn phase(&self, period: Nanos) -> Option<Nanos> {
        if self.shown.len() < PHASE_IMAGES {
            return None;
        }
        let turn = std::f64::consts::TAU / period as f64;
        let angles = || {
            self.shown
                .iter()
                .rev()
                .take(PHASE_IMAGES)
                .map(move |image| (image.at % period) as f64 * turn)
        };
        let (sin, cos) =
            angles().fold((0.0, 0.0), |(s, c), a| (s + libm::sin(a), c + libm::cos(a)));
        let mean = libm::atan2(sin, cos).rem_euclid(std::f64::consts::TAU);
        let on_vblank = angles().all(|angle| {
            let off = (angle - mean).rem_euclid(std::f64::consts::TAU);
            off.min(std::f64::consts::TAU - off) <= ON_VBLANK * std::f64::consts::TAU
        });
        on_vblank.then(|| ((mean / turn).round() as Nanos) % period)
    }

    /// Whether the intervals kept came from the platform's refresh counter.
    fn numbered(&self) -> bool {
        self.numbered
    }
}

/// A straight line through (refresh counter, time) points: time = start + slope * counter.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// Time at counter 0, ns.
    start: f64,
    /// Time per count: the refresh period, ns.
    slope: f64,
}

impl Line {
    /// The least-squares line through the `points` that `keep` keeps; `None` for fewer
    /// than two distinct counters.
    fn through<I: Iterator<Item = (f64, f64)>>(
        points: impl Fn() -> I,
        keep: impl Fn((f64, f64)) -> bool,
    ) -> Option<Self> {
        let kept = || points().filter(|&point| keep(point));
        let n = kept().count() as f64;
        if n < 2.0 {
            return None;
        }
        let (mean_x, mean_y) = kept().fold((0.0, 0.0), |(x, y), (px, py)| (x + px / n, y + py / n));
        let (sxy, sxx) = kept().fold((0.0, 0.0), |(sxy, sxx), (x, y)| {
            (
                sxy + (x - mean_x) * (y - mean_y),
                sxx + (x - mean_x) * (x - mean_x),
            )
        });
        (sxx > 0.0).then(|| {
            let slope = sxy / sxx;
            Self {
                start: mean_y - slope * mean_x,
                slope,
            }
        })
    }

    /// How far `point`'s time lies from the line, ns.
    fn off(&self, (x, y): (f64, f64)) -> f64 {
        (y - (self.start + self.slope * x)).abs()
    }
}

/// Leaves `frame`'s outcome in its slot (replacing whatever older frame was there).
fn put(slots: &mut [Half; PAIRED_FRAMES], frame: u64, at: Option<Nanos>) {
    slots[(frame % PAIRED_FRAMES as u64) as usize] = Half {
        key: frame.wrapping_add(1),
        at,
    };
}

/// Takes `frame`'s outcome from its slot, if it is there.
fn take(slots: &mut [Half; PAIRED_FRAMES], frame: u64) -> Option<Option<Nanos>> {
    let slot = &mut slots[(frame % PAIRED_FRAMES as u64) as usize];
    (slot.key == frame.wrapping_add(1)).then(|| std::mem::take(slot).at)
}

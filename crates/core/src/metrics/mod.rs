//! Smoothness metrics: how far behind reality the picture is, how evenly it moves, how
//! wrong the physics is, and whether the loop keeps up; and the frame-time statistics
//! ([`FrameStats`]) of a trace or a run.
//!
//! For render frame `i`, `T_i` is the real time it is shown at and `S_i` the simulated time
//! of the drawn state (see [`crate::timestep::FrameReport`]). Metrics start at the first
//! frame after the first step: before it nothing moves, so there is nothing to judge.

mod frame_distribution;
mod frame_histogram;
mod frame_times;
mod ordered_frames;
mod packed_frame_times;
mod screen;
mod smoothness;
mod spiral;
mod truth;

pub use frame_distribution::{FrameBins, percentile_curve};
pub use frame_histogram::{
    FrameHistogram, HISTOGRAM_BUCKETS, HISTOGRAM_BYTES, HISTOGRAM_RELATIVE_WIDTH,
    HISTOGRAM_SUB_BUCKETS,
};
pub use frame_times::{
    AscendingFrames, FrameStats, FrameSum, FrameTail, HITCH_FACTOR, ONE_PERCENT, POINT_ONE_PERCENT,
    SortedFrames, TAIL_QUANTILE,
};
pub use ordered_frames::OrderedFrames;
pub use packed_frame_times::{PackedFrameTimes, PackedIter};
pub use screen::{
    DisplayTiming, ForecastErrors, PENDING_CAPACITY, REFRESH_BUCKETS, RefreshHistograms,
    ScreenFrame, ScreenRecorder,
};
pub use smoothness::Smoothness;
pub use spiral::{SPIRAL_RISING_FRAMES, SPIRAL_WINDOW_FRAMES, SpiralDetector};
pub use truth::TruthMemo;

use crate::display::DisplayEvent;
use crate::scene::Scene;
use crate::timestep::{FrameReport, secs_from_ns};

/// Accumulates per-frame measurements, without allocating.
#[derive(Clone, Debug, Default)]
pub struct MetricsRecorder {
    /// Frames recorded.
    frames: u64,
    /// Steps over all frames.
    steps: u64,
    /// Most steps in one frame.
    steps_max: u64,
    /// Whether a step has happened in an earlier frame (metrics have started).
    started: bool,
    /// Latency and judder sums.
    smoothness: Smoothness,
    /// Latency and judder at the screen, once a frame is placed on a display's clock.
    screen: ScreenRecorder,
    /// Whether a frame has been placed on a display's clock (or settled by a display, or
    /// the screen anchored on a shown frame). Until one is, every frame was on screen at its `T_i` (the `cpu` display), where the
    /// screen's latency and judder are the CPU's: they are kept once, in `smoothness`, and
    /// the screen takes them over when the first frame is placed.
    timed: bool,
    /// Largest spring position error, metres.
    position_error_max: f64,
}

/// The metrics of a run, as `bench` reports them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    /// Frames recorded.
    pub frames: u64,
    /// Steps taken.
    pub steps: u64,
    /// Mean steps per frame.
    pub steps_per_frame_mean: f64,
    /// Most steps in one frame.
    pub steps_per_frame_max: u64,
    /// Mean `T_i - S_i`, ms: how far behind real time the picture is.
    pub latency_ms: f64,
    /// The `T_i - S_i` farthest from zero, with its sign, ms: the worst frame.
    pub latency_worst_ms: f64,
    /// RMS of `(S_i - S_{i-1}) - (T_i - T_{i-1})`, ms: how unevenly the shown motion
    /// advances compared with real time. Zero is perfectly even.
    pub judder_ms: f64,
    /// The largest `|(S_i - S_{i-1}) - (T_i - T_{i-1})|`, ms: the worst frame.
    pub judder_worst_ms: f64,
    /// Mean `D_i - S_i` over the shown frames, ms: how old the shown state is when it
    /// reaches the screen. Equals `latency_ms` on the `cpu` display.
    pub display_latency_ms: f64,
    /// The shown frame's `D_i - S_i` farthest from zero, with its sign, ms.
    pub display_latency_worst_ms: f64,
    /// RMS of the animation error `(S_i - S_j) - (D_i - D_j)` over shown frames (`j` the
    /// previous shown one), ms: PresentMon's `MsAnimationError`. Equals `judder_ms` on the
    /// `cpu` display.
    pub display_judder_ms: f64,
    /// The largest animation error's magnitude over shown frames, ms.
    pub display_judder_worst_ms: f64,
    /// Shown frames the display latency is taken over, and animation errors the display
    /// judder is: with none, those values are 0 but mean nothing (every frame discarded),
    /// and reports say so ([`Self::display_latency`], [`Self::display_judder`]).
    pub display_judged: (u64, u64),
    /// Shown frames in whole refreshes (display latency, gaps); `None` on a display without
    /// refreshes (`cpu`, `trace`).
    pub refreshes: Option<RefreshHistograms>,
    /// How the forecast of display times `display-time` draws to did over the shown
    /// frames; `None` when no frame had one (the `cpu` display).
    pub forecast: Option<ForecastErrors>,
    /// Largest `|x_shown - x_true(S_i)|` of the spring, metres.
    pub position_error_max: f64,
    /// `(E_end - E_true_end) / E_0` of the spring.
    pub energy_drift: f64,
    /// Simulated time of the latest state, seconds.
    pub sim_time_s: f64,
    /// Whether the spring exploded.
    pub exploded: bool,
    /// 64-bit hash of the latest state.
    pub state_hash: u64,
}

impl Metrics {
    /// The mean display latency and the worst frame's, ms; `None` where no frame reached
    /// the screen (every one discarded): there is nothing to average.
    pub fn display_latency(&self) -> Option<(f64, f64)> {
        (self.display_judged.0 > 0)
            .then_some((self.display_latency_ms, self.display_latency_worst_ms))
    }

    /// The RMS animation error at the screen and the worst frame's, ms; `None` where no
    /// shown frame followed another.
    pub fn display_judder(&self) -> Option<(f64, f64)> {
        (self.display_judged.1 > 0)
            .then_some((self.display_judder_ms, self.display_judder_worst_ms))
    }
}

impl MetricsRecorder {
    /// Records one frame: its report, the spring's drawn displacement (m), and the scene it
    /// came from, whose exact spring `truths` answers. With
    /// `display` `None` the frame is on screen at `T_i` (the `cpu` display); otherwise it
    /// waits for [`Self::settle`] to say when it was shown.
    pub fn record(
        &mut self,
        report: &FrameReport,
        drawn_spring_m: f64,
        scene: &Scene,
        display: Option<DisplayTiming>,
        truths: &mut TruthMemo,
    ) -> Option<ScreenFrame> {
        let steps = report.steps.len();
        // A run anchored on a shown frame judges its first frame at the screen once the
        // scene has moved from that frame's state.
        let judged_at_screen = self.started || (self.screen.anchored() && scene.time() > 0);
        let (t, s) = (report.presented_time, report.shown_time);
        if display.is_some() {
            self.place_on_display();
        }
        let judder = self.smoothness.record(t, s, self.started);
        let screen = match display {
            None if !self.timed => Some(ScreenFrame {
                frame: self.frames,
                display_time: t,
                shown_time: s,
                animation_error: judder,
            }),
            None => Some(self.screen.shown_now(self.frames, t, s, self.started)),
            Some(timing) => {
                self.screen.frame(timing, t, s, judged_at_screen);
                None
            }
        };
        self.frames += 1;
        self.steps += steps;
        self.steps_max = self.steps_max.max(steps);
        if self.started {
            let error = (drawn_spring_m - truths.spring_x(scene, s)).abs();
            self.position_error_max = self.position_error_max.max(error);
        }
        self.started |= scene.time() > 0;
        screen
    }

    /// The run starts from a shown frame at `at` on the display's clock (see
    /// [`ScreenRecorder::anchor`]). Call it before the first frame.
    pub fn anchor_screen(&mut self, at: crate::timestep::Nanos) {
        // The anchor is the screen's own: it keeps its latency and judder from the start.
        self.timed = true;
        self.screen.anchor(at);
    }

    /// Counts shown frames in whole refreshes of `unit` ns (see
    /// [`ScreenRecorder::count_refreshes`]).
    pub fn count_refreshes(&mut self, unit: crate::timestep::Nanos) {
        self.screen.count_refreshes(unit);
    }

    /// The refresh shown frames are counted in, ns; `None` when they are not counted.
    pub fn refresh_unit(&self) -> Option<crate::timestep::Nanos> {
        self.screen.refreshes().map(|refreshes| refreshes.unit)
    }

    /// Takes a display event for a frame recorded earlier: a shown frame is measured and
    /// returned.
    pub fn settle(&mut self, event: &DisplayEvent) -> Option<ScreenFrame> {
        self.place_on_display();
        self.screen.settle(event)
    }

    /// A frame is placed on a display's clock or settled by a display: the screen keeps
    /// its own latency and judder from now on, starting from the CPU's so far (see
    /// `timed`).
    fn place_on_display(&mut self) {
        if !self.timed {
            self.screen.adopt(self.smoothness);
            self.timed = true;
        }
    }

    /// The strategy's clock `T` moves by `shift` ns before the next frame (a resync, see
    /// [`crate::timestep::Engine::resync`]): latency and judder compare the frames after it
    /// with those before on one clock, so the shift itself is not judder.
    pub fn rebase(&mut self, shift: i64) {
        self.smoothness.rebase(shift);
        self.screen.rebase(shift);
    }

    /// Whether the next frame recorded will be judged (a step happened in an earlier frame).
    pub fn judging(&self) -> bool {
        self.started
    }

    /// The metrics so far, with the end state taken from `scene`.
    pub fn metrics(&self, scene: &Scene) -> Metrics {
        let end = scene.current();
        let at_screen = if self.timed {
            self.screen.smoothness()
        } else {
            &self.smoothness
        };
        Metrics {
            frames: self.frames,
            steps: self.steps,
            steps_per_frame_mean: if self.frames > 0 {
                self.steps as f64 / self.frames as f64
            } else {
                0.0
            },
            steps_per_frame_max: self.steps_max,
            latency_ms: self.smoothness.latency_ms(),
            latency_worst_ms: self.smoothness.latency_worst_ms(),
            judder_ms: self.smoothness.judder_ms(),
            judder_worst_ms: self.smoothness.judder_worst_ms(),
            display_latency_ms: at_screen.latency_ms(),
            display_latency_worst_ms: at_screen.latency_worst_ms(),
            display_judder_ms: at_screen.judder_ms(),
            display_judder_worst_ms: at_screen.judder_worst_ms(),
            display_judged: (at_screen.judged(), at_screen.judder_terms()),
            refreshes: self.screen.refreshes(),
            forecast: self.screen.forecast(),
            position_error_max: self.position_error_max,
            energy_drift: scene.energy_drift(),
            sim_time_s: secs_from_ns(end.time),
            exploded: scene.exploded(),
            state_hash: end.hash64(),
        }
    }
}

#[cfg(test)]
mod tests;

//! A loop too slow to show the stutter the lab is about. At 10 frames per second each
//! frame takes about five steps, so whether a frame takes one step more or less (the
//! accumulator's stutter) is lost in the motion, and every strategy looks alike. Slowing
//! the game's time until a frame advances it by one 60 Hz frame shows each frame as a
//! 60 Hz display would, stutter included.

use super::history::SpanStats;
use crate::timestep::{MIN_TIME_SCALE, Nanos};

/// Below this rate, in frames per second, the loop counts as slow: each frame spans more
/// than two 60 Hz frames.
pub const SLOW_LOOP_FPS: f64 = 30.0;

/// The display rate the offer shows each frame as, Hz.
pub const SLOW_LOOP_TARGET_HZ: f64 = 60.0;

/// The loop must have run this long before it is judged: the first frames are slow
/// everywhere (shaders compile, the window settles).
pub const SLOW_LOOP_SETTLE: Nanos = 2_000_000_000;

/// A slow loop and the time scale that shows each of its frames as one 60 Hz frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SlowLoop {
    /// Frames per second over the last second.
    pub fps: f64,
    /// Mean steps per frame over the last second.
    pub steps_per_frame: f64,
    /// The time scale to offer.
    pub time_scale: f64,
}

/// What the slow-loop offer is judged on besides the frame rate, as plain values: the
/// loop's time scale and per-step load, whether it is paused or replaying, and how long it
/// has run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoopState {
    /// The time scale in force.
    pub time_scale: f64,
    /// The per-step load in force, ms.
    pub step_cost_ms: f64,
    /// Whether time is stopped.
    pub paused: bool,
    /// Whether the frames are a recording's.
    pub replaying: bool,
    /// How long the loop has run, on its stopwatch.
    pub now: Nanos,
}

impl SlowLoop {
    /// The offer for a loop in `state` whose focused pane's readouts are `stats`: `Some`
    /// when it has run a while at full speed (time scale 1, not paused) with no per-step
    /// load and draws fewer than [`SLOW_LOOP_FPS`] frames a second. A per-step load is left
    /// alone: slowing time there changes the load it studies. A per-frame load is a slow
    /// renderer by design, so it counts. A replay is never offered it: its frames are the
    /// recording's, not this renderer's.
    pub fn judge(state: &LoopState, stats: &SpanStats) -> Option<Self> {
        Self::judge_below(state, stats, SLOW_LOOP_FPS)
    }

    /// `Self::judge` with `below_fps` frames per second counting as slow instead of
    /// [`SLOW_LOOP_FPS`] (the guided tour's stutter chapters want each frame to carry
    /// about one step).
    pub fn judge_below(state: &LoopState, stats: &SpanStats, below_fps: f64) -> Option<Self> {
        let judged = state.time_scale == 1.0
            && state.step_cost_ms == 0.0
            && !state.paused
            && !state.replaying
            && state.now >= SLOW_LOOP_SETTLE
            && stats.frames >= 2
            && stats.fps > 0.0;
        (judged && stats.fps < below_fps).then(|| Self {
            fps: stats.fps,
            steps_per_frame: stats.steps_mean,
            time_scale: (stats.fps / SLOW_LOOP_TARGET_HZ).clamp(MIN_TIME_SCALE, 1.0),
        })
    }
}

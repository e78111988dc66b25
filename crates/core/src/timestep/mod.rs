//! Time accounting: how real frame time becomes simulation steps.
//!
//! A game loop measures how much real time passed since the last frame and must decide how
//! far to advance the simulation. The lab implements six textbook answers ([`Strategy`]):
//!
//! - **fixed** takes one step of `dt` per frame. Simple and deterministic, but the simulation
//!   runs as fast as the display: at 60 fps a 50 Hz simulation runs 1.2x too fast.
//! - **variable** takes one step of the measured frame time. Always in sync with real time,
//!   but the physics now depends on the frame rate: a long frame makes a stiff spring explode.
//! - **semi-fixed** splits the frame time into steps no longer than `dt` (the last one is the
//!   remainder). Stable, but step sizes still vary, so runs are not reproducible.
//! - **accumulator** adds frame time to an accumulator and takes whole `dt` steps while it
//!   holds at least `dt`, carrying the rest. Deterministic, but the drawn state lags real
//!   time by the leftover (0..dt), which changes every frame: the motion stutters.
//! - **interpolated** draws `lerp(previous, current, alpha)` with `alpha = accumulator / dt`:
//!   smooth, at the price of always showing the world one `dt` late.
//! - **extrapolated** draws the current state advanced by a throw-away step of the leftover:
//!   no added latency, but the prediction overshoots when something changes (a kick).
//!
//! and four variants engines use or are adopting:
//!
//! - **velocity-extrapolated** draws `S_N + alpha·dt·v_N`: the current state moved along
//!   its velocity (Unity's Extrapolate, bevy_transform_interpolation's extrapolation). It
//!   differs from `extrapolated`'s render tick in what it runs: no physics, only a straight
//!   line, so it is cheap but misses every force over the leftover (the spring's pull):
//!   it overshoots where the motion curves, by at most `½·|a|·acc²`.
//! - **hermite** draws the cubic Hermite curve from the previous to the current state
//!   through both states' velocities (scaled by the step), at the same point in time as
//!   `interpolated`: one `dt` behind, but on a curve instead of the chord.
//! - **equal-substeps** splits each frame into `n = ceil(frame / dt)` equal steps, none
//!   longer than `dt` (Unreal's substepping): nothing carried, nothing shown late, but the
//!   step size follows the frame time.
//! - **display-time** steps as the accumulator does but draws the state at the frame's
//!   predicted display time less a steady latency (`pacing.rs`), where every other strategy
//!   draws at the CPU's `T`: the motion on screen advances as the display times do, so a
//!   CPU whose frame starts wobble around the refresh no longer shows the wobble. The
//!   prediction comes from the display ([`crate::display::Forecast`]); on the `cpu` display
//!   there is none, and it draws as `interpolated` does.
//!
//! Beside them, [`EnginePreset`]s are the loops real engines run (Godot, Bevy, Unity,
//! Unreal, Fiedler's article, Glaiel's frame timer, Matter.js), each with its own step,
//! guards and drawing; a [`Strategy::Preset`] runs one through the same [`Engine`].
//!
//! The shape: a strategy is a stepping rule plus a view. Its [`StepRule`] turns a frame's
//! time into steps (fixed, variable, semi-fixed, the clamped accumulator, equal substeps,
//! or an engine's own loop); its [`View`] says which state is drawn (the latest, a blend
//! of the last two, an extrapolation, ...). The clamped accumulator is written once
//! (`rules.rs`) and serves the six accumulator strategies under the configured
//! [`StepLimits`] and the Bevy, Unity and Fiedler presets under their engines' constants;
//! its split of owed time into steps, and equal substeps', are `split.rs`, which Unreal's
//! loop shares.
//! Every fact about a strategy (id, name, number key, [`Family`], known problem, rule,
//! view) is one row of the strategy table ([`Strategy::facts`]). The [`Engine`] runs the
//! rule and keeps the ledger: the accumulator, the simulated and presented time, what was
//! dropped and the lead.
//!
//! All time is integer nanoseconds ([`Nanos`]); nothing is accumulated in floats, so
//! `steps * dt + accumulator + dropped == total frame time` holds exactly for the accumulator
//! family (and the engines' own rules keep `steps + accumulator + dropped == total + lead`).
//! The spiral guards of [`TimestepConfig`] apply to every lab strategy (a preset keeps its
//! engine's own): `max_frame_time` clamps a frame before it is consumed, `max_steps` caps
//! the steps of one frame; what they drop is counted. Before the engine, [`FrameClock`]
//! applies pause, single step and time scale, and [`FrameFilters`] optionally snap or
//! average frame times without changing their long-run total.

mod clock;
mod config;
mod engine;
mod filter;
mod pacing;
mod preset;
mod rules;
mod split;
mod strategy;

#[cfg(test)]
pub(crate) use clock::steady_frames;
pub use clock::{DEFAULT_SINGLE_STEP_FRAME, FrameClock, MAX_TIME_SCALE, MIN_TIME_SCALE};
pub use config::{
    DEFAULT_MAX_FRAME_TIME, DEFAULT_RATE_HZ, MAX_MAX_FRAME_TIME, MAX_MAX_STEPS, MAX_RATE_HZ,
    MAX_STEPS, MIN_RATE_HZ, NANOS_PER_SECOND, RATE_PRESETS_HZ, RangeError, TimestepConfig,
    ms_from_ns, ns_from_ms, secs_from_ns,
};
pub use engine::{Drawing, Engine, FrameReport, StepPlan, View, ViewKind};
pub use filter::{
    AverageFilter, DEFAULT_SNAP_TOLERANCE, FILTER_SPECS, FilterSpec, FrameFilters,
    MAX_AVERAGE_FRAMES, MAX_SNAP_TOLERANCE_MS, SNAP_TOLERANCE_FRACTION, SnapFilter,
};
pub use pacing::{PACING_FRAMES, Paced, Pacing, SLEW_DIVISOR};
pub use preset::{EngineLoop, EnginePreset, UnknownEnginePreset};
pub use rules::{Alpha, StepLimits, StepRule};
pub use strategy::{Family, Strategy, StrategyFacts, UnknownStrategy};

/// A time or duration in whole nanoseconds.
pub type Nanos = u64;

/// `t + shift` ns, clamped to the representable times.
pub fn shifted(t: Nanos, shift: i64) -> Nanos {
    let moved = (i128::from(t) + i128::from(shift)).clamp(0, i128::from(Nanos::MAX));
    Nanos::try_from(moved).unwrap_or(Nanos::MAX)
}

#[cfg(test)]
mod tests;

//! Engine presets: the loops real engines run, each its engine's own rule with its own
//! step, guards and drawing, so the lab can put "my engine" beside the textbook loops.
//!
//! Every preset follows `docs/engines.md`, which cites the source (Godot, Bevy,
//! bevy_transform_interpolation, Glaiel's FrameTimingControl, Matter.js) or, for the
//! closed engines, the vendor documentation (Unity, Unreal; see each file for which parts
//! are documented and which are the lab's model). A preset is data (constants named after
//! the engine's own settings, with their defaults) and a rule: the clamped accumulator with
//! those constants (Bevy, Unity, Fiedler), or a loop of its own (Godot, Unreal, Glaiel,
//! Matter.js) that an [`EngineLoop`] runs, keeping its state and turning one frame time
//! into a [`PresetFrame`]. What each preset is called, draws and gets wrong is its row of
//! the strategy table ([`super::Strategy::facts`]).
//!
//! Time stays integer nanoseconds wherever the engine's rule allows it (Bevy, Unity,
//! Unreal, Fiedler, Glaiel). Godot and Matter.js compute in `f64` (seconds, milliseconds);
//! their files repeat the source's operations in its order so the decisions match the
//! engine bit for bit, and only what they report (step sizes, carried and dropped time) is
//! converted to nanoseconds. Whatever a preset throws away is reported as dropped; time a
//! rule invents or loses by snapping, smoothing or filtering frame times is the
//! [`super::Engine`]'s lead.

pub(super) mod bevy;
pub(super) mod fiedler;
pub(super) mod glaiel;
pub(super) mod godot;
pub(super) mod matterjs;
pub(super) mod unity;
pub(super) mod unreal;

use super::{Nanos, StepPlan, StepRule, Strategy, StrategyFacts};

/// An engine's own loop, as the lab runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EnginePreset {
    /// Godot 4 defaults: 60 ticks/s, at most 8 per frame, `physics_jitter_fix` 0.5
    /// hysteresis, delta smoothing on; nodes drawn at their last tick.
    Godot,
    /// Godot 4 with `physics_interpolation` on: jitter fix forced to 0, the pose drawn
    /// between the last two ticks at `Engine.get_physics_interpolation_fraction()`.
    GodotInterpolated,
    /// Bevy: `Time<Fixed>` at 64 Hz from `Time<Virtual>` clamped to 250 ms; the last fixed
    /// step drawn.
    Bevy,
    /// Bevy as its `physics_in_fixed_timestep` example draws: `previous.lerp(current,
    /// overstep_fraction)`.
    BevyInterpolated,
    /// Unity: `FixedUpdate` at 50 Hz, `Time.maximumDeltaTime` 1/3 s; `Rigidbody.interpolation`
    /// None.
    Unity,
    /// Unity with `RigidbodyInterpolation.Interpolate`: one physics update behind.
    UnityInterpolate,
    /// Unity with `RigidbodyInterpolation.Extrapolate`: the last pose moved along its
    /// velocity.
    UnityExtrapolate,
    /// Unreal with physics substepping: the frame in equal substeps of at most 1/60 s, at
    /// most 6, the rest dropped.
    UnrealSubstep,
    /// Unreal's default: one physics step per frame of at most 1/30 s, the rest dropped.
    Unreal,
    /// Unreal with async physics (`bTickPhysicsAsync`): 1/30 s steps from an accumulator,
    /// drawn interpolated two steps behind.
    UnrealAsync,
    /// Glenn Fiedler's "Fix Your Timestep!" final loop: 100 Hz, 250 ms clamp,
    /// interpolation.
    Fiedler,
    /// Tyler Glaiel's frame timer: vsync snapping, 4-frame averaging, resync, 60 Hz updates,
    /// interpolation.
    Glaiel,
    /// Matter.js 0.20's `Runner`: 1000/60 ms steps from a buffer with a 1.5-step margin,
    /// smoothed and snapped frame time, at most 2 updates per frame; drawn before the
    /// frame's updates.
    Matterjs,
    /// Matter.js 0.19's `Runner`: one variable step per frame, the minimum of the last 60
    /// frame deltas clamped to 16.7–33.3 ms.
    Matterjs019,
}

impl EnginePreset {
    /// Every preset, in the order the lab lists them.
    pub const ALL: [EnginePreset; 14] = [
        EnginePreset::Godot,
        EnginePreset::GodotInterpolated,
        EnginePreset::Bevy,
        EnginePreset::BevyInterpolated,
        EnginePreset::Unity,
        EnginePreset::UnityInterpolate,
        EnginePreset::UnityExtrapolate,
        EnginePreset::UnrealSubstep,
        EnginePreset::Unreal,
        EnginePreset::UnrealAsync,
        EnginePreset::Fiedler,
        EnginePreset::Glaiel,
        EnginePreset::Matterjs,
        EnginePreset::Matterjs019,
    ];

    /// The preset's row of the strategy table.
    pub fn facts(self) -> &'static StrategyFacts {
        Strategy::Preset(self).facts()
    }

    /// The stable id used on the command line and in reports.
    pub fn id(self) -> &'static str {
        self.facts().id
    }

    /// A short human name.
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// The preset's known weakness, in one line.
    pub fn known_problem(self) -> &'static str {
        self.facts().known_problem
    }

    /// Where the rule comes from: `source` (read in the engine's code), `documented` (vendor
    /// documentation) or, for parts of closed engines, `model` (the lab's reading).
    pub fn provenance(self) -> &'static str {
        self.facts().provenance.unwrap_or("")
    }
}

crate::id::stable_ids!(EnginePreset, UnknownEnginePreset, "engine preset");

/// What an engine's own loop did with one frame's time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PresetFrame {
    /// The frame time after the preset's own clamp on it (what it took in).
    pub used: Nanos,
    /// Real time the preset threw away this frame (clamps, caps, resyncs).
    pub dropped: Nanos,
    /// The steps to take.
    pub steps: StepPlan,
    /// Real time the preset carries to the next frame, ns.
    pub accumulator: Nanos,
    /// The preset's own fraction of a step (Godot's physics interpolation fraction,
    /// Glaiel's and Unreal's async alpha, ...); 0 where it has none.
    pub fraction: f64,
}

/// An engine's own loop (Godot, Unreal, Glaiel, Matter.js): its step and the state it keeps
/// between frames. The engines whose loop is the clamped accumulator (Bevy, Unity, Fiedler)
/// need none: [`StepRule::ClampedAccumulator`] with their constants.
#[derive(Clone, Debug)]
pub struct EngineLoop {
    /// Its step, or the largest step it takes.
    dt: Nanos,
    /// The rule and its state.
    state: LoopState,
}

/// An engine loop's rule and state.
#[derive(Clone, Debug)]
pub(crate) enum LoopState {
    /// Godot's `MainTimerSync`.
    Godot(Box<godot::MainTimerSync>),
    /// Unreal's physics tick (sync or async).
    Unreal(unreal::PhysicsTick),
    /// Glaiel's frame timer.
    Glaiel(glaiel::FrameTimer),
    /// Matter.js's runner (0.20 or 0.19).
    Matterjs(Box<matterjs::Runner>),
}

impl EngineLoop {
    /// The loop at its start, with its step, as a stepping rule.
    fn rule(dt: Nanos, state: LoopState) -> StepRule {
        StepRule::EngineLoop(Self { dt, state })
    }

    /// Its step, or the largest step it takes.
    pub fn dt(&self) -> Nanos {
        self.dt
    }

    /// The rule and its state.
    #[cfg(test)]
    pub(crate) fn state(&self) -> &LoopState {
        &self.state
    }

    /// Takes one frame of `frame_time` (never 0: a paused frame does not reach a preset).
    pub(crate) fn advance(&mut self, frame_time: Nanos) -> PresetFrame {
        match &mut self.state {
            LoopState::Godot(timer) => timer.advance(frame_time),
            LoopState::Unreal(tick) => tick.advance(frame_time),
            LoopState::Glaiel(timer) => timer.advance(frame_time),
            LoopState::Matterjs(runner) => runner.advance(frame_time),
        }
    }
}

/// Nanoseconds of a time in seconds computed in `f64`, rounded, never negative.
fn ns_from_secs_f64(seconds: f64) -> Nanos {
    (seconds * 1e9).round().max(0.0) as Nanos
}

/// Nanoseconds of a time in milliseconds computed in `f64`, rounded, never negative.
fn ns_from_ms_f64(ms: f64) -> Nanos {
    (ms * 1e6).round().max(0.0) as Nanos
}

#[cfg(test)]
mod tests;

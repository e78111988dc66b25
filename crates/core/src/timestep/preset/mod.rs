//! Engine presets: the loops real engines run, each its engine's own rule with its own
//! step, guards and drawing, so the lab can put "my engine" beside the textbook loops.
//!
//! Every preset follows `docs/engines.md`, which cites the source (Godot, Bevy,
//! bevy_transform_interpolation, Glaiel's FrameTimingControl, Matter.js) or, for the
//! closed engines, the vendor documentation (Unity, Unreal; see each file for which parts
//! are documented and which are the lab's model). A preset is data (constants named after
//! the engine's own settings, with their defaults) and a small rule: [`PresetLoop`] keeps
//! the rule's state and turns one frame time into a [`PresetFrame`].
//!
//! Time stays integer nanoseconds wherever the engine's rule allows it (Bevy, Unity,
//! Unreal, Fiedler, Glaiel). Godot and Matter.js compute in `f64` (seconds, milliseconds);
//! their files repeat the source's operations in its order so the decisions match the
//! engine bit for bit, and only what they report (step sizes, carried and dropped time) is
//! converted to nanoseconds. Whatever a preset throws away is reported as dropped; time a
//! rule invents or loses by snapping, smoothing or filtering frame times is the
//! [`super::Engine`]'s lead.

mod bevy;
mod fiedler;
mod glaiel;
mod godot;
mod matterjs;
mod unity;
mod unreal;

use super::{Nanos, StepPlan};

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

    /// The stable id used on the command line and in reports.
    pub fn id(self) -> &'static str {
        match self {
            EnginePreset::Godot => "godot",
            EnginePreset::GodotInterpolated => "godot-interpolated",
            EnginePreset::Bevy => "bevy",
            EnginePreset::BevyInterpolated => "bevy-interpolated",
            EnginePreset::Unity => "unity",
            EnginePreset::UnityInterpolate => "unity-interpolate",
            EnginePreset::UnityExtrapolate => "unity-extrapolate",
            EnginePreset::UnrealSubstep => "unreal-substep",
            EnginePreset::Unreal => "unreal",
            EnginePreset::UnrealAsync => "unreal-async",
            EnginePreset::Fiedler => "fiedler",
            EnginePreset::Glaiel => "glaiel",
            EnginePreset::Matterjs => "matterjs",
            EnginePreset::Matterjs019 => "matterjs-0.19",
        }
    }

    /// A short human name.
    pub fn name(self) -> &'static str {
        match self {
            EnginePreset::Godot => "Godot 4 (jitter fix 0.5)",
            EnginePreset::GodotInterpolated => "Godot 4, physics interpolation",
            EnginePreset::Bevy => "Bevy fixed timestep",
            EnginePreset::BevyInterpolated => "Bevy, interpolated by overstep",
            EnginePreset::Unity => "Unity FixedUpdate",
            EnginePreset::UnityInterpolate => "Unity, Rigidbody Interpolate",
            EnginePreset::UnityExtrapolate => "Unity, Rigidbody Extrapolate",
            EnginePreset::UnrealSubstep => "Unreal, physics substepping",
            EnginePreset::Unreal => "Unreal, one step per frame",
            EnginePreset::UnrealAsync => "Unreal, async physics",
            EnginePreset::Fiedler => "Fix Your Timestep! (Fiedler)",
            EnginePreset::Glaiel => "Glaiel's frame timer",
            EnginePreset::Matterjs => "Matter.js 0.20 Runner",
            EnginePreset::Matterjs019 => "Matter.js 0.19 Runner",
        }
    }

    /// The preset's known weakness, in one line.
    pub fn known_problem(self) -> &'static str {
        match self {
            EnginePreset::Godot => {
                "hysteresis evens out steps but the last tick is drawn: stutter off 60 Hz"
            }
            EnginePreset::GodotInterpolated => "one tick behind; tick counts per frame vary",
            EnginePreset::Bevy => "the last fixed step is drawn: 64 Hz on 60 Hz stutters",
            EnginePreset::BevyInterpolated => "one 15.625 ms step behind real time",
            EnginePreset::Unity => "the last physics pose is drawn: 50 Hz on 60 Hz stutters",
            EnginePreset::UnityInterpolate => "one fixedDeltaTime (20 ms) behind",
            EnginePreset::UnityExtrapolate => "overshoots where the motion curves or is hit",
            EnginePreset::UnrealSubstep => "frame-sized substeps: not deterministic",
            EnginePreset::Unreal => "one variable step: physics follows the frame rate",
            EnginePreset::UnrealAsync => "two async steps (66.7 ms) behind",
            EnginePreset::Fiedler => "one 10 ms step behind real time",
            EnginePreset::Glaiel => "snapping and averaging invent or lose time",
            EnginePreset::Matterjs => {
                "no interpolation, drawn a frame late; 2 updates a frame at most"
            }
            EnginePreset::Matterjs019 => {
                "simulation speed follows the display above 60 Hz (clamped up to 16.7 ms)"
            }
        }
    }

    /// Whether the preset keeps real time it has not simulated yet for later frames.
    pub fn carries_accumulator(self) -> bool {
        !matches!(
            self,
            EnginePreset::UnrealSubstep | EnginePreset::Unreal | EnginePreset::Matterjs019
        )
    }

    /// The preset's step: its fixed step, or (for the variable-step presets: Unreal's and
    /// Matter.js 0.19's) the largest step it takes.
    pub fn dt(self) -> Nanos {
        match self {
            EnginePreset::Godot | EnginePreset::GodotInterpolated => godot::TICK,
            EnginePreset::Bevy | EnginePreset::BevyInterpolated => bevy::DEFAULT_TIMESTEP,
            EnginePreset::Unity
            | EnginePreset::UnityInterpolate
            | EnginePreset::UnityExtrapolate => unity::FIXED_DELTA_TIME,
            EnginePreset::UnrealSubstep => unreal::MAX_SUBSTEP_DELTA_TIME,
            EnginePreset::Unreal => unreal::MAX_PHYSICS_DELTA_TIME,
            EnginePreset::UnrealAsync => unreal::ASYNC_FIXED_TIME_STEP,
            EnginePreset::Fiedler => fiedler::DT,
            EnginePreset::Glaiel => glaiel::FIXED_DELTATIME,
            EnginePreset::Matterjs => matterjs::DELTA,
            EnginePreset::Matterjs019 => matterjs::MAX_DELTA,
        }
    }

    /// What the preset draws.
    pub fn view(self) -> PresetView {
        match self {
            EnginePreset::Godot
            | EnginePreset::Bevy
            | EnginePreset::Unity
            | EnginePreset::UnrealSubstep
            | EnginePreset::Unreal => PresetView::Latest,
            EnginePreset::GodotInterpolated
            | EnginePreset::BevyInterpolated
            | EnginePreset::UnityInterpolate
            | EnginePreset::Fiedler
            | EnginePreset::Glaiel => PresetView::Interpolate,
            EnginePreset::UnityExtrapolate => PresetView::Extrapolate,
            EnginePreset::UnrealAsync => PresetView::TwoStepsBehind,
            EnginePreset::Matterjs | EnginePreset::Matterjs019 => PresetView::FrameStart,
        }
    }

    /// Where the rule comes from: `source` (read in the engine's code), `documented` (vendor
    /// documentation) or, for parts of closed engines, `model` (the lab's reading).
    pub fn provenance(self) -> &'static str {
        match self {
            EnginePreset::Godot
            | EnginePreset::GodotInterpolated
            | EnginePreset::Bevy
            | EnginePreset::BevyInterpolated
            | EnginePreset::Glaiel
            | EnginePreset::Matterjs
            | EnginePreset::Matterjs019 => "source",
            EnginePreset::Fiedler => "published code",
            EnginePreset::Unity
            | EnginePreset::UnityInterpolate
            | EnginePreset::UnityExtrapolate => "documented limits, lab's model of the loop",
            EnginePreset::UnrealSubstep | EnginePreset::Unreal | EnginePreset::UnrealAsync => {
                "documented substepping, third-party copies of the code, lab's model"
            }
        }
    }
}

crate::id::stable_ids!(EnginePreset, UnknownEnginePreset, "engine preset");

/// Which state a preset draws, after its steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PresetView {
    /// The state after the last step.
    Latest,
    /// `lerp(previous, current, fraction)`: one step behind.
    Interpolate,
    /// The last state moved along its velocity for the carried time (`S_N + α·h·v_N`).
    Extrapolate,
    /// Between the states two and one steps back, at the carried time: two steps behind.
    TwoStepsBehind,
    /// The state as it was before this frame's steps (the renderer drew first).
    FrameStart,
}

/// What a preset did with one frame's time.
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
    /// The preset's own fraction of a step (Godot's physics interpolation fraction, Bevy's
    /// overstep fraction, Unity's and Fiedler's alpha, ...); 0 where it has none.
    pub fraction: f64,
}

/// A preset's rule with its state.
#[derive(Clone, Debug)]
pub(crate) enum PresetLoop {
    /// Godot's `MainTimerSync`.
    Godot(Box<godot::MainTimerSync>),
    /// Bevy's `Time<Virtual>` and `Time<Fixed>`.
    Bevy(bevy::FixedTime),
    /// Unity's fixed-update catch-up.
    Unity(unity::FixedUpdates),
    /// Unreal's physics tick (sync or async).
    Unreal(unreal::PhysicsTick),
    /// Fiedler's final loop.
    Fiedler(fiedler::FinalLoop),
    /// Glaiel's frame timer.
    Glaiel(glaiel::FrameTimer),
    /// Matter.js's runner (0.20 or 0.19).
    Matterjs(Box<matterjs::Runner>),
}

impl PresetLoop {
    /// The rule at its start.
    pub fn new(preset: EnginePreset) -> Self {
        match preset {
            EnginePreset::Godot => Self::Godot(Box::new(godot::MainTimerSync::new(
                godot::PHYSICS_JITTER_FIX,
            ))),
            // Turning physics interpolation on sets the jitter fix to 0 (SceneTree).
            EnginePreset::GodotInterpolated => {
                Self::Godot(Box::new(godot::MainTimerSync::new(0.0)))
            }
            EnginePreset::Bevy | EnginePreset::BevyInterpolated => {
                Self::Bevy(bevy::FixedTime::default())
            }
            EnginePreset::Unity
            | EnginePreset::UnityInterpolate
            | EnginePreset::UnityExtrapolate => Self::Unity(unity::FixedUpdates::default()),
            EnginePreset::UnrealSubstep => {
                Self::Unreal(unreal::PhysicsTick::Substepping { carry: 0 })
            }
            EnginePreset::Unreal => Self::Unreal(unreal::PhysicsTick::SingleStep),
            EnginePreset::UnrealAsync => {
                Self::Unreal(unreal::PhysicsTick::Async { accumulator: 0 })
            }
            EnginePreset::Fiedler => Self::Fiedler(fiedler::FinalLoop::default()),
            EnginePreset::Glaiel => Self::Glaiel(glaiel::FrameTimer::default()),
            EnginePreset::Matterjs => Self::Matterjs(Box::new(matterjs::Runner::v0_20())),
            EnginePreset::Matterjs019 => Self::Matterjs(Box::new(matterjs::Runner::v0_19())),
        }
    }

    /// Takes one frame of `frame_time` (never 0: a paused frame does not reach a preset).
    pub fn advance(&mut self, frame_time: Nanos) -> PresetFrame {
        match self {
            Self::Godot(timer) => timer.advance(frame_time),
            Self::Bevy(time) => time.advance(frame_time),
            Self::Unity(updates) => updates.advance(frame_time),
            Self::Unreal(tick) => tick.advance(frame_time),
            Self::Fiedler(final_loop) => final_loop.advance(frame_time),
            Self::Glaiel(timer) => timer.advance(frame_time),
            Self::Matterjs(runner) => runner.advance(frame_time),
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

//! The person's hands: movement keys and mouse look as events stamped with the stopwatch
//! time the app received them, the four ways a game loop delivers them to its fixed steps,
//! and what each way costs (latency, lost and duplicated inputs, held-key accuracy).
//!
//! An [`InputEvent`] is what the shell (or a script, or a recording) hands the loop. Each
//! pane routes the events of a frame to its steps under every [`InputPolicy`] at once: the
//! chosen policy drives the pane's player, the other three are measured alongside, so the
//! panel and `bench` compare them on the same frames ([`InputDesk`]).

mod desk;
mod meter;
mod script;

pub use desk::{FrameClockFacts, InputDesk, StepInput};
pub use meter::{InputStats, PolicyStats};
pub use script::{InputScript, ScriptCursor, ScriptError, ScriptEvents};

use crate::timestep::Nanos;

/// A movement key, whatever key of the keyboard it is bound to (WASD or the arrows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKey {
    /// Walk the way the player looks.
    Forward,
    /// Walk backwards.
    Back,
    /// Step to the left.
    Left,
    /// Step to the right.
    Right,
}

impl MoveKey {
    /// Every key.
    pub const ALL: [MoveKey; 4] = [
        MoveKey::Forward,
        MoveKey::Back,
        MoveKey::Left,
        MoveKey::Right,
    ];

    /// The stable id used in recordings.
    pub fn id(self) -> &'static str {
        match self {
            MoveKey::Forward => "forward",
            MoveKey::Back => "back",
            MoveKey::Left => "left",
            MoveKey::Right => "right",
        }
    }

    /// Its bit in a [`KeySet`].
    fn bit(self) -> u8 {
        1 << self as u8
    }

    /// Its index in per-key tables.
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

crate::id::stable_ids!(MoveKey, UnknownMoveKey, "movement key");

/// The movement keys held, as the simulation sees them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KeySet(u8);

impl KeySet {
    /// No key held.
    pub const NONE: KeySet = KeySet(0);

    /// Whether `key` is held.
    pub fn contains(self, key: MoveKey) -> bool {
        self.0 & key.bit() != 0
    }

    /// The set with `key` held (`down`) or released.
    pub fn with(self, key: MoveKey, down: bool) -> Self {
        if down {
            KeySet(self.0 | key.bit())
        } else {
            KeySet(self.0 & !key.bit())
        }
    }

    /// Whether no key is held.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The bits, for hashing.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// `(forward, right)` in `{-1, 0, 1}`: opposite keys cancel.
    pub fn axes(self) -> (f64, f64) {
        let axis = |plus: MoveKey, minus: MoveKey| {
            f64::from(u8::from(self.contains(plus))) - f64::from(u8::from(self.contains(minus)))
        };
        (
            axis(MoveKey::Forward, MoveKey::Back),
            axis(MoveKey::Right, MoveKey::Left),
        )
    }
}

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InputKind {
    /// A movement key went down.
    Press(MoveKey),
    /// A movement key came up.
    Release(MoveKey),
    /// The mouse turned the view: yaw to the right and pitch up, radians.
    Look {
        /// Turn to the right, radians.
        yaw_rad: f64,
        /// Turn upwards, radians.
        pitch_rad: f64,
    },
}

impl InputKind {
    /// This kind with `other`'s turn added, when both are turns (mouse motion arriving
    /// faster than frames is one turn per frame).
    pub fn merged(self, other: InputKind) -> Option<InputKind> {
        match (self, other) {
            (
                InputKind::Look { yaw_rad, pitch_rad },
                InputKind::Look {
                    yaw_rad: more_yaw,
                    pitch_rad: more_pitch,
                },
            ) => Some(InputKind::Look {
                yaw_rad: yaw_rad + more_yaw,
                pitch_rad: pitch_rad + more_pitch,
            }),
            _ => None,
        }
    }
}

/// Where the player looks: yaw about the vertical (0 looks along +x, growing to the
/// right) and pitch above the horizon, radians.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Look {
    /// Turn from +x towards +z, radians, kept in `[0, 2π)`.
    pub yaw: f64,
    /// Above the horizon, radians, within ±[`MAX_PITCH_RAD`].
    pub pitch: f64,
}

/// How far the player can look up or down: just short of straight, so "forward" on the
/// ground always has a direction.
pub const MAX_PITCH_RAD: f64 = 1.5;

impl Look {
    /// This look turned by `yaw` to the right and `pitch` up (pitch held within the
    /// limits, yaw wrapped).
    pub fn turned(self, yaw: f64, pitch: f64) -> Self {
        let turned = Self {
            yaw: (self.yaw + yaw).rem_euclid(std::f64::consts::TAU),
            pitch: (self.pitch + pitch).clamp(-MAX_PITCH_RAD, MAX_PITCH_RAD),
        };
        if turned.yaw.is_finite() && turned.pitch.is_finite() {
            turned
        } else {
            self
        }
    }

    /// The unit vector looked along (y up).
    pub fn direction(self) -> glam::DVec3 {
        let (sin_yaw, cos_yaw) = libm::sincos(self.yaw);
        let (sin_pitch, cos_pitch) = libm::sincos(self.pitch);
        glam::DVec3::new(cos_pitch * cos_yaw, sin_pitch, cos_pitch * sin_yaw)
    }

    /// `(forward, right)` on the ground, unit vectors.
    pub fn ground_axes(self) -> (glam::DVec3, glam::DVec3) {
        let (sin_yaw, cos_yaw) = libm::sincos(self.yaw);
        (
            glam::DVec3::new(cos_yaw, 0.0, sin_yaw),
            glam::DVec3::new(-sin_yaw, 0.0, cos_yaw),
        )
    }

    /// The look after `kind`, if it is a turn.
    pub fn after(self, kind: InputKind) -> Self {
        match kind {
            InputKind::Look { yaw_rad, pitch_rad } => self.turned(yaw_rad, pitch_rad),
            _ => self,
        }
    }
}

/// One input, stamped with the stopwatch time the app received it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InputEvent {
    /// Stopwatch time it was received, ns (the live loop's clock; a trace's running sum
    /// of frame times in `bench`).
    pub at: Nanos,
    /// What it was.
    pub kind: InputKind,
}

/// How the inputs read in a render frame reach the fixed steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InputPolicy {
    /// Read once per render frame and applied to every step of that frame: a frame of
    /// three steps applies a turn three times (duplicated). A frame with no step keeps
    /// what it read for the next frame that steps (the state polled is still there).
    EveryStep,
    /// Read once per render frame and applied to the frame's first step only: a frame
    /// that takes no step loses it (Unity's `GetKeyDown` read in `FixedUpdate`, bevy
    /// issue 6183).
    FirstStep,
    /// Queued until a step consumes it: never lost, never duplicated, sometimes a frame
    /// or more late.
    #[default]
    Buffered,
    /// Queued with its time and applied inside the step whose simulated interval
    /// contains it, at that instant of the step: a key held 500 ms moves the player for
    /// 500 ms of simulated time.
    Timestamped,
}

impl InputPolicy {
    /// Every policy, in the order the lab presents them.
    pub const ALL: [InputPolicy; 4] = [
        InputPolicy::EveryStep,
        InputPolicy::FirstStep,
        InputPolicy::Buffered,
        InputPolicy::Timestamped,
    ];

    /// The stable id used on the command line, in reports and recordings.
    pub fn id(self) -> &'static str {
        match self {
            InputPolicy::EveryStep => "every-step",
            InputPolicy::FirstStep => "first-step",
            InputPolicy::Buffered => "buffered",
            InputPolicy::Timestamped => "timestamped",
        }
    }

    /// A short name for the panel.
    pub fn label(self) -> &'static str {
        match self {
            InputPolicy::EveryStep => "every step",
            InputPolicy::FirstStep => "first step only",
            InputPolicy::Buffered => "buffered",
            InputPolicy::Timestamped => "timestamped",
        }
    }

    /// One line on what it does, for the panel's hover and `--help`.
    pub fn explanation(self) -> &'static str {
        match self {
            InputPolicy::EveryStep => {
                "read once per render frame, applied to every step of it: duplicated on \
                 frames of several steps"
            }
            InputPolicy::FirstStep => {
                "read once per render frame, applied to its first step only: lost on frames \
                 that take no step"
            }
            InputPolicy::Buffered => {
                "queued until a step consumes it: never lost or duplicated, sometimes late"
            }
            InputPolicy::Timestamped => {
                "applied inside the step whose simulated interval contains its time, at \
                 that instant: the most exact"
            }
        }
    }

    /// Its index in per-policy tables.
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

crate::id::stable_ids!(InputPolicy, UnknownInputPolicy, "input policy");

#[cfg(test)]
mod tests;

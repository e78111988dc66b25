//! The player the person walks around: a first-person body on the ground, moved by the
//! movement keys at a set speed in the direction it looks, turned by the mouse.

use glam::DVec3;

use super::curve::hermite;
use crate::input::{InputKind, InputPolicy, KeySet, Look, StepInput};
use crate::timestep::{Nanos, RangeError, secs_from_ns};
use crate::world::GROUND_HEIGHT_M;

/// Walking speed, m/s: a brisk game walk, 8 cm per 50 Hz step.
pub const DEFAULT_PLAYER_SPEED_MPS: f64 = 4.0;

/// Height of the eye above the ground, metres.
pub const EYE_HEIGHT_M: f64 = 1.7;

/// The player's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerParams {
    /// Walking speed, m/s (diagonals are as fast as straight lines).
    pub speed_mps: f64,
    /// Where the eye starts.
    pub start_eye: DVec3,
    /// Where the view starts.
    pub start_look: Look,
    /// How inputs reach the steps that move the player.
    pub policy: InputPolicy,
}

impl Default for PlayerParams {
    /// Standing where the orbit camera starts, at eye height, looking at the pivot.
    fn default() -> Self {
        let angle = -std::f64::consts::FRAC_PI_4;
        let distance = 9.0;
        Self {
            speed_mps: DEFAULT_PLAYER_SPEED_MPS,
            start_eye: DVec3::new(
                distance * libm::cos(angle),
                f64::from(GROUND_HEIGHT_M) + EYE_HEIGHT_M,
                distance * libm::sin(angle),
            ),
            start_look: Look {
                yaw: angle + std::f64::consts::PI,
                pitch: 0.0,
            },
            policy: InputPolicy::default(),
        }
    }
}

impl PlayerParams {
    /// Checks the speed.
    pub fn validate(&self) -> Result<(), RangeError> {
        if !(0.0..=100.0).contains(&self.speed_mps) {
            return Err(RangeError {
                name: "player speed",
                value: format!("{} m/s", crate::text::number(self.speed_mps)),
                allowed: "0 to 100 m/s".into(),
            });
        }
        Ok(())
    }
}

/// The player's simulated state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerState {
    /// Eye position, world space.
    pub eye: DVec3,
    /// Where it looks.
    pub look: Look,
    /// The movement keys held, as the steps have applied them.
    pub held: KeySet,
}

impl PlayerState {
    /// The player at the start.
    pub fn initial(params: &PlayerParams) -> Self {
        Self {
            eye: params.start_eye,
            look: params.start_look,
            held: KeySet::NONE,
        }
    }

    /// Velocity from the keys held, m/s.
    pub fn velocity(&self, params: &PlayerParams) -> DVec3 {
        let (forward, right) = self.held.axes();
        let (ahead, side) = self.look.ground_axes();
        let direction = ahead * forward + side * right;
        if direction == DVec3::ZERO {
            DVec3::ZERO
        } else {
            direction.normalize() * params.speed_mps
        }
    }

    /// Advances one step of `h`, applying each input at its place in the step: the player
    /// walks with what is held until the input, then on with what it changed.
    pub fn advance(self, params: &PlayerParams, h: Nanos, inputs: &StepInput) -> Self {
        let mut state = self;
        let mut done = 0;
        for &(offset, kind) in inputs {
            let offset = offset.clamp(done, h);
            state.walk(params, offset - done);
            done = offset;
            state.apply(kind);
        }
        state.walk(params, h - done);
        state
    }

    /// This state with the inputs that take effect at the very start of a step applied:
    /// the state the step starts from, whose velocity a curve through it must start with.
    pub fn starting(self, inputs: &StepInput) -> Self {
        let mut state = self;
        for &(_, kind) in inputs.iter().take_while(|&&(offset, _)| offset == 0) {
            state.apply(kind);
        }
        state
    }

    /// Walks for `span` with the keys held now.
    fn walk(&mut self, params: &PlayerParams, span: Nanos) {
        if span > 0 && !self.held.is_empty() {
            self.eye += self.velocity(params) * secs_from_ns(span);
        }
    }

    /// Takes one input.
    fn apply(&mut self, kind: InputKind) {
        match kind {
            InputKind::Press(key) => self.held = self.held.with(key, true),
            InputKind::Release(key) => self.held = self.held.with(key, false),
            InputKind::Look { .. } => self.look = self.look.after(kind),
        }
    }

    /// Moved along its velocity for `tau` seconds (no input can be predicted).
    pub fn extrapolate(self, params: &PlayerParams, tau: f64) -> Self {
        Self {
            eye: self.eye + self.velocity(params) * tau,
            ..self
        }
    }

    /// Positions lerp, the look turns the short way round; the keys are `other`'s.
    pub fn lerp(self, other: Self, t: f64) -> Self {
        Self {
            eye: self.eye.lerp(other.eye, t),
            look: Look {
                yaw: (self.look.yaw
                    + super::orbit::wrapped_difference(self.look.yaw, other.look.yaw) * t)
                    .rem_euclid(std::f64::consts::TAU),
                pitch: self.pitch_lerp(other, t),
            },
            held: other.held,
        }
    }

    /// Pitch blended towards `other`'s.
    fn pitch_lerp(self, other: Self, t: f64) -> f64 {
        self.look.pitch + (other.look.pitch - self.look.pitch) * t
    }

    /// The eye on the cubic Hermite curve towards `other` over `h` seconds through both
    /// states' velocities (the look blends as in [`Self::lerp`]).
    pub fn hermite(self, other: Self, params: &PlayerParams, h: f64, t: f64) -> Self {
        Self {
            eye: hermite(
                self.eye,
                self.velocity(params),
                other.eye,
                other.velocity(params),
                h,
                t,
            ),
            ..self.lerp(other, t)
        }
    }

    /// The point the eye looks at, one metre along the view.
    pub fn target(&self) -> DVec3 {
        self.eye + self.look.direction()
    }
}

//! The simulated scene: a spring with a known exact solution, a sphere orbiting and spinning
//! around a pivot, and a camera orbiting the same pivot.
//!
//! The state is small, `Copy` and interpolatable. The scene keeps the previous state for
//! interpolation, buffers kicks until a step consumes them, and tracks the exact spring
//! solution so integration error and energy drift are measured, not guessed.

mod curve;
mod kept;
mod orbit;
mod player;
mod spring;

pub use curve::{hermite, hermite_basis};
pub(crate) use orbit::wrapped_difference;
pub use orbit::{
    CameraDriver, CameraParams, CameraState, CameraView, OrbitParams, SphereState,
    UnknownCameraDriver, UnknownCameraView,
};
pub use player::{DEFAULT_PLAYER_SPEED_MPS, EYE_HEIGHT_M, PlayerParams, PlayerState};
pub use spring::{
    EXPLOSION_ENERGY_RATIO, Integrator, MAX_DAMPING_RATIO, MAX_SPRING_HZ, MIN_SPRING_HZ,
    SpringParams, SpringState, SpringTruth, TruthCurve, UnknownIntegrator,
};

use glam::{DQuat, DVec3};
use kept::KeptStates;

use crate::input::{Look, StepInput};
use crate::timestep::{FrameReport, Nanos, RangeError, View, secs_from_ns};

/// Default kick: a velocity change of 3 m/s, about half the undamped spring's peak speed,
/// so a kick visibly changes the amplitude without throwing the mass off screen.
pub const DEFAULT_KICK_MPS: f64 = 3.0;

/// Everything that shapes the scene.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct SceneConfig {
    /// The spring.
    pub spring: SpringParams,
    /// How the spring is integrated.
    pub integrator: Integrator,
    /// The sphere's orbit and spin.
    pub orbit: OrbitParams,
    /// The camera's orbit and driver.
    pub camera: CameraParams,
    /// Velocity change of one kick, m/s.
    pub kick_mps: f64,
    /// The player the person walks.
    pub player: PlayerParams,
}

impl SceneConfig {
    /// The lab's defaults.
    pub fn new() -> Self {
        Self {
            kick_mps: DEFAULT_KICK_MPS,
            ..Self::default()
        }
    }

    /// Checks every parameter against its allowed range.
    pub fn validate(&self) -> Result<(), RangeError> {
        self.spring.validate()?;
        self.orbit.validate()?;
        self.player.validate()?;
        if !(-100.0..=100.0).contains(&self.kick_mps) {
            return Err(RangeError {
                name: "kick",
                value: format!("{} m/s", crate::text::number(self.kick_mps)),
                allowed: "-100 to 100 m/s".into(),
            });
        }
        Ok(())
    }
}

/// One simulated instant of the whole scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneState {
    /// Simulated time of this state.
    pub time: Nanos,
    /// The mass on the spring.
    pub spring: SpringState,
    /// The orbiting sphere.
    pub sphere: SphereState,
    /// The camera, when it is part of the simulation.
    pub camera: CameraState,
    /// The player.
    pub player: PlayerState,
}

impl SceneState {
    /// The state at time zero.
    pub fn initial(config: &SceneConfig) -> Self {
        Self {
            time: 0,
            spring: config.spring.initial(),
            sphere: SphereState::initial(&config.orbit),
            camera: CameraState::at_angle(&config.camera, config.orbit.pivot, 0.0),
            player: PlayerState::initial(&config.player),
        }
    }

    /// Blends towards `other` (positions lerp, rotations slerp). `time` is `other`'s when
    /// `t == 1`.
    pub fn lerp(&self, other: &Self, t: f64) -> Self {
        let span = other.time.saturating_sub(self.time);
        Self {
            time: self.time + (span as f64 * t).round() as Nanos,
            spring: self.spring.lerp(other.spring, t),
            sphere: self.sphere.lerp(other.sphere, t),
            camera: self.camera.lerp(other.camera, t),
            player: self.player.lerp(other.player, t),
        }
    }

    /// The cubic Hermite curve towards `other` through both states' velocities, at `t`:
    /// positions from the curve, rotations slerped (exact for the sphere's constant spin).
    /// `time` is `other`'s when `t == 1`.
    pub fn hermite(&self, other: &Self, t: f64, config: &SceneConfig) -> Self {
        let span = other.time.saturating_sub(self.time);
        let h = secs_from_ns(span);
        let blend = self.lerp(other, t);
        Self {
            spring: self.spring.hermite(other.spring, h, t),
            sphere: SphereState {
                position: hermite(
                    self.sphere.position,
                    config.orbit.velocity_at_angle(self.sphere.angle),
                    other.sphere.position,
                    config.orbit.velocity_at_angle(other.sphere.angle),
                    h,
                    t,
                ),
                ..blend.sphere
            },
            camera: CameraState {
                eye: hermite(
                    self.camera.eye,
                    config.camera.velocity_at_angle(self.camera.angle),
                    other.camera.eye,
                    config.camera.velocity_at_angle(other.camera.angle),
                    h,
                    t,
                ),
                ..blend.camera
            },
            player: self.player.hermite(other.player, &config.player, h, t),
            time: blend.time,
        }
    }

    /// This state moved along its velocities for `ahead`: positions in a straight line,
    /// rotations turned by their angular velocity, angles advanced. Nothing else changes:
    /// no force acts over `ahead` (the spring's velocity stays as it was).
    pub fn extrapolate(&self, ahead: Nanos, config: &SceneConfig) -> Self {
        let tau = secs_from_ns(ahead);
        let orbit = &config.orbit;
        let camera = &config.camera;
        Self {
            time: self.time.saturating_add(ahead),
            spring: self.spring.extrapolate(tau),
            sphere: SphereState {
                angle: self.sphere.angle + orbit.angular_speed() * tau,
                position: self.sphere.position + orbit.velocity_at_angle(self.sphere.angle) * tau,
                rotation: (DQuat::from_axis_angle(orbit.spin_axis, orbit.spin_speed() * tau)
                    * self.sphere.rotation)
                    .normalize(),
            },
            camera: CameraState {
                angle: self.camera.angle + camera.angular_speed() * tau,
                eye: self.camera.eye + camera.velocity_at_angle(self.camera.angle) * tau,
            },
            player: self.player.extrapolate(&config.player, tau),
        }
    }

    /// A 64-bit FNV-1a hash of every value's bits, for determinism checks.
    pub fn hash64(&self) -> u64 {
        let values = [
            self.spring.x,
            self.spring.v,
            self.sphere.angle,
            self.sphere.position.x,
            self.sphere.position.y,
            self.sphere.position.z,
            self.sphere.rotation.x,
            self.sphere.rotation.y,
            self.sphere.rotation.z,
            self.sphere.rotation.w,
            self.camera.angle,
            self.camera.eye.x,
            self.camera.eye.y,
            self.camera.eye.z,
            self.player.eye.x,
            self.player.eye.y,
            self.player.eye.z,
            self.player.look.yaw,
            self.player.look.pitch,
        ];
        let words = std::iter::once(self.time)
            .chain(values.iter().map(|v| v.to_bits()))
            .chain(std::iter::once(u64::from(self.player.held.bits())));
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for word in words {
            for byte in word.to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        hash
    }
}

/// What the renderer draws this frame. The exact values to compare it with are asked of
/// the scene when wanted ([`Scene::true_spring`], [`OrbitParams::position_at`] of
/// `real_time` for the ghost): the bench, which runs millions of frames, wants neither.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShownScene {
    /// Simulated time the drawn state represents (`S_i`).
    pub time: Nanos,
    /// Real time this frame is shown at (`T_i`).
    pub real_time: Nanos,
    /// Drawn spring displacement, metres.
    pub spring_x_m: f64,
    /// Drawn sphere centre.
    pub sphere_position: DVec3,
    /// Drawn sphere orientation.
    pub sphere_rotation: DQuat,
    /// Camera eye, by the camera driver.
    pub camera_eye: DVec3,
    /// Point the camera looks at.
    pub camera_target: DVec3,
    /// The drawn player (its marker in the orbit view).
    pub player: PlayerState,
}

/// The scene's simulation: current and previous state, buffered kicks, the exact spring.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Parameters.
    config: SceneConfig,
    /// The latest state, the two before it and the one the frame began with.
    kept: KeptStates,
    /// Velocity change waiting for the next step.
    pending_kick_mps: f64,
    /// Exact solution of the spring from the last kick (or start, or parameter change).
    truth: SpringTruth,
    /// Highest energy the exact solution has had; explosion is judged against it.
    reference_energy: f64,
    /// Whether the spring blew up (it then stays frozen until reset).
    exploded: bool,
    /// Where the person has turned the view, every turn applied as it arrived (what a
    /// per-frame camera shows).
    look_input: Look,
    /// The sphere's spin over the last two step lengths, the latest first, kept: steps
    /// are mostly of one or two lengths (a steady rate's frames alternate between two whole
    /// nanoseconds), and the rotation costs a sine and a cosine to make.
    spins: [Option<(Nanos, DQuat)>; 2],
}

impl Scene {
    /// A scene at time zero.
    pub fn new(config: SceneConfig) -> Self {
        let initial = SceneState::initial(&config);
        Self {
            config,
            kept: KeptStates::new(initial),
            pending_kick_mps: 0.0,
            truth: SpringTruth {
                start_s: 0.0,
                start: initial.spring,
            },
            reference_energy: reference_energy(&config.spring, initial.spring),
            exploded: false,
            look_input: config.player.start_look,
            spins: [None; 2],
        }
    }

    /// Back to time zero; the previous state is forgotten, so nothing is smeared across the
    /// jump, and pending kicks are dropped.
    pub fn reset(&mut self) {
        *self = Self::new(self.config);
    }

    /// Parameters.
    pub fn config(&self) -> &SceneConfig {
        &self.config
    }

    /// Changes parameters from now on. A new spring restarts the exact solution from the
    /// true state at the current time.
    pub fn set_config(&mut self, config: SceneConfig) {
        if config.spring != self.config.spring {
            let now_s = secs_from_ns(self.time());
            let start = self.truth.state_at(&self.config.spring, now_s);
            self.truth = SpringTruth {
                start_s: now_s,
                start,
            };
            self.reference_energy = reference_energy(&config.spring, start);
        }
        if config.orbit != self.config.orbit {
            self.spins = [None; 2];
        }
        if (config.orbit, config.camera) != (self.config.orbit, self.config.camera) {
            // The kept states were stepped on the old orbit: placed there, they stay there.
            self.kept.place(&self.config);
        }
        self.config = config;
    }

    /// The latest state.
    pub fn current(&self) -> SceneState {
        self.kept.current().placed(&self.config)
    }

    /// The simulated time of the latest state.
    pub fn time(&self) -> Nanos {
        self.kept.current().state.time
    }

    /// The state before the latest step.
    pub fn previous(&self) -> SceneState {
        self.kept.previous().placed(&self.config)
    }

    /// Whether the spring has exploded.
    pub fn exploded(&self) -> bool {
        self.exploded
    }

    /// Velocity change buffered for the next step.
    pub fn pending_kick_mps(&self) -> f64 {
        self.pending_kick_mps
    }

    /// Buffers a kick; the next step applies it (frames that take no step keep it).
    pub fn kick(&mut self) {
        self.pending_kick_mps += self.config.kick_mps;
    }

    /// The exact solution the spring follows since the last kick (or start, or parameter
    /// change).
    pub fn truth(&self) -> &SpringTruth {
        &self.truth
    }

    /// The exact spring state at simulated time `time`.
    pub fn true_spring(&self, time: Nanos) -> SpringState {
        self.truth.state_at(&self.config.spring, secs_from_ns(time))
    }

    /// Spring energy of a state, joules.
    pub fn spring_energy(&self, state: SpringState) -> f64 {
        self.config.spring.energy(state)
    }

    /// `(E_now - E_true_now) / E_0`: the spring's energy error at the latest state, over
    /// the reference energy. Positive gains energy (explicit Euler), negative loses it.
    pub fn energy_drift(&self) -> f64 {
        let current = self.kept.current().state.spring;
        let exact = self.true_spring(self.time());
        (self.spring_energy(current) - self.spring_energy(exact)) / self.reference_energy
    }

    /// The spring's energy at the start (or since the last change of spring parameters).
    pub fn reference_energy(&self) -> f64 {
        self.reference_energy
    }

    /// Takes where the person has turned the view so far (for the per-frame camera).
    pub fn set_look_input(&mut self, look: Look) {
        self.look_input = look;
    }

    /// Advances the simulation by one step of `h` with no input.
    pub fn step(&mut self, h: Nanos) {
        self.step_with(h, &[]);
    }

    /// Advances the simulation by one step of `h`, the player taking `inputs` at their
    /// places in the step.
    pub fn step_with(&mut self, h: Nanos, inputs: &StepInput) {
        let config = &self.config;
        let h_s = secs_from_ns(h);
        let mut spring = self.kept.current().state.spring;
        let kicked = self.pending_kick_mps != 0.0;
        if kicked {
            // The kick lands at the start of this step, in the simulation and in the truth.
            let now_s = secs_from_ns(self.time());
            let mut start = self.truth.state_at(&config.spring, now_s);
            start.v += self.pending_kick_mps;
            self.truth = SpringTruth {
                start_s: now_s,
                start,
            };
            self.reference_energy = self.reference_energy.max(config.spring.energy(start));
            spring.v += self.pending_kick_mps;
            self.pending_kick_mps = 0.0;
        }
        let started = spring;
        let (spring, blown) = self.spring_step(spring, h_s);
        self.exploded |= blown;
        let spin = self.spin_over(h);
        if self.spins[0].map(|(length, _)| length) != Some(h) {
            self.spins = [Some((h, spin)), self.spins[0]];
        }
        let next = self.stepped(spring, h, inputs, spin);
        // The state the step starts from: a kick's velocity is in it, so a curve through
        // the two states' velocities starts with the kicked one.
        let player = self.kept.current().state.player.starting(inputs);
        self.kept
            .push(started, player, kicked || !inputs.is_empty(), next);
    }

    /// The spring one step of `h_s` seconds on from `spring`, as the integrator takes it
    /// (it stays where the scene has exploded, or where the step gives no finite state),
    /// and whether this step blew it up.
    fn spring_step(&self, spring: SpringState, h_s: f64) -> (SpringState, bool) {
        if self.exploded {
            return (spring, false);
        }
        let params = &self.config.spring;
        let next = self.config.integrator.step(params, spring, h_s);
        let blown = !next.is_finite()
            || params.energy(next) > EXPLOSION_ENERGY_RATIO * self.reference_energy;
        (if next.is_finite() { next } else { spring }, blown)
    }

    /// The sphere's spin over a step of `h`: the one kept when one of the last two step
    /// lengths was `h`.
    fn spin_over(&self, h: Nanos) -> DQuat {
        match self.spins.iter().flatten().find(|(length, _)| *length == h) {
            Some(&(_, spin)) => spin,
            None => self.config.orbit.spin_over(secs_from_ns(h)),
        }
    }

    /// The state one step of `h` makes of the current one, the spring already stepped to
    /// `spring` and the sphere spinning by `spin` ([`Self::spin_over`] of `h`), the sphere
    /// and the camera not placed yet (see `kept.rs`).
    fn stepped(
        &self,
        spring: SpringState,
        h: Nanos,
        inputs: &StepInput,
        spin: DQuat,
    ) -> SceneState {
        let config = &self.config;
        let h_s = secs_from_ns(h);
        let current = &self.kept.current().state;
        SceneState {
            time: current.time.saturating_add(h),
            spring,
            sphere: current.sphere.turned(&config.orbit, h_s, spin),
            camera: current.camera.turned(&config.camera, h_s),
            player: current.player.advance(&config.player, h, inputs),
        }
    }

    /// Marks the start of a frame: the state before its steps is what
    /// [`View::FrameStart`] draws.
    pub fn begin_frame(&mut self) {
        self.kept.begin_frame();
    }

    /// The state drawn: the latest, a blend or Hermite curve with the previous, the latest
    /// moved along its velocity, a throw-away extrapolation (neither consumes a pending
    /// kick: the prediction cannot know it), a blend two steps back, or the frame's start.
    pub fn drawn_state(&self, drawn: View) -> SceneState {
        let config = &self.config;
        match drawn {
            View::Latest => self.current(),
            View::Blend(t) => self.previous().lerp(&self.current(), t),
            View::Hermite(t) => self.previous().hermite(&self.current(), t, config),
            View::Velocity(ahead) => self.current().extrapolate(ahead, config),
            View::BlendOlder(t) => self.kept.older().placed(config).lerp(&self.previous(), t),
            View::FrameStart => self.kept.frame_start().placed(config),
            // A strategy's kind only: the engine reports the blend it resolves to.
            View::AtDisplay => self.current(),
            // A throw-away step: the scene's own state is left as it is.
            View::Extrapolate(ahead) => {
                let spring = self.kept.current().state.spring;
                let (spring, _) = self.spring_step(spring, secs_from_ns(ahead));
                kept::place(
                    self.stepped(spring, ahead, &[], self.spin_over(ahead)),
                    config,
                )
            }
        }
    }

    /// The spring of [`Self::drawn_state`]`(drawn)`, to the bit, without the rest of the
    /// state: what the metrics judge every frame against the exact curve.
    pub fn drawn_spring(&self, drawn: View) -> SpringState {
        let (previous, current) = (&self.kept.previous().state, &self.kept.current().state);
        match drawn {
            View::Latest | View::AtDisplay => current.spring,
            View::Blend(t) => previous.spring.lerp(current.spring, t),
            View::Hermite(t) => {
                let h = secs_from_ns(current.time.saturating_sub(previous.time));
                previous.spring.hermite(current.spring, h, t)
            }
            View::Velocity(ahead) => current.spring.extrapolate(secs_from_ns(ahead)),
            View::BlendOlder(t) => self.kept.older().state.spring.lerp(previous.spring, t),
            View::FrameStart => self.kept.frame_start().state.spring,
            View::Extrapolate(ahead) => self.spring_step(current.spring, secs_from_ns(ahead)).0,
        }
    }

    /// What to draw for a frame the engine reported.
    pub fn shown(&self, report: &FrameReport) -> ShownScene {
        let config = &self.config;
        let state = self.drawn_state(report.drawn);
        let pivot = config.orbit.pivot;
        let (camera_eye, camera_target) = match (config.camera.view, config.camera.driver) {
            (CameraView::Orbit, CameraDriver::PerFrame) => {
                let angle = config.camera.angular_speed() * secs_from_ns(report.animation_time);
                (
                    CameraState::at_angle(&config.camera, pivot, angle).eye,
                    pivot,
                )
            }
            (CameraView::Orbit, CameraDriver::PerStep) => (self.current().camera.eye, pivot),
            (CameraView::Orbit, CameraDriver::Smoothed) => (state.camera.eye, pivot),
            // The eyes ride the body as the strategy draws it (in steps, or blended
            // between them); the look follows the mouse every frame (Unity's camera turned
            // in `Update` on an interpolated or plain rigidbody).
            (CameraView::Player, CameraDriver::PerFrame) => {
                let eye = state.player.eye;
                (eye, eye + self.look_input.direction())
            }
            (CameraView::Player, CameraDriver::PerStep) => {
                let player = self.kept.current().state.player;
                (player.eye, player.target())
            }
            (CameraView::Player, CameraDriver::Smoothed) => {
                (state.player.eye, state.player.target())
            }
        };
        ShownScene {
            time: report.shown_time,
            real_time: report.presented_time,
            spring_x_m: state.spring.x,
            sphere_position: state.sphere.position,
            sphere_rotation: state.sphere.rotation,
            camera_eye,
            camera_target,
            player: state.player,
        }
    }
}

/// Energy the explosion test is judged against: the state's, but never below that of a
/// 1 mm displacement, so a spring at rest is not "exploded" by rounding noise.
fn reference_energy(params: &SpringParams, state: SpringState) -> f64 {
    params
        .energy(state)
        .max(params.energy(SpringState { x: 1e-3, v: 0.0 }))
}

#[cfg(test)]
mod tests;

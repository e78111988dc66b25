//! The orbiting, spinning sphere and the camera that orbits the same pivot.

use glam::{DQuat, DVec3};

use crate::timestep::RangeError;

/// The sphere's orbit and spin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitParams {
    /// Centre of the orbit, world space (metres; y is up).
    pub pivot: DVec3,
    /// Orbit radius, metres.
    pub radius_m: f64,
    /// Time for one turn around the pivot, seconds (default 4).
    pub period_s: f64,
    /// Time for one turn about the sphere's own axis, seconds.
    pub spin_period_s: f64,
    /// The sphere's spin axis, tilted so the spin reads clearly from above and the side.
    pub spin_axis: DVec3,
}

impl Default for OrbitParams {
    fn default() -> Self {
        Self {
            pivot: DVec3::ZERO,
            radius_m: 3.0,
            period_s: 4.0,
            spin_period_s: 1.5,
            spin_axis: DVec3::new(0.3, 1.0, 0.1).normalize(),
        }
    }
}

impl OrbitParams {
    /// Checks the periods and radius.
    pub fn validate(&self) -> Result<(), RangeError> {
        for (name, value) in [
            ("orbit period", self.period_s),
            ("spin period", self.spin_period_s),
        ] {
            if !(0.1..=3600.0).contains(&value.abs()) {
                return Err(RangeError {
                    name,
                    value: format!("{} s", crate::text::number(value)),
                    allowed: "0.1 to 3600 s (negative turns the other way)".into(),
                });
            }
        }
        if !(0.1..=1000.0).contains(&self.radius_m) {
            return Err(RangeError {
                name: "orbit radius",
                value: format!("{} m", crate::text::number(self.radius_m)),
                allowed: "0.1 to 1000 m".into(),
            });
        }
        Ok(())
    }

    /// Orbit angular speed, rad/s.
    pub fn angular_speed(&self) -> f64 {
        std::f64::consts::TAU / self.period_s
    }

    /// Spin angular speed, rad/s.
    pub fn spin_speed(&self) -> f64 {
        std::f64::consts::TAU / self.spin_period_s
    }

    /// The sphere's rotation over `h` seconds of spin.
    pub fn spin_over(&self, h: f64) -> DQuat {
        DQuat::from_axis_angle(self.spin_axis, self.spin_speed() * h)
    }

    /// Point on the orbit at `angle` radians.
    pub fn position_at_angle(&self, angle: f64) -> DVec3 {
        let (sin, cos) = libm::sincos(angle);
        self.pivot + self.radius_m * DVec3::new(cos, 0.0, sin)
    }

    /// Velocity on the orbit at `angle` radians, m/s.
    pub fn velocity_at_angle(&self, angle: f64) -> DVec3 {
        let (sin, cos) = libm::sincos(angle);
        self.radius_m * self.angular_speed() * DVec3::new(-sin, 0.0, cos)
    }

    /// The exact position at simulated time `time_s` (for the ghost).
    pub fn position_at(&self, time_s: f64) -> DVec3 {
        self.position_at_angle(self.angular_speed() * time_s)
    }
}

/// The sphere: where it is on its orbit and how it is turned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SphereState {
    /// Orbit angle, radians, kept in `[0, 2π)`.
    pub angle: f64,
    /// Position, world space.
    pub position: DVec3,
    /// Orientation about its own centre.
    pub rotation: DQuat,
}

impl SphereState {
    /// The sphere at the start.
    pub fn initial(params: &OrbitParams) -> Self {
        Self {
            angle: 0.0,
            position: params.position_at_angle(0.0),
            rotation: DQuat::IDENTITY,
        }
    }

    /// Advances by `h` seconds. The rotation is integrated, not recomputed from time, so that
    /// interpolation has a real quaternion to slerp.
    pub fn step(self, params: &OrbitParams, h: f64) -> Self {
        self.step_spun(params, h, params.spin_over(h))
    }

    /// [`Self::step`] with `spin`, the rotation over the step ([`OrbitParams::spin_over`]
    /// of `h`), given: it is the same for every step of one length, and a caller that
    /// steps by one length keeps it.
    pub fn step_spun(self, params: &OrbitParams, h: f64, spin: DQuat) -> Self {
        self.turned(params, h, spin).placed(params)
    }

    /// [`Self::step_spun`] without placing the sphere: the angle and the rotation move on,
    /// and `position` is left as it was for [`Self::placed`] to set when the state is read.
    /// The position is a function of the angle, the rotation is integrated: a caller that
    /// steps more often than it looks (the bench never looks) saves a sine and a cosine
    /// per step.
    pub fn turned(self, params: &OrbitParams, h: f64, spin: DQuat) -> Self {
        Self {
            angle: wrap_turn(self.angle + params.angular_speed() * h),
            position: self.position,
            rotation: (spin * self.rotation).normalize(),
        }
    }

    /// This state with its position on the orbit at its angle.
    pub fn placed(self, params: &OrbitParams) -> Self {
        Self {
            position: params.position_at_angle(self.angle),
            ..self
        }
    }

    /// Positions lerp, rotations slerp.
    pub fn lerp(self, other: Self, t: f64) -> Self {
        Self {
            angle: self.angle + wrapped_difference(self.angle, other.angle) * t,
            position: self.position.lerp(other.position, t),
            rotation: self.rotation.slerp(other.rotation, t),
        }
    }
}

/// `to - from` taken the short way round the circle.
pub(crate) fn wrapped_difference(from: f64, to: f64) -> f64 {
    use std::f64::consts::{PI, TAU};
    (to - from + PI).rem_euclid(TAU) - PI
}

/// `angle.rem_euclid(TAU)`, to the bit, without the division of `%` where the angle is less
/// than a turn out of `[0, TAU)` (as every step's is): there `%` subtracts a turn or none,
/// exactly.
pub(crate) fn wrap_turn(angle: f64) -> f64 {
    use std::f64::consts::TAU;
    if (0.0..TAU).contains(&angle) {
        angle
    } else if (TAU..2.0 * TAU).contains(&angle) {
        angle - TAU
    } else {
        angle.rem_euclid(TAU)
    }
}

/// What moves the camera: the lab's version of Unity's Update vs FixedUpdate question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CameraDriver {
    /// Moved from real time every render frame (Unity's `Update`).
    PerFrame,
    /// Part of the simulated state, shown without interpolation (`FixedUpdate`).
    PerStep,
    /// Part of the simulated state, shown through the strategy's interpolation or
    /// extrapolation like the sphere.
    #[default]
    Smoothed,
}

impl CameraDriver {
    /// Every driver.
    pub const ALL: [CameraDriver; 3] = [
        CameraDriver::PerFrame,
        CameraDriver::PerStep,
        CameraDriver::Smoothed,
    ];

    /// The stable id used on the command line.
    pub fn id(self) -> &'static str {
        match self {
            CameraDriver::PerFrame => "per-frame",
            CameraDriver::PerStep => "per-step",
            CameraDriver::Smoothed => "smoothed",
        }
    }
}

crate::id::stable_ids!(CameraDriver, UnknownCameraDriver, "camera driver");

/// Where the camera is: circling the pivot, or the player's eyes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CameraView {
    /// Circling the pivot with the sphere (the player is drawn as a marker).
    #[default]
    Orbit,
    /// First person: the player's eyes, turned by the mouse (the Unity article's case).
    Player,
}

impl CameraView {
    /// Every view.
    pub const ALL: [CameraView; 2] = [CameraView::Orbit, CameraView::Player];

    /// The stable id used on the command line.
    pub fn id(self) -> &'static str {
        match self {
            CameraView::Orbit => "orbit",
            CameraView::Player => "player",
        }
    }
}

crate::id::stable_ids!(CameraView, UnknownCameraView, "camera view");

/// The camera's orbit. By default it turns with the sphere, a quarter turn behind it, so a
/// consistent loop shows the sphere standing still on screen and any mismatch as judder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraParams {
    /// What moves the camera.
    pub driver: CameraDriver,
    /// Orbiting, or the player's eyes.
    pub view: CameraView,
    /// Horizontal distance from the pivot, metres.
    pub radius_m: f64,
    /// Height above the pivot, metres.
    pub height_m: f64,
    /// Time for one turn, seconds (the sphere's period by default).
    pub period_s: f64,
    /// Angle behind the sphere, radians.
    pub lag_rad: f64,
}

impl Default for CameraParams {
    fn default() -> Self {
        Self {
            driver: CameraDriver::default(),
            view: CameraView::default(),
            radius_m: 9.0,
            height_m: 4.0,
            period_s: 4.0,
            lag_rad: std::f64::consts::FRAC_PI_4,
        }
    }
}

impl CameraParams {
    /// Eye position at orbit angle `angle`, looking at `pivot`.
    pub fn eye_at_angle(&self, pivot: DVec3, angle: f64) -> DVec3 {
        let (sin, cos) = libm::sincos(angle - self.lag_rad);
        pivot + DVec3::new(self.radius_m * cos, self.height_m, self.radius_m * sin)
    }

    /// Orbit angular speed, rad/s.
    pub fn angular_speed(&self) -> f64 {
        std::f64::consts::TAU / self.period_s
    }

    /// Velocity of the eye at orbit angle `angle`, m/s.
    pub fn velocity_at_angle(&self, angle: f64) -> DVec3 {
        let angle = angle - self.lag_rad;
        let (sin, cos) = libm::sincos(angle);
        self.radius_m * self.angular_speed() * DVec3::new(-sin, 0.0, cos)
    }
}

/// The camera's simulated state (used by the `per-step` and `smoothed` drivers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraState {
    /// Orbit angle, radians, in `[0, 2π)`.
    pub angle: f64,
    /// Eye position, world space.
    pub eye: DVec3,
}

impl CameraState {
    /// The camera at orbit angle `angle`.
    pub fn at_angle(params: &CameraParams, pivot: DVec3, angle: f64) -> Self {
        let angle = angle.rem_euclid(std::f64::consts::TAU);
        Self {
            angle,
            eye: params.eye_at_angle(pivot, angle),
        }
    }

    /// Advances by `h` seconds without placing the eye (see [`SphereState::turned`]): the
    /// angle moves on, the eye is left for [`Self::placed`].
    pub fn turned(self, params: &CameraParams, h: f64) -> Self {
        Self {
            angle: wrap_turn(self.angle + params.angular_speed() * h),
            eye: self.eye,
        }
    }

    /// This state with its eye where its angle puts it, looking at `pivot`.
    pub fn placed(self, params: &CameraParams, pivot: DVec3) -> Self {
        Self {
            eye: params.eye_at_angle(pivot, self.angle),
            ..self
        }
    }

    /// Positions lerp.
    pub fn lerp(self, other: Self, t: f64) -> Self {
        Self {
            angle: self.angle + wrapped_difference(self.angle, other.angle) * t,
            eye: self.eye.lerp(other.eye, t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The wrap is `rem_euclid`'s, to the bit, for any angle, a step's or not.
        #[test]
        fn wrapping_a_turn_is_rem_euclid_to_the_bit(
            angle in proptest::prop_oneof![
                -20.0f64..20.0,
                proptest::num::f64::ANY,
                proptest::sample::select(vec![
                    0.0, -0.0, std::f64::consts::TAU, 2.0 * std::f64::consts::TAU,
                    -std::f64::consts::TAU, f64::MIN_POSITIVE, -f64::MIN_POSITIVE,
                    f64::INFINITY, f64::NAN,
                ]),
            ]
        ) {
            let expected = angle.rem_euclid(std::f64::consts::TAU);
            proptest::prop_assert_eq!(wrap_turn(angle).to_bits(), expected.to_bits());
        }
    }

    #[test]
    fn integrated_orbit_matches_the_exact_orbit() {
        let params = OrbitParams::default();
        let mut sphere = SphereState::initial(&params);
        for _ in 0..500 {
            sphere = sphere.step(&params, 0.02);
        }
        assert!(sphere.position.distance(params.position_at(10.0)) < 1e-9);
        // 10 s at 1.5 s per spin turn is 6⅔ turns: 240 degrees.
        let expected = DQuat::from_axis_angle(params.spin_axis, std::f64::consts::TAU * 10.0 / 1.5);
        assert!(sphere.rotation.angle_between(expected) < 1e-9);
    }

    #[test]
    fn lerp_takes_the_short_way_across_the_wrap() {
        let params = OrbitParams::default();
        let before = SphereState {
            angle: 6.2,
            ..SphereState::initial(&params)
        };
        let after = SphereState {
            angle: 0.05,
            ..before
        };
        let half = before.lerp(after, 0.5);
        let expected =
            (6.2 + (0.05 + std::f64::consts::TAU - 6.2) / 2.0).rem_euclid(std::f64::consts::TAU);
        assert!((half.angle.rem_euclid(std::f64::consts::TAU) - expected).abs() < 1e-12);
    }

    #[test]
    fn camera_ids_round_trip() {
        for driver in CameraDriver::ALL {
            assert_eq!(driver.id().parse::<CameraDriver>(), Ok(driver));
        }
        assert!(
            "update"
                .parse::<CameraDriver>()
                .unwrap_err()
                .to_string()
                .contains("per-frame")
        );
    }

    #[test]
    fn orbit_parameters_out_of_range_are_rejected() {
        let params = OrbitParams {
            period_s: 0.0,
            ..OrbitParams::default()
        };
        assert!(
            params
                .validate()
                .unwrap_err()
                .to_string()
                .contains("orbit period 0 s")
        );
        assert!(OrbitParams::default().validate().is_ok());
    }
}

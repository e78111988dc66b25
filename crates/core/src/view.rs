//! What one pane draws, described without GPU types: the bridge from the simulated scene to
//! the renderer.
//!
//! The core decides every position (in `f64`, converted to `f32` here, once); the renderer
//! only turns a [`PaneView`] into triangles. Where things are comes from the scene and the
//! sizes of [`crate::world`], so headless tests check the layout without a GPU.

use glam::{DVec3, Quat, Vec3};

use crate::ring::Ring;
use crate::scene::{CameraView, SceneConfig, ShownScene};
use crate::timestep::{Nanos, secs_from_ns};
use crate::world::{
    FOV_Y_RAD, GROUND_HEIGHT_M, SPHERE_RADIUS_M, SPRING_ANCHOR_HEIGHT_M, SPRING_DRAWN_X_RANGE_M,
    SPRING_REST_LENGTH_M, TRAIL_SINK_M_PER_S,
};

/// Number of shown sphere positions the trail keeps: about one second at 60 fps, enough to
/// see the spacing pattern of a 50-on-60 stutter repeat several times.
pub const TRAIL_LEN: usize = 60;

/// The last [`TRAIL_LEN`] shown sphere positions with the real time each was shown at,
/// oldest first: a plain ring that never allocates after creation.
pub type Trail = Ring<(Vec3, Nanos)>;

impl Default for Trail {
    fn default() -> Self {
        Ring::new(TRAIL_LEN)
    }
}

/// One dot of a pane's trail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrailDot {
    /// Where to draw it: the shown position, sunk by its age.
    pub position: Vec3,
    /// Whether its frame showed the sphere exactly where the previous frame did.
    pub repeated: bool,
}

/// Everything the renderer needs to draw one pane's scene.
#[derive(Clone, Copy, Debug)]
pub struct PaneView<'a> {
    /// Camera position, world space (y up).
    pub camera_eye: Vec3,
    /// Point the camera looks at.
    pub camera_target: Vec3,
    /// Vertical field of view, radians.
    pub fov_y_rad: f32,
    /// Centre both the sphere and the camera orbit.
    pub pivot: Vec3,
    /// Drawn centre of the orbiting sphere.
    pub sphere_center: Vec3,
    /// Drawn orientation of the sphere (its bands show the spin).
    pub sphere_rotation: Quat,
    /// Sphere radius, metres.
    pub sphere_radius_m: f32,
    /// Where the sphere truly is at the current real time: the faint ghost.
    pub ghost_center: Vec3,
    /// The spring's fixed top end.
    pub spring_anchor: Vec3,
    /// Centre of the mass at the spring's lower end (drawn displacement, clamped).
    pub spring_mass: Vec3,
    /// Whether the spring has exploded (drawn in an alarm colour).
    pub spring_exploded: bool,
    /// Height of the ground grid.
    pub ground_y: f32,
    /// Recent drawn sphere centres, oldest first.
    pub trail: &'a Trail,
    /// Real time this frame is shown at (the trail sinks from it).
    pub real_time: Nanos,
    /// The player, drawn when the camera is not its eyes.
    pub player: Option<PlayerMarker>,
}

/// Where the player stands and which way it faces, for its marker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerMarker {
    /// The point on the ground under the eye.
    pub feet: Vec3,
    /// The eye.
    pub eye: Vec3,
    /// The way it looks (unit).
    pub facing: Vec3,
}

impl<'a> PaneView<'a> {
    /// The view of a shown scene.
    pub fn new(shown: &ShownScene, config: &SceneConfig, exploded: bool, trail: &'a Trail) -> Self {
        let pivot = f32_vec(config.orbit.pivot);
        let anchor = pivot + Vec3::Y * SPRING_ANCHOR_HEIGHT_M;
        Self {
            camera_eye: f32_vec(shown.camera_eye),
            camera_target: f32_vec(shown.camera_target),
            fov_y_rad: FOV_Y_RAD,
            pivot,
            sphere_center: f32_vec(shown.sphere_position),
            sphere_rotation: shown.sphere_rotation.as_quat().normalize(),
            sphere_radius_m: SPHERE_RADIUS_M,
            // Where the sphere truly is at real time: the ghost.
            ghost_center: f32_vec(config.orbit.position_at(secs_from_ns(shown.real_time))),
            spring_anchor: anchor,
            spring_mass: anchor
                - Vec3::Y * (SPRING_REST_LENGTH_M - drawn_spring_x(shown.spring_x_m)),
            spring_exploded: exploded,
            ground_y: pivot.y + GROUND_HEIGHT_M,
            trail,
            real_time: shown.real_time,
            player: (config.camera.view == CameraView::Orbit).then(|| {
                let eye = f32_vec(shown.player.eye);
                PlayerMarker {
                    feet: Vec3::new(eye.x, pivot.y + GROUND_HEIGHT_M, eye.z),
                    eye,
                    facing: f32_vec(shown.player.look.direction()),
                }
            }),
        }
    }

    /// Where to draw the trail's dots, oldest first: each recorded position sunk by
    /// [`TRAIL_SINK_M_PER_S`] for the real time since it was shown.
    pub fn trail_points(&self) -> impl Iterator<Item = Vec3> + '_ {
        self.trail_dots().map(|dot| dot.position)
    }

    /// The trail's dots, oldest first (see [`Self::trail_points`]), each marked when its
    /// frame showed the sphere exactly where the frame before did: a frame that took no
    /// step, the stutter the renderer picks out in its own colour.
    pub fn trail_dots(&self) -> impl Iterator<Item = TrailDot> + '_ {
        let mut previous = None;
        self.trail.iter().map(move |&(point, shown_at)| {
            let age_s = self.real_time.saturating_sub(shown_at) as f32 / 1e9;
            let repeated = previous.replace(point) == Some(point);
            TrailDot {
                position: point - Vec3::Y * (TRAIL_SINK_M_PER_S * age_s),
                repeated,
            }
        })
    }
}

/// The spring displacement as drawn: clamped to [`SPRING_DRAWN_X_RANGE_M`], and at rest when
/// the simulated value is not finite.
pub fn drawn_spring_x(x_m: f64) -> f32 {
    let (low, high) = SPRING_DRAWN_X_RANGE_M;
    if x_m.is_finite() {
        (x_m as f32).clamp(low, high)
    } else {
        0.0
    }
}

/// A world position in `f32`; a non-finite one (never expected from the orbit) becomes the
/// origin so the renderer never sees NaN.
fn f32_vec(v: DVec3) -> Vec3 {
    let v = v.as_vec3();
    if v.is_finite() { v } else { Vec3::ZERO }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trail_keeps_the_newest_points_oldest_first() {
        let mut trail = Trail::default();
        for i in 0..(TRAIL_LEN + 5) {
            trail.push((Vec3::splat(i as f32), i as Nanos));
        }
        assert_eq!(trail.len(), TRAIL_LEN);
        let points: Vec<f32> = trail.iter().map(|(p, _)| p.x).collect();
        assert_eq!(points.first(), Some(&5.0));
        assert_eq!(points.last(), Some(&((TRAIL_LEN + 4) as f32)));
        assert!(points.windows(2).all(|w| w[1] == w[0] + 1.0));
        trail.clear();
        assert!(trail.is_empty());
        assert_eq!(trail.iter().count(), 0);
    }

    #[test]
    fn trail_dots_sink_with_the_real_time_since_they_were_shown() {
        let mut trail = Trail::default();
        // Frames 0..4 at 10 ms, but the third frame repeats the second's position: a
        // stutter. The repeated dot lands straight below the previous one.
        let positions = [0.0, 1.0, 1.0, 2.0];
        for (i, x) in positions.into_iter().enumerate() {
            trail.push((Vec3::new(x, 0.0, 0.0), i as Nanos * 10_000_000));
        }
        let view = PaneView {
            camera_eye: Vec3::ONE,
            camera_target: Vec3::ZERO,
            fov_y_rad: FOV_Y_RAD,
            pivot: Vec3::ZERO,
            sphere_center: Vec3::ZERO,
            sphere_rotation: Quat::IDENTITY,
            sphere_radius_m: SPHERE_RADIUS_M,
            ghost_center: Vec3::ZERO,
            spring_anchor: Vec3::ZERO,
            spring_mass: Vec3::ZERO,
            spring_exploded: false,
            ground_y: GROUND_HEIGHT_M,
            trail: &trail,
            real_time: 30_000_000,
            player: None,
        };
        let points: Vec<Vec3> = view.trail_points().collect();
        let drop_per_frame = TRAIL_SINK_M_PER_S * 0.010;
        for (i, point) in points.iter().enumerate() {
            let expected_y = -(3.0 - i as f32) * drop_per_frame;
            assert!((point.y - expected_y).abs() < 1e-6, "{i}: {point}");
        }
        assert_eq!(
            points[1].x, points[2].x,
            "the repeated dot is straight below"
        );
        assert_eq!(points[3].y, 0.0, "the newest dot is where it was drawn");
        let repeated: Vec<bool> = view.trail_dots().map(|dot| dot.repeated).collect();
        assert_eq!(
            repeated,
            [false, false, true, false],
            "the third frame is marked"
        );
    }

    #[test]
    fn drawn_spring_is_clamped_and_never_nan() {
        assert_eq!(drawn_spring_x(0.5), 0.5);
        assert_eq!(drawn_spring_x(1e9), SPRING_DRAWN_X_RANGE_M.1);
        assert_eq!(drawn_spring_x(-1e9), SPRING_DRAWN_X_RANGE_M.0);
        assert_eq!(drawn_spring_x(f64::NAN), 0.0);
        assert_eq!(drawn_spring_x(f64::INFINITY), 0.0);
        // The coil keeps a positive length at the top of the range.
        assert!(SPRING_REST_LENGTH_M - SPRING_DRAWN_X_RANGE_M.1 > 0.2);
    }
}

//! The size of everything drawn: one place for every world dimension, in metres and radians.
//!
//! The simulation ([`crate::scene`]) only knows points: where the sphere is, how far the
//! spring is stretched. How big the sphere is, where the spring hangs, how wide the coil's
//! wire is and how far the camera sees are decided here, as plain numbers, so that
//! [`crate::view`] (which places things) and the app's renderer (which draws them) agree, and
//! headless tests can check the layout without a GPU.
//!
//! The numbers are chosen against the default scene: the sphere orbits 3 m from the pivot
//! (in the pivot's horizontal plane) and the camera circles 9 m out and 4 m up, about
//! 9.8 m from the pivot. All heights are relative to the pivot; y is up.

/// Width over height the scene is framed for. A narrower pane widens its vertical field of
/// view so that it keeps this framing's horizontal field (nothing is cut at the sides); a
/// wider pane shows more at the sides. The pane layout aims for the same shape, so most
/// panes show exactly this framing.
pub const FRAMED_ASPECT: f32 = 4.0 / 3.0;

/// Vertical field of view of every pane's camera at [`FRAMED_ASPECT`], radians (50°): a
/// moderate lens that, from the default camera about 9.8 m away, shows about 9 m top to
/// bottom: the 6 m wide orbit with room for the spring above it and the ground below.
pub const FOV_Y_RAD: f32 = 50.0 * std::f32::consts::PI / 180.0;

/// Near clipping plane, metres: far closer than the camera ever comes to anything, and
/// with [`Z_FAR_M`] a range a 32-bit float depth buffer resolves without z-fighting.
pub const Z_NEAR_M: f32 = 0.1;

/// Far clipping plane, metres: the scene spans about 20 m around the pivot and the camera
/// circles under 10 m from it, so everything lies well inside.
pub const Z_FAR_M: f32 = 100.0;

/// Radius of the orbiting sphere, metres: large enough for its spin bands to read from the
/// default camera in a small pane, and a fifth of the 3 m orbit radius, so the circle it
/// sweeps stays clear of the pivot and the spring at the centre.
pub const SPHERE_RADIUS_M: f32 = 0.6;

/// Radius of the pivot ball, metres: a fifth of the sphere's, enough to mark the orbit's
/// centre without being taken for something that moves.
pub const PIVOT_RADIUS_M: f32 = 0.12;

/// Radius of the post under the pivot, metres: as thin as a trail dot, so it reads as a
/// stand that shows how high the pivot is rather than as an object of its own.
pub const POST_RADIUS_M: f32 = 0.035;

/// Height of the ground grid below the pivot, metres: two sphere radii, so the sphere,
/// orbiting in the pivot's plane, floats one radius above the ground.
pub const GROUND_HEIGHT_M: f32 = -1.2;

/// Half the side of the ground grid's square, metres: wider than the camera's 9 m orbit,
/// so the ground runs under the camera. The lines fade out towards this radius (the grid
/// shader's fade), so the square's edge never shows.
pub const GRID_HALF_EXTENT_M: f32 = 10.0;

/// Spacing of the ground grid's lines, metres: one metre, a scale the eye can count
/// against the 3 m orbit radius.
pub const GRID_SPACING_M: f32 = 1.0;

/// Height of the spring's fixed anchor above the pivot, metres: high enough that the mass,
/// at the bottom of [`SPRING_DRAWN_X_RANGE_M`], still clears the ground.
pub const SPRING_ANCHOR_HEIGHT_M: f32 = 3.4;

/// Length of the spring at rest (x = 0), metres: the mass then hangs at
/// `SPRING_ANCHOR_HEIGHT_M - SPRING_REST_LENGTH_M` (1.6 m) above the pivot, clear of the
/// orbiting sphere's plane, with room for the coil's turns to stand apart.
pub const SPRING_REST_LENGTH_M: f32 = 1.8;

/// Drawn displacement range of the spring, metres. The simulation may run far outside it
/// (an exploding integrator); the drawing clamps so the coil never inverts or leaves the
/// view: at the top 0.3 m stays between the anchor and the mass, at the bottom the mass
/// stays above the ground.
pub const SPRING_DRAWN_X_RANGE_M: (f32, f32) = (-2.4, 1.5);

/// Radius of the mass on the spring, metres: a little wider than the coil
/// ([`COIL_RADIUS_M`]), so the coil's end disappears into the ball.
pub const SPRING_MASS_RADIUS_M: f32 = 0.22;

/// Radius of the spring's coil (axis to wire centre), metres: narrower than the mass it
/// ends in, wide enough for its turns to read from the default camera.
pub const COIL_RADIUS_M: f32 = 0.18;

/// Radius of the spring's wire, metres: 6 cm thick against the about 21 cm between turns
/// at rest, so the turns stand clearly apart at rest and as the spring stretches.
pub const WIRE_RADIUS_M: f32 = 0.03;

/// Turns of the spring's coil: about 21 cm per turn at rest (the coil is the rest length
/// less the part inside the mass), enough to read as a spring and to show compression, few
/// enough for the turns to stay apart.
pub const COIL_TURNS: u32 = 8;

/// Radius of the plate the spring hangs from, metres: wider than the coil, so the spring
/// visibly hangs from something.
pub const PLATE_RADIUS_M: f32 = 0.3;

/// Thickness of the plate the spring hangs from, metres.
pub const PLATE_THICKNESS_M: f32 = 0.05;

/// Radius of a trail dot, metres: small next to the 0.6 m sphere, still a few pixels wide
/// in a small pane, and narrower than the 7.9 cm the sphere moves in one 60 Hz frame, so
/// that frames which did not move it (a repeated dot) and gaps stay apart.
pub const TRAIL_DOT_RADIUS_M: f32 = 0.035;

/// How fast trail dots sink as they age, metres per second of real time. Each dot's height
/// then records when it was shown: motion that advances evenly with real time draws a
/// smooth slope; a frame that did not move the sphere drops a dot straight below the last,
/// and a frame that moved it twice as far leaves a wide step — stutter becomes a staircase,
/// visible in a still image. At 2 m/s one 60 Hz frame sinks a dot 3.3 cm, about a dot's
/// radius: a repeated dot lands one step down, overlapping its neighbour by about half.
pub const TRAIL_SINK_M_PER_S: f32 = 2.0;

// What the doc comments above promise of the layout, checked when the crate compiles.
const _: () = {
    // At the bottom of its drawn range the spring's mass still clears the ground.
    let lowest_mass_center_m =
        SPRING_ANCHOR_HEIGHT_M - (SPRING_REST_LENGTH_M - SPRING_DRAWN_X_RANGE_M.0);
    assert!(lowest_mass_center_m - SPRING_MASS_RADIUS_M > GROUND_HEIGHT_M);
    // At the top of its drawn range the coil keeps some length.
    assert!(SPRING_REST_LENGTH_M - SPRING_DRAWN_X_RANGE_M.1 > 0.0);
    // The coil ends inside the mass and hangs from a wider plate.
    assert!(COIL_RADIUS_M < SPRING_MASS_RADIUS_M);
    assert!(COIL_RADIUS_M + WIRE_RADIUS_M < PLATE_RADIUS_M);
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ground_runs_under_the_camera_and_inside_the_far_plane() {
        let camera = crate::scene::SceneConfig::new().camera;
        let camera_distance_m = camera.radius_m.hypot(camera.height_m) as f32;
        assert!(GRID_HALF_EXTENT_M > camera.radius_m as f32);
        let grid_corner_m = GRID_HALF_EXTENT_M * std::f32::consts::SQRT_2;
        assert!(camera_distance_m + grid_corner_m < Z_FAR_M);
    }
}

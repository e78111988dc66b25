//! What one pane draws, as instance data: the camera uniform, and one [`Instance`] per
//! object (grid, sphere, pivot, spring, trail dots, ghost) grouped by mesh and pipeline.
//! Also the colours everything is drawn in; sizes come from [`crate::world`].

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use glam::{Mat3, Mat4, Quat, Vec3, camera};

use crate::view::PaneView;
use crate::world::{
    COIL_RADIUS_M, COIL_TURNS, FRAMED_ASPECT, GRID_HALF_EXTENT_M, PIVOT_RADIUS_M, PLATE_RADIUS_M,
    PLATE_THICKNESS_M, POST_RADIUS_M, SPRING_MASS_RADIUS_M, TRAIL_DOT_RADIUS_M, WIRE_RADIUS_M,
    Z_FAR_M, Z_NEAR_M,
};

/// Clear colour of every pane: a dark blue-grey (linear).
pub const BACKGROUND: wgpu::Color = wgpu::Color {
    r: 0.06,
    g: 0.07,
    b: 0.09,
    a: 1.0,
};

/// Main colour of the orbiting sphere (linear RGB): warm orange.
pub const SPHERE_COLOR: [f32; 3] = [0.95, 0.33, 0.05];
/// Colour of every other longitude sector of the sphere (linear RGB): cream. The equatorial
/// band is [`SPHERE_COLOR`] at about a fifth of its brightness.
pub const SPHERE_STRIPE_COLOR: [f32; 3] = [0.98, 0.74, 0.42];
/// The player's marker (linear RGB): a warm body against the cool scene.
pub const PLAYER_COLOR: [f32; 3] = [0.85, 0.45, 0.12];

/// Radius of the player's body, metres.
const PLAYER_RADIUS_M: f32 = 0.25;

/// The pivot ball and its post (linear RGB).
pub const PIVOT_COLOR: [f32; 3] = [0.45, 0.47, 0.52];
/// The spring's coil and anchor plate (linear RGB): steel.
pub const SPRING_COLOR: [f32; 3] = [0.60, 0.66, 0.76];
/// The mass on the spring (linear RGB): blue.
pub const MASS_COLOR: [f32; 3] = [0.10, 0.38, 0.85];
/// Coil and mass of an exploded spring (linear RGB): alarm red.
pub const ALARM_COLOR: [f32; 3] = [1.0, 0.03, 0.02];
/// Ground grid lines (linear RGB): muted grey.
pub const GRID_COLOR: [f32; 3] = [0.22, 0.24, 0.28];
/// Newest trail dot (linear RGB); older dots fade towards [`BACKGROUND`].
pub const TRAIL_COLOR: [f32; 3] = [1.0, 0.80, 0.22];
/// A trail dot whose frame repeated the previous picture (linear RGB): red, against the
/// yellow of frames that moved.
pub const REPEATED_DOT_COLOR: [f32; 3] = [1.0, 0.12, 0.06];
/// A repeated dot's size relative to the others: large enough to read in a small pane.
const REPEATED_DOT_SCALE: f32 = 1.4;
/// The ghost's tint (linear RGB).
pub const GHOST_COLOR: [f32; 3] = [0.75, 0.85, 1.0];
/// The ghost's opacity facing the camera; its rim is more opaque.
pub const GHOST_ALPHA: f32 = 0.10;

/// The ghost's radius relative to the sphere's.
const GHOST_SCALE: f32 = 0.985;

/// Material flag in [`Instance::params`]`.x` for the lit pipeline: banded.
const MATERIAL_BANDED: f32 = 1.0;

/// The camera of a pane: world to clip space (right-handed, wgpu's 0..1 depth), for a
/// viewport of the given width over height. Tests use it to find where things land.
pub fn clip_from_world(view: &PaneView, aspect: f32) -> Mat4 {
    let aspect = if aspect.is_finite() && aspect > 0.0 {
        aspect
    } else {
        1.0
    };
    let forward = (view.camera_target - view.camera_eye).normalize_or_zero();
    // look_at is undefined when looking straight along the up vector.
    let up = if forward.cross(Vec3::Y).length_squared() < 1e-8 {
        Vec3::Z
    } else {
        Vec3::Y
    };
    let target = if forward == Vec3::ZERO {
        view.camera_eye - Vec3::Z
    } else {
        view.camera_target
    };
    // glam 0.34 keeps the camera constructors in `glam::camera` (no `Mat4::perspective_rh`);
    // the DirectX convention is wgpu's: depth 0..1, y up.
    // A pane narrower than the framing keeps the framing's horizontal field of view.
    let half_tan = (view.fov_y_rad * 0.5).tan() * (FRAMED_ASPECT / aspect).max(1.0);
    let fov_y_rad = (2.0 * half_tan.atan()).clamp(0.01, std::f32::consts::PI - 0.01);
    let clip_from_view =
        camera::rh::proj::directx::perspective(fov_y_rad, aspect, Z_NEAR_M, Z_FAR_M);
    let view_from_world = camera::rh::view::look_at_mat4(view.camera_eye, target, up);
    clip_from_view * view_from_world
}

/// Per-pane camera data, one 256-byte-aligned slot each in the camera buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(super) struct CameraUniform {
    /// World to clip space.
    clip_from_world: [[f32; 4]; 4],
    /// Camera position (xyz).
    eye_position: [f32; 4],
    /// Unit direction towards the light (xyz), world space.
    light_direction: [f32; 4],
    /// The clear colour (rgb, linear).
    background: [f32; 4],
}

/// One drawn object.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(super) struct Instance {
    /// Object to world space, columns.
    world_from_object: [[f32; 4]; 4],
    /// Inverse-transpose of the upper 3×3 of `world_from_object`, columns (w unused).
    normal_from_object: [[f32; 4]; 3],
    /// Base colour (rgb, linear) and opacity.
    color: [f32; 4],
    /// Second colour of the banded material (rgb).
    color_alt: [f32; 4],
    /// Lit and ghost pipelines: x = material (0 plain, 1 banded). Coil: (turns, length_m,
    /// coil radius, wire radius). Grid: x = fade radius, metres.
    params: [f32; 4],
}

impl Instance {
    /// An object drawn with `world_from_object`, in `color` at opacity `alpha`, with no
    /// second colour and zero params.
    fn new(world_from_object: Mat4, color: [f32; 3], alpha: f32) -> Self {
        let linear = Mat3::from_mat4(world_from_object);
        // A collapsed transform (zero scale) has no inverse; its normals do not matter.
        let normal = if linear.determinant().abs() > 1e-12 {
            linear.inverse().transpose()
        } else {
            Mat3::IDENTITY
        };
        Self {
            world_from_object: world_from_object.to_cols_array_2d(),
            normal_from_object: [
                normal.x_axis.extend(0.0).to_array(),
                normal.y_axis.extend(0.0).to_array(),
                normal.z_axis.extend(0.0).to_array(),
            ],
            color: [color[0], color[1], color[2], alpha],
            color_alt: [0.0; 4],
            params: [0.0; 4],
        }
    }

    /// This instance with `params` (see [`Instance::params`]).
    fn with_params(mut self, params: [f32; 4]) -> Self {
        self.params = params;
        self
    }
}

/// Where one pane's instances lie in the shared instance list, by mesh and pipeline.
#[derive(Clone, Debug)]
pub(super) struct PaneInstances {
    /// Instances of the ground grid.
    pub(super) grid: Range<u32>,
    /// Instances of the orbiting sphere.
    pub(super) spheres: Range<u32>,
    /// Instances of the pivot ball, the spring's mass and the trail dots.
    pub(super) dots: Range<u32>,
    /// Instances of the pivot's post and the spring's anchor plate.
    pub(super) cylinders: Range<u32>,
    /// Instances of the spring's coil.
    pub(super) coil: Range<u32>,
    /// Instances of the ghost sphere.
    pub(super) ghost: Range<u32>,
}

/// Appends one pane's instances to `instances`, grouped by mesh and pipeline.
pub(super) fn push_pane_instances(instances: &mut Vec<Instance>, view: &PaneView) -> PaneInstances {
    let background = [
        BACKGROUND.r as f32,
        BACKGROUND.g as f32,
        BACKGROUND.b as f32,
    ];
    let spring_color = |normal: [f32; 3]| {
        if view.spring_exploded {
            ALARM_COLOR
        } else {
            normal
        }
    };

    let grid = group(instances, |instances| {
        let world_from_object =
            Mat4::from_translation(Vec3::new(view.pivot.x, view.ground_y, view.pivot.z));
        instances.push(
            Instance::new(world_from_object, GRID_COLOR, 1.0).with_params([
                GRID_HALF_EXTENT_M,
                0.0,
                0.0,
                0.0,
            ]),
        );
    });

    let spheres = group(instances, |instances| {
        let mut sphere = Instance::new(
            Mat4::from_scale_rotation_translation(
                Vec3::splat(view.sphere_radius_m),
                view.sphere_rotation,
                view.sphere_center,
            ),
            SPHERE_COLOR,
            1.0,
        )
        .with_params([MATERIAL_BANDED, 0.0, 0.0, 0.0]);
        sphere.color_alt = [
            SPHERE_STRIPE_COLOR[0],
            SPHERE_STRIPE_COLOR[1],
            SPHERE_STRIPE_COLOR[2],
            1.0,
        ];
        instances.push(sphere);
    });

    let dots = group(instances, |instances| {
        instances.push(Instance::new(
            ball(view.pivot, PIVOT_RADIUS_M),
            PIVOT_COLOR,
            1.0,
        ));
        instances.push(Instance::new(
            ball(view.spring_mass, SPRING_MASS_RADIUS_M),
            spring_color(MASS_COLOR),
            1.0,
        ));
        if let Some(player) = &view.player {
            // Its head, and a nose a head's width ahead of it showing where it looks.
            instances.push(Instance::new(
                ball(player.eye, PLAYER_RADIUS_M),
                PLAYER_COLOR,
                1.0,
            ));
            instances.push(Instance::new(
                ball(
                    player.eye + player.facing * (1.6 * PLAYER_RADIUS_M),
                    0.4 * PLAYER_RADIUS_M,
                ),
                PLAYER_COLOR,
                1.0,
            ));
        }
        let count = view.trail.len().max(1) as f32;
        for (i, dot) in view.trail_dots().enumerate() {
            // Newest is 1, oldest near 0: old dots darken into the background.
            let age = (i + 1) as f32 / count;
            let strength = 0.15 + 0.85 * age;
            // A frame that repeated the last picture (no step) stands out: the stutter.
            let (tint, scale) = if dot.repeated {
                (REPEATED_DOT_COLOR, REPEATED_DOT_SCALE)
            } else {
                (TRAIL_COLOR, 1.0)
            };
            let color =
                std::array::from_fn(|c| background[c] + (tint[c] - background[c]) * strength);
            let radius = TRAIL_DOT_RADIUS_M * scale * (0.6 + 0.4 * age);
            instances.push(Instance::new(ball(dot.position, radius), color, 1.0));
        }
    });

    let cylinders = group(instances, |instances| {
        let post_height = view.pivot.y - view.ground_y;
        if post_height > 0.0 {
            let world_from_object = Mat4::from_scale_rotation_translation(
                Vec3::new(POST_RADIUS_M, post_height, POST_RADIUS_M),
                Quat::IDENTITY,
                Vec3::new(view.pivot.x, view.ground_y, view.pivot.z),
            );
            instances.push(Instance::new(world_from_object, PIVOT_COLOR, 1.0));
        }
        if let Some(player) = &view.player {
            let height = (player.eye.y - player.feet.y - PLAYER_RADIUS_M).max(0.0);
            let body = Mat4::from_scale_rotation_translation(
                Vec3::new(PLAYER_RADIUS_M * 0.8, height, PLAYER_RADIUS_M * 0.8),
                Quat::IDENTITY,
                player.feet,
            );
            instances.push(Instance::new(body, PLAYER_COLOR, 1.0));
        }
        let plate = Mat4::from_scale_rotation_translation(
            Vec3::new(PLATE_RADIUS_M, PLATE_THICKNESS_M, PLATE_RADIUS_M),
            Quat::IDENTITY,
            view.spring_anchor,
        );
        instances.push(Instance::new(plate, spring_color(SPRING_COLOR), 1.0));
    });

    let coil = group(instances, |instances| {
        let axis = view.spring_mass - view.spring_anchor;
        // The coil ends where it meets the top of the ball, at the coil's radius.
        let overlap = (SPRING_MASS_RADIUS_M.powi(2) - COIL_RADIUS_M.powi(2))
            .max(0.0)
            .sqrt();
        let length_m = (axis.length() - overlap).max(0.05);
        let rotation = Quat::from_rotation_arc(Vec3::NEG_Y, axis.normalize_or(Vec3::NEG_Y));
        let world_from_object = Mat4::from_rotation_translation(rotation, view.spring_anchor);
        instances.push(
            Instance::new(world_from_object, spring_color(SPRING_COLOR), 1.0).with_params([
                COIL_TURNS as f32,
                length_m,
                COIL_RADIUS_M,
                WIRE_RADIUS_M,
            ]),
        );
    });

    let ghost = group(instances, |instances| {
        // A hair smaller than the sphere: where the ghost coincides with the drawn
        // sphere (strategies without lag) it hides inside it instead of z-fighting.
        instances.push(Instance::new(
            ball(view.ghost_center, view.sphere_radius_m * GHOST_SCALE),
            GHOST_COLOR,
            GHOST_ALPHA,
        ));
    });

    PaneInstances {
        grid,
        spheres,
        dots,
        cylinders,
        coil,
        ghost,
    }
}

/// Runs `push` on the instance list and returns the range it appended.
fn group(instances: &mut Vec<Instance>, push: impl FnOnce(&mut Vec<Instance>)) -> Range<u32> {
    let start = instances.len();
    push(instances);
    let to_u32 = |n: usize| u32::try_from(n).expect("instance count fits u32");
    to_u32(start)..to_u32(instances.len())
}

/// A sphere of `radius` at `center`.
fn ball(center: Vec3, radius: f32) -> Mat4 {
    Mat4::from_scale_rotation_translation(Vec3::splat(radius), Quat::IDENTITY, center)
}

/// The camera uniform of a pane showing `view` in a viewport of width over height `aspect`.
pub(super) fn camera_uniform(view: &PaneView, aspect: f32) -> CameraUniform {
    // A lamp above, left of and behind the viewer, turning with the camera so every pane
    // and every camera angle is lit alike.
    let forward = (view.camera_target - view.camera_eye).normalize_or(Vec3::NEG_Z);
    let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
    let up = right.cross(forward);
    let light_direction = (-0.55 * right + 0.8 * up - 0.45 * forward).normalize();
    CameraUniform {
        clip_from_world: clip_from_world(view, aspect).to_cols_array_2d(),
        eye_position: view.camera_eye.extend(1.0).to_array(),
        light_direction: light_direction.extend(0.0).to_array(),
        background: [
            BACKGROUND.r as f32,
            BACKGROUND.g as f32,
            BACKGROUND.b as f32,
            1.0,
        ],
    }
}

//! What one pane draws, as instance data: the camera uniform, and one [`Instance`] per
//! object (grid, sphere, pivot, spring, ghost) grouped by mesh and pipeline; the trail's
//! dots are one mesh instead (`trail.rs`). Also the colours everything is drawn in; sizes come from [`crate::world`].

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use glam::{Mat3, Mat4, Quat, Vec3, camera};

use crate::render::mesh::{SPHERE_LODS, sphere_lod};
use crate::view::PaneView;
use crate::world::{
    COIL_RADIUS_M, COIL_TURNS, FRAMED_ASPECT, GRID_HALF_EXTENT_M, PIVOT_RADIUS_M, PLATE_RADIUS_M,
    PLATE_THICKNESS_M, POST_RADIUS_M, SPRING_MASS_RADIUS_M, WIRE_RADIUS_M, Z_FAR_M, Z_NEAR_M,
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
pub(super) const REPEATED_DOT_SCALE: f32 = 1.4;
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
    pub(super) spheres: LodRanges,
    /// Instances of the pivot ball, the spring's mass and the player's head.
    pub(super) dots: LodRanges,
    /// Instances of the pivot's post and the spring's anchor plate.
    pub(super) cylinders: Range<u32>,
    /// Instances of the spring's coil.
    pub(super) coil: Range<u32>,
    /// Instances of the ghost sphere.
    pub(super) ghost: LodRanges,
}

/// A group of spheres' instances split by the mesh that draws them: one range per
/// [`MeshSet::spheres`](crate::render::mesh::MeshSet) mesh, coarsest first.
pub(super) type LodRanges = [Range<u32>; SPHERE_LODS];

/// How large things look in one pane: a sphere's radius in pixels, to choose its mesh.
#[derive(Clone, Copy, Debug)]
pub(super) struct PaneScale {
    /// The pane's camera.
    clip_from_world: Mat4,
    /// Pixels per unit of clip-space y over w: half the viewport's height times the
    /// projection's vertical scale.
    pixels_per_clip_y: f32,
}

impl PaneScale {
    /// The scale of a pane drawn with `clip_from_world` in a viewport `height_px` tall.
    pub(super) fn new(clip_from_world: Mat4, height_px: f32) -> Self {
        // Clip y is the projection's vertical scale times the camera's unit up axis.
        let vertical_scale = clip_from_world.row(1).truncate().length();
        Self {
            clip_from_world,
            pixels_per_clip_y: 0.5 * height_px * vertical_scale,
        }
    }

    /// The radius in pixels of a sphere of `radius` metres at `center`, as seen at the
    /// middle of the view; infinite at or behind the eye.
    pub(super) fn radius_px(&self, center: Vec3, radius: f32) -> f32 {
        let w = (self.clip_from_world * center.extend(1.0)).w;
        if w > 1e-6 {
            radius * self.pixels_per_clip_y / w
        } else {
            f32::INFINITY
        }
    }

    /// Which sphere mesh draws the sphere `instance` places (its scale is its radius).
    fn lod(&self, instance: &Instance) -> usize {
        let columns = &instance.world_from_object;
        let radius = Vec3::from_slice(&columns[0][..3]).length();
        let center = Vec3::from_slice(&columns[3][..3]);
        sphere_lod(self.radius_px(center, radius))
    }
}

/// Appends one pane's instances to `instances`, grouped by mesh and pipeline, each sphere
/// with the mesh its size on screen (`scale`) needs.
pub(super) fn push_pane_instances(
    instances: &mut Vec<Instance>,
    view: &PaneView,
    scale: &PaneScale,
) -> PaneInstances {
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

    let spheres = sphere_group(instances, scale, |instances| {
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

    let dots = sphere_group(instances, scale, |instances| {
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

    let ghost = sphere_group(instances, scale, |instances| {
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

/// Runs `push`, which appends spheres, and sorts what it appended by the mesh each needs.
/// Returns the range of each mesh's instances.
fn sphere_group(
    instances: &mut Vec<Instance>,
    scale: &PaneScale,
    push: impl FnOnce(&mut Vec<Instance>),
) -> LodRanges {
    let appended = group(instances, push);
    let spheres = &mut instances[appended.start as usize..];
    spheres.sort_unstable_by_key(|instance| scale.lod(instance));
    let mut start = appended.start;
    std::array::from_fn(|lod| {
        let count = spheres.partition_point(|instance| scale.lod(instance) <= lod);
        let end = appended.start + u32::try_from(count).expect("instance count fits u32");
        let range = start..end;
        start = end;
        range
    })
}

/// A sphere of `radius` at `center`.
fn ball(center: Vec3, radius: f32) -> Mat4 {
    Mat4::from_scale_rotation_translation(Vec3::splat(radius), Quat::IDENTITY, center)
}

/// The camera uniform of a pane showing `view` through `clip_from_world` (its
/// [`clip_from_world`] for the viewport's aspect).
pub(super) fn camera_uniform(view: &PaneView, clip_from_world: Mat4) -> CameraUniform {
    // A lamp above, left of and behind the viewer, turning with the camera so every pane
    // and every camera angle is lit alike.
    let forward = (view.camera_target - view.camera_eye).normalize_or(Vec3::NEG_Z);
    let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
    let up = right.cross(forward);
    let light_direction = (-0.55 * right + 0.8 * up - 0.45 * forward).normalize();
    CameraUniform {
        clip_from_world: clip_from_world.to_cols_array_2d(),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A camera 10 m from the origin looking at it, 60° vertical field of view.
    fn camera(aspect: f32) -> Mat4 {
        let clip_from_view =
            camera::rh::proj::directx::perspective(60f32.to_radians(), aspect, Z_NEAR_M, Z_FAR_M);
        let view_from_world = camera::rh::view::look_at_mat4(Vec3::Z * 10.0, Vec3::ZERO, Vec3::Y);
        clip_from_view * view_from_world
    }

    #[test]
    fn a_sphere_measures_its_radius_on_screen() {
        // r / (d·tan 30°) of half the height: 1 m at 10 m on 720 px is 62.35 px.
        let scale = PaneScale::new(camera(16.0 / 9.0), 720.0);
        let expected = 360.0 / (10.0 * 30f32.to_radians().tan());
        assert!((scale.radius_px(Vec3::ZERO, 1.0) - expected).abs() < 1e-3);
        // Twice as far, half as large; the aspect does not matter.
        let narrow = PaneScale::new(camera(0.5), 720.0);
        assert!((narrow.radius_px(Vec3::Z * -10.0, 1.0) - expected / 2.0).abs() < 1e-3);
        // At or behind the eye: as large as can be.
        assert_eq!(scale.radius_px(Vec3::Z * 20.0, 1.0), f32::INFINITY);
    }

    #[test]
    fn each_sphere_gets_the_mesh_its_size_on_screen_needs() {
        let (sim, shown, trail) = super::super::test_frames::sixty_frames();
        let view = PaneView::new(&shown, sim.scene().config(), false, &trail);
        let clip = clip_from_world(&view, 16.0 / 9.0);
        let count = |ranges: &LodRanges| ranges.clone().map(|range| range.len());

        let mut instances = Vec::new();
        let large = push_pane_instances(&mut instances, &view, &PaneScale::new(clip, 1080.0));
        // The orbiting sphere is tens of pixels across: the finest mesh.
        assert_eq!(count(&large.spheres), [0, 0, 0, 0, 1]);
        // Every range holds instances of its mesh only, in order.
        for ranges in [&large.spheres, &large.dots, &large.ghost] {
            for (lod, range) in ranges.iter().enumerate() {
                let scale = PaneScale::new(clip, 1080.0);
                for instance in &instances[range.start as usize..range.end as usize] {
                    assert_eq!(scale.lod(instance), lod);
                }
            }
        }

        // In a pane 40 pixels tall, everything is small: 8 segments or fewer.
        instances.clear();
        let tiny = push_pane_instances(&mut instances, &view, &PaneScale::new(clip, 40.0));
        for ranges in [&tiny.spheres, &tiny.dots, &tiny.ghost] {
            let counts = count(ranges);
            assert_eq!(counts[3] + counts[4], 0, "{counts:?}");
        }
    }
}

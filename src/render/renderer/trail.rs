//! The trail's dots as one mesh per pane, built on the CPU each frame, rather than as one
//! instance per dot.
//!
//! Sixty dots a pane (six hundred with ten panes) are sixty instances of a sphere mesh, and
//! a CPU rasterizer may pay for each instance as for a draw of its own: measured with
//! `bench-render` on SwiftShader (Chromium's rasterizer, which a page's WebGPU and WebGL2
//! run on where the browser has no GPU), a trail of 60 instanced dots cost 3.0 ms of a
//! 1280×800 frame and one of 30 dots 1.7 ms, while cutting every dot's triangles by 40%
//! changed nothing (docs/web.md). So each dot's sphere, the mesh its size on screen needs
//! ([`sphere_lod`]), is copied into world space here, and a pane's whole trail is one
//! indexed draw of a few thousand vertices with the lit shading of every other sphere.

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use glam::Vec3;

use super::instances::{
    BACKGROUND, PaneScale, REPEATED_DOT_COLOR, REPEATED_DOT_SCALE, TRAIL_COLOR,
};
use crate::render::mesh::{MeshSet, SPHERE_LODS, Vertex, sphere_lod};
use crate::view::PaneView;
use crate::world::TRAIL_DOT_RADIUS_M;

/// One vertex of a trail's mesh: world-space position and unit normal, and its dot's
/// colour (linear RGB; alpha 1).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub(super) struct TrailVertex {
    /// Position, world space.
    pub(super) position: [f32; 3],
    /// Unit normal, world space.
    pub(super) normal: [f32; 3],
    /// The dot's colour.
    pub(super) color: [f32; 4],
}

/// One dot of a pane's trail as drawn: where, how large, in what colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Dot {
    /// Centre, world space.
    pub(super) center: Vec3,
    /// Radius, metres.
    pub(super) radius: f32,
    /// Colour (linear RGB).
    pub(super) color: [f32; 3],
}

/// The dots of `view`'s trail, oldest first: the newest full size in [`TRAIL_COLOR`], older
/// ones smaller and darkened into the background, and the dot of a frame that repeated the
/// previous picture (the stutter) larger, in [`REPEATED_DOT_COLOR`].
pub(super) fn trail_dots<'a>(view: &'a PaneView<'a>) -> impl Iterator<Item = Dot> + 'a {
    let background = [
        BACKGROUND.r as f32,
        BACKGROUND.g as f32,
        BACKGROUND.b as f32,
    ];
    let count = view.trail.len().max(1) as f32;
    view.trail_dots().enumerate().map(move |(i, dot)| {
        // Newest is 1, oldest near 0: old dots darken into the background.
        let age = (i + 1) as f32 / count;
        let strength = 0.15 + 0.85 * age;
        let (tint, scale) = if dot.repeated {
            (REPEATED_DOT_COLOR, REPEATED_DOT_SCALE)
        } else {
            (TRAIL_COLOR, 1.0)
        };
        Dot {
            center: dot.position,
            radius: TRAIL_DOT_RADIUS_M * scale * (0.6 + 0.4 * age),
            color: std::array::from_fn(|c| background[c] + (tint[c] - background[c]) * strength),
        }
    })
}

/// The sphere meshes kept on the CPU, each with indices from its own first vertex, to copy
/// dots from.
pub(super) struct DotMeshes {
    /// Each sphere mesh's vertices and indices, coarsest first.
    meshes: [(Vec<Vertex>, Vec<u32>); SPHERE_LODS],
}

impl DotMeshes {
    /// The sphere meshes of `set`.
    pub(super) fn new(set: &MeshSet) -> Self {
        Self {
            meshes: set.spheres.map(|mesh| {
                let indices =
                    &set.indices[mesh.indices().start as usize..mesh.indices().end as usize];
                let first = indices.iter().copied().min().unwrap_or(0);
                let last = indices.iter().copied().max().unwrap_or(0);
                (
                    set.vertices[first as usize..=last as usize].to_vec(),
                    indices.iter().map(|&index| index - first).collect(),
                )
            }),
        }
    }

    /// Appends `view`'s trail, as `scale` sizes it on screen, to `vertices` and `indices`
    /// (indices into `vertices` as a whole: WebGL2 draws with no base vertex). Returns the
    /// range of indices it appended.
    pub(super) fn push_trail(
        &self,
        view: &PaneView,
        scale: &PaneScale,
        vertices: &mut Vec<TrailVertex>,
        indices: &mut Vec<u32>,
    ) -> Range<u32> {
        let start = indices.len();
        for dot in trail_dots(view) {
            let (mesh_vertices, mesh_indices) =
                &self.meshes[sphere_lod(scale.radius_px(dot.center, dot.radius))];
            let Ok(first) = u32::try_from(vertices.len()) else {
                break;
            };
            let color = [dot.color[0], dot.color[1], dot.color[2], 1.0];
            vertices.extend(mesh_vertices.iter().map(|vertex| TrailVertex {
                // The unit sphere's position is its normal.
                position: (dot.center + Vec3::from(vertex.position) * dot.radius).to_array(),
                normal: vertex.normal,
                color,
            }));
            indices.extend(mesh_indices.iter().map(|&index| first + index));
        }
        let to_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        to_u32(start)..to_u32(indices.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::clip_from_world;
    use crate::scene::SceneConfig;
    use crate::sim::Simulation;
    use crate::timestep::{Nanos, Strategy, TimestepConfig};
    use crate::view::Trail;

    #[test]
    fn each_dot_is_copied_with_the_mesh_its_size_needs_into_one_mesh() {
        let (sim, shown, trail) = super::super::test_frames::sixty_frames();
        let view = PaneView::new(&shown, sim.scene().config(), false, &trail);
        let clip = clip_from_world(&view, 16.0 / 9.0);
        let set = MeshSet::new(10.0, 1.0);
        let meshes = DotMeshes::new(&set);
        let dots: Vec<Dot> = trail_dots(&view).collect();
        assert_eq!(dots.len(), view.trail_dots().count());

        for height_px in [1080.0, 40.0] {
            let scale = PaneScale::new(clip, height_px);
            // After something else in the lists: the indices still point into the whole.
            let mut vertices = vec![TrailVertex::zeroed(); 7];
            let mut indices = vec![0; 3];
            let range = meshes.push_trail(&view, &scale, &mut vertices, &mut indices);
            assert_eq!(range, 3..indices.len() as u32);
            // Each dot brings the vertices and indices of its own mesh.
            let lods: Vec<usize> = dots
                .iter()
                .map(|dot| sphere_lod(scale.radius_px(dot.center, dot.radius)))
                .collect();
            let mesh_size = |lod: usize| {
                let (v, i) = &meshes.meshes[lod];
                (v.len(), i.len())
            };
            let expected = lods.iter().fold((7, 3), |(v, i), &lod| {
                (v + mesh_size(lod).0, i + mesh_size(lod).1)
            });
            assert_eq!((vertices.len(), indices.len()), expected);
            assert!(
                indices[3..]
                    .iter()
                    .all(|&i| (7..vertices.len() as u32).contains(&i))
            );
            // Dots of a few pixels take the coarsest mesh, never the finest.
            assert!(lods.iter().all(|&lod| lod < SPHERE_LODS - 1), "{lods:?}");
            // Every vertex lies on its dot's sphere, in its dot's colour.
            let mut at = 7;
            for (dot, &lod) in dots.iter().zip(&lods) {
                for vertex in &vertices[at..at + mesh_size(lod).0] {
                    let from_center = Vec3::from(vertex.position) - dot.center;
                    assert!((from_center.length() - dot.radius).abs() < 1e-5);
                    assert!((from_center / dot.radius - Vec3::from(vertex.normal)).length() < 1e-4);
                    assert_eq!(
                        vertex.color,
                        [dot.color[0], dot.color[1], dot.color[2], 1.0]
                    );
                }
                at += mesh_size(lod).0;
            }
        }
    }

    #[test]
    fn old_dots_fade_and_shrink_and_a_repeated_picture_stands_out() {
        let mut trail = Trail::default();
        // The third frame repeats the second's position: a stutter.
        for (i, x) in [0.0, 1.0, 1.0, 2.0].into_iter().enumerate() {
            trail.push((Vec3::new(x, 1.0, 0.0), i as Nanos * 10_000_000));
        }
        let mut sim = Simulation::new(
            Strategy::Interpolated,
            TimestepConfig::default(),
            SceneConfig::new(),
        );
        let (_, frame) = sim.frame(16_666_667);
        let mut view = PaneView::new(&frame, sim.scene().config(), false, &trail);
        view.real_time = 30_000_000;
        let dots: Vec<Dot> = trail_dots(&view).collect();
        assert_eq!(dots.len(), 4);
        // The newest in the trail's colour at full size; the oldest smaller and darker.
        for (got, want) in dots[3].color.iter().zip(TRAIL_COLOR) {
            assert!((got - want).abs() < 1e-6, "{:?}", dots[3].color);
        }
        assert!((dots[3].radius - TRAIL_DOT_RADIUS_M).abs() < 1e-7);
        assert!(dots[0].radius < dots[3].radius);
        assert!(dots[0].color[0] < dots[3].color[0]);
        // The repeated one: larger than its neighbours, red.
        assert!(dots[2].radius > dots[3].radius);
        assert!(dots[2].color[0] > 4.0 * dots[2].color[1]);
    }
}

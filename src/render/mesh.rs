//! Meshes generated once at start-up, packed into one vertex and one index buffer.

use std::f32::consts::{PI, TAU};

use bytemuck::{Pod, Zeroable};
use glam::Vec3;

use crate::world::COIL_TURNS;

/// One mesh vertex: object-space position and unit normal.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct Vertex {
    /// Position, object space.
    pub position: [f32; 3],
    /// Unit normal, object space.
    pub normal: [f32; 3],
}

impl Vertex {
    fn new(position: Vec3, normal: Vec3) -> Self {
        Self {
            position: position.to_array(),
            normal: normal.to_array(),
        }
    }
}

/// Where one mesh lies in the shared buffers.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MeshRange {
    /// First index in the index buffer.
    pub first_index: u32,
    /// Number of indices.
    pub index_count: u32,
}

impl MeshRange {
    /// The index range for `draw_indexed`.
    pub fn indices(&self) -> std::ops::Range<u32> {
        self.first_index..self.first_index + self.index_count
    }
}

/// Every mesh the scene uses, appended into shared vertex and index lists.
#[derive(Default)]
pub(crate) struct MeshSet {
    /// All vertices.
    pub vertices: Vec<Vertex>,
    /// All indices, into `vertices` as a whole: drawn without a base vertex, which WebGL2
    /// (and GL ES 3.0) cannot draw with.
    pub indices: Vec<u32>,
    /// Unit spheres (radius 1, centred), coarsest first: one per [`SPHERE_SEGMENTS`], so a
    /// sphere a few pixels wide is not drawn with two thousand triangles (a CPU rasterizer
    /// pays for each).
    pub spheres: [MeshRange; SPHERE_LODS],
    /// Capped cylinder, radius 1, from y = 0 to y = 1.
    pub cylinder: MeshRange,
    /// The spring's parameter grid, shaped by the coil vertex shader.
    pub coil: MeshRange,
    /// Ground grid lines (a line list) in the y = 0 plane.
    pub grid: MeshRange,
}

/// How many sphere meshes there are.
pub(crate) const SPHERE_LODS: usize = 5;
/// Longitude segments of each sphere mesh, coarsest first; each has half as many latitude
/// rings. 48 × 24 (about 2.2k triangles) is smooth up to a radius of about 230 pixels; 4 × 2
/// (16 triangles) draws a dot up to 1.7 pixels in radius, as a ten-pane trail's are.
const SPHERE_SEGMENTS: [u32; SPHERE_LODS] = [4, 6, 8, 16, 48];
/// The widest gap, in pixels, [`sphere_lod`] allows between a sphere's outline and its
/// polygon's: under half a pixel, the coarser mesh draws the same pixels.
const MAX_OUTLINE_GAP_PX: f32 = 0.5;
/// Sides of the cylinder.
const CYLINDER_SIDES: u32 = 24;
/// Samples along the spring per turn: enough for the coil to look round.
pub(crate) const COIL_SAMPLES_PER_TURN: u32 = 20;
/// Sides of the spring's wire.
const COIL_WIRE_SIDES: u32 = 8;

impl MeshSet {
    /// Generates all meshes. `grid_half_extent_m` and `grid_spacing_m` shape the ground grid.
    pub fn new(grid_half_extent_m: f32, grid_spacing_m: f32) -> Self {
        let mut set = Self::default();
        set.spheres =
            SPHERE_SEGMENTS.map(|segments| set.append(|v, i| sphere(v, i, segments, segments / 2)));
        set.cylinder = set.append(cylinder);
        set.coil = set.append(coil);
        set.grid = set.append(|v, i| grid(v, i, grid_half_extent_m, grid_spacing_m));
        set
    }

    /// Runs a generator into fresh lists and appends them.
    fn append(&mut self, generate: impl FnOnce(&mut Vec<Vertex>, &mut Vec<u32>)) -> MeshRange {
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        generate(&mut vertices, &mut indices);
        let range = MeshRange {
            first_index: to_u32(self.indices.len()),
            index_count: to_u32(indices.len()),
        };
        let first_vertex = to_u32(self.vertices.len());
        self.vertices.extend(vertices);
        self.indices
            .extend(indices.into_iter().map(|index| index + first_vertex));
        range
    }
}

/// Which sphere mesh draws a sphere `radius_px` pixels across its middle: the coarsest
/// whose outline stays within [`MAX_OUTLINE_GAP_PX`] of the circle (a regular polygon of
/// `n` sides around a circle of radius `r` falls short of it by `r·(1 − cos(π/n))`), the
/// finest when none does. Not a number (a degenerate camera) gives the finest.
pub(crate) fn sphere_lod(radius_px: f32) -> usize {
    SPHERE_SEGMENTS
        .iter()
        .position(|&segments| {
            radius_px * (1.0 - (PI / segments as f32).cos()) <= MAX_OUTLINE_GAP_PX
        })
        .unwrap_or(SPHERE_LODS - 1)
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).expect("mesh sizes fit u32")
}

/// Triangles of a grid of `columns + 1` by `rows + 1` vertices laid out row by row,
/// counter-clockwise seen from outside when rows advance along the surface's "down".
fn grid_triangles(indices: &mut Vec<u32>, columns: u32, rows: u32) {
    let stride = columns + 1;
    for row in 0..rows {
        for column in 0..columns {
            let a = row * stride + column;
            let b = a + stride;
            indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
        }
    }
}

fn sphere(vertices: &mut Vec<Vertex>, indices: &mut Vec<u32>, segments: u32, rings: u32) {
    for ring in 0..=rings {
        let polar = PI * ring as f32 / rings as f32;
        for segment in 0..=segments {
            let azimuth = TAU * segment as f32 / segments as f32;
            let n = Vec3::new(
                polar.sin() * azimuth.cos(),
                polar.cos(),
                -polar.sin() * azimuth.sin(),
            );
            vertices.push(Vertex::new(n, n));
        }
    }
    grid_triangles(indices, segments, rings);
}

fn cylinder(vertices: &mut Vec<Vertex>, indices: &mut Vec<u32>) {
    // Side: two rows of vertices, top (y = 1) first so the winding matches the sphere's.
    for y in [1.0, 0.0] {
        for side in 0..=CYLINDER_SIDES {
            let azimuth = TAU * side as f32 / CYLINDER_SIDES as f32;
            let n = Vec3::new(azimuth.cos(), 0.0, -azimuth.sin());
            vertices.push(Vertex::new(n + Vec3::Y * y, n));
        }
    }
    grid_triangles(indices, CYLINDER_SIDES, 1);
    // Caps: a centre and a rim each, with flat normals.
    for (y, normal) in [(1.0, Vec3::Y), (0.0, Vec3::NEG_Y)] {
        let centre = to_u32(vertices.len());
        vertices.push(Vertex::new(Vec3::Y * y, normal));
        for side in 0..CYLINDER_SIDES {
            let azimuth = TAU * side as f32 / CYLINDER_SIDES as f32;
            let rim = Vec3::new(azimuth.cos(), y, -azimuth.sin());
            vertices.push(Vertex::new(rim, normal));
        }
        for side in 0..CYLINDER_SIDES {
            let a = centre + 1 + side;
            let b = centre + 1 + (side + 1) % CYLINDER_SIDES;
            if normal.y > 0.0 {
                indices.extend_from_slice(&[centre, a, b]);
            } else {
                indices.extend_from_slice(&[centre, b, a]);
            }
        }
    }
}

/// The spring's parameter grid: position = (t along the coil, angle around the wire, 0).
fn coil(vertices: &mut Vec<Vertex>, indices: &mut Vec<u32>) {
    let samples = COIL_TURNS * COIL_SAMPLES_PER_TURN;
    for sample in 0..=samples {
        let t = sample as f32 / samples as f32;
        for side in 0..=COIL_WIRE_SIDES {
            let phi = TAU * side as f32 / COIL_WIRE_SIDES as f32;
            vertices.push(Vertex::new(Vec3::new(t, phi, 0.0), Vec3::ZERO));
        }
    }
    grid_triangles(indices, COIL_WIRE_SIDES, samples);
}

/// Lines every `spacing_m` across a square of half-size `half_extent_m` in the y = 0 plane.
fn grid(vertices: &mut Vec<Vertex>, indices: &mut Vec<u32>, half_extent_m: f32, spacing_m: f32) {
    let lines_per_side = (half_extent_m / spacing_m).floor() as i32;
    for i in -lines_per_side..=lines_per_side {
        let offset = i as f32 * spacing_m;
        for (start, end) in [
            (
                Vec3::new(offset, 0.0, -half_extent_m),
                Vec3::new(offset, 0.0, half_extent_m),
            ),
            (
                Vec3::new(-half_extent_m, 0.0, offset),
                Vec3::new(half_extent_m, 0.0, offset),
            ),
        ] {
            let first = to_u32(vertices.len());
            vertices.push(Vertex::new(start, Vec3::Y));
            vertices.push(Vertex::new(end, Vec3::Y));
            indices.extend_from_slice(&[first, first + 1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meshes_index_only_their_own_vertices() {
        let set = MeshSet::new(10.0, 1.0);
        let total = set.vertices.len() as i64;
        let [point, speck, dot, ball, sphere] = set.spheres;
        for mesh in [
            point,
            speck,
            dot,
            ball,
            sphere,
            set.cylinder,
            set.coil,
            set.grid,
        ] {
            let indices = &set.indices[mesh.indices().start as usize..mesh.indices().end as usize];
            assert!(!indices.is_empty());
            assert!(indices.iter().all(|&i| (i as i64) < total));
        }
        // About 2k triangles for the fine sphere, a tenth of that for the next, and a few
        // dozen or a handful for the coarsest.
        let triangles = |mesh: MeshRange| mesh.index_count / 3;
        assert!((2000..2600).contains(&triangles(sphere)));
        assert!((150..300).contains(&triangles(ball)));
        assert_eq!(
            [triangles(dot), triangles(speck), triangles(point)],
            [64, 36, 16]
        );
    }

    #[test]
    fn sphere_meshes_follow_the_outline_within_half_a_pixel() {
        // r·(1 − cos(π/n)) = 0.5 at r = 1.71 px for 4 sides, 3.73 px for 6, 6.57 px for 8,
        // 26.0 px for 16.
        for (radius_px, lod) in [
            (0.0, 0),
            (1.70, 0),
            (1.72, 1),
            (3.72, 1),
            (3.74, 2),
            (6.5, 2),
            (6.7, 3),
            (25.9, 3),
            (26.2, 4),
            (5000.0, 4),
            (f32::NAN, 4),
            (f32::INFINITY, 4),
        ] {
            assert_eq!(sphere_lod(radius_px), lod, "{radius_px} px");
        }
    }
}

//! The renderer: draws every pane's [`PaneView`](crate::view::PaneView) into one render pass.
//!
//! Each frame runs in two halves. [`Renderer::prepare`] walks the panes: for each one with
//! a non-empty [`Viewport`] it writes a camera uniform (world to clip for the pane's
//! aspect, the light, the clear colour) into its own slot of a shared uniform buffer, and
//! appends the pane's instances (grid, sphere, pivot and post, spring plate, coil and mass,
//! ghost) to a shared instance list, grouped by mesh, and its trail's dots, each a copy of
//! the sphere mesh its size needs, to one shared mesh in world space (a CPU rasterizer may
//! pay for every instance as for a draw: `trail.rs`). Each is uploaded in one write; the
//! buffers grow when a frame needs more and are otherwise reused, so a
//! steady frame does not allocate. [`Renderer::draw`] then records the panes into a pass:
//! per pane it sets the viewport, the scissor and the camera's dynamic offset, and draws
//! each group with its pipeline: the grid, the lit meshes, the trail, the coil, and the
//! translucent ghost last, over the finished opaque image.
//!
//! Meshes are generated once (`render/mesh.rs`) and shared by every pane; each object's
//! size and place go into its instance's transform, the sizes coming from
//! [`crate::world`]. The window and the headless tests draw with the same code:
//! [`RenderTargets`] owns the MSAA and depth textures for any target view and records the
//! whole pass ([`RenderTargets::encode_scene_pass`]).
//!
//! The files divide the work:
//! - `mod.rs`: [`Renderer`], its per-frame `prepare` and `draw`.
//! - `viewport.rs`: [`Viewport`] and [`PlacedView`], where each pane goes in the target.
//! - `instances.rs`: what one pane draws as data: the camera uniform ([`clip_from_world`]),
//!   the instances, and the colours.
//! - `trail.rs`: the trail's dots ([`PaneView::trail_dots`](crate::view::PaneView::trail_dots)
//!   as drawn) copied into one mesh per pane.
//! - `pipelines.rs`: shaders, the camera bind group and its layout, the render pipelines.
//! - `targets.rs`: [`RenderTargets`] (MSAA colour and depth), [`DEPTH_FORMAT`],
//!   [`DEFAULT_SAMPLE_COUNT`].

mod instances;
mod pipelines;
mod targets;
mod trail;
mod viewport;

use std::ops::Range;

use super::buffers::{GrowingBuffer, upload};
use instances::{
    CameraUniform, Instance, LodRanges, PaneInstances, PaneScale, camera_uniform,
    push_pane_instances,
};
use pipelines::{Pipelines, camera_bind_group, camera_layout};
use trail::{DotMeshes, TrailVertex};

pub use instances::{
    ALARM_COLOR, BACKGROUND, GHOST_ALPHA, GHOST_COLOR, GRID_COLOR, MASS_COLOR, PIVOT_COLOR,
    SPHERE_COLOR, SPHERE_STRIPE_COLOR, SPRING_COLOR, TRAIL_COLOR, clip_from_world,
};
pub use targets::{DEFAULT_SAMPLE_COUNT, DEPTH_FORMAT, RenderTargets};
pub use viewport::{PlacedView, Viewport};

use super::mesh::{MeshRange, MeshSet, SPHERE_LODS};
use crate::world::{GRID_HALF_EXTENT_M, GRID_SPACING_M};

/// Which of the scene's things the renderer draws: all of them, but where `bench-render
/// --without` leaves one out to measure what it costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneParts {
    /// The ground grid.
    pub grid: bool,
    /// The orbiting sphere.
    pub sphere: bool,
    /// The translucent ghost.
    pub ghost: bool,
    /// The trail's dots.
    pub trail: bool,
    /// The pivot ball and post, the spring's plate and mass, the player.
    pub props: bool,
    /// The spring's coil.
    pub coil: bool,
}

impl SceneParts {
    /// Everything.
    pub const ALL: Self = Self {
        grid: true,
        sphere: true,
        ghost: true,
        trail: true,
        props: true,
        coil: true,
    };
}

impl Default for SceneParts {
    fn default() -> Self {
        Self::ALL
    }
}

/// What one prepared pane draws.
#[derive(Clone, Debug)]
struct PaneDraw {
    /// Where it goes.
    viewport: Viewport,
    /// Byte offset of its camera in the camera buffer.
    camera_offset: u32,
    /// Its instance ranges in the shared instance buffer.
    instances: PaneInstances,
    /// Its trail's index range in the trail's index buffer.
    trail: Range<u32>,
}

/// Draws [`PaneView`](crate::view::PaneView)s: one instance serves any number of panes,
/// each in its own viewport of one render pass, sharing pipelines, meshes and buffers.
///
/// Call [`Renderer::prepare`] once per frame with every pane, then [`Renderer::draw`]
/// inside a pass (or let [`RenderTargets::encode_scene_pass`] do both the pass and the
/// draw).
pub struct Renderer {
    /// One pipeline per way of drawing: lit meshes, the trail, the coil, the ghost, the grid.
    pipelines: Pipelines,
    /// Layout of the camera bind group: one uniform with a dynamic offset.
    camera_layout: wgpu::BindGroupLayout,
    /// Binds the camera buffer; rebuilt when that buffer is replaced.
    camera_bind_group: wgpu::BindGroup,
    /// Every prepared pane's camera uniform, one per stride.
    camera_buffer: GrowingBuffer,
    /// Bytes between two panes' cameras (the device's uniform offset alignment).
    camera_stride: u64,
    /// Every prepared pane's instances.
    instance_buffer: GrowingBuffer,
    /// Every prepared pane's trail, one mesh each, in world space.
    trail_vertex_buffer: GrowingBuffer,
    /// Indices of the trails' meshes, into the trail's vertex buffer as a whole.
    trail_index_buffer: GrowingBuffer,
    /// The sphere meshes on the CPU, copied for each of the trail's dots.
    dot_meshes: DotMeshes,
    /// This frame's trail vertices before upload (reused).
    trail_vertices: Vec<TrailVertex>,
    /// This frame's trail indices before upload (reused).
    trail_indices: Vec<u32>,
    /// Vertices of all the shared meshes.
    vertex_buffer: wgpu::Buffer,
    /// Indices of all the shared meshes.
    index_buffer: wgpu::Buffer,
    /// Unit spheres, coarsest first: the orbiting sphere, its ghost and the balls, each
    /// drawn with the one its size on screen needs (the trail's dots are copies of them).
    sphere_meshes: [MeshRange; SPHERE_LODS],
    /// Unit cylinder: the pivot's post and the anchor plate.
    cylinder_mesh: MeshRange,
    /// The spring's parameter grid, shaped by the coil pipeline.
    coil_mesh: MeshRange,
    /// Ground grid lines.
    grid_mesh: MeshRange,
    /// Scratch lists reused every frame so steady-state frames do not allocate.
    instances: Vec<Instance>,
    /// This frame's camera uniforms as bytes, before upload.
    camera_bytes: Vec<u8>,
    /// What each prepared pane draws.
    pane_draws: Vec<PaneDraw>,
    /// Which things are drawn.
    parts: SceneParts,
}

impl Renderer {
    /// Builds pipelines for colour targets of `color_format` with `sample_count` samples
    /// (and a [`DEPTH_FORMAT`] depth buffer), and uploads the meshes.
    ///
    /// Colours are computed in linear space: use an sRGB target format for correct output.
    pub fn new(
        device: &wgpu::Device,
        color_format: wgpu::TextureFormat,
        sample_count: u32,
    ) -> Self {
        let meshes = MeshSet::new(GRID_HALF_EXTENT_M, GRID_SPACING_M);
        let vertex_buffer = upload(
            device,
            "scene vertices",
            wgpu::BufferUsages::VERTEX,
            bytemuck::cast_slice(&meshes.vertices),
        );
        let index_buffer = upload(
            device,
            "scene indices",
            wgpu::BufferUsages::INDEX,
            bytemuck::cast_slice(&meshes.indices),
        );

        let camera_size = std::mem::size_of::<CameraUniform>() as u64;
        let alignment = u64::from(device.limits().min_uniform_buffer_offset_alignment).max(1);
        let camera_stride = camera_size.next_multiple_of(alignment);
        let camera_layout = camera_layout(device);
        let camera_buffer = GrowingBuffer::new(
            device,
            "scene cameras",
            wgpu::BufferUsages::UNIFORM,
            camera_stride * 8,
        );
        let camera_bind_group = camera_bind_group(device, &camera_layout, &camera_buffer.buffer);
        let instance_buffer = GrowingBuffer::new(
            device,
            "scene instances",
            wgpu::BufferUsages::VERTEX,
            (std::mem::size_of::<Instance>() * 512) as u64,
        );

        let trail_vertex_buffer = GrowingBuffer::new(
            device,
            "scene trail vertices",
            wgpu::BufferUsages::VERTEX,
            (std::mem::size_of::<TrailVertex>() * 4096) as u64,
        );
        let trail_index_buffer = GrowingBuffer::new(
            device,
            "scene trail indices",
            wgpu::BufferUsages::INDEX,
            (std::mem::size_of::<u32>() * 16384) as u64,
        );
        let dot_meshes = DotMeshes::new(&meshes);

        let pipelines = Pipelines::new(device, &camera_layout, color_format, sample_count);

        Self {
            pipelines,
            camera_layout,
            camera_bind_group,
            camera_buffer,
            camera_stride,
            instance_buffer,
            trail_vertex_buffer,
            trail_index_buffer,
            dot_meshes,
            trail_vertices: Vec::new(),
            trail_indices: Vec::new(),
            vertex_buffer,
            index_buffer,
            sphere_meshes: meshes.spheres,
            cylinder_mesh: meshes.cylinder,
            coil_mesh: meshes.coil,
            grid_mesh: meshes.grid,
            instances: Vec::new(),
            camera_bytes: Vec::new(),
            pane_draws: Vec::new(),
            parts: SceneParts::ALL,
        }
    }

    /// Draws only `parts` from now on.
    pub fn set_parts(&mut self, parts: SceneParts) {
        self.parts = parts;
    }

    /// Uploads the cameras and instances of `panes`, replacing the previous frame's. Panes
    /// with an empty viewport are skipped. Buffers grow when needed and are otherwise reused.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        panes: &[PlacedView<'_>],
    ) {
        self.instances.clear();
        self.camera_bytes.clear();
        self.pane_draws.clear();
        self.trail_vertices.clear();
        self.trail_indices.clear();
        for pane in panes {
            let Some(aspect) = pane.viewport.aspect() else {
                continue;
            };
            let camera_offset = self.camera_bytes.len();
            let clip_from_world = clip_from_world(&pane.view, aspect);
            let camera = camera_uniform(&pane.view, clip_from_world);
            self.camera_bytes
                .extend_from_slice(bytemuck::bytes_of(&camera));
            self.camera_bytes
                .resize(camera_offset + self.camera_stride as usize, 0);
            let scale = PaneScale::new(clip_from_world, pane.viewport.height);
            let instances = push_pane_instances(&mut self.instances, &pane.view, &scale);
            let trail = self.dot_meshes.push_trail(
                &pane.view,
                &scale,
                &mut self.trail_vertices,
                &mut self.trail_indices,
            );
            self.pane_draws.push(PaneDraw {
                viewport: pane.viewport,
                camera_offset: u32::try_from(camera_offset).expect("camera buffer offset fits u32"),
                instances,
                trail,
            });
        }
        if self.pane_draws.is_empty() {
            return;
        }
        if self
            .camera_buffer
            .reserve(device, self.camera_bytes.len() as u64)
        {
            self.camera_bind_group =
                camera_bind_group(device, &self.camera_layout, &self.camera_buffer.buffer);
        }
        queue.write_buffer(&self.camera_buffer.buffer, 0, &self.camera_bytes);
        let instance_bytes: &[u8] = bytemuck::cast_slice(&self.instances);
        self.instance_buffer
            .reserve(device, instance_bytes.len() as u64);
        queue.write_buffer(&self.instance_buffer.buffer, 0, instance_bytes);
        if !self.trail_indices.is_empty() {
            // Vertices are 40 bytes and indices 4: both multiples of four, as
            // `write_buffer` needs.
            let vertex_bytes: &[u8] = bytemuck::cast_slice(&self.trail_vertices);
            let index_bytes: &[u8] = bytemuck::cast_slice(&self.trail_indices);
            self.trail_vertex_buffer
                .reserve(device, vertex_bytes.len() as u64);
            self.trail_index_buffer
                .reserve(device, index_bytes.len() as u64);
            queue.write_buffer(&self.trail_vertex_buffer.buffer, 0, vertex_bytes);
            queue.write_buffer(&self.trail_index_buffer.buffer, 0, index_bytes);
        }
    }

    /// Records the prepared panes into `pass`, setting each pane's viewport and scissor.
    /// The viewports must lie inside the pass's target (a scissor rectangle may not reach
    /// past it); [`Renderer::draw_clamped`] cuts them to the target instead.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        self.draw_within(pass, None);
    }

    /// Like [`Renderer::draw`], with each pane's scissor cut to a `width` × `height`
    /// target: a pane reaching past the target is cropped (not squeezed), and one wholly
    /// outside it is skipped.
    pub fn draw_clamped(&self, pass: &mut wgpu::RenderPass<'_>, width: u32, height: u32) {
        self.draw_within(pass, Some((width, height)));
    }

    /// Records the prepared panes, each scissored to its viewport, cut to `target` (width,
    /// height) when given.
    fn draw_within(&self, pass: &mut wgpu::RenderPass<'_>, target: Option<(u32, u32)>) {
        if self.pane_draws.is_empty() {
            return;
        }
        pass.set_vertex_buffer(0, self.vertex_buffer.slice(..));
        pass.set_vertex_buffer(1, self.instance_buffer.buffer.slice(..));
        pass.set_index_buffer(self.index_buffer.slice(..), wgpu::IndexFormat::Uint32);
        for pane in &self.pane_draws {
            let visible = match target {
                Some((width, height)) => pane.viewport.clamped(width, height),
                None => Some(pane.viewport),
            };
            let Some((x, y, width, height)) = visible.map(|visible| visible.scissor()) else {
                continue;
            };
            if width == 0 || height == 0 {
                continue;
            }
            // wgpu accepts viewports that reach past the target; only the scissor must fit.
            let viewport = pane.viewport;
            pass.set_viewport(
                viewport.x,
                viewport.y,
                viewport.width,
                viewport.height,
                0.0,
                1.0,
            );
            pass.set_scissor_rect(x, y, width, height);
            pass.set_bind_group(0, &self.camera_bind_group, &[pane.camera_offset]);

            let parts = self.parts;
            let instances = &pane.instances;
            let spheres = |pass: &mut wgpu::RenderPass<'_>, on: bool, ranges: &LodRanges| {
                if on {
                    for (mesh, range) in self.sphere_meshes.iter().zip(ranges) {
                        draw_mesh(pass, *mesh, range.clone());
                    }
                }
            };
            if parts.grid {
                pass.set_pipeline(&self.pipelines.grid);
                draw_mesh(pass, self.grid_mesh, instances.grid.clone());
            }
            pass.set_pipeline(&self.pipelines.lit);
            spheres(pass, parts.sphere, &instances.spheres);
            spheres(pass, parts.props, &instances.dots);
            if parts.trail && !pane.trail.is_empty() {
                pass.set_pipeline(&self.pipelines.trail);
                pass.set_vertex_buffer(0, self.trail_vertex_buffer.buffer.slice(..));
                pass.set_index_buffer(
                    self.trail_index_buffer.buffer.slice(..),
                    wgpu::IndexFormat::Uint32,
                );
                pass.draw_indexed(pane.trail.clone(), 0, 0..1);
                pass.set_vertex_buffer(0, self.vertex_buffer.slice(..));
                pass.set_index_buffer(self.index_buffer.slice(..), wgpu::IndexFormat::Uint32);
                pass.set_pipeline(&self.pipelines.lit);
            }
            if parts.props {
                draw_mesh(pass, self.cylinder_mesh, instances.cylinders.clone());
            }
            if parts.coil {
                pass.set_pipeline(&self.pipelines.coil);
                draw_mesh(pass, self.coil_mesh, instances.coil.clone());
            }
            // Translucent last, over the pane's finished opaque image.
            pass.set_pipeline(&self.pipelines.ghost);
            spheres(pass, parts.ghost, &instances.ghost);
        }
    }
}

/// Draws `instances` of `mesh`; nothing when there are none.
fn draw_mesh(pass: &mut wgpu::RenderPass<'_>, mesh: MeshRange, instances: Range<u32>) {
    if !instances.is_empty() {
        pass.draw_indexed(mesh.indices(), 0, instances);
    }
}

/// What the renderer's tests draw.
#[cfg(test)]
mod test_frames {
    use crate::scene::{SceneConfig, ShownScene};
    use crate::sim::Simulation;
    use crate::timestep::{Strategy, TimestepConfig};
    use crate::view::Trail;

    /// An interpolated simulation run for 60 frames of 60 Hz, the scene its last frame
    /// showed, and the trail of the sphere over those frames.
    pub(super) fn sixty_frames() -> (Simulation, ShownScene, Trail) {
        let mut sim = Simulation::new(
            Strategy::Interpolated,
            TimestepConfig::default(),
            SceneConfig::new(),
        );
        let mut trail = Trail::default();
        let mut shown = None;
        for _ in 0..60 {
            let (_, frame) = sim.frame(16_666_667);
            trail.push((frame.sphere_position.as_vec3(), frame.real_time));
            shown = Some(frame);
        }
        (sim, shown.expect("frames ran"), trail)
    }
}

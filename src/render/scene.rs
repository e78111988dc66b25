//! The scene renderer: pipelines, shared meshes, and per-pane cameras and instances.

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use glam::{Mat3, Mat4, Quat, Vec3, camera};

use super::mesh::{COIL_TURNS, MeshRange, MeshSet, Vertex};
use crate::view::{FRAMED_ASPECT, PaneView, SPRING_MASS_RADIUS_M};

/// MSAA samples of the scene: 4 is the count every WebGPU adapter supports, and it keeps
/// the thin grid lines and the coil from crawling as the camera orbits.
pub const DEFAULT_SAMPLE_COUNT: u32 = 4;

/// Format of the depth buffer.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

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
/// The ghost's tint (linear RGB).
pub const GHOST_COLOR: [f32; 3] = [0.75, 0.85, 1.0];
/// The ghost's opacity facing the camera; its rim is more opaque.
pub const GHOST_ALPHA: f32 = 0.10;

/// The ghost's radius relative to the sphere's.
const GHOST_SCALE: f32 = 0.985;

/// Radius of a trail dot, metres: small next to the 0.6 m sphere, still a few pixels wide
/// in a small pane, and narrower than the 7.9 cm the sphere moves in one 60 Hz frame, so
/// that frames which did not move it (a repeated dot) and gaps stay apart.
pub const TRAIL_DOT_RADIUS_M: f32 = 0.035;
/// Radius of the pivot ball, metres.
pub const PIVOT_RADIUS_M: f32 = 0.12;
/// Radius of the post under the pivot, metres.
const POST_RADIUS_M: f32 = 0.035;
/// Radius of the spring's coil, metres.
pub const COIL_RADIUS_M: f32 = 0.18;
/// Radius of the spring's wire, metres.
pub const WIRE_RADIUS_M: f32 = 0.03;
/// The anchor plate: radius and thickness, metres.
const PLATE_RADIUS_M: f32 = 0.3;
const PLATE_THICKNESS_M: f32 = 0.05;
/// Ground grid: half the side of the square and the line spacing, metres.
const GRID_HALF_EXTENT_M: f32 = 10.0;
const GRID_SPACING_M: f32 = 1.0;
/// Near and far planes, metres: the scene spans about 20 m around the pivot.
const Z_NEAR_M: f32 = 0.1;
const Z_FAR_M: f32 = 100.0;

/// Material flag in [`Instance::params`]`.x` for the lit pipeline: banded.
const MATERIAL_BANDED: f32 = 1.0;

/// A rectangle of the render target, in physical pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
}

impl Viewport {
    /// The whole of a `width` × `height` target.
    pub fn full(width: u32, height: u32) -> Self {
        Self {
            x: 0.0,
            y: 0.0,
            width: width as f32,
            height: height as f32,
        }
    }

    /// Width over height; `None` for an empty or non-finite rectangle.
    pub fn aspect(&self) -> Option<f32> {
        let aspect = self.width / self.height;
        (self.width >= 1.0 && self.height >= 1.0 && aspect.is_finite()).then_some(aspect)
    }

    /// This rectangle cut to a `width` × `height` target; `None` when nothing is left.
    fn clamped(&self, width: u32, height: u32) -> Option<Self> {
        let x0 = self.x.max(0.0);
        let y0 = self.y.max(0.0);
        let x1 = (self.x + self.width).min(width as f32);
        let y1 = (self.y + self.height).min(height as f32);
        (x1 - x0 >= 1.0 && y1 - y0 >= 1.0).then_some(Self {
            x: x0,
            y: y0,
            width: x1 - x0,
            height: y1 - y0,
        })
    }

    /// The whole pixels this rectangle covers, as a scissor rectangle.
    fn scissor(&self) -> (u32, u32, u32, u32) {
        let x0 = self.x.max(0.0).floor() as u32;
        let y0 = self.y.max(0.0).floor() as u32;
        let x1 = (self.x + self.width).max(0.0).ceil() as u32;
        let y1 = (self.y + self.height).max(0.0).ceil() as u32;
        (x0, y0, x1.saturating_sub(x0), y1.saturating_sub(y0))
    }
}

/// One pane: where it goes in the target and what it shows.
#[derive(Clone, Copy, Debug)]
pub struct Pane<'a> {
    /// Rectangle of the target the pane fills.
    pub viewport: Viewport,
    /// The scene to draw.
    pub view: PaneView<'a>,
}

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
struct CameraUniform {
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
struct Instance {
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

    fn with_params(mut self, params: [f32; 4]) -> Self {
        self.params = params;
        self
    }
}

/// What one prepared pane draws.
#[derive(Clone, Debug)]
struct PaneDraw {
    /// Where it goes.
    viewport: Viewport,
    /// Byte offset of its camera in the camera buffer.
    camera_offset: u32,
    /// Instance ranges in the shared instance buffer.
    grid: Range<u32>,
    /// Instances of the orbiting sphere.
    spheres: Range<u32>,
    /// Instances of the pivot ball, the spring's mass and the trail dots.
    dots: Range<u32>,
    /// Instances of the pivot's post and the spring's anchor plate.
    cylinders: Range<u32>,
    /// Instances of the spring's coil.
    coil: Range<u32>,
    /// Instances of the ghost sphere.
    ghost: Range<u32>,
}

/// A GPU buffer that grows (to the next power of two) when more is needed, and is reused
/// otherwise.
struct GrowingBuffer {
    /// The current buffer.
    buffer: wgpu::Buffer,
    /// Debug label, reused for replacement buffers.
    label: &'static str,
    /// Usages of the buffer, besides the `COPY_DST` always added.
    usage: wgpu::BufferUsages,
}

impl GrowingBuffer {
    fn new(
        device: &wgpu::Device,
        label: &'static str,
        usage: wgpu::BufferUsages,
        size: u64,
    ) -> Self {
        Self {
            buffer: create_buffer(device, label, usage, size),
            label,
            usage,
        }
    }

    /// Makes room for `size` bytes; true when the buffer was replaced.
    fn reserve(&mut self, device: &wgpu::Device, size: u64) -> bool {
        if size <= self.buffer.size() {
            return false;
        }
        let size = size.next_power_of_two();
        self.buffer = create_buffer(device, self.label, self.usage, size);
        true
    }
}

fn create_buffer(
    device: &wgpu::Device,
    label: &'static str,
    usage: wgpu::BufferUsages,
    size: u64,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.max(wgpu::COPY_BUFFER_ALIGNMENT),
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Draws [`PaneView`]s: one instance serves any number of panes, each in its own viewport of
/// one render pass, sharing pipelines, meshes and buffers.
///
/// Call [`SceneRenderer::prepare`] once per frame with every pane, then
/// [`SceneRenderer::draw`] inside a pass (or let [`RenderTargets::encode_scene_pass`] do
/// both the pass and the draw).
pub struct SceneRenderer {
    /// Opaque lit meshes: the sphere, dots and cylinders.
    lit_pipeline: wgpu::RenderPipeline,
    /// The spring's coil, shaped into a helix in the vertex shader.
    coil_pipeline: wgpu::RenderPipeline,
    /// The translucent ghost sphere.
    ghost_pipeline: wgpu::RenderPipeline,
    /// The ground grid's lines.
    grid_pipeline: wgpu::RenderPipeline,
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
    /// Vertices of all the shared meshes.
    vertex_buffer: wgpu::Buffer,
    /// Indices of all the shared meshes.
    index_buffer: wgpu::Buffer,
    /// Unit sphere: the orbiting sphere and its ghost.
    sphere_mesh: MeshRange,
    /// Coarse unit sphere: the pivot ball, the mass and the trail dots.
    dot_mesh: MeshRange,
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
}

impl SceneRenderer {
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
        let camera_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene camera layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(camera_size),
                },
                count: None,
            }],
        });
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

        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene pipeline layout"),
            bind_group_layouts: &[Some(&camera_layout)],
            immediate_size: 0,
        });
        let mesh_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("mesh.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                concat!(
                    include_str!("../../shaders/common.wgsl"),
                    include_str!("../../shaders/mesh.wgsl")
                )
                .into(),
            ),
        });
        let grid_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("grid.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                concat!(
                    include_str!("../../shaders/common.wgsl"),
                    include_str!("../../shaders/grid.wgsl")
                )
                .into(),
            ),
        });
        let builder = PipelineBuilder {
            device,
            layout: &layout,
            color_format,
            sample_count,
        };
        let lit_pipeline = builder.build(PipelineSpec {
            label: "scene lit",
            module: &mesh_shader,
            vertex_entry: "vs_mesh",
            fragment_entry: "fs_lit",
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: Some(wgpu::Face::Back),
            translucent: false,
        });
        let coil_pipeline = builder.build(PipelineSpec {
            label: "scene coil",
            module: &mesh_shader,
            vertex_entry: "vs_coil",
            fragment_entry: "fs_lit",
            topology: wgpu::PrimitiveTopology::TriangleList,
            // The tube's winding depends on the helix's handedness: draw both faces.
            cull_mode: None,
            translucent: false,
        });
        let ghost_pipeline = builder.build(PipelineSpec {
            label: "scene ghost",
            module: &mesh_shader,
            vertex_entry: "vs_mesh",
            fragment_entry: "fs_ghost",
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: Some(wgpu::Face::Back),
            translucent: true,
        });
        let grid_pipeline = builder.build(PipelineSpec {
            label: "scene grid",
            module: &grid_shader,
            vertex_entry: "vs_grid",
            fragment_entry: "fs_grid",
            topology: wgpu::PrimitiveTopology::LineList,
            cull_mode: None,
            translucent: false,
        });

        Self {
            lit_pipeline,
            coil_pipeline,
            ghost_pipeline,
            grid_pipeline,
            camera_layout,
            camera_bind_group,
            camera_buffer,
            camera_stride,
            instance_buffer,
            vertex_buffer,
            index_buffer,
            sphere_mesh: meshes.sphere,
            dot_mesh: meshes.dot,
            cylinder_mesh: meshes.cylinder,
            coil_mesh: meshes.coil,
            grid_mesh: meshes.grid,
            instances: Vec::new(),
            camera_bytes: Vec::new(),
            pane_draws: Vec::new(),
        }
    }

    /// Uploads the cameras and instances of `panes`, replacing the previous frame's. Panes
    /// with an empty viewport are skipped. Buffers grow when needed and are otherwise reused.
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, panes: &[Pane<'_>]) {
        self.instances.clear();
        self.camera_bytes.clear();
        self.pane_draws.clear();
        for pane in panes {
            let Some(aspect) = pane.viewport.aspect() else {
                continue;
            };
            let camera_offset = self.camera_bytes.len();
            let camera = camera_uniform(&pane.view, aspect);
            self.camera_bytes
                .extend_from_slice(bytemuck::bytes_of(&camera));
            self.camera_bytes
                .resize(camera_offset + self.camera_stride as usize, 0);
            let draw = self.push_instances(&pane.view, pane.viewport, camera_offset);
            self.pane_draws.push(draw);
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
    }

    /// Records the prepared panes into `pass`, setting each pane's viewport and scissor.
    /// The viewports must lie inside the pass's target (a scissor rectangle may not reach
    /// past it); [`SceneRenderer::draw_clamped`] cuts them to the target instead.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        self.draw_within(pass, None);
    }

    /// Like [`SceneRenderer::draw`], with each pane's scissor cut to a `width` × `height`
    /// target: a pane reaching past the target is cropped (not squeezed), and one wholly
    /// outside it is skipped.
    pub fn draw_clamped(&self, pass: &mut wgpu::RenderPass<'_>, width: u32, height: u32) {
        self.draw_within(pass, Some((width, height)));
    }

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

            pass.set_pipeline(&self.grid_pipeline);
            draw_mesh(pass, self.grid_mesh, pane.grid.clone());
            pass.set_pipeline(&self.lit_pipeline);
            draw_mesh(pass, self.sphere_mesh, pane.spheres.clone());
            draw_mesh(pass, self.dot_mesh, pane.dots.clone());
            draw_mesh(pass, self.cylinder_mesh, pane.cylinders.clone());
            pass.set_pipeline(&self.coil_pipeline);
            draw_mesh(pass, self.coil_mesh, pane.coil.clone());
            // Translucent last, over the pane's finished opaque image.
            pass.set_pipeline(&self.ghost_pipeline);
            draw_mesh(pass, self.sphere_mesh, pane.ghost.clone());
        }
    }

    /// Appends one pane's instances, grouped by mesh and pipeline.
    fn push_instances(
        &mut self,
        view: &PaneView,
        viewport: Viewport,
        camera_offset: usize,
    ) -> PaneDraw {
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

        let grid = self.group(|instances| {
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

        let spheres = self.group(|instances| {
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

        let dots = self.group(|instances| {
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
            let count = view.trail.len().max(1) as f32;
            for (i, point) in view.trail_points().enumerate() {
                // Newest is 1, oldest near 0: old dots darken into the background.
                let age = (i + 1) as f32 / count;
                let strength = 0.15 + 0.85 * age;
                let color = std::array::from_fn(|c| {
                    background[c] + (TRAIL_COLOR[c] - background[c]) * strength
                });
                let radius = TRAIL_DOT_RADIUS_M * (0.6 + 0.4 * age);
                instances.push(Instance::new(ball(point, radius), color, 1.0));
            }
        });

        let cylinders = self.group(|instances| {
            let post_height = view.pivot.y - view.ground_y;
            if post_height > 0.0 {
                let world_from_object = Mat4::from_scale_rotation_translation(
                    Vec3::new(POST_RADIUS_M, post_height, POST_RADIUS_M),
                    Quat::IDENTITY,
                    Vec3::new(view.pivot.x, view.ground_y, view.pivot.z),
                );
                instances.push(Instance::new(world_from_object, PIVOT_COLOR, 1.0));
            }
            let plate = Mat4::from_scale_rotation_translation(
                Vec3::new(PLATE_RADIUS_M, PLATE_THICKNESS_M, PLATE_RADIUS_M),
                Quat::IDENTITY,
                view.spring_anchor,
            );
            instances.push(Instance::new(plate, spring_color(SPRING_COLOR), 1.0));
        });

        let coil =
            self.group(|instances| {
                let axis = view.spring_mass - view.spring_anchor;
                // The coil ends where it meets the top of the ball, at the coil's radius.
                let overlap = (SPRING_MASS_RADIUS_M.powi(2) - COIL_RADIUS_M.powi(2))
                    .max(0.0)
                    .sqrt();
                let length_m = (axis.length() - overlap).max(0.05);
                let rotation = Quat::from_rotation_arc(Vec3::NEG_Y, axis.normalize_or(Vec3::NEG_Y));
                let world_from_object =
                    Mat4::from_rotation_translation(rotation, view.spring_anchor);
                instances.push(
                    Instance::new(world_from_object, spring_color(SPRING_COLOR), 1.0)
                        .with_params([COIL_TURNS as f32, length_m, COIL_RADIUS_M, WIRE_RADIUS_M]),
                );
            });

        let ghost = self.group(|instances| {
            // A hair smaller than the sphere: where the ghost coincides with the drawn
            // sphere (strategies without lag) it hides inside it instead of z-fighting.
            instances.push(Instance::new(
                ball(view.ghost_center, view.sphere_radius_m * GHOST_SCALE),
                GHOST_COLOR,
                GHOST_ALPHA,
            ));
        });

        PaneDraw {
            viewport,
            camera_offset: u32::try_from(camera_offset).expect("camera buffer offset fits u32"),
            grid,
            spheres,
            dots,
            cylinders,
            coil,
            ghost,
        }
    }

    /// Runs `push` on the instance list and returns the range it appended.
    fn group(&mut self, push: impl FnOnce(&mut Vec<Instance>)) -> Range<u32> {
        let start = self.instances.len();
        push(&mut self.instances);
        let to_u32 = |n: usize| u32::try_from(n).expect("instance count fits u32");
        to_u32(start)..to_u32(self.instances.len())
    }
}

/// A sphere of `radius` at `center`.
fn ball(center: Vec3, radius: f32) -> Mat4 {
    Mat4::from_scale_rotation_translation(Vec3::splat(radius), Quat::IDENTITY, center)
}

fn draw_mesh(pass: &mut wgpu::RenderPass<'_>, mesh: MeshRange, instances: Range<u32>) {
    if !instances.is_empty() {
        pass.draw_indexed(mesh.indices(), mesh.base_vertex, instances);
    }
}

fn camera_uniform(view: &PaneView, aspect: f32) -> CameraUniform {
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

fn camera_bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    buffer: &wgpu::Buffer,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("scene camera"),
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer,
                offset: 0,
                size: wgpu::BufferSize::new(std::mem::size_of::<CameraUniform>() as u64),
            }),
        }],
    })
}

fn upload(
    device: &wgpu::Device,
    label: &'static str,
    usage: wgpu::BufferUsages,
    contents: &[u8],
) -> wgpu::Buffer {
    use wgpu::util::DeviceExt as _;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents,
        usage,
    })
}

/// What differs between the scene's pipelines.
struct PipelineSpec<'a> {
    /// Debug label of the pipeline.
    label: &'static str,
    /// Shader module holding both entry points.
    module: &'a wgpu::ShaderModule,
    /// Name of the vertex shader entry point.
    vertex_entry: &'static str,
    /// Name of the fragment shader entry point.
    fragment_entry: &'static str,
    /// Primitive topology: triangles or lines.
    topology: wgpu::PrimitiveTopology,
    /// Faces culled; `None` draws both.
    cull_mode: Option<wgpu::Face>,
    /// Alpha blended, depth tested but not written.
    translucent: bool,
}

/// What the scene's pipelines share.
struct PipelineBuilder<'a> {
    /// Device the pipelines are created on.
    device: &'a wgpu::Device,
    /// Pipeline layout with the camera bind group.
    layout: &'a wgpu::PipelineLayout,
    /// Format of the colour target.
    color_format: wgpu::TextureFormat,
    /// MSAA samples per pixel.
    sample_count: u32,
}

impl PipelineBuilder<'_> {
    fn build(&self, spec: PipelineSpec<'_>) -> wgpu::RenderPipeline {
        const VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 2] =
            wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3];
        const INSTANCE_ATTRIBUTES: [wgpu::VertexAttribute; 10] = wgpu::vertex_attr_array![
            2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4,
            6 => Float32x4, 7 => Float32x4, 8 => Float32x4,
            9 => Float32x4, 10 => Float32x4, 11 => Float32x4,
        ];
        let buffers = [
            Some(wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<Vertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &VERTEX_ATTRIBUTES,
            }),
            Some(wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<Instance>() as u64,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &INSTANCE_ATTRIBUTES,
            }),
        ];
        let blend = if spec.translucent {
            wgpu::BlendState::ALPHA_BLENDING
        } else {
            wgpu::BlendState::REPLACE
        };
        self.device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(spec.label),
                layout: Some(self.layout),
                vertex: wgpu::VertexState {
                    module: spec.module,
                    entry_point: Some(spec.vertex_entry),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: spec.topology,
                    front_face: wgpu::FrontFace::Ccw,
                    cull_mode: spec.cull_mode,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(!spec.translucent),
                    depth_compare: Some(wgpu::CompareFunction::Less),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: self.sample_count.max(1),
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: spec.module,
                    entry_point: Some(spec.fragment_entry),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: self.color_format,
                        blend: Some(blend),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
    }
}

/// The MSAA colour and depth textures the scene pass draws into, for one target size.
///
/// A zero width or height is clamped to 1 so the textures always exist; a window should
/// skip rendering while minimised rather than draw into such targets.
pub struct RenderTargets {
    /// Format of the colour target the pass resolves or draws into.
    format: wgpu::TextureFormat,
    /// MSAA samples per pixel (at least 1).
    sample_count: u32,
    /// Width, pixels (at least 1).
    width: u32,
    /// Height, pixels (at least 1).
    height: u32,
    /// Multisampled colour, resolved into the target view; `None` at one sample.
    msaa_view: Option<wgpu::TextureView>,
    /// Depth buffer in [`DEPTH_FORMAT`], with the same sample count.
    depth_view: wgpu::TextureView,
}

impl RenderTargets {
    /// Targets for a `width` × `height` colour target of `format`.
    pub fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        width: u32,
        height: u32,
        sample_count: u32,
    ) -> Self {
        let width = width.max(1);
        let height = height.max(1);
        let sample_count = sample_count.max(1);
        let texture = |label: &str, format: wgpu::TextureFormat| {
            device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d {
                        width,
                        height,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor::default())
        };
        Self {
            format,
            sample_count,
            width,
            height,
            msaa_view: (sample_count > 1).then(|| texture("scene msaa colour", format)),
            depth_view: texture("scene depth", DEPTH_FORMAT),
        }
    }

    /// Rebuilds the textures when the size changed (zero clamped to 1); otherwise keeps them.
    pub fn resize(&mut self, device: &wgpu::Device, width: u32, height: u32) {
        if (width.max(1), height.max(1)) != (self.width, self.height) {
            *self = Self::new(device, self.format, width, height, self.sample_count);
        }
    }

    /// The size the targets were built for.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Records one render pass that clears colour and depth, draws `renderer`'s prepared
    /// panes, and leaves the picture in `target_view` (resolving MSAA into it). The target
    /// must have this object's size and format.
    pub fn encode_scene_pass(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target_view: &wgpu::TextureView,
        renderer: &SceneRenderer,
        clear: wgpu::Color,
    ) {
        let (view, resolve_target, store) = match &self.msaa_view {
            // The multisampled image is only needed until it is resolved.
            Some(msaa_view) => (msaa_view, Some(target_view), wgpu::StoreOp::Discard),
            None => (target_view, None, wgpu::StoreOp::Store),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("scene pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(clear),
                    store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth_view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        renderer.draw_clamped(&mut pass, self.width, self.height);
    }
}

//! The renderer's pipelines: its shaders, the camera bind group and its layout, and the
//! five render pipelines built from them (lit meshes, the trail, the coil, the ghost, the
//! grid).

use super::instances::{CameraUniform, Instance};
use super::targets::DEPTH_FORMAT;
use super::trail::TrailVertex;
use crate::render::mesh::Vertex;

/// The renderer's render pipelines, one per way of drawing.
pub(super) struct Pipelines {
    /// Opaque lit meshes: the sphere, dots and cylinders.
    pub(super) lit: wgpu::RenderPipeline,
    /// The trail's dots, one mesh in world space, lit as the other meshes.
    pub(super) trail: wgpu::RenderPipeline,
    /// The spring's coil, shaped into a helix in the vertex shader.
    pub(super) coil: wgpu::RenderPipeline,
    /// The translucent ghost sphere.
    pub(super) ghost: wgpu::RenderPipeline,
    /// The ground grid's lines.
    pub(super) grid: wgpu::RenderPipeline,
}

impl Pipelines {
    /// Loads the shaders and builds every pipeline for colour targets of `color_format`
    /// with `sample_count` samples and a [`DEPTH_FORMAT`] depth buffer, reading the camera
    /// through `camera_layout`.
    pub(super) fn new(
        device: &wgpu::Device,
        camera_layout: &wgpu::BindGroupLayout,
        color_format: wgpu::TextureFormat,
        sample_count: u32,
    ) -> Self {
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene pipeline layout"),
            bind_group_layouts: &[Some(camera_layout)],
            immediate_size: 0,
        });
        let mesh_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("mesh.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                concat!(
                    include_str!("../../../shaders/common.wgsl"),
                    include_str!("../../../shaders/mesh.wgsl")
                )
                .into(),
            ),
        });
        let grid_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("grid.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                concat!(
                    include_str!("../../../shaders/common.wgsl"),
                    include_str!("../../../shaders/grid.wgsl")
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
        let lit = builder.build(PipelineSpec {
            label: "scene lit",
            module: &mesh_shader,
            vertex_entry: "vs_mesh",
            fragment_entry: "fs_lit",
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: Some(wgpu::Face::Back),
            translucent: false,
            input: VertexInput::MeshInstances,
        });
        let trail = builder.build(PipelineSpec {
            label: "scene trail",
            module: &mesh_shader,
            vertex_entry: "vs_trail",
            fragment_entry: "fs_lit",
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: Some(wgpu::Face::Back),
            translucent: false,
            input: VertexInput::Trail,
        });
        let coil = builder.build(PipelineSpec {
            label: "scene coil",
            module: &mesh_shader,
            vertex_entry: "vs_coil",
            fragment_entry: "fs_lit",
            topology: wgpu::PrimitiveTopology::TriangleList,
            // The tube's winding depends on the helix's handedness: draw both faces.
            cull_mode: None,
            translucent: false,
            input: VertexInput::MeshInstances,
        });
        let ghost = builder.build(PipelineSpec {
            label: "scene ghost",
            module: &mesh_shader,
            vertex_entry: "vs_mesh",
            fragment_entry: "fs_ghost",
            topology: wgpu::PrimitiveTopology::TriangleList,
            cull_mode: Some(wgpu::Face::Back),
            translucent: true,
            input: VertexInput::MeshInstances,
        });
        let grid = builder.build(PipelineSpec {
            label: "scene grid",
            module: &grid_shader,
            vertex_entry: "vs_grid",
            fragment_entry: "fs_grid",
            topology: wgpu::PrimitiveTopology::LineList,
            cull_mode: None,
            translucent: false,
            input: VertexInput::MeshInstances,
        });
        Self {
            lit,
            trail,
            coil,
            ghost,
            grid,
        }
    }
}

/// Layout of the camera bind group: one [`CameraUniform`] at a dynamic offset, so every
/// pane reads its own camera from one shared buffer.
pub(super) fn camera_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let camera_size = std::mem::size_of::<CameraUniform>() as u64;
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
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
    })
}

/// Binds `buffer`, the cameras of every pane one stride apart, to `layout`.
pub(super) fn camera_bind_group(
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

/// What differs between the renderer's pipelines.
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
    /// What the vertex shader reads.
    input: VertexInput,
}

/// What a pipeline's vertex shader reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VertexInput {
    /// A shared mesh's [`Vertex`] and the object's [`Instance`].
    MeshInstances,
    /// A [`TrailVertex`], which carries what the others take from their instance.
    Trail,
}

/// What the renderer's pipelines share.
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
    /// The pipeline `spec` describes, with the vertex and instance layouts the meshes
    /// share, or the trail's vertex layout for its vertex shader.
    fn build(&self, spec: PipelineSpec<'_>) -> wgpu::RenderPipeline {
        const VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 2] =
            wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3];
        const INSTANCE_ATTRIBUTES: [wgpu::VertexAttribute; 10] = wgpu::vertex_attr_array![
            2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4,
            6 => Float32x4, 7 => Float32x4, 8 => Float32x4,
            9 => Float32x4, 10 => Float32x4, 11 => Float32x4,
        ];
        const TRAIL_ATTRIBUTES: [wgpu::VertexAttribute; 3] =
            wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x4];
        let mesh_buffers = [
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
        let trail_buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<TrailVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &TRAIL_ATTRIBUTES,
        })];
        let buffers: &[Option<wgpu::VertexBufferLayout<'_>>] = match spec.input {
            VertexInput::MeshInstances => &mesh_buffers,
            VertexInput::Trail => &trail_buffers,
        };
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
                    buffers,
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

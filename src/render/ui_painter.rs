//! Draws egui's tessellated panel with the lab's own pipeline over egui-wgpu's textures.
//!
//! egui-wgpu owns the textures (the font atlas and any image: uploads, partial updates,
//! samplers and bind groups); this draws the triangles. egui-wgpu 0.37's own fragment
//! shader carries a second texture-filtering path for egui's snapshot tests behind a
//! uniform flag, and a CPU rasterizer (Mesa's lavapipe) runs both sides of that branch for
//! every pixel: measured with `bench-render` on lavapipe, a full-screen egui rectangle took
//! 28 ms through egui-wgpu's pipeline and 6.7 ms through this one. The arithmetic is the
//! same (premultiplied sRGB-encoded colour times the texture; decoded to linear for an sRGB
//! target), the blending is egui-wgpu's, so the picture is the same.

use std::ops::Range;

use super::buffers::GrowingBuffer;

/// One mesh of the frame: where its triangles lie in the shared buffers, its clip
/// rectangle in pixels and the texture it reads.
#[derive(Clone, Debug)]
struct UiDraw {
    /// Scissor rectangle: x, y, width, height in pixels, inside the target.
    scissor: [u32; 4],
    /// egui's texture the mesh samples.
    texture: egui::TextureId,
    /// Index range in the index buffer.
    indices: Range<u32>,
}

/// The panels' background, painted by the lab instead of egui: everything in the target
/// outside `scene` filled with `color`, flat and opaque. egui paints a panel's fill with
/// the same textured, blended triangles as its text; on a CPU rasterizer the side panel's
/// and the timeline's fills (about 400,000 pixels at 1280×800) cost milliseconds that a
/// flat fill does not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Backdrop {
    /// The fill, sRGB-encoded as egui gives it.
    pub color: egui::Color32,
    /// The scene's rectangle (x, y, width, height in pixels), left unfilled.
    pub scene: [u32; 4],
}

impl Backdrop {
    /// The regions of a `size` target outside the scene, as scissor rectangles: left and
    /// right of it at full height, above and below it at its width. Empty ones are left
    /// out.
    pub fn regions(&self, size: [u32; 2]) -> impl Iterator<Item = [u32; 4]> {
        let [width, height] = size;
        let left = self.scene[0].min(width);
        let top = self.scene[1].min(height);
        let right = left.saturating_add(self.scene[2]).min(width);
        let bottom = top.saturating_add(self.scene[3]).min(height);
        [
            [0, 0, left, height],
            [right, 0, width - right, height],
            [left, 0, right - left, top],
            [left, bottom, right - left, height - bottom],
        ]
        .into_iter()
        .filter(|[_, _, w, h]| *w > 0 && *h > 0)
    }
}

/// Draws egui's [`egui::ClippedPrimitive`]s: [`UiPainter::prepare`] uploads a frame's
/// meshes into one vertex and one index buffer, [`UiPainter::draw`] records them into a
/// pass. Buffers grow when a frame needs more and are reused otherwise.
pub struct UiPainter {
    /// The pipeline, for the target's format.
    pipeline: wgpu::RenderPipeline,
    /// Fills the backdrop's regions.
    backdrop_pipeline: wgpu::RenderPipeline,
    /// Whether the target stores linear colour (an sRGB format).
    linear_target: bool,
    /// The target's size in points.
    screen_buffer: wgpu::Buffer,
    /// Binds `screen_buffer`.
    screen_bind_group: wgpu::BindGroup,
    /// Every mesh's vertices.
    vertex_buffer: GrowingBuffer,
    /// Every mesh's indices, each relative to its mesh's first vertex.
    index_buffer: GrowingBuffer,
    /// This frame's vertices before upload (reused).
    vertex_bytes: Vec<u8>,
    /// This frame's indices before upload (reused).
    indices: Vec<u32>,
    /// This frame's meshes (reused).
    draws: Vec<UiDraw>,
    /// This frame's backdrop regions, scissor rectangles (reused).
    backdrop: Vec<[u32; 4]>,
}

/// Size of the screen uniform: the size in points, padding, the backdrop's colour.
const SCREEN_UNIFORM_SIZE: u64 = 32;

impl UiPainter {
    /// A painter for targets (views) of `format`; on an sRGB format the shader hands the
    /// target linear colour, on any other egui's sRGB-encoded colour as it is.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("ui.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/ui.wgsl").into()),
        });
        let screen_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ui screen layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(SCREEN_UNIFORM_SIZE),
                },
                count: None,
            }],
        });
        let screen_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ui screen"),
            size: SCREEN_UNIFORM_SIZE,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let screen_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ui screen"),
            layout: &screen_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: screen_buffer.as_entire_binding(),
            }],
        });
        let texture_layout = egui_texture_layout(device);
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("ui pipeline layout"),
            bind_group_layouts: &[Some(&screen_layout), Some(&texture_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ui"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_ui"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<egui::epaint::Vertex>() as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &wgpu::vertex_attr_array![
                        0 => Float32x2, 1 => Float32x2, 2 => Uint32
                    ],
                })],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                cull_mode: None,
                ..Default::default()
            },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some(if format.is_srgb() {
                    "fs_ui_linear"
                } else {
                    "fs_ui_encoded"
                }),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    // Premultiplied alpha, as egui paints it.
                    blend: Some(wgpu::BlendState {
                        color: wgpu::BlendComponent {
                            src_factor: wgpu::BlendFactor::One,
                            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                            operation: wgpu::BlendOperation::Add,
                        },
                        alpha: wgpu::BlendComponent {
                            src_factor: wgpu::BlendFactor::OneMinusDstAlpha,
                            dst_factor: wgpu::BlendFactor::One,
                            operation: wgpu::BlendOperation::Add,
                        },
                    }),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let backdrop_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("ui backdrop layout"),
            bind_group_layouts: &[Some(&screen_layout)],
            immediate_size: 0,
        });
        let backdrop_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ui backdrop"),
            layout: Some(&backdrop_layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_backdrop"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_backdrop"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        Self {
            pipeline,
            backdrop_pipeline,
            linear_target: format.is_srgb(),
            screen_buffer,
            screen_bind_group,
            vertex_buffer: GrowingBuffer::new(
                device,
                "ui vertices",
                wgpu::BufferUsages::VERTEX,
                1 << 18,
            ),
            index_buffer: GrowingBuffer::new(
                device,
                "ui indices",
                wgpu::BufferUsages::INDEX,
                1 << 17,
            ),
            vertex_bytes: Vec::new(),
            indices: Vec::new(),
            draws: Vec::new(),
            backdrop: Vec::new(),
        }
    }

    /// Uploads `primitives` for a target of `size` pixels at `pixels_per_point`, to be
    /// drawn over `backdrop` when there is one, replacing the previous frame's. Meshes
    /// clipped to nothing are dropped; egui's paint callbacks (which the lab never makes)
    /// are skipped.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        primitives: &[egui::ClippedPrimitive],
        size: [u32; 2],
        pixels_per_point: f32,
        backdrop: Option<Backdrop>,
    ) {
        self.vertex_bytes.clear();
        self.indices.clear();
        self.draws.clear();
        self.backdrop.clear();
        if let Some(backdrop) = backdrop {
            self.backdrop.extend(backdrop.regions(size));
        }
        let vertex_size = std::mem::size_of::<egui::epaint::Vertex>();
        for primitive in primitives {
            let egui::epaint::Primitive::Mesh(mesh) = &primitive.primitive else {
                continue;
            };
            let Some(scissor) = scissor(primitive.clip_rect, pixels_per_point, size) else {
                continue;
            };
            if mesh.indices.is_empty() {
                continue;
            }
            let (Ok(first_vertex), Ok(first), Ok(end)) = (
                u32::try_from(self.vertex_bytes.len() / vertex_size),
                u32::try_from(self.indices.len()),
                u32::try_from(self.indices.len() + mesh.indices.len()),
            ) else {
                // Past four billion indices: not a frame egui makes.
                break;
            };
            self.vertex_bytes
                .extend_from_slice(bytemuck::cast_slice(&mesh.vertices));
            // Indices into the frame's whole vertex buffer: WebGL2 draws no base vertex.
            self.indices
                .extend(mesh.indices.iter().map(|&index| index + first_vertex));
            self.draws.push(UiDraw {
                scissor,
                texture: mesh.texture_id,
                indices: first..end,
            });
        }
        if self.draws.is_empty() && self.backdrop.is_empty() {
            return;
        }
        let fill = backdrop.map_or([0.0; 4], |backdrop| {
            if self.linear_target {
                egui::Rgba::from(backdrop.color).to_array()
            } else {
                backdrop.color.to_normalized_gamma_f32()
            }
        });
        let uniform = [
            size[0] as f32 / pixels_per_point,
            size[1] as f32 / pixels_per_point,
            0.0,
            0.0,
            fill[0],
            fill[1],
            fill[2],
            fill[3],
        ];
        queue.write_buffer(&self.screen_buffer, 0, bytemuck::cast_slice(&uniform));
        let index_bytes: &[u8] = bytemuck::cast_slice(&self.indices);
        self.vertex_buffer
            .reserve(device, self.vertex_bytes.len() as u64);
        self.index_buffer.reserve(device, index_bytes.len() as u64);
        // Vertices are 20 bytes and indices 4: both lengths are multiples of four, as
        // `write_buffer` needs.
        queue.write_buffer(&self.vertex_buffer.buffer, 0, &self.vertex_bytes);
        queue.write_buffer(&self.index_buffer.buffer, 0, index_bytes);
    }

    /// Records the prepared meshes into `pass` (whose target has the size `prepare` was
    /// given), each reading its texture from `textures`. A mesh whose texture egui-wgpu
    /// does not hold is skipped.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, textures: &egui_wgpu::Renderer) {
        if !self.backdrop.is_empty() {
            pass.set_pipeline(&self.backdrop_pipeline);
            pass.set_bind_group(0, &self.screen_bind_group, &[]);
            for &[x, y, width, height] in &self.backdrop {
                pass.set_scissor_rect(x, y, width, height);
                pass.draw(0..3, 0..1);
            }
        }
        if self.draws.is_empty() {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.screen_bind_group, &[]);
        pass.set_vertex_buffer(0, self.vertex_buffer.buffer.slice(..));
        pass.set_index_buffer(
            self.index_buffer.buffer.slice(..),
            wgpu::IndexFormat::Uint32,
        );
        for draw in &self.draws {
            let Some(texture) = textures.texture(&draw.texture) else {
                continue;
            };
            let [x, y, width, height] = draw.scissor;
            pass.set_scissor_rect(x, y, width, height);
            pass.set_bind_group(1, &texture.bind_group, &[]);
            pass.draw_indexed(draw.indices.clone(), 0, 0..1);
        }
    }
}

/// `clip` (points) as a scissor rectangle in pixels inside a `size` target: edges rounded
/// to the nearest pixel, cut to the target; `None` when nothing is left.
fn scissor(clip: egui::Rect, pixels_per_point: f32, size: [u32; 2]) -> Option<[u32; 4]> {
    let edge = |points: f32, limit: u32| -> u32 {
        let pixels = (points * pixels_per_point).round();
        // NaN and negatives go to 0; `as` saturates past the top.
        (pixels.max(0.0) as u32).min(limit)
    };
    let (left, right) = (edge(clip.min.x, size[0]), edge(clip.max.x, size[0]));
    let (top, bottom) = (edge(clip.min.y, size[1]), edge(clip.max.y, size[1]));
    (right > left && bottom > top).then(|| [left, top, right - left, bottom - top])
}

/// The layout of egui-wgpu 0.37's texture bind groups, described exactly as it describes
/// it: wgpu treats layouts with equal entries as one, so its bind groups fit this pipeline.
/// A mismatch after an egui-wgpu update is a validation error the render tests catch.
fn egui_texture_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("ui texture layout (egui-wgpu's)"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    multisampled: false,
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 2,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(16),
                },
                count: None,
            },
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backdrop_covers_everything_but_the_scene_once() {
        let size = [100, 80];
        let covered = |backdrop: Backdrop| {
            let mut count = vec![0u8; 100 * 80];
            for [x, y, w, h] in backdrop.regions(size) {
                for row in y..y + h {
                    for column in x..x + w {
                        count[(row * 100 + column) as usize] += 1;
                    }
                }
            }
            count
        };
        let color = egui::Color32::from_gray(27);
        // A side panel on the left and a timeline below the scene.
        let scene = [30, 0, 70, 60];
        let count = covered(Backdrop { color, scene });
        for row in 0..80 {
            for column in 0..100 {
                let in_scene = column >= 30 && row < 60;
                assert_eq!(
                    count[row * 100 + column],
                    u8::from(!in_scene),
                    "{column},{row}"
                );
            }
        }
        // No scene: all of it; the scene everywhere: none; a scene past the target: cut.
        assert!(
            covered(Backdrop {
                color,
                scene: [0, 0, 0, 0]
            })
            .iter()
            .all(|&n| n == 1)
        );
        assert_eq!(
            Backdrop {
                color,
                scene: [0, 0, 100, 80]
            }
            .regions(size)
            .count(),
            0
        );
        assert_eq!(
            Backdrop {
                color,
                scene: [90, 70, u32::MAX, u32::MAX]
            }
            .regions(size)
            .count(),
            2
        );
    }

    #[test]
    fn scissor_rounds_to_pixels_and_cuts_to_the_target() {
        let rect =
            |x0, y0, x1, y1| egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1));
        assert_eq!(
            scissor(rect(10.2, 20.6, 30.4, 40.5), 1.0, [100, 100]),
            Some([10, 21, 20, 20])
        );
        assert_eq!(
            scissor(rect(10.0, 10.0, 20.0, 20.0), 2.0, [100, 100]),
            Some([20, 20, 20, 20])
        );
        assert_eq!(
            scissor(rect(-5.0, -5.0, 500.0, 50.0), 1.0, [100, 40]),
            Some([0, 0, 100, 40])
        );
        assert_eq!(
            scissor(rect(120.0, 0.0, 130.0, 10.0), 1.0, [100, 100]),
            None
        );
        assert_eq!(scissor(rect(10.0, 10.0, 10.2, 30.0), 1.0, [100, 100]), None);
        assert_eq!(
            scissor(egui::Rect::EVERYTHING, 1.0, [64, 48]),
            Some([0, 0, 64, 48])
        );
        assert_eq!(scissor(egui::Rect::NOTHING, 1.0, [64, 48]), None);
    }
}

//! Rendering into a texture and reading it back: headless tests, snapshots and the
//! `render` command.

use super::gpu::GpuContext;
use super::renderer::{
    BACKGROUND, DEFAULT_SAMPLE_COUNT, PlacedView, RenderTargets, Renderer, SceneParts,
};

/// Bytes per row of a texture-to-buffer copy must be a multiple of this.
const ROW_ALIGNMENT: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;

/// Why a rendered image could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum ReadbackError {
    /// Only 8-bit RGBA and BGRA formats are read back.
    #[error("reading back {0:?} textures is not supported (use an 8-bit RGBA or BGRA format)")]
    UnsupportedFormat(wgpu::TextureFormat),
    /// Waiting for the GPU failed.
    #[error("waiting for the GPU failed: {0}")]
    Poll(#[from] wgpu::PollError),
    /// Mapping the readback buffer failed.
    #[error("mapping the readback buffer failed: {0}")]
    Map(#[from] wgpu::BufferAsyncError),
    /// The mapped range could not be viewed.
    #[error("reading the mapped buffer failed: {0}")]
    MappedRange(#[from] wgpu::MapRangeError),
}

/// What one frame is drawn into: the scene through `scene`, the panel through `ui`, two
/// views of the same texture. For an sRGB texture the UI view can be its non-sRGB twin,
/// so that egui blends in sRGB-encoded space, as it is designed to, and a CPU rasterizer
/// skips a decode and encode per pixel (see [`ui_view_format`]).
#[derive(Clone, Copy, Debug)]
pub struct FrameTarget<'a> {
    /// The view the scene is drawn through: the texture's own format.
    pub scene: &'a wgpu::TextureView,
    /// The view the panel is drawn through.
    pub ui: &'a wgpu::TextureView,
}

/// The format to draw the panel through on a texture of `format`: its non-sRGB twin when
/// the texture may be viewed so (`reinterpret`), else `format` itself.
pub fn ui_view_format(format: wgpu::TextureFormat, reinterpret: bool) -> wgpu::TextureFormat {
    if reinterpret {
        format.remove_srgb_suffix()
    } else {
        format
    }
}

/// A colour texture to render into and read back.
pub struct Offscreen {
    /// The colour texture rendered into and copied from.
    texture: wgpu::Texture,
    /// View of the texture, for render passes.
    view: wgpu::TextureView,
    /// View of the texture the panel is drawn through (in `ui_format`).
    ui_view: wgpu::TextureView,
    /// Width, pixels (at least 1).
    width: u32,
    /// Height, pixels (at least 1).
    height: u32,
    /// Pixel format of the texture.
    format: wgpu::TextureFormat,
    /// The format the panel is drawn through: `format` or its non-sRGB twin.
    ui_format: wgpu::TextureFormat,
}

impl Offscreen {
    /// A `width` × `height` texture of `format` (zero sizes are clamped to 1), drawn into
    /// through views of `format` and `ui_format` (the panel's: `format` itself, or its
    /// non-sRGB twin where the adapter lets a texture be viewed in another format,
    /// [`GpuContext::frame_formats`]).
    pub fn new(
        device: &wgpu::Device,
        width: u32,
        height: u32,
        (format, ui_format): (wgpu::TextureFormat, wgpu::TextureFormat),
    ) -> Self {
        let width = width.max(1);
        let height = height.max(1);
        let twin = [ui_format];
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen colour"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            // A second view format only where one was asked for: a downlevel adapter (GL)
            // refuses any.
            view_formats: if ui_format == format { &[] } else { &twin },
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let ui_view = texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(ui_format),
            ..wgpu::TextureViewDescriptor::default()
        });
        Self {
            texture,
            view,
            ui_view,
            width,
            height,
            format,
            ui_format,
        }
    }

    /// The frame target: the scene through the texture's format, the panel through the
    /// panel's format it was made with.
    pub fn target(&self) -> FrameTarget<'_> {
        FrameTarget {
            scene: &self.view,
            ui: &self.ui_view,
        }
    }

    /// The formats the scene and the panel are drawn through.
    pub fn formats(&self) -> (wgpu::TextureFormat, wgpu::TextureFormat) {
        (self.format, self.ui_format)
    }

    /// The view to render into.
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// Width and height, pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The texture's format.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// Copies the texture to the CPU as RGBA (BGRA formats are swizzled; sRGB bytes stay
    /// sRGB-encoded). Waits for all submitted work.
    pub fn read_rgba(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<image::RgbaImage, ReadbackError> {
        let (sender, receiver) = std::sync::mpsc::channel();
        self.read_rgba_then(device, queue, move |image| {
            // The receiver outlives the poll below; a send error cannot happen.
            let _ = sender.send(image);
        })?;
        device.poll(wgpu::PollType::wait_indefinitely())?;
        receiver
            .recv()
            .expect("wait_indefinitely runs the map callback before returning")
    }

    /// Copies the texture to the CPU as [`Self::read_rgba`] does, without waiting: `done`
    /// gets the image when the GPU has answered (natively on a poll of `device`, on a page
    /// when the browser resolves the mapping, which nothing there may wait for).
    pub fn read_rgba_then(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        done: impl FnOnce(Result<image::RgbaImage, ReadbackError>) + wgpu::WasmNotSend + 'static,
    ) -> Result<(), ReadbackError> {
        use wgpu::TextureFormat as F;
        let swap_red_blue = match self.format {
            F::Rgba8Unorm | F::Rgba8UnormSrgb => false,
            F::Bgra8Unorm | F::Bgra8UnormSrgb => true,
            other => return Err(ReadbackError::UnsupportedFormat(other)),
        };
        let (width, height) = (self.width, self.height);
        let padded_row_bytes = (width * 4).next_multiple_of(ROW_ALIGNMENT);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen readback"),
            size: u64::from(padded_row_bytes) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("offscreen readback"),
        });
        encoder.copy_texture_to_buffer(
            self.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row_bytes),
                    rows_per_image: Some(height),
                },
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
        queue.submit([encoder.finish()]);
        // The callback holds the buffer: it lives until the answer has been read.
        let mapped = buffer.clone();
        buffer.map_async(wgpu::MapMode::Read, .., move |result| {
            let image = result.map_err(ReadbackError::from).and_then(|()| {
                let image = rgba_rows(&mapped, (width, height), padded_row_bytes, swap_red_blue);
                mapped.unmap();
                image
            });
            done(image);
        });
        Ok(())
    }
}

/// The `width` × `height` RGBA image in mapped `buffer`, whose rows are `padded_row_bytes`
/// apart; red and blue swapped where the texture was BGRA.
fn rgba_rows(
    buffer: &wgpu::Buffer,
    (width, height): (u32, u32),
    padded_row_bytes: u32,
    swap_red_blue: bool,
) -> Result<image::RgbaImage, ReadbackError> {
    let row_bytes = width as usize * 4;
    let mut pixels = Vec::with_capacity(row_bytes * height as usize);
    {
        let mapped = buffer.get_mapped_range(..)?;
        for row in mapped.chunks_exact(padded_row_bytes as usize) {
            pixels.extend_from_slice(&row[..row_bytes]);
        }
    }
    if swap_red_blue {
        for pixel in pixels.chunks_exact_mut(4) {
            pixel.swap(0, 2);
        }
    }
    Ok(image::RgbaImage::from_raw(width, height, pixels)
        .expect("the pixel buffer holds exactly width × height RGBA pixels"))
}

/// Renders `panes` into a fresh `width` × `height` `Rgba8UnormSrgb` image with the default
/// MSAA (or the most the adapter offers below it), clearing to [`BACKGROUND`]. Builds a renderer each call: for tests and one-off
/// renders, not for frame loops.
pub fn render_scene_png(
    ctx: &GpuContext,
    panes: &[PlacedView<'_>],
    width: u32,
    height: u32,
) -> Result<image::RgbaImage, ReadbackError> {
    render_scene_parts_png(ctx, panes, (width, height), SceneParts::ALL)
}

/// [`render_scene_png`] drawing only the scene's `parts`.
pub fn render_scene_parts_png(
    ctx: &GpuContext,
    panes: &[PlacedView<'_>],
    (width, height): (u32, u32),
    parts: SceneParts,
) -> Result<image::RgbaImage, ReadbackError> {
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let offscreen = Offscreen::new(&ctx.device, width, height, (format, format));
    let (width, height) = offscreen.size();
    let samples = ctx.sample_count(format, DEFAULT_SAMPLE_COUNT);
    let targets = RenderTargets::new(&ctx.device, format, width, height, samples);
    let mut renderer = Renderer::new(&ctx.device, format, samples);
    renderer.set_parts(parts);
    renderer.prepare(&ctx.device, &ctx.queue, panes);
    let mut encoder = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("render_scene_png"),
        });
    targets.encode_scene_pass(&mut encoder, offscreen.view(), &renderer, BACKGROUND);
    ctx.queue.submit([encoder.finish()]);
    offscreen.read_rgba(&ctx.device, &ctx.queue)
}

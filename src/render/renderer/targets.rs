//! The textures the renderer's pass draws into besides the target: MSAA colour and depth.

use super::Renderer;

/// MSAA samples of the scene: 4 is the count every WebGPU adapter supports, and it keeps
/// the thin grid lines and the coil from crawling as the camera orbits.
pub const DEFAULT_SAMPLE_COUNT: u32 = 4;

/// Format of the depth buffer.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

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
        renderer: &Renderer,
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
        // wgpu's GL backend resolves MSAA at the pass's end with a framebuffer blit, which
        // the scissor test cuts: with the last pane's scissor still set, only that pane
        // would reach the target. The whole target, scissored in, resolves every pane.
        pass.set_scissor_rect(0, 0, self.width, self.height);
    }
}

//! The window's wgpu surface in one small wrapper: its format and the present modes it
//! offers, configured inside an error scope and never at a zero size, every outcome of
//! acquiring a frame answered (a lost surface is recreated), and the configuration errors
//! kept for the exit report.

use std::sync::Arc;
use web_time::{Duration, Instant};

use anyhow::{Context as _, anyhow};
use winit::dpi::PhysicalSize;
use winit::window::Window;

use super::present_mode::WgpuPresentMode as _;
use crate::live::PresentModeId;
use crate::render::{DeviceError, GpuContext, adapter_summary, catch_errors};

/// How long to wait between checks while the window is minimised, hidden or its surface
/// cannot be configured: no busy spin, and the window comes back within a tenth of a second.
pub const MINIMISED_POLL: Duration = Duration::from_millis(100);

/// Configuration errors kept for the exit report (each one is also printed when it happens).
const MAX_RECORDED_ERRORS: usize = 32;

/// The formats a surface of `format` draws its frame through: the scene's and the
/// panel's, given whether the surface's textures may be viewed in their sRGB or non-sRGB
/// twin (`reinterpret`).
///
/// The scene's shaders give linear colour, which only an sRGB target encodes for the
/// screen; egui's panel is drawn sRGB-encoded, through a non-sRGB view where there is one
/// (`render::FrameTarget`). A surface that offers an sRGB format is drawn through it, the
/// panel through its twin where it may be. A surface that offers none (a browser's WebGPU
/// canvas: `rgba8unorm` or `bgra8unorm`) draws the scene through its sRGB twin as a view,
/// where it may be viewed so: drawn straight into the canvas, the scene's linear colours
/// came out far too dark (the clear colour 0.06 showed as 15 of 255, not 69). Where it
/// may not, both go through the surface's own format.
fn surface_formats(
    format: wgpu::TextureFormat,
    reinterpret: bool,
) -> (wgpu::TextureFormat, wgpu::TextureFormat) {
    match (format.is_srgb(), reinterpret) {
        (true, true) => (format, format.remove_srgb_suffix()),
        (false, true) if format.add_srgb_suffix() != format => (format.add_srgb_suffix(), format),
        _ => (format, format),
    }
}

/// How the surface's frames are composited with what lies behind them: on a page's WebGPU
/// canvas premultiplied, elsewhere the first mode the surface offers (`Auto` if none).
///
/// Every pixel of the lab's frame is opaque (the scene pass clears the whole target with
/// alpha 1, opaque things write 1, and the ghost and the panel blend alpha over it, which
/// keeps 1), so a premultiplied canvas shows the same picture as an opaque one. Chromium
/// composites an opaque WebGPU canvas with a pass of its own that forces alpha to 1: on
/// SwiftShader here a canvas that is only cleared ran at 33–36 fps opaque and 38 fps
/// premultiplied (docs/web.md). wgpu's web backend takes `PreMultiplied` although it
/// lists only `Opaque`.
fn alpha_mode(
    offered: &[wgpu::CompositeAlphaMode],
    backend: wgpu::Backend,
) -> wgpu::CompositeAlphaMode {
    if backend == wgpu::Backend::BrowserWebGpu {
        return wgpu::CompositeAlphaMode::PreMultiplied;
    }
    offered
        .first()
        .copied()
        .unwrap_or(wgpu::CompositeAlphaMode::Auto)
}

/// The window's surface and how it is configured.
pub struct WindowSurface {
    /// The window the surface draws into.
    window: Arc<Window>,
    /// The surface.
    surface: wgpu::Surface<'static>,
    /// How the surface is configured (or is to be, while it is not).
    config: wgpu::SurfaceConfiguration,
    /// The format the scene is drawn through: the surface's own, or a view of it.
    scene_format: wgpu::TextureFormat,
    /// The format the panel is drawn through: the surface's own, or a view of it.
    ui_format: wgpu::TextureFormat,
    /// Present modes the surface supports.
    offered: Vec<PresentModeId>,
    /// Whether the surface is configured now (acquiring from one that is not panics).
    configured: bool,
    /// Successful configurations so far: each makes a new swap chain, whose presents the
    /// platform numbers afresh.
    configurations: u64,
    /// No frame before this instant (after an occluded acquire or a failed configure).
    idle_until: Option<Instant>,
    /// Every surface configuration that failed, the first [`MAX_RECORDED_ERRORS`].
    configure_errors: Vec<String>,
}

/// A frame acquired from the surface, to draw into and then [`WindowSurface::present`].
pub struct AcquiredFrame {
    /// The surface's texture.
    texture: wgpu::SurfaceTexture,
    /// Whether the surface no longer matches the window exactly (drawn all the same).
    suboptimal: bool,
    /// How long acquiring it blocked.
    wait: Duration,
}

impl AcquiredFrame {
    /// A view of the texture to draw into, in `format` (the surface's, or one of its view
    /// formats).
    pub fn view(&self, format: wgpu::TextureFormat) -> wgpu::TextureView {
        self.texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor {
                format: Some(format),
                ..wgpu::TextureViewDescriptor::default()
            })
    }
}

impl WindowSurface {
    /// Wraps `surface`, made for `window` on `gpu`'s adapter: an sRGB format if it offers
    /// one, the present mode `requested` resolves to. Not configured yet.
    pub fn new(
        window: Arc<Window>,
        surface: wgpu::Surface<'static>,
        gpu: &GpuContext,
        requested: PresentModeId,
    ) -> anyhow::Result<Self> {
        let capabilities = surface.get_capabilities(&gpu.adapter);
        let format = capabilities
            .formats
            .iter()
            .copied()
            .find(wgpu::TextureFormat::is_srgb)
            .or_else(|| capabilities.formats.first().copied())
            .ok_or_else(|| {
                anyhow!(
                    "the surface of adapter {} reports no texture format it can present",
                    adapter_summary(&gpu.adapter.get_info())
                )
            })?;
        let offered: Vec<PresentModeId> = capabilities
            .present_modes
            .iter()
            .map(|&mode| PresentModeId::from_wgpu(mode))
            .collect();
        let size = window.inner_size();
        let reinterpret = gpu.views_other_formats()
            && gpu
                .adapter
                .get_downlevel_capabilities()
                .flags
                .contains(wgpu::DownlevelFlags::SURFACE_VIEW_FORMATS);
        let (scene_format, ui_format) = surface_formats(format, reinterpret);
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: requested.resolve(&offered).to_wgpu(),
            desired_maximum_frame_latency: 2,
            alpha_mode: alpha_mode(&capabilities.alpha_modes, gpu.adapter.get_info().backend),
            // The one of the two formats that is not the surface's own, if any.
            view_formats: [scene_format, ui_format]
                .into_iter()
                .filter(|&view| view != format)
                .take(1)
                .collect(),
            color_space: Default::default(),
        };
        Ok(Self {
            window,
            surface,
            config,
            scene_format,
            ui_format,
            offered,
            configured: false,
            configurations: 0,
            idle_until: None,
            configure_errors: Vec::new(),
        })
    }

    /// Present modes the surface supports.
    pub fn offered(&self) -> &[PresentModeId] {
        &self.offered
    }

    /// The format the scene is drawn through: an sRGB one wherever the surface can give
    /// one ([`surface_formats`]). An offscreen frame of the same picture is made in it.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.scene_format
    }

    /// The format the panel is drawn through: the scene's non-sRGB twin where the
    /// surface lets its textures be viewed so, else the scene's.
    pub fn ui_format(&self) -> wgpu::TextureFormat {
        self.ui_format
    }

    /// The size the surface is configured at, physical pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    /// Whether the surface is configured now.
    pub fn is_configured(&self) -> bool {
        self.configured
    }

    /// No frame before this instant, if one is set (after an occluded acquire or a failed
    /// configure).
    pub fn idle_until(&self) -> Option<Instant> {
        self.idle_until
    }

    /// Successful configurations so far (each a new swap chain).
    pub fn configurations(&self) -> u64 {
        self.configurations
    }

    /// Every surface configuration that failed, the first [`MAX_RECORDED_ERRORS`].
    pub fn configure_errors(&self) -> &[String] {
        &self.configure_errors
    }

    /// Follows a new window size; a zero size is never configured.
    pub fn resize(&mut self, gpu: &GpuContext, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            return;
        }
        // Outcome recorded by `configure`.
        let _ = self.configure(gpu);
    }

    /// Configures the surface with present mode `mode`. On failure the mode in force before
    /// stays in the configuration, and this returns `false`.
    pub fn configure_mode(&mut self, gpu: &GpuContext, mode: PresentModeId) -> bool {
        let previous = self.config.present_mode;
        self.config.present_mode = mode.to_wgpu();
        let configured = self.configure(gpu).is_ok();
        if !configured {
            self.config.present_mode = previous;
        }
        configured
    }

    /// Configures the surface at the window's current size, catching its errors.
    /// A failure is printed, recorded for the exit report, and leaves the surface marked
    /// unconfigured so that no frame is acquired from it until a retry succeeds.
    fn configure(&mut self, gpu: &GpuContext) -> Result<(), DeviceError> {
        let size = self.window.inner_size();
        if size.width > 0 && size.height > 0 {
            self.config.width = size.width;
            self.config.height = size.height;
        }
        let outcome = catch_errors(&gpu.device, || {
            self.surface.configure(&gpu.device, &self.config);
        });
        self.configured = outcome.is_ok();
        self.configurations += u64::from(self.configured);
        if let Err(error) = &outcome {
            let mode = PresentModeId::from_wgpu(self.config.present_mode);
            let text = format!(
                "{mode} at {}x{}: {error}",
                self.config.width, self.config.height
            );
            eprintln!("timestep-lab: configuring the surface failed: {text}");
            if self.configure_errors.len() < MAX_RECORDED_ERRORS {
                self.configure_errors.push(text);
            }
            self.idle_until = Some(Instant::now() + MINIMISED_POLL);
        }
        outcome
    }

    /// Makes a new surface for the window after the old one was lost, and configures it
    /// (a configuration failure is recorded by [`Self::configure`]).
    fn recreate(&mut self, gpu: &GpuContext) -> anyhow::Result<()> {
        match gpu.instance.create_surface(self.window.clone()) {
            Ok(surface) => {
                self.surface = surface;
                self.configured = false;
                let _ = self.configure(gpu);
                Ok(())
            }
            Err(error) => {
                self.idle_until = Some(Instant::now() + MINIMISED_POLL);
                Err(error).context("cannot recreate the lost surface")
            }
        }
    }

    /// Acquires the next frame to draw. Every other outcome is handled here and gives
    /// `None`: a timeout is tried again next frame, an occluded window waits, an outdated
    /// surface is reconfigured and a lost one recreated.
    pub fn acquire(&mut self, gpu: &GpuContext) -> Option<AcquiredFrame> {
        // Under FIFO, acquiring blocks while every image waits for the display: the one
        // present timing wgpu lets the lab measure.
        let acquiring = Instant::now();
        let acquired = self.surface.get_current_texture();
        let wait = acquiring.elapsed();
        let (texture, suboptimal) = match acquired {
            wgpu::CurrentSurfaceTexture::Success(texture) => (texture, false),
            wgpu::CurrentSurfaceTexture::Suboptimal(texture) => (texture, true),
            // The acquire itself waited; try again next frame.
            wgpu::CurrentSurfaceTexture::Timeout => return None,
            wgpu::CurrentSurfaceTexture::Occluded => {
                self.idle_until = Some(Instant::now() + MINIMISED_POLL);
                return None;
            }
            wgpu::CurrentSurfaceTexture::Outdated => {
                // Outcome recorded by `configure`.
                let _ = self.configure(gpu);
                return None;
            }
            wgpu::CurrentSurfaceTexture::Lost => {
                if let Err(error) = self.recreate(gpu) {
                    eprintln!("timestep-lab: {error:#}");
                }
                return None;
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                eprintln!("timestep-lab: acquiring the frame failed validation; skipping it");
                return None;
            }
        };
        Some(AcquiredFrame {
            texture,
            suboptimal,
            wait,
        })
    }

    /// Presents `frame`, drawn, and returns how long acquiring it and presenting it
    /// blocked. A suboptimal surface whose size no longer matches the window is then
    /// reconfigured.
    pub fn present(&mut self, gpu: &GpuContext, frame: AcquiredFrame) -> FrameWaits {
        self.window.pre_present_notify();
        let presenting = Instant::now();
        gpu.queue.present(frame.texture);
        let present = presenting.elapsed();
        // Asked only of a suboptimal frame: on X11 the window's size is a round trip to
        // the server, which is still taking in the image just presented.
        if frame.suboptimal {
            let size = self.window.inner_size();
            if (size.width, size.height) != self.size() {
                // Outcome recorded by `configure`.
                let _ = self.configure(gpu);
            }
        }
        FrameWaits {
            acquire: frame.wait,
            present,
        }
    }
}

/// How long a frame's trips to the swap chain took.
#[derive(Clone, Copy, Debug)]
pub struct FrameWaits {
    /// Acquiring the image (under FIFO, waiting for the display).
    pub acquire: Duration,
    /// The present call (a software rasterizer finishes the image in it).
    pub present: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::TextureFormat as F;

    #[test]
    fn the_scene_goes_through_srgb_and_the_panel_through_its_twin_where_they_may() {
        // A desktop surface: sRGB offered, its textures viewable as the twin.
        assert_eq!(
            surface_formats(F::Bgra8UnormSrgb, true),
            (F::Bgra8UnormSrgb, F::Bgra8Unorm)
        );
        // GL: sRGB offered, no other view.
        assert_eq!(
            surface_formats(F::Rgba8UnormSrgb, false),
            (F::Rgba8UnormSrgb, F::Rgba8UnormSrgb)
        );
        // A browser's WebGPU canvas: no sRGB format, but an sRGB view of it.
        assert_eq!(
            surface_formats(F::Rgba8Unorm, true),
            (F::Rgba8UnormSrgb, F::Rgba8Unorm)
        );
        assert_eq!(
            surface_formats(F::Bgra8Unorm, true),
            (F::Bgra8UnormSrgb, F::Bgra8Unorm)
        );
        // No sRGB twin at all, or no other view: the surface's own format for both.
        assert_eq!(
            surface_formats(F::Rgba16Float, true),
            (F::Rgba16Float, F::Rgba16Float)
        );
        assert_eq!(
            surface_formats(F::Rgba8Unorm, false),
            (F::Rgba8Unorm, F::Rgba8Unorm)
        );
    }

    #[test]
    fn a_page_canvas_is_premultiplied_and_a_desktop_surface_takes_what_it_offers_first() {
        use wgpu::CompositeAlphaMode as A;
        let offered = [A::Opaque, A::PreMultiplied];
        assert_eq!(
            alpha_mode(&[A::Opaque], wgpu::Backend::BrowserWebGpu),
            A::PreMultiplied
        );
        assert_eq!(alpha_mode(&offered, wgpu::Backend::Vulkan), A::Opaque);
        assert_eq!(
            alpha_mode(&offered[1..], wgpu::Backend::Gl),
            A::PreMultiplied
        );
        assert_eq!(alpha_mode(&[], wgpu::Backend::Metal), A::Auto);
    }
}

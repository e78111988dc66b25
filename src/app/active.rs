//! What exists only while the window does: the window, the GPU, its surface, the frame
//! composer and egui's window integration, created together when the application resumes;
//! and drawing one frame's picture into the surface or into a screenshot.

use std::sync::Arc;

use anyhow::{Context as _, anyhow};
use winit::dpi::LogicalSize;
use winit::event_loop::{ActiveEventLoop, OwnedDisplayHandle};
use winit::window::Window;

use super::compose::{FrameComposer, UiFrame};
use super::os_errors::without_source_location;
use super::surface::{FrameWaits, WindowSurface};
use crate::live::PresentModeId;
use crate::options::GpuBackend;
use crate::render::{
    Backdrop, DrawQuality, FrameTarget, GpuContext, Offscreen, PlacedView, request_adapter,
    with_backend,
};

/// Everything that exists only while the window does. The application drops it when the
/// event loop exits, while the loop and its connection to the display still exist.
pub struct Active {
    /// egui's window integration. It owns the clipboard, which on Wayland runs a thread
    /// holding objects on the event loop's display connection; first field, so it goes
    /// first.
    pub egui_state: egui_winit::State,
    /// The window.
    pub window: Arc<Window>,
    /// Instance, adapter, device, queue.
    pub gpu: GpuContext,
    /// The window's surface and its configuration.
    pub surface: WindowSurface,
    /// Draws scene and panel.
    composer: FrameComposer,
    /// egui's context.
    pub egui_ctx: egui::Context,
    /// How finely frames are drawn on this adapter.
    pub quality: DrawQuality,
    /// Whether the window is fully hidden (nothing it draws would be seen).
    pub occluded: bool,
    /// The refresh rate of the monitor the window is on, Hz, as the window system
    /// reports it (updated when the window moves).
    pub monitor_hz: Option<f64>,
}

/// One frame's picture: the scene panes and the panel's triangles over them.
pub struct Picture<'a> {
    /// The panes, each in its viewport.
    pub panes: &'a [PlacedView<'a>],
    /// The panel, tessellated.
    pub primitives: &'a [egui::ClippedPrimitive],
    /// Physical pixels per egui point.
    pub pixels_per_point: f32,
    /// The panels' background, when the panel left it to the lab.
    pub backdrop: Option<Backdrop>,
}

/// The window and its drawing surface, before a GPU is chosen for them: choosing one is
/// asynchronous (a browser answers later), so the window is made in two steps.
pub struct Opening {
    /// The window.
    pub window: Arc<Window>,
    /// The window system's connection, which the GPU's instance is made for.
    display: OwnedDisplayHandle,
}

/// A GPU that can draw into an [`Opening`]'s surface, and the surface.
pub struct Connected {
    /// Instance, adapter, device, queue.
    gpu: GpuContext,
    /// The surface it draws into.
    surface: wgpu::Surface<'static>,
}

impl Opening {
    /// Creates a window of `size` (logical points: physical pixels are points times the
    /// window's scale factor, as every desktop application sizes its windows; on a page, the
    /// canvas, added to the document).
    pub fn new(event_loop: &ActiveEventLoop, (width, height): (u32, u32)) -> anyhow::Result<Self> {
        let attributes = Window::default_attributes()
            .with_title("timestep-lab")
            .with_inner_size(LogicalSize::new(width.max(1), height.max(1)));
        // On a page, the canvas is placed at the top before winit takes it (winit sizes a
        // canvas only once it is in the document).
        #[cfg(target_arch = "wasm32")]
        let attributes = {
            use winit::platform::web::WindowAttributesExtWebSys as _;
            match super::page::placed_canvas() {
                Some(canvas) => attributes.with_canvas(Some(canvas)),
                None => attributes.with_append(true),
            }
        };
        let window = Arc::new(event_loop.create_window(attributes).map_err(|error| {
            anyhow!(
                "cannot create the window: {}",
                without_source_location(&error.to_string())
            )
        })?);
        Ok(Self {
            window,
            display: event_loop.owned_display_handle(),
        })
    }

    /// Makes the window's surface, chooses the adapter that can draw into it (on `backend`
    /// where one is named) and creates its device. On a page without `backend`, WebGPU
    /// where the browser has an adapter for it, else WebGL2 (a canvas takes one of them for
    /// good, so the choice comes before the surface).
    pub fn connect(
        self,
        backend: Option<GpuBackend>,
    ) -> impl Future<Output = anyhow::Result<Connected>> + 'static {
        let Self { window, display } = self;
        async move {
            let instance = wgpu::util::new_instance_with_webgpu_detection(with_backend(
                wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(display)),
                backend,
            ))
            .await;
            let surface = instance
                .create_surface(window)
                .context("cannot create a drawing surface for the window")?;
            let adapter = request_adapter(&instance, Some(&surface), backend).await?;
            let gpu = GpuContext::with_adapter(instance, adapter).await?;
            Ok(Connected { gpu, surface })
        }
    }
}

impl Active {
    /// The window of `opening` with the GPU `connected` to it: the surface (not configured
    /// yet; `requested` is the present mode to start from), and a composer drawing as finely
    /// as suits the adapter ([`DrawQuality`]), the scene with `msaa` samples where the person
    /// chose them.
    pub fn new(
        event_loop: &ActiveEventLoop,
        window: Arc<Window>,
        Connected { gpu, surface }: Connected,
        msaa: Option<u32>,
        requested: PresentModeId,
    ) -> anyhow::Result<Self> {
        let surface = WindowSurface::new(window.clone(), surface, &gpu, requested)?;
        let quality = DrawQuality::for_gpu(&gpu, (surface.format(), surface.ui_format()), msaa);
        let composer = FrameComposer::new(
            &gpu.device,
            (surface.format(), surface.ui_format()),
            surface.size(),
            quality.msaa,
        );
        let egui_ctx = egui::Context::default();
        quality.apply_to(&egui_ctx);
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            event_loop,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        Ok(Self {
            egui_state,
            monitor_hz: monitor_refresh_hz(&window),
            window,
            gpu,
            surface,
            composer,
            egui_ctx,
            quality,
            occluded: false,
        })
    }

    /// Whether there is nothing to draw into.
    pub fn is_minimised(&self) -> bool {
        let size = self.window.inner_size();
        size.width == 0 || size.height == 0 || self.window.is_minimized() == Some(true)
    }

    /// Asks the window system again for the refresh rate of the window's monitor (after the
    /// window moved).
    pub fn update_monitor_hz(&mut self) {
        self.monitor_hz = monitor_refresh_hz(&self.window);
    }

    /// Acquires a frame from the surface, draws `picture` into it and presents it. Returns
    /// how long acquiring blocked when a frame reached the display; the surface answers
    /// every other outcome.
    pub fn present(
        &mut self,
        pending_textures: &mut egui::TexturesDelta,
        picture: &Picture<'_>,
    ) -> Option<FrameWaits> {
        let frame = self.surface.acquire(&self.gpu)?;
        let size = self.surface.size();
        let (format, ui_format) = (self.surface.format(), self.surface.ui_format());
        let scene = frame.view(format);
        // A second view only where the panel is drawn through another format.
        let ui = (ui_format != format).then(|| frame.view(ui_format));
        draw(
            &mut self.composer,
            &self.gpu,
            size,
            pending_textures,
            FrameTarget {
                scene: &scene,
                ui: ui.as_ref().unwrap_or(&scene),
            },
            picture,
        );
        Some(self.surface.present(&self.gpu, frame))
    }

    /// Draws `picture` into an offscreen texture of the surface's size and formats, to be
    /// read back as the screenshot. Texture uploads are applied here; the window's frame
    /// then finds them in place.
    pub fn draw_offscreen(
        &mut self,
        pending_textures: &mut egui::TexturesDelta,
        picture: &Picture<'_>,
    ) -> Offscreen {
        let size = self.surface.size();
        let formats = (self.surface.format(), self.surface.ui_format());
        let offscreen = Offscreen::new(&self.gpu.device, size.0, size.1, formats);
        draw(
            &mut self.composer,
            &self.gpu,
            size,
            pending_textures,
            offscreen.target(),
            picture,
        );
        offscreen
    }
}

/// Draws `picture` into `target` (`size`, the surface's), uploading the pending egui
/// textures.
fn draw(
    composer: &mut FrameComposer,
    gpu: &GpuContext,
    size: (u32, u32),
    pending_textures: &mut egui::TexturesDelta,
    target: FrameTarget<'_>,
    picture: &Picture<'_>,
) {
    composer.render(
        &gpu.device,
        &gpu.queue,
        target,
        size,
        picture.panes,
        Some(UiFrame {
            primitives: picture.primitives,
            textures: std::mem::take(pending_textures),
            pixels_per_point: picture.pixels_per_point,
            backdrop: picture.backdrop,
        }),
    );
}

/// The refresh rate of the monitor `window` is on, Hz, if the window system says.
fn monitor_refresh_hz(window: &Window) -> Option<f64> {
    let millihertz = window.current_monitor()?.refresh_rate_millihertz()?;
    Some(f64::from(millihertz) / 1000.0)
}

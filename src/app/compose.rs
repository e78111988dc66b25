//! One whole frame into any texture view: the scene panes, then the egui panel on top.
//! The window, its screenshots and `bench-render` all draw through this.

use web_time::Instant;

use crate::render::{
    BACKGROUND, Backdrop, FrameTarget, PlacedView, RenderTargets, Renderer, SceneParts, UiPainter,
    begin_color_pass,
};

/// The egui output of one frame, tessellated.
pub struct UiFrame<'a> {
    /// Triangles to draw.
    pub primitives: &'a [egui::ClippedPrimitive],
    /// Textures to upload before drawing and free after (consumed).
    pub textures: egui::TexturesDelta,
    /// Physical pixels per egui point.
    pub pixels_per_point: f32,
    /// The panels' background, when egui left it for the lab to paint.
    pub backdrop: Option<Backdrop>,
}

/// Draws the scene and the panel with shared pipelines and targets.
pub struct FrameComposer {
    /// Draws every pane's scene.
    renderer: Renderer,
    /// MSAA colour and depth for the scene pass.
    targets: RenderTargets,
    /// Holds egui's textures (the font atlas, images): uploads, samplers, bind groups.
    egui: egui_wgpu::Renderer,
    /// Draws egui's triangles over those textures.
    ui: UiPainter,
    /// Whether the UI pass is drawn (`bench-render --without ui` leaves it out).
    draws_ui: bool,
}

impl FrameComposer {
    /// A composer drawing into targets of `format`, `width` × `height` to start with, the
    /// scene with `sample_count` MSAA samples (1 or 4), the panel through views of
    /// `ui_format` (`format` or its non-sRGB twin: [`crate::render::ui_view_format`]).
    pub fn new(
        device: &wgpu::Device,
        (format, ui_format): (wgpu::TextureFormat, wgpu::TextureFormat),
        (width, height): (u32, u32),
        sample_count: u32,
    ) -> Self {
        Self {
            renderer: Renderer::new(device, format, sample_count),
            targets: RenderTargets::new(device, format, width, height, sample_count),
            // The panel is drawn after the MSAA resolve, into the single-sample target.
            egui: egui_wgpu::Renderer::new(
                device,
                ui_format,
                egui_wgpu::RendererOptions::default(),
            ),
            ui: UiPainter::new(device, ui_format),
            draws_ui: true,
        }
    }

    /// Draws only the scene's `parts`, and the UI only if `ui`: what `bench-render
    /// --without` measures.
    pub fn leave_out(&mut self, parts: SceneParts, ui: bool) {
        self.renderer.set_parts(parts);
        self.draws_ui = ui;
    }

    /// Encodes and submits one frame into `target` (`width` × `height` physical pixels):
    /// the panes' scenes, then `ui` on top. Returns the CPU time it took.
    pub fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: FrameTarget<'_>,
        (width, height): (u32, u32),
        panes: &[PlacedView<'_>],
        ui: Option<UiFrame<'_>>,
    ) -> std::time::Duration {
        let start = Instant::now();
        self.targets.resize(device, width, height);
        self.renderer.prepare(device, queue, panes);
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });
        self.targets
            .encode_scene_pass(&mut encoder, target.scene, &self.renderer, BACKGROUND);
        if let Some(ui) = &ui {
            for (id, deltas) in &ui.textures.set {
                for delta in deltas {
                    self.egui.update_texture(device, queue, *id, delta);
                }
            }
        }
        if let Some(ui) = ui.as_ref().filter(|_| self.draws_ui) {
            self.ui.prepare(
                device,
                queue,
                ui.primitives,
                [width, height],
                ui.pixels_per_point,
                ui.backdrop,
            );
            let mut pass = begin_color_pass(&mut encoder, "ui pass", target.ui, wgpu::LoadOp::Load);
            self.ui.draw(&mut pass, &self.egui);
        }
        queue.submit(std::iter::once(encoder.finish()));
        if let Some(mut ui) = ui {
            for id in &ui.textures.free {
                self.egui.free_texture(id);
            }
            // Every delta has been applied; say so (egui checks in debug builds).
            ui.textures.clear();
        }
        start.elapsed()
    }

    /// Encodes and submits a frame that only clears `target` (the baseline `bench-render`
    /// compares against). Returns the CPU time it took.
    pub fn render_clear_only(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: &wgpu::TextureView,
    ) -> std::time::Duration {
        let start = Instant::now();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("clear-only frame"),
        });
        drop(begin_color_pass(
            &mut encoder,
            "clear pass",
            target,
            wgpu::LoadOp::Clear(BACKGROUND),
        ));
        queue.submit(std::iter::once(encoder.finish()));
        start.elapsed()
    }
}

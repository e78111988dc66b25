//! One frame's UI pass, shared by the window and the headless commands: gather the
//! readouts, run the panel, tessellate, and split what the panel leaves among the panes.

use super::layout::{grid_viewports, scene_area};
use crate::live::{LiveLoop, Stopwatch};
use crate::render::{Pane, Viewport};
use crate::ui::{PanelActions, PanelModel, Readouts, lab_ui};

/// What the UI pass produced: egui's triangles and texture changes, and where each pane's
/// scene goes.
pub struct UiPass {
    /// Triangles to draw over the scene.
    pub primitives: Vec<egui::ClippedPrimitive>,
    /// Texture changes to upload before drawing.
    pub textures: egui::TexturesDelta,
    /// Cursor, clipboard and such, for the window.
    pub platform_output: egui::PlatformOutput,
    /// Physical pixels per egui point.
    pub pixels_per_point: f32,
    /// Each lane's viewport, in pane order, physical pixels.
    pub viewports: Vec<Viewport>,
}

impl UiPass {
    /// Runs the UI for `live`'s last frame on a `size` target (physical pixels).
    pub fn run<S: Stopwatch>(
        ctx: &egui::Context,
        raw_input: egui::RawInput,
        model: &mut PanelModel,
        live: &mut LiveLoop<S>,
        actions: &mut PanelActions,
        size: (u32, u32),
    ) -> Self {
        let readouts = Readouts::gather(live);
        let lanes = live.panes();
        let mut scene_rect = egui::Rect::NOTHING;
        let output = ctx.run_ui(raw_input, |ui| {
            scene_rect = lab_ui(ui, model, &readouts, lanes, actions);
        });
        let pixels_per_point = output.pixels_per_point;
        let area = scene_area(scene_rect, pixels_per_point, size);
        Self {
            primitives: ctx.tessellate(output.shapes, pixels_per_point),
            textures: output.textures_delta,
            platform_output: output.platform_output,
            pixels_per_point,
            viewports: grid_viewports(lanes.len(), area),
        }
    }
}

/// The panes to draw: each lane of `live` that has run a frame, in its viewport.
pub fn lane_panes<'a, S: Stopwatch>(
    live: &'a LiveLoop<S>,
    viewports: &[Viewport],
) -> Vec<Pane<'a>> {
    live.panes()
        .iter()
        .zip(viewports)
        .filter_map(|(lane, &viewport)| lane.pane_view().map(|view| Pane { viewport, view }))
        .collect()
}

//! One frame's UI pass, shared by the window and the headless commands: run the panel on
//! the loop's snapshot, tessellate, and place the panes it laid out on the target.

use super::viewports::{pane_viewports, scene_area};
use crate::live::Snapshot;
use crate::render::{Backdrop, PlacedView, Viewport};
use crate::ui::{PanelState, ShellStatus, UiOutput, lab_ui};

/// What the UI pass produced: egui's triangles and texture changes, where each pane's
/// scene goes, and what the person asked for.
pub struct UiPass {
    /// Triangles to draw over the scene.
    pub primitives: Vec<egui::ClippedPrimitive>,
    /// Texture changes to upload before drawing.
    pub textures: egui::TexturesDelta,
    /// Cursor, clipboard and such, for the window.
    pub platform_output: egui::PlatformOutput,
    /// Physical pixels per egui point.
    pub pixels_per_point: f32,
    /// Each pane's viewport, in pane order, physical pixels.
    pub viewports: Vec<Viewport>,
    /// The panels' background for the caller to paint, when the panel left it unfilled.
    pub backdrop: Option<Backdrop>,
    /// What the person asked for, for the caller to apply.
    pub output: UiOutput,
}

impl UiPass {
    /// Runs the UI for `snapshot` (the loop's last frame) on a `size` target (physical
    /// pixels).
    pub fn run(
        ctx: &egui::Context,
        raw_input: egui::RawInput,
        state: &mut PanelState,
        snapshot: &Snapshot<'_>,
        shell: &ShellStatus,
        size: (u32, u32),
    ) -> Self {
        let mut output: Option<UiOutput> = None;
        let full = ctx.run_ui(raw_input, |ui| {
            // egui may run a frame in several passes: keep what any pass asked for, and the
            // last pass's layout.
            let mut pass = lab_ui(ui, state, snapshot, shell);
            if let Some(earlier) = output {
                pass.actions |= earlier.actions;
                pass.settings = pass.settings.or(earlier.settings);
                pass.present_mode = pass.present_mode.or(earlier.present_mode);
                pass.session = pass.session.or(earlier.session);
                pass.ramp = pass.ramp.or(earlier.ramp);
            }
            output = Some(pass);
        });
        let output = output.expect("egui runs the UI closure at least once");
        let pixels_per_point = full.pixels_per_point;
        Self {
            primitives: ctx.tessellate(full.shapes, pixels_per_point),
            textures: full.textures_delta,
            platform_output: full.platform_output,
            pixels_per_point,
            viewports: pane_viewports(&output, pixels_per_point, size),
            backdrop: output.backdrop.map(|color| {
                let scene = scene_area(output.scene, pixels_per_point, size);
                // Whole pixels, as the panes' scissors round them.
                let (x, y, width, height) = scene.scissor();
                Backdrop {
                    color,
                    scene: [x, y, width, height],
                }
            }),
            output,
        }
    }
}

/// The panes to draw: each pane of `snapshot` that has run a frame, in its viewport.
pub fn snapshot_panes<'a>(snapshot: &Snapshot<'a>, viewports: &[Viewport]) -> Vec<PlacedView<'a>> {
    snapshot
        .panes()
        .zip(viewports)
        .filter_map(|(pane, &viewport)| pane.view.map(|view| PlacedView { viewport, view }))
        .collect()
}

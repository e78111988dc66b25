//! The whole UI of one frame ([`lab_ui`]): the side panel and what it returns, the frame
//! timeline under the scene, the pane labels and the banner over it. Each of the side
//! panel's sections is drawn in a file of its own; what they share (the frame's `Edits`,
//! the slider clamping, the alarm colour) is in `shared.rs`.

use egui::RichText;

use super::banner::banner_ui;
use super::display::display_ui;
use super::frame_stats::{frame_distribution_ui, frame_stats_ui};
use super::hands::hands_ui;
use super::help::{KEYS, help_ui};
use super::in_refreshes::in_refreshes_ui;
use super::load::{guards_ui, load_ui};
use super::pane_labels::pane_labels_ui;
use super::plots::plots_ui;
use super::ramp::ramp_ui;
use super::readouts::readouts_ui;
use super::record_replay::record_replay_ui;
use super::scene::{physics_ui, scene_ui};
use super::shared::{Edits, KEEP_GIVEN, PanelActions, PanelState, ShellStatus};
use super::shortcuts::keys_ui;
use super::strategy::{compare_ui, strategy_ui};
use super::timeline::{TimelinePane, TimelineScreen, timeline_ui};
use super::tour::tour_ui;
use crate::grid::pane_grid;
use crate::live::{LiveSettings, MAX_PANES, PresentModeId, RampRequest, Readouts, Snapshot};
use crate::tour::TourRequest;

/// Width of the side panel at start, points.
pub const PANEL_WIDTH: f32 = 330.0;
/// Narrowest the side panel can be dragged, points.
const MIN_PANEL_WIDTH: f32 = 220.0;
/// Widest the side panel can be dragged, points.
const MAX_PANEL_WIDTH: f32 = 640.0;

/// What the person asked for in one frame, returned by [`lab_ui`] for the window to apply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UiOutput {
    /// Actions (kick, reset, pause, ...).
    pub actions: PanelActions,
    /// New loop settings, when the person changed any.
    pub settings: Option<LiveSettings>,
    /// A new present mode, when the person picked one.
    pub present_mode: Option<PresentModeId>,
    /// The rectangle left for the scene, points.
    pub scene: egui::Rect,
    /// The colour the caller must fill everything outside `scene` with, when the panels
    /// were left unfilled ([`PanelState::fills_panels`] off).
    pub backdrop: Option<egui::Color32>,
    /// Each pane's rectangle, points, in pane order; the first `pane_count` are in use.
    pub panes: [egui::Rect; MAX_PANES],
    /// Panes laid out.
    pub pane_count: usize,
    /// A recording or replay request, when the person made one.
    pub session: Option<super::RecordReplayRequest>,
    /// A load ramp started or stopped, when the person asked.
    pub ramp: Option<RampRequest>,
    /// A move in the guided tour, when the person made one.
    pub tour: Option<TourRequest>,
}

impl UiOutput {
    /// The panes laid out, points, in pane order.
    pub fn pane_rects(&self) -> &[egui::Rect] {
        &self.panes[..self.pane_count.min(MAX_PANES)]
    }
}

/// The pane grid of [`crate::grid::pane_grid`] over `area`, in egui points.
pub fn grid_rects(count: usize, area: egui::Rect) -> impl Iterator<Item = egui::Rect> {
    pane_grid(count, [area.min.x, area.min.y, area.width(), area.height()])
        .map(|[x, y, w, h]| egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, h)))
}

/// Draws the whole UI for one frame from the loop's `snapshot` and the shell's `shell`,
/// and returns what the person asked for and where the scene's panes go. The scene area is
/// split among the panes with [`grid_rects`], and each comparison pane gets a label.
pub fn lab_ui(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    snapshot: &Snapshot<'_>,
    shell: &ShellStatus,
) -> UiOutput {
    let mut edits = Edits {
        settings: snapshot.settings,
        present_mode: shell.display.requested,
        actions: PanelActions::default(),
        session: None,
        ramp: None,
        tour: None,
    };
    let readouts = &snapshot.readouts;
    keys_ui(ui, state, &mut edits, readouts, shell.tour.is_some());
    let panel_fill = ui.visuals().panel_fill;
    let panel_frame = {
        let frame = egui::Frame::side_top_panel(ui.style());
        if state.fills_panels {
            frame
        } else {
            frame.fill(egui::Color32::TRANSPARENT)
        }
    };
    if state.visible {
        // Narrowed by dragging its edge; the scroll bar always shows that there is more.
        egui::Panel::left("controls")
            .frame(panel_frame)
            .resizable(true)
            .default_size(PANEL_WIDTH)
            .size_range(MIN_PANEL_WIDTH..=MAX_PANEL_WIDTH)
            .show(ui, |ui| {
                // What lies under the content is the panel's fill, painted by egui or by
                // the lab: say so, for what egui paints to match it (the scroll fades).
                let under = egui::UiBuilder::new().ui_stack_info(
                    egui::UiStackInfo::default().with_frame(egui::Frame::new().fill(panel_fill)),
                );
                ui.scope_builder(under, |ui| {
                    egui::ScrollArea::vertical()
                        .scroll_bar_visibility(
                            egui::scroll_area::ScrollBarVisibility::AlwaysVisible,
                        )
                        .show(ui, |ui| {
                            panel_contents_ui(ui, state, &mut edits, snapshot, shell);
                        });
                });
            });
    }
    if state.timeline {
        timeline_panel_ui(ui, snapshot, panel_frame);
    }
    help_ui(ui.ctx(), &mut state.help);
    let mut panes = [egui::Rect::NOTHING; MAX_PANES];
    let pane_count = readouts.pane_count.min(MAX_PANES);
    let scene = egui::CentralPanel::no_frame()
        .show(ui, |ui| {
            let scene = ui.max_rect();
            for (slot, rect) in panes.iter_mut().zip(grid_rects(pane_count, scene)) {
                *slot = rect;
            }
            // With no room left for the scene there is nothing to label.
            if pane_count > 1 && scene.width() >= 1.0 && scene.height() >= 1.0 {
                pane_labels_ui(ui, &mut edits.settings, readouts, &panes[..pane_count]);
            }
            banner_ui(ui, scene, state, &mut edits, readouts);
            scene
        })
        .inner;
    // Any way into the tour takes the first run's offer.
    if edits.tour.is_some() {
        state.tour_offer = false;
    }
    UiOutput {
        actions: edits.actions,
        settings: (edits.settings != snapshot.settings).then_some(edits.settings),
        present_mode: (edits.present_mode != shell.display.requested).then_some(edits.present_mode),
        scene,
        backdrop: (!state.fills_panels).then_some(panel_fill),
        panes,
        pane_count,
        session: edits.session,
        ramp: edits.ramp,
        tour: edits.tour,
    }
}

/// The frame timeline under the scene, detailing the focused pane.
fn timeline_panel_ui(ui: &mut egui::Ui, snapshot: &Snapshot<'_>, frame: egui::Frame) {
    let Some(dt) = snapshot.focus().map(|pane| pane.dt) else {
        return;
    };
    let timeline: Vec<TimelinePane<'_>> = snapshot
        .panes()
        .map(|pane| TimelinePane {
            strategy: pane.strategy,
            history: pane.history,
        })
        .collect();
    egui::Panel::bottom("timeline")
        .frame(frame)
        .resizable(false)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new("Frame timeline").strong());
                ui.small(
                    "the last 0.5 s, at least 30 frames, to scale · hover a frame for its numbers",
                );
            });
            let screen = TimelineScreen {
                refreshes: snapshot.refreshes,
                model: snapshot.readouts.screen.model,
                measured: snapshot
                    .measured
                    .map(|measured| (measured.shown(), measured.source())),
                display_times: snapshot.readouts.screen.display_times,
            };
            timeline_ui(ui, &timeline, screen, snapshot.readouts.focus, dt);
        });
}

/// Everything inside the side panel.
fn panel_contents_ui(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    edits: &mut Edits,
    snapshot: &Snapshot<'_>,
    shell: &ShellStatus,
) {
    let display = &shell.display;
    ui.horizontal(|ui| {
        ui.heading("timestep-lab");
        if ui
            .button("? keys & concepts")
            .on_hover_text("Every shortcut and what the numbers mean (? or F1)")
            .clicked()
        {
            state.help = !state.help;
        }
        if shell.tour.is_none()
            && ui
                .button("Tour")
                .on_hover_text(
                    "A guided tour of \"Fix Your Timestep!\" and engine stutter, each claim \
                     measured live (G)",
                )
                .clicked()
        {
            edits.tour = Some(TourRequest::Start);
        }
    });
    if !display.adapter.is_empty() {
        ui.small(&display.adapter);
    }
    let (drawing, why) = &display.drawing;
    if !drawing.is_empty() {
        ui.small(format!("drawn with {drawing}"))
            .on_hover_text(why.as_str());
    }
    ui.separator();
    tour_ui(ui, shell.tour.as_ref(), &mut state.tour_offer, edits);
    let readouts = &snapshot.readouts;
    let settings = &mut edits.settings;
    if settings.compare {
        compare_ui(ui, settings);
    } else {
        strategy_ui(ui, settings);
    }
    ui.horizontal(|ui| {
        let mut compare = settings.compare;
        if ui.checkbox(&mut compare, "compare panes (C)").changed() {
            settings.set_compare(compare);
        }
        ui.checkbox(&mut state.timeline, "timeline (T)");
    });
    ui.separator();
    time_ui(ui, settings, readouts, &mut edits.actions);
    record_replay_ui(ui, &shell.session, &mut edits.session);
    // What people do first: the load that makes the stutter and the spiral, and the guards
    // that stop it; then the numbers, then the plots and the rest.
    let replaying = shell.session.replay.is_some();
    egui::CollapsingHeader::new("Artificial load")
        .default_open(true)
        .show(ui, |ui| {
            load_ui(ui, &mut edits.settings);
            ramp_ui(
                ui,
                &mut state.ramp,
                snapshot.ramp,
                !replaying,
                &mut edits.ramp,
            );
        });
    let settings = &mut edits.settings;
    egui::CollapsingHeader::new("Spiral guards")
        .default_open(true)
        .show(ui, |ui| guards_ui(ui, settings));
    ui.separator();
    readouts_ui(ui, readouts);
    egui::CollapsingHeader::new("At the screen, in refreshes*")
        .default_open(false)
        .show(ui, |ui| in_refreshes_ui(ui, readouts));
    egui::CollapsingHeader::new("Frame statistics")
        .default_open(true)
        .show(ui, |ui| {
            frame_stats_ui(ui, &mut state.stats_window, &readouts.frame_stats);
        });
    if let Some(pane) = snapshot.focus() {
        let window = state.stats_window;
        egui::CollapsingHeader::new("Plots")
            .default_open(true)
            .show(ui, |ui| {
                plots_ui(ui, pane.history, pane.dt);
                frame_distribution_ui(
                    ui,
                    window,
                    &snapshot.frame_spans.frames(window),
                    readouts.frame_stats.get(window),
                );
            });
    }
    let settings = &mut edits.settings;
    egui::CollapsingHeader::new("Scene")
        .default_open(true)
        .show(ui, |ui| scene_ui(ui, settings));
    egui::CollapsingHeader::new("Player and input")
        .default_open(true)
        .show(ui, |ui| hands_ui(ui, settings, readouts));
    egui::CollapsingHeader::new("Physics")
        .default_open(true)
        .show(ui, |ui| physics_ui(ui, settings));
    egui::CollapsingHeader::new("Display")
        .default_open(true)
        .show(ui, |ui| display_ui(ui, edits, display, &readouts.screen));
    egui::CollapsingHeader::new("Keys")
        .default_open(false)
        .show(ui, |ui| {
            for (keys, what) in KEYS {
                ui.small(format!("{keys}: {what}"));
            }
        });
    ui.separator();
    if ui
        .button("Restore defaults")
        .on_hover_text(
            "Every setting and the present mode back to the defaults. Settings are saved \
             when the window closes and restored when it opens (--no-config ignores them).",
        )
        .clicked()
    {
        edits.settings = LiveSettings::default();
        edits.present_mode = PresentModeId::default();
    }
}

/// Time scale, pause, single step, kick, reset.
fn time_ui(
    ui: &mut egui::Ui,
    settings: &mut LiveSettings,
    readouts: &Readouts,
    actions: &mut PanelActions,
) {
    ui.add(
        egui::Slider::new(&mut settings.time_scale, 0.05..=2.0)
            .clamping(KEEP_GIVEN)
            .logarithmic(true)
            .text("time scale"),
    );
    ui.horizontal(|ui| {
        let pause = if readouts.paused {
            "Resume (P)"
        } else {
            "Pause (P)"
        };
        actions.toggle_pause |= ui.button(pause).clicked();
        actions.single_step |= ui.button("Step (.)").clicked();
        actions.kick |= ui.button("Kick (Space)").clicked();
        actions.reset |= ui.button("Reset (R)").clicked();
    });
}

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
                            panel_contents_ui(
                                ui,
                                &mut SectionInput {
                                    state,
                                    edits: &mut edits,
                                    snapshot,
                                    shell,
                                },
                            );
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

/// What every section of the side panel is given: one shape for all of them.
struct SectionInput<'s, 'a> {
    /// What the panel remembers between frames.
    state: &'s mut PanelState,
    /// The frame's edits, returned as requests.
    edits: &'s mut Edits,
    /// The loop after its last frame.
    snapshot: &'s Snapshot<'a>,
    /// What the shell says of the display, the recording and the tour.
    shell: &'s ShellStatus,
}

/// One section of the side panel.
struct Section {
    /// A rule drawn above it.
    rule_above: bool,
    /// Its header and whether it starts open, when it folds away; `None`: drawn as is.
    fold: Option<(&'static str, bool)>,
    /// Whether it is shown this frame (most always are).
    shown: fn(&SectionInput<'_, '_>) -> bool,
    /// Draws it.
    draw: fn(&mut egui::Ui, &mut SectionInput<'_, '_>),
}

impl Section {
    /// A section drawn as is, always shown.
    const fn plain(draw: fn(&mut egui::Ui, &mut SectionInput<'_, '_>)) -> Self {
        Self {
            rule_above: false,
            fold: None,
            shown: |_| true,
            draw,
        }
    }

    /// A section under a header that folds it away, open at first when `open`.
    const fn folding(
        title: &'static str,
        open: bool,
        draw: fn(&mut egui::Ui, &mut SectionInput<'_, '_>),
    ) -> Self {
        Self {
            fold: Some((title, open)),
            ..Self::plain(draw)
        }
    }

    /// The section with a rule above it.
    const fn ruled(self) -> Self {
        Self {
            rule_above: true,
            ..self
        }
    }
}

/// The side panel, top to bottom. What people do first (the load that makes the stutter
/// and the spiral, and the guards that stop it) comes first; then the numbers, then the
/// plots and the rest.
const SECTIONS: [Section; 17] = [
    Section::plain(title_ui),
    Section::plain(|ui, input| {
        let tour = input.shell.tour.as_ref();
        tour_ui(ui, tour, &mut input.state.tour_offer, input.edits);
    })
    .ruled(),
    Section::plain(|ui, input| strategies_ui(ui, &mut input.edits.settings, input.state)),
    Section::plain(|ui, input| {
        let edits = &mut *input.edits;
        time_ui(
            ui,
            &mut edits.settings,
            &input.snapshot.readouts,
            &mut edits.actions,
        );
    })
    .ruled(),
    Section::plain(|ui, input| {
        record_replay_ui(ui, &input.shell.session, &mut input.edits.session);
    }),
    Section::folding("Artificial load", true, |ui, input| {
        load_ui(ui, &mut input.edits.settings);
        let replaying = input.shell.session.replay.is_some();
        let ramp = input.snapshot.ramp;
        ramp_ui(
            ui,
            &mut input.state.ramp,
            ramp,
            !replaying,
            &mut input.edits.ramp,
        );
    }),
    Section::folding("Spiral guards", true, |ui, input| {
        guards_ui(ui, &mut input.edits.settings);
    }),
    Section::plain(|ui, input| readouts_ui(ui, &input.snapshot.readouts)).ruled(),
    Section::folding("At the screen, in refreshes*", false, |ui, input| {
        in_refreshes_ui(ui, &input.snapshot.readouts);
    }),
    Section::folding("Frame statistics", true, |ui, input| {
        let stats = &input.snapshot.readouts.frame_stats;
        frame_stats_ui(ui, &mut input.state.stats_window, stats);
    }),
    Section {
        shown: |input| input.snapshot.focus().is_some(),
        ..Section::folding("Plots", true, plots_section_ui)
    },
    Section::folding("Scene", true, |ui, input| {
        scene_ui(ui, &mut input.edits.settings)
    }),
    Section::folding("Player and input", true, |ui, input| {
        hands_ui(ui, &mut input.edits.settings, &input.snapshot.readouts);
    }),
    Section::folding("Physics", true, |ui, input| {
        physics_ui(ui, &mut input.edits.settings);
    }),
    Section::folding("Display", true, |ui, input| {
        let screen = &input.snapshot.readouts.screen;
        display_ui(ui, input.edits, &input.shell.display, screen);
    }),
    Section::folding("Keys", false, |ui, _| {
        for (keys, what) in KEYS {
            ui.small(format!("{keys}: {what}"));
        }
    }),
    Section::plain(restore_defaults_ui).ruled(),
];

/// Everything inside the side panel: [`SECTIONS`], each shown where it applies.
fn panel_contents_ui(ui: &mut egui::Ui, input: &mut SectionInput<'_, '_>) {
    for section in &SECTIONS {
        if !(section.shown)(input) {
            continue;
        }
        if section.rule_above {
            ui.separator();
        }
        match section.fold {
            Some((title, open)) => {
                egui::CollapsingHeader::new(title)
                    .default_open(open)
                    .show(ui, |ui| (section.draw)(ui, input));
            }
            None => (section.draw)(ui, input),
        }
    }
}

/// The panel's title row (the overlay and the tour), the adapter and how it draws.
fn title_ui(ui: &mut egui::Ui, input: &mut SectionInput<'_, '_>) {
    let (state, edits, shell) = (&mut *input.state, &mut *input.edits, input.shell);
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
    let display = &shell.display;
    if !display.adapter.is_empty() {
        ui.small(&display.adapter);
    }
    let (drawing, why) = &display.drawing;
    if !drawing.is_empty() {
        ui.small(format!("drawn with {drawing}"))
            .on_hover_text(why.as_str());
    }
}

/// The strategy (or the comparison's panes), and the compare and timeline switches.
fn strategies_ui(ui: &mut egui::Ui, settings: &mut LiveSettings, state: &mut PanelState) {
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
}

/// The focused pane's plots and the frame-time distribution over the statistics' span.
fn plots_section_ui(ui: &mut egui::Ui, input: &mut SectionInput<'_, '_>) {
    let snapshot = input.snapshot;
    let Some(pane) = snapshot.focus() else {
        return;
    };
    let window = input.state.stats_window;
    plots_ui(ui, pane.history, pane.dt);
    frame_distribution_ui(
        ui,
        window,
        &snapshot.frame_spans.frames(window),
        snapshot.readouts.frame_stats.get(window),
    );
}

/// Every setting and the present mode back to the defaults.
fn restore_defaults_ui(ui: &mut egui::Ui, input: &mut SectionInput<'_, '_>) {
    if ui
        .button("Restore defaults")
        .on_hover_text(
            "Every setting and the present mode back to the defaults. Settings are saved \
             when the window closes and restored when it opens (--no-config ignores them).",
        )
        .clicked()
    {
        input.edits.settings = LiveSettings::default();
        input.edits.present_mode = PresentModeId::default();
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

//! The side panel: controls, readouts, plots; the banner; keyboard shortcuts.

use egui::{Color32, Key, RichText};

use super::banner::banner_ui;
use super::frame_stats::{frame_distribution_ui, frame_stats_ui};
use super::help::{KEYS, help_ui};
use super::plots::plots_ui;
use super::timeline::{TimelinePane, TimelineScreen, timeline_ui};
use crate::display::DisplaySpec;
use crate::layout::pane_grid;
use crate::live::{
    ASSUMED_REFRESH_HZ, LiveSettings, MAX_PANES, PaneReadout, PresentModeId, Readouts,
    RefreshSource, ScenePreset, ScreenReadouts, Snapshot, StatsWindow,
};
use crate::scene::{CameraDriver, Integrator};
use crate::timestep::{
    DEFAULT_MAX_FRAME_TIME, EnginePreset, FilterSpec, MAX_AVERAGE_FRAMES, RATE_PRESETS_HZ,
    Strategy, ms_from_ns,
};

/// Width of the side panel at start, points.
pub const PANEL_WIDTH: f32 = 330.0;
/// Narrowest the side panel can be dragged, points.
const MIN_PANEL_WIDTH: f32 = 220.0;
/// Widest the side panel can be dragged, points.
const MAX_PANEL_WIDTH: f32 = 640.0;

/// Sliders keep a value given on the command line even when it lies outside their range
/// (the range is what is comfortable to drag, not what is allowed); edits stay inside it.
const KEEP_GIVEN: egui::SliderClamping = egui::SliderClamping::Edits;

/// Outline of the focused comparison pane.
const FOCUS: Color32 = Color32::from_rgb(240, 160, 60);

/// Colour of alarms (spiral, explosion).
pub(super) const ALARM: Color32 = Color32::from_rgb(200, 40, 40);

/// What the panel itself remembers between frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PanelState {
    /// Whether the side panel is shown (H toggles).
    pub visible: bool,
    /// Whether the frame timeline is shown under the scene (T toggles).
    pub timeline: bool,
    /// Whether the person turned the slow-loop offer down.
    pub slow_offer_dismissed: bool,
    /// Whether the key and concept overlay is open (? or F1 toggles).
    pub help: bool,
    /// The window the frame statistics and their plots are over.
    pub stats_window: StatsWindow,
}

impl Default for PanelState {
    fn default() -> Self {
        Self {
            visible: true,
            timeline: true,
            slow_offer_dismissed: false,
            help: false,
            stats_window: StatsWindow::default(),
        }
    }
}

/// The display as the window knows it, for the panel to show: plain values the window
/// owns and passes down each frame.
#[derive(Clone, Debug, PartialEq)]
pub struct DisplayStatus {
    /// The GPU adapter, in words.
    pub adapter: String,
    /// Present modes the surface reports (concrete ones).
    pub offered: Vec<PresentModeId>,
    /// The present mode asked for (may be an `auto-*` one).
    pub requested: PresentModeId,
    /// The mode the surface is configured with now.
    pub active: Option<PresentModeId>,
    /// The recording or replay the window runs.
    pub session: super::SessionStatus,
}

impl Default for DisplayStatus {
    fn default() -> Self {
        Self {
            adapter: String::new(),
            offered: vec![PresentModeId::Fifo],
            requested: PresentModeId::default(),
            active: None,
            session: super::SessionStatus::default(),
        }
    }
}

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
    /// Each pane's rectangle, points, in pane order; the first `pane_count` are in use.
    pub panes: [egui::Rect; MAX_PANES],
    /// Panes laid out.
    pub pane_count: usize,
    /// A recording or replay request, when the person made one.
    pub session: Option<super::SessionRequest>,
}

impl UiOutput {
    /// The panes laid out, points, in pane order.
    pub fn pane_rects(&self) -> &[egui::Rect] {
        &self.panes[..self.pane_count.min(MAX_PANES)]
    }
}

/// The pane grid of [`crate::layout::pane_grid`] over `area`, in egui points.
pub fn grid_rects(count: usize, area: egui::Rect) -> impl Iterator<Item = egui::Rect> {
    pane_grid(count, [area.min.x, area.min.y, area.width(), area.height()])
        .map(|[x, y, w, h]| egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, h)))
}

/// What the person asked for this frame, besides settings edits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PanelActions {
    /// Kick the spring (Space).
    pub kick: bool,
    /// Reset the scene (R).
    pub reset: bool,
    /// Pause or resume (P).
    pub toggle_pause: bool,
    /// Advance one frame while paused (.).
    pub single_step: bool,
    /// Toggle fullscreen (F11).
    pub toggle_fullscreen: bool,
    /// Close the window (Esc).
    pub quit: bool,
}

impl std::ops::BitOrAssign for PanelActions {
    /// Adds the actions of a later frame (for a caller that applies several frames at once).
    fn bitor_assign(&mut self, other: Self) {
        self.kick |= other.kick;
        self.reset |= other.reset;
        self.toggle_pause |= other.toggle_pause;
        self.single_step |= other.single_step;
        self.toggle_fullscreen |= other.toggle_fullscreen;
        self.quit |= other.quit;
    }
}

/// The values one frame of the panel edits: copies of what is in force, returned as
/// requests when they differ.
pub(super) struct Edits {
    /// The loop's settings.
    pub(super) settings: LiveSettings,
    /// The present mode asked for.
    pub(super) present_mode: PresentModeId,
    /// Actions.
    pub(super) actions: PanelActions,
    /// A recording or replay request.
    pub(super) session: Option<super::SessionRequest>,
}

/// Draws the whole UI for one frame from the loop's `snapshot` and the window's `display`,
/// and returns what the person asked for and where the scene's panes go. The scene area is
/// split among the panes with [`grid_rects`], and each comparison pane gets a label.
pub fn lab_ui(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    snapshot: &Snapshot<'_>,
    display: &DisplayStatus,
) -> UiOutput {
    let mut edits = Edits {
        settings: snapshot.settings,
        present_mode: display.requested,
        actions: PanelActions::default(),
        session: None,
    };
    let readouts = &snapshot.readouts;
    keys_ui(ui, state, &mut edits, readouts);
    if state.visible {
        // Narrowed by dragging its edge; the scroll bar always shows that there is more.
        egui::Panel::left("controls")
            .resizable(true)
            .default_size(PANEL_WIDTH)
            .size_range(MIN_PANEL_WIDTH..=MAX_PANEL_WIDTH)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                    .show(ui, |ui| {
                        panel_contents_ui(ui, state, &mut edits, snapshot, display);
                    });
            });
    }
    if state.timeline {
        timeline_panel_ui(ui, snapshot);
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
    UiOutput {
        actions: edits.actions,
        settings: (edits.settings != snapshot.settings).then_some(edits.settings),
        present_mode: (edits.present_mode != display.requested).then_some(edits.present_mode),
        scene,
        panes,
        pane_count,
        session: edits.session,
    }
}

/// The frame timeline under the scene, detailing the focused pane.
fn timeline_panel_ui(ui: &mut egui::Ui, snapshot: &Snapshot<'_>) {
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
            };
            timeline_ui(ui, &timeline, screen, snapshot.readouts.focus, dt);
        });
}

/// Each comparison pane's label (strategy, latency, judder, steps per frame) in its top
/// left corner; the focused pane is outlined, and clicking a pane focuses it.
fn pane_labels_ui(
    ui: &mut egui::Ui,
    settings: &mut LiveSettings,
    readouts: &Readouts,
    rects: &[egui::Rect],
) {
    for (i, &rect) in rects.iter().enumerate() {
        let pane = &readouts.panes[i];
        let focused = i == readouts.focus;
        let response = ui.interact(
            rect,
            ui.make_persistent_id(("comparison pane", i)),
            egui::Sense::click(),
        );
        if response.clicked() {
            settings.focus = i;
        }
        let stroke = if focused {
            egui::Stroke::new(2.0, FOCUS)
        } else {
            egui::Stroke::new(1.0, Color32::from_gray(70))
        };
        ui.painter_at(rect)
            .rect_stroke(rect.shrink(1.0), 0.0, stroke, egui::StrokeKind::Inside);
        let fill = if pane.spiral || pane.exploded {
            ALARM
        } else {
            Color32::from_black_alpha(170)
        };
        let mut label_ui = ui.new_child(egui::UiBuilder::new().max_rect(rect.shrink(6.0)));
        egui::Frame::new()
            .fill(fill)
            .corner_radius(3.0)
            .inner_margin(4.0)
            .show(&mut label_ui, |ui| {
                ui.label(
                    RichText::new(pane_label(i, pane))
                        .monospace()
                        .size(12.0)
                        .color(Color32::from_gray(235)),
                );
            });
    }
}

/// The text of pane `index`'s label.
fn pane_label(index: usize, pane: &PaneReadout) -> String {
    let strategy = pane.strategy.map_or("", |s| s.id());
    let mut label = format!(
        "{} {strategy}\nlatency {:.1} ms  judder {:.2} ms\nat the screen* {:.1} ms  {:.2} ms\nsteps {} now, {:.2}/frame",
        index + 1,
        pane.latency_ms,
        pane.judder_ms,
        pane.display_latency_ms,
        pane.display_judder_ms,
        pane.steps_now,
        pane.steps_mean,
    );
    if pane.spiral {
        label.push_str("\nSPIRAL");
    }
    if pane.exploded {
        label.push_str("\nEXPLODED");
    }
    label
}

/// The keyboard shortcuts.
fn keys_ui(ui: &mut egui::Ui, state: &mut PanelState, edits: &mut Edits, readouts: &Readouts) {
    // Typing a value into a field (a slider's number) is not a shortcut.
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    let popup_open = egui::Popup::is_any_open(ui.ctx());
    ui.input(|input| {
        // A key held down repeats; a shortcut acts once per press.
        let pressed = |wanted: Key| {
            input.events.iter().any(|event| {
                matches!(
                    event,
                    egui::Event::Key { key, pressed: true, repeat: false, .. } if *key == wanted
                )
            })
        };
        for (i, strategy) in Strategy::ALL.into_iter().enumerate() {
            let key = strategy
                .key()
                .and_then(|key| Key::from_name(key.encode_utf8(&mut [0; 4])));
            if key.is_some_and(pressed) {
                // Comparing, a number focuses that pane; otherwise it picks the strategy.
                if !edits.settings.compare {
                    edits.settings.strategy = strategy;
                } else if i < readouts.pane_count {
                    edits.settings.focus = i;
                }
            }
        }
        if pressed(Key::C) {
            let compare = !edits.settings.compare;
            edits.settings.set_compare(compare);
        }
        if pressed(Key::T) {
            state.timeline = !state.timeline;
        }
        let actions = &mut edits.actions;
        actions.toggle_pause |= pressed(Key::P);
        actions.single_step |= pressed(Key::Period);
        actions.kick |= pressed(Key::Space);
        actions.reset |= pressed(Key::R);
        actions.toggle_fullscreen |= pressed(Key::F11);
        if pressed(Key::F1) || pressed(Key::Questionmark) {
            state.help = !state.help;
        }
        // Esc first closes an open drop-down or the overlay; only then does it quit.
        let escape = pressed(Key::Escape);
        actions.quit |= escape && !popup_open && !state.help;
        if escape && !popup_open {
            state.help = false;
        }
        if pressed(Key::H) {
            state.visible = !state.visible;
        }
    });
}

/// Everything inside the side panel.
fn panel_contents_ui(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    edits: &mut Edits,
    snapshot: &Snapshot<'_>,
    display: &DisplayStatus,
) {
    ui.horizontal(|ui| {
        ui.heading("timestep-lab");
        if ui
            .button("? keys & concepts")
            .on_hover_text("Every shortcut and what the numbers mean (? or F1)")
            .clicked()
        {
            state.help = !state.help;
        }
    });
    if !display.adapter.is_empty() {
        ui.small(&display.adapter);
    }
    ui.separator();
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
    super::session::session_ui(ui, &display.session, &mut edits.session);
    // What people do first: the load that makes the stutter and the spiral, and the guards
    // that stop it; then the numbers, then the plots and the rest.
    let settings = &mut edits.settings;
    egui::CollapsingHeader::new("Artificial load")
        .default_open(true)
        .show(ui, |ui| load_ui(ui, settings));
    egui::CollapsingHeader::new("Spiral guards")
        .default_open(true)
        .show(ui, |ui| guards_ui(ui, settings));
    ui.separator();
    readouts_ui(ui, readouts);
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
                    &snapshot.frame_windows.frames(window),
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
        .show(ui, |ui| super::hands::hands_ui(ui, settings, readouts));
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

/// Strategy choice (the lab's strategies, then an engine's own loop), with its known problem.
fn strategy_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    ui.label(RichText::new("Strategy").strong());
    for strategy in Strategy::ALL {
        let key = strategy.key().unwrap_or(' ');
        ui.radio_value(
            &mut settings.strategy,
            strategy,
            format!("{key} {}  ({})", strategy.id(), strategy.name()),
        );
    }
    ui.horizontal(|ui| {
        let mut chosen = settings.strategy;
        let selected = chosen.preset().map_or("none", |preset| preset.id());
        egui::ComboBox::from_id_salt("engine preset")
            .selected_text(selected)
            .width(150.0)
            .height(400.0)
            .show_ui(ui, |ui| {
                for preset in EnginePreset::ALL {
                    ui.selectable_value(&mut chosen, Strategy::Preset(preset), preset.id())
                        .on_hover_text(preset.name());
                }
            })
            .response
            .on_hover_text("an engine's own loop, with its own step and guards")
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, "engine preset"));
        settings.strategy = chosen;
        ui.label("engine's own loop");
    });
    known_problem_ui(ui, settings.strategy);
}

/// A strategy's known problem in two lines' room, so that choosing another never moves the
/// rows below.
fn known_problem_ui(ui: &mut egui::Ui, strategy: Strategy) {
    let height = 2.0 * ui.text_style_height(&egui::TextStyle::Small);
    let width = ui.available_width();
    ui.allocate_ui_with_layout(
        egui::vec2(width, height),
        egui::Layout::top_down(egui::Align::Min),
        |ui| {
            ui.set_min_size(egui::vec2(width, height));
            ui.small(strategy.known_problem());
        },
    );
}

/// The comparison panes: each one's strategy, which one is focused, and how many.
fn compare_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    ui.label(RichText::new("Comparison panes").strong());
    ui.small("every pane gets the same frame times, load and kicks");
    let focus = settings.focus_index();
    let mut panes = settings.panes;
    for (i, &strategy) in settings.panes.as_slice().iter().enumerate() {
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt(("pane strategy", i))
                .selected_text(strategy.id())
                .width(150.0)
                .height(560.0)
                .show_ui(ui, |ui| {
                    // The lab's strategies, then the engines' own loops.
                    for choice in Strategy::CHOICES {
                        if choice == Strategy::Preset(EnginePreset::ALL[0]) {
                            ui.separator();
                            ui.label(RichText::new("engine presets").small().weak());
                        }
                        if ui
                            .selectable_label(choice == strategy, choice.id())
                            .on_hover_text(choice.name())
                            .clicked()
                        {
                            panes.set(i, choice);
                        }
                    }
                })
                .response
                .widget_info(|| {
                    egui::WidgetInfo::labeled(
                        egui::Role::ComboBox,
                        true,
                        format!("pane {} strategy", i + 1),
                    )
                });
            ui.label(format!("pane {}", i + 1));
            if ui
                .radio(i == focus, "focus")
                .on_hover_text(
                    "the load costs this pane's steps; the readouts, plots and timeline show it",
                )
                .clicked()
            {
                settings.focus = i;
            }
        });
    }
    ui.horizontal(|ui| {
        if ui
            .add_enabled(
                panes.len() < crate::live::MAX_PANES,
                egui::Button::new("+ pane"),
            )
            .clicked()
        {
            panes.add();
        }
        if ui
            .add_enabled(
                panes.len() > crate::live::MIN_COMPARE_PANES,
                egui::Button::new("- pane"),
            )
            .clicked()
        {
            panes.remove_last();
        }
        ui.small("adding or removing restarts all panes");
    });
    settings.panes = panes;
    settings.focus = settings.focus_index();
    known_problem_ui(ui, settings.panes.as_slice()[settings.focus_index()]);
}

/// Scene presets and what to look for in the one in force.
fn scene_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    ui.horizontal_wrapped(|ui| {
        for preset in ScenePreset::ALL {
            if ui
                .selectable_label(preset.matches(settings), preset.name())
                .clicked()
            {
                preset.apply(settings);
            }
        }
    });
    if let Some(preset) = ScenePreset::ALL.into_iter().find(|p| p.matches(settings)) {
        ui.small(preset.advice());
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

/// The live numbers.
fn readouts_ui(ui: &mut egui::Ui, r: &Readouts) {
    let w = &r.window;
    egui::Grid::new("readouts")
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            let mut row = |name: &str, value: String, help: &str| {
                ui.label(name).on_hover_text(help);
                ui.monospace(value).on_hover_text(help);
                ui.end_row();
            };
            row(
                "fps / presents",
                format!("{:.1} / {:.1} Hz", w.fps, r.present_rate_hz),
                "Render frames per second over the last second, and frames handed to the \
                 display per second (measured).",
            );
            row(
                "frame p50 / p99",
                format!(
                    "{} / {} ms",
                    ms(w.frame_time_p50_ms),
                    ms(w.frame_time_p99_ms)
                ),
                "Median and 99th-percentile real frame time over the last second.",
            );
            row(
                "steps now / mean / max",
                format!(
                    "{} / {:.2} / {}",
                    r.steps_this_frame, w.steps_mean, w.steps_max
                ),
                "Physics steps the last frame took, and their mean and maximum per frame \
                 over the last second.",
            );
            row(
                "alpha",
                format!("{:.3}", r.alpha),
                "Carried time over dt after the last frame's steps: how far between its \
                 last two states interpolation draws (0 for strategies without an \
                 accumulator).",
            );
            row(
                "sim speed",
                format!("{:.3}x", w.sim_speed),
                "Simulated time advanced over real time elapsed in the last second. Below 1 \
                 the game runs slow: a step cap or the frame-time clamp dropping time, or \
                 the time scale.",
            );
            row(
                "simulated / presented",
                format!("{:.2} / {:.2} s", r.sim_time_s, r.real_time_s),
                "Simulated time of the latest state, and the real time presented so far \
                 (frame times after the guards; dropped time excluded).",
            );
            row(
                "owed / carried",
                format!("{} / {} ms", ms(r.owed_ms), ms(r.accumulator_ms)),
                "Time the last frame had to simulate (carried time plus its frame time), \
                 and the time left over for the next frame (the accumulator).",
            );
            row(
                "dropped / resynced",
                format!("{:.3} / {:+.3} s", r.dropped_total_s, r.resynced_s),
                "Real time thrown away by the spiral guards since the start; and how far \
                 real time was moved to meet the simulation on leaving fixed (negative: \
                 fixed had fallen behind and that time was let go), so the strategy switched \
                 to starts in step instead of inheriting fixed's drift.",
            );
            row(
                "latency",
                format!("{:.2} ms", w.latency_ms),
                "Mean T - S over the last second: how far the drawn state is behind real \
                 time on the CPU's clock. Interpolation adds one dt.",
            );
            row(
                "judder",
                format!("{:.3} ms", w.judder_ms),
                "RMS of (S_i - S_i-1) - (T_i - T_i-1): how unevenly the drawn motion advances \
                 against the frame times. 0 is even motion; this is the stutter.",
            );
            row(
                "screen latency*",
                format!("{:.2} ms", w.display_latency_ms),
                "Mean D - S over frames shown on the modeled screen: how old the drawn state \
                 is when its image reaches the screen.",
            );
            row(
                "screen judder*",
                format!("{:.3} ms", w.display_judder_ms),
                "RMS animation error (S_i - S_j) - (D_i - D_j) over frames shown, j the \
                 previous shown one: PresentMon's MsAnimationError. Vsync wobble shows here \
                 and not in the judder above.",
            );
            let screen = &r.screen;
            row(
                "new / repeated*",
                format!(
                    "{:.1} / {:.0} per s",
                    screen.shown_fps, screen.repeated_per_s
                ),
                "New images and refreshes that showed the previous image again, per second, \
                 on the modeled screen.",
            );
            // Rows never come and go: the ones below stay under the cursor.
            row(
                "dropped / torn*",
                format!("{} / {:.0} per s", w.dropped_frames, screen.torn_per_s),
                "Frames rendered but replaced before a refresh showed them (mailbox), and \
                 refreshes torn by an image arriving mid-scan (immediate).",
            );
            row(
                "energy drift",
                format!("{:+.4}", r.energy_drift),
                "(E - E_true) / E_0 of the spring: positive gains energy (explicit Euler \
                 explodes this way), negative loses it.",
            );
            row(
                "load carried",
                format!("{:.1} ms", r.carried_load_ms),
                "Artificial load beyond what one frame busy-waits (250 ms), added to the \
                 next frame's time so the window stays responsive.",
            );
        });
    ui.small(format!(
        "* at the screen, modeled: {} ({}). wgpu reports no present times.",
        screen_model(&r.screen),
        refresh_source(r.screen.refresh_source)
    ));
}

/// What a present mode does, for its tooltip.
fn present_mode_help(mode: PresentModeId) -> &'static str {
    match mode {
        PresentModeId::Fifo => {
            "Vsync: each image waits for a refresh in a queue; when the queue is full the \
             loop blocks, so it runs at the refresh rate. Never tears."
        }
        PresentModeId::FifoRelaxed => {
            "Vsync, but an image that misses its refresh is shown at once (may tear) \
             instead of waiting a whole refresh."
        }
        PresentModeId::Mailbox => {
            "Vsync without blocking: each refresh shows the newest image; older waiting \
             ones are dropped. Low latency, no tearing."
        }
        PresentModeId::Immediate => {
            "No vsync: each image is shown at once, tearing the refresh being scanned out."
        }
        PresentModeId::AutoVsync => "Vsync with the best mode offered: fifo-relaxed, else fifo.",
        PresentModeId::AutoNoVsync => {
            "No vsync with the best mode offered: immediate, else mailbox, else fifo."
        }
    }
}

/// The screen model in words, e.g. "FIFO 60 Hz, 2 queued".
fn screen_model(screen: &ScreenReadouts) -> String {
    match screen.model {
        DisplaySpec::Fifo { refresh, queue } => {
            format!("FIFO {} Hz, {queue} in flight", trim_hz(refresh.hz()))
        }
        DisplaySpec::Mailbox { refresh } => format!("mailbox {} Hz", trim_hz(refresh.hz())),
        DisplaySpec::Immediate { refresh } => {
            format!("immediate on {} Hz", trim_hz(refresh.hz()))
        }
        other => other.to_string(),
    }
}

/// Where the modeled refresh rate comes from, in words.
fn refresh_source(source: RefreshSource) -> &'static str {
    match source {
        RefreshSource::Monitor => "the monitor's rate",
        RefreshSource::Override => "rate set in Display",
        RefreshSource::Assumed => "assumed: the monitor reports no rate",
    }
}

/// A refresh rate without needless decimals.
fn trim_hz(hz: f64) -> String {
    let text = format!("{hz:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Physics rate, integrator, spring, camera driver.
fn physics_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    ui.add(
        egui::Slider::new(&mut settings.rate_hz, 1.0..=1000.0)
            .clamping(KEEP_GIVEN)
            .logarithmic(true)
            .suffix(" Hz")
            .text("physics rate"),
    );
    ui.horizontal_wrapped(|ui| {
        for preset in RATE_PRESETS_HZ {
            if ui
                .selectable_label(settings.rate_hz == preset, format!("{preset}"))
                .clicked()
            {
                settings.rate_hz = preset;
            }
        }
    });
    egui::ComboBox::from_label("integrator")
        .selected_text(settings.integrator.id())
        .show_ui(ui, |ui| {
            for integrator in Integrator::ALL {
                ui.selectable_value(&mut settings.integrator, integrator, integrator.id());
            }
        });
    ui.add(
        egui::Slider::new(&mut settings.spring_hz, 0.05..=50.0)
            .clamping(KEEP_GIVEN)
            .logarithmic(true)
            .suffix(" Hz")
            .text("spring stiffness"),
    );
    ui.add(
        egui::Slider::new(&mut settings.damping, 0.0..=2.0)
            .clamping(KEEP_GIVEN)
            .text("damping ratio"),
    );
    egui::ComboBox::from_label("camera")
        .selected_text(settings.camera.id())
        .show_ui(ui, |ui| {
            for driver in CameraDriver::ALL {
                ui.selectable_value(&mut settings.camera, driver, driver.id());
            }
        });
}

/// Max frame time and max steps.
fn guards_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    let mut clamp_on = settings.max_frame_time_ms > 0.0;
    if ui.checkbox(&mut clamp_on, "clamp frame time").changed() {
        settings.max_frame_time_ms = if clamp_on {
            ms_from_ns(DEFAULT_MAX_FRAME_TIME)
        } else {
            0.0
        };
    }
    reserved_ui(
        ui,
        clamp_on,
        &mut settings.max_frame_time_ms,
        ms_from_ns(DEFAULT_MAX_FRAME_TIME),
        |ui, value| {
            ui.add(
                egui::Slider::new(value, 1.0..=1000.0)
                    .clamping(KEEP_GIVEN)
                    .logarithmic(true)
                    .suffix(" ms")
                    .text("max frame time"),
            );
        },
    );
    let mut cap_on = settings.max_steps > 0;
    if ui.checkbox(&mut cap_on, "cap steps per frame").changed() {
        settings.max_steps = if cap_on { 8 } else { 0 };
    }
    reserved_ui(ui, cap_on, &mut settings.max_steps, 8, |ui, value| {
        ui.add(
            egui::Slider::new(value, 1..=64)
                .clamping(KEEP_GIVEN)
                .text("max steps"),
        );
    });
}

/// A control that only applies while `on`: shown live when on, greyed out with `off_value`
/// when off, so switching it never moves the rows below it.
fn reserved_ui<T>(
    ui: &mut egui::Ui,
    on: bool,
    value: &mut T,
    off_value: T,
    add: impl FnOnce(&mut egui::Ui, &mut T),
) {
    if on {
        add(ui, value);
    } else {
        let mut shown = off_value;
        ui.add_enabled_ui(false, |ui| add(ui, &mut shown));
    }
}

/// The artificial load.
fn load_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    let load = &mut settings.load;
    ui.add(
        egui::Slider::new(&mut load.step_cost_ms, 0.0..=100.0)
            .clamping(KEEP_GIVEN)
            .suffix(" ms")
            .text("per step"),
    );
    let dt_ms = 1000.0 / settings.rate_hz;
    // One line either way (cut short in a narrow panel), so the sliders below never move.
    let (note, color) = if load.step_cost_ms > dt_ms {
        (
            format!("a step costs more than dt ({dt_ms:.1} ms): without guards, the loop spirals"),
            ALARM,
        )
    } else {
        (
            format!("steps costing over dt ({dt_ms:.1} ms) make the loop spiral"),
            ui.visuals().weak_text_color(),
        )
    };
    ui.add(egui::Label::new(RichText::new(note).color(color)).truncate());
    ui.add(
        egui::Slider::new(&mut load.render_cost_ms, 0.0..=100.0)
            .clamping(KEEP_GIVEN)
            .suffix(" ms")
            .text("per frame"),
    );
    ui.add(
        egui::Slider::new(&mut load.jitter_ms, 0.0..=20.0)
            .clamping(KEEP_GIVEN)
            .suffix(" ms")
            .text("jitter (sd)"),
    );
    ui.add(
        egui::Slider::new(&mut load.hitch_ms, 0.0..=1000.0)
            .clamping(KEEP_GIVEN)
            .suffix(" ms")
            .text("hitch"),
    );
    ui.add(
        egui::Slider::new(&mut load.hitch_every_s, 0.1..=10.0)
            .clamping(KEEP_GIVEN)
            .logarithmic(true)
            .suffix(" s")
            .text("hitch every"),
    );
}

/// Present mode and frame cap.
fn display_ui(
    ui: &mut egui::Ui,
    edits: &mut Edits,
    display: &DisplayStatus,
    screen: &ScreenReadouts,
) {
    // The concrete modes the surface offers, and the auto modes, which always resolve.
    let offered = PresentModeId::ALL.into_iter().filter(|mode| {
        display.offered.contains(mode)
            || matches!(mode, PresentModeId::AutoVsync | PresentModeId::AutoNoVsync)
    });
    egui::ComboBox::from_label("present mode")
        .selected_text(edits.present_mode.id())
        .show_ui(ui, |ui| {
            for mode in offered {
                ui.selectable_value(&mut edits.present_mode, mode, mode.id())
                    .on_hover_text(present_mode_help(mode));
            }
        })
        .response
        .on_hover_text(present_mode_help(edits.present_mode));
    let active = display.active.map_or("none", PresentModeId::id);
    ui.small(format!(
        "active: {active} · surface offers: {}",
        display
            .offered
            .iter()
            .map(|mode| mode.id())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let settings = &mut edits.settings;
    let mut cap_on = settings.frame_cap_hz > 0.0;
    if ui
        .checkbox(&mut cap_on, "frame cap (applies without vsync)")
        .changed()
    {
        settings.frame_cap_hz = if cap_on { 60.0 } else { 0.0 };
    }
    reserved_ui(ui, cap_on, &mut settings.frame_cap_hz, 60.0, |ui, value| {
        ui.add(
            egui::Slider::new(value, 5.0..=1000.0)
                .clamping(KEEP_GIVEN)
                .logarithmic(true)
                .suffix(" fps")
                .text("cap"),
        );
    });
    ui.separator();
    ui.small(format!(
        "The screen is modeled: {} ({}). Acquiring an image blocked {:.2} ms a frame \
         (measured over {} presents).",
        screen_model(screen),
        refresh_source(screen.refresh_source),
        screen.acquire_wait_ms,
        screen.measured_presents,
    ));
    let monitor_hz = if screen.refresh_hz > 0.0 {
        screen.refresh_hz
    } else {
        ASSUMED_REFRESH_HZ
    };
    let mut own_rate = settings.refresh_override_hz > 0.0;
    if ui
        .checkbox(&mut own_rate, "set the refresh rate")
        .on_hover_text(
            "The screen model and the snap filter use the monitor's rate unless set here",
        )
        .changed()
    {
        settings.refresh_override_hz = if own_rate { monitor_hz } else { 0.0 };
    }
    reserved_ui(
        ui,
        own_rate,
        &mut settings.refresh_override_hz,
        monitor_hz,
        |ui, value| {
            ui.add(
                egui::Slider::new(value, 24.0..=360.0)
                    .clamping(KEEP_GIVEN)
                    .suffix(" Hz")
                    .text("refresh"),
            );
        },
    );
    filter_ui(ui, &mut settings.filter);
}

/// The frame-time filter between the clock and the strategies.
fn filter_ui(ui: &mut egui::Ui, filter: &mut FilterSpec) {
    ui.horizontal(|ui| {
        ui.label("filter");
        let snap = matches!(filter, FilterSpec::Snap { .. });
        let average = matches!(filter, FilterSpec::Average(_));
        if ui
            .selectable_label(*filter == FilterSpec::None, "none")
            .clicked()
        {
            *filter = FilterSpec::None;
        }
        if ui
            .selectable_label(snap, "snap")
            .on_hover_text(
                "Frame times within 1/8 of a refresh of a whole number of refreshes become \
                 that number; the difference is carried, so no time is lost (Glaiel's vsync \
                 snapping). Removes the CPU's timing wobble from motion on a vsync'd screen.",
            )
            .clicked()
            && !snap
        {
            *filter = FilterSpec::Snap { tolerance: None };
        }
        if ui
            .selectable_label(average, "average")
            .on_hover_text("The mean of the last N frame times, paying back what it holds")
            .clicked()
            && !average
        {
            *filter = FilterSpec::Average(4);
        }
    });
    let mut frames = match filter {
        FilterSpec::Average(frames) => *frames,
        _ => 4,
    };
    let average = matches!(filter, FilterSpec::Average(_));
    reserved_ui(ui, average, &mut frames, 4, |ui, value| {
        ui.add(egui::Slider::new(value, 2..=MAX_AVERAGE_FRAMES).text("frames averaged"));
    });
    if let FilterSpec::Average(kept) = filter {
        *kept = frames;
    }
}

/// Milliseconds for a readout: two decimals, none once the value has five digits (a
/// spiralling loop's frame times), so the column keeps its width.
pub(super) fn ms(value: f64) -> String {
    if value.abs() >= 1000.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    }
}

//! The side panel: controls, readouts, plots; the banner; keyboard shortcuts.

use egui::{Color32, Key, RichText};

use super::plots::plots_ui;
use super::readouts::{PaneReadout, Readouts};
use super::timeline::{TimelineLane, timeline_ui};
use crate::app::{PresentModeId, grid_rects};
use crate::live::{Pane, LiveSettings, ScenePreset};
use crate::scene::{CameraDriver, Integrator};
use crate::timestep::{DEFAULT_MAX_FRAME_TIME, RATE_PRESETS_HZ, Strategy, ms_from_ns};

/// Width of the side panel, points.
pub const PANEL_WIDTH: f32 = 330.0;

/// Sliders keep a value given on the command line even when it lies outside their range
/// (the range is what is comfortable to drag, not what is allowed); edits stay inside it.
const KEEP_GIVEN: egui::SliderClamping = egui::SliderClamping::Edits;

/// Outline of the focused comparison pane.
const FOCUS: Color32 = Color32::from_rgb(240, 160, 60);

/// Colour of alarms (spiral, explosion).
const ALARM: Color32 = Color32::from_rgb(200, 40, 40);

/// What the panel edits and shows besides the readouts.
#[derive(Clone, Debug, PartialEq)]
pub struct PanelModel {
    /// The live loop's settings, edited in place; the window applies them after the frame.
    pub settings: LiveSettings,
    /// Present modes the surface reports (concrete ones).
    pub present_modes: Vec<PresentModeId>,
    /// The present mode asked for (may be an `auto-*` one).
    pub present_mode: PresentModeId,
    /// The mode the surface is configured with now.
    pub active_present_mode: Option<PresentModeId>,
    /// The GPU adapter, in words.
    pub adapter: String,
    /// Whether the side panel is shown (H toggles).
    pub visible: bool,
    /// Whether the frame timeline is shown under the scene (T toggles).
    pub timeline: bool,
}

impl PanelModel {
    /// A model for these settings, before the surface is known.
    pub fn new(settings: LiveSettings) -> Self {
        Self {
            settings,
            present_modes: vec![PresentModeId::Fifo],
            present_mode: PresentModeId::default(),
            active_present_mode: None,
            adapter: String::new(),
            visible: true,
            timeline: true,
        }
    }
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

/// Draws the whole UI for one frame and returns the rectangle left for the scene, in points.
/// `lanes` are the live loop's panes (one without a comparison); the scene area is split
/// among them with [`grid_rects`], and each comparison pane gets a label.
pub fn lab_ui(
    ui: &mut egui::Ui,
    model: &mut PanelModel,
    readouts: &Readouts,
    lanes: &[Pane],
    actions: &mut PanelActions,
) -> egui::Rect {
    keys_ui(ui, model, readouts, actions);
    let focus = readouts.focus;
    if model.visible {
        egui::Panel::left("controls")
            .resizable(false)
            .exact_size(PANEL_WIDTH)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    panel_contents_ui(ui, model, readouts, lanes.get(focus), actions);
                });
            });
    }
    if model.timeline {
        timeline_panel_ui(ui, lanes, focus);
    }
    egui::CentralPanel::no_frame()
        .show(ui, |ui| {
            let scene = ui.max_rect();
            // With no room left for the scene there is nothing to label.
            if readouts.pane_count > 1 && scene.width() >= 1.0 && scene.height() >= 1.0 {
                pane_labels_ui(ui, model, readouts, scene);
            }
            banner_ui(ui, model, readouts, actions);
            scene
        })
        .inner
}

/// The frame timeline under the scene, detailing the focused lane.
fn timeline_panel_ui(ui: &mut egui::Ui, lanes: &[Pane], focus: usize) {
    let Some(dt) = lanes
        .get(focus)
        .map(|lane| lane.sim().engine().config().dt_ns())
    else {
        return;
    };
    let timeline: Vec<TimelineLane<'_>> = lanes
        .iter()
        .map(|lane| TimelineLane {
            strategy: lane.strategy(),
            history: lane.history(),
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
            timeline_ui(ui, &timeline, focus, dt);
        });
}

/// Each comparison pane's label (strategy, latency, judder, steps per frame) in its top
/// left corner; the focused pane is outlined, and clicking a pane focuses it.
fn pane_labels_ui(
    ui: &mut egui::Ui,
    model: &mut PanelModel,
    readouts: &Readouts,
    scene: egui::Rect,
) {
    let count = readouts.pane_count.min(readouts.panes.len());
    for (i, rect) in grid_rects(count, scene).enumerate() {
        let pane = &readouts.panes[i];
        let focused = i == readouts.focus;
        let response = ui.interact(
            rect,
            ui.make_persistent_id(("comparison pane", i)),
            egui::Sense::click(),
        );
        if response.clicked() {
            model.settings.focus = i;
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
        "{} {strategy}\nlatency {:.1} ms  judder {:.2} ms\nsteps {} now, {:.2}/frame",
        index + 1,
        pane.latency_ms,
        pane.judder_ms,
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
fn keys_ui(
    ui: &mut egui::Ui,
    model: &mut PanelModel,
    readouts: &Readouts,
    actions: &mut PanelActions,
) {
    // Typing a value into a field (a slider's number) is not a shortcut.
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    let numbers = [
        Key::Num1,
        Key::Num2,
        Key::Num3,
        Key::Num4,
        Key::Num5,
        Key::Num6,
    ];
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
        for (i, (key, strategy)) in numbers.into_iter().zip(Strategy::ALL).enumerate() {
            if pressed(key) {
                // Comparing, a number focuses that pane; otherwise it picks the strategy.
                if !model.settings.compare {
                    model.settings.strategy = strategy;
                } else if i < readouts.pane_count {
                    model.settings.focus = i;
                }
            }
        }
        if pressed(Key::C) {
            model.settings.compare = !model.settings.compare;
        }
        if pressed(Key::T) {
            model.timeline = !model.timeline;
        }
        actions.toggle_pause |= pressed(Key::P);
        actions.single_step |= pressed(Key::Period);
        actions.kick |= pressed(Key::Space);
        actions.reset |= pressed(Key::R);
        actions.toggle_fullscreen |= pressed(Key::F11);
        // Esc first closes an open drop-down; only then does it quit.
        actions.quit |= pressed(Key::Escape) && !popup_open;
        if pressed(Key::H) {
            model.visible = !model.visible;
        }
    });
}

/// Everything inside the side panel.
fn panel_contents_ui(
    ui: &mut egui::Ui,
    model: &mut PanelModel,
    readouts: &Readouts,
    focus: Option<&Pane>,
    actions: &mut PanelActions,
) {
    ui.heading("timestep-lab");
    if !model.adapter.is_empty() {
        ui.small(&model.adapter);
    }
    ui.separator();
    if model.settings.compare {
        compare_ui(ui, &mut model.settings);
    } else {
        strategy_ui(ui, &mut model.settings);
    }
    ui.horizontal(|ui| {
        ui.checkbox(&mut model.settings.compare, "compare panes (C)");
        ui.checkbox(&mut model.timeline, "timeline (T)");
    });
    ui.separator();
    time_ui(ui, &mut model.settings, readouts, actions);
    ui.separator();
    readouts_ui(ui, readouts);
    if let Some(lane) = focus {
        egui::CollapsingHeader::new("Plots")
            .default_open(true)
            .show(ui, |ui| {
                let dt = lane.sim().engine().config().dt_ns();
                plots_ui(ui, lane.history(), dt);
            });
    }
    egui::CollapsingHeader::new("Scene")
        .default_open(true)
        .show(ui, |ui| scene_ui(ui, &mut model.settings));
    egui::CollapsingHeader::new("Physics")
        .default_open(true)
        .show(ui, |ui| physics_ui(ui, &mut model.settings));
    egui::CollapsingHeader::new("Spiral guards")
        .default_open(true)
        .show(ui, |ui| guards_ui(ui, &mut model.settings));
    egui::CollapsingHeader::new("Artificial load")
        .default_open(true)
        .show(ui, |ui| load_ui(ui, &mut model.settings));
    egui::CollapsingHeader::new("Display")
        .default_open(true)
        .show(ui, |ui| display_ui(ui, model));
    egui::CollapsingHeader::new("Keys")
        .default_open(false)
        .show(ui, |ui| {
            ui.small(
                "1-6 strategy (comparing: focus pane) · C compare · T timeline\n\
                 P pause · . single step · Space kick · R reset\n\
                 H hide panel · F11 fullscreen · Esc quit",
            );
        });
}

/// Strategy choice, with each one's known problem.
fn strategy_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    ui.label(RichText::new("Strategy").strong());
    for (i, strategy) in Strategy::ALL.into_iter().enumerate() {
        ui.radio_value(
            &mut settings.strategy,
            strategy,
            format!("{} {}  ({})", i + 1, strategy.id(), strategy.name()),
        );
    }
    ui.small(settings.strategy.known_problem());
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
                .width(110.0)
                .show_ui(ui, |ui| {
                    for choice in Strategy::ALL {
                        if ui
                            .selectable_label(choice == strategy, choice.id())
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
    ui.small(settings.panes.as_slice()[settings.focus_index()].known_problem());
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
            let mut row = |name: &str, value: String| {
                ui.label(name);
                ui.monospace(value);
                ui.end_row();
            };
            row(
                "fps / presents",
                format!("{:.1} / {:.1} Hz", w.fps, r.present_rate_hz),
            );
            row(
                "frame p50 / p99",
                format!(
                    "{} / {} ms",
                    ms(w.frame_time_p50_ms),
                    ms(w.frame_time_p99_ms)
                ),
            );
            row(
                "steps now / mean / max",
                format!(
                    "{} / {:.2} / {}",
                    r.steps_this_frame, w.steps_mean, w.steps_max
                ),
            );
            row("alpha", format!("{:.3}", r.alpha));
            row(
                "simulated / presented",
                format!("{:.2} / {:.2} s", r.sim_time_s, r.real_time_s),
            );
            row(
                "owed / carried",
                format!("{} / {} ms", ms(r.owed_ms), ms(r.accumulator_ms)),
            );
            row("dropped", format!("{:.3} s", r.dropped_total_s));
            row("latency", format!("{:.2} ms", w.latency_ms));
            row("judder", format!("{:.3} ms", w.judder_ms));
            row("energy drift", format!("{:+.4}", r.energy_drift));
            if r.carried_load_ms > 0.0 {
                row("load carried", format!("{:.1} ms", r.carried_load_ms));
            }
        });
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
    if clamp_on {
        ui.add(
            egui::Slider::new(&mut settings.max_frame_time_ms, 1.0..=1000.0)
                .clamping(KEEP_GIVEN)
                .logarithmic(true)
                .suffix(" ms")
                .text("max frame time"),
        );
    }
    let mut cap_on = settings.max_steps > 0;
    if ui.checkbox(&mut cap_on, "cap steps per frame").changed() {
        settings.max_steps = if cap_on { 8 } else { 0 };
    }
    if cap_on {
        ui.add(
            egui::Slider::new(&mut settings.max_steps, 1..=64)
                .clamping(KEEP_GIVEN)
                .text("max steps"),
        );
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
    if load.step_cost_ms > dt_ms {
        ui.colored_label(
            ALARM,
            format!("a step costs more than dt ({dt_ms:.1} ms): without guards, the loop spirals"),
        );
    }
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
fn display_ui(ui: &mut egui::Ui, model: &mut PanelModel) {
    let offered = PresentModeId::ALL
        .into_iter()
        .filter(|mode| model.present_modes.contains(mode));
    egui::ComboBox::from_label("present mode")
        .selected_text(model.present_mode.id())
        .show_ui(ui, |ui| {
            for mode in offered {
                ui.selectable_value(&mut model.present_mode, mode, mode.id());
            }
        });
    let active = model.active_present_mode.map_or("none", PresentModeId::id);
    ui.small(format!(
        "active: {active} · surface offers: {}",
        model
            .present_modes
            .iter()
            .map(|mode| mode.id())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let settings = &mut model.settings;
    let mut cap_on = settings.frame_cap_hz > 0.0;
    if ui
        .checkbox(&mut cap_on, "frame cap (applies without vsync)")
        .changed()
    {
        settings.frame_cap_hz = if cap_on { 60.0 } else { 0.0 };
    }
    if cap_on {
        ui.add(
            egui::Slider::new(&mut settings.frame_cap_hz, 5.0..=1000.0)
                .clamping(KEEP_GIVEN)
                .logarithmic(true)
                .suffix(" fps")
                .text("cap"),
        );
    }
}

/// The loud banner over the scene when the loop spirals or the spring explodes, with a
/// one-click way out.
fn banner_ui(
    ui: &mut egui::Ui,
    model: &mut PanelModel,
    readouts: &Readouts,
    actions: &mut PanelActions,
) {
    if !(readouts.spiral || readouts.exploded) {
        return;
    }
    egui::Frame::new()
        .fill(ALARM)
        .inner_margin(10.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            if readouts.spiral {
                let what = if readouts.frozen {
                    "SPIRAL OF DEATH: the loop has frozen (a frame owes over a minute of steps)"
                } else {
                    "SPIRAL OF DEATH: each frame owes more steps than the last"
                };
                ui.label(
                    RichText::new(what)
                        .strong()
                        .size(18.0)
                        .color(Color32::WHITE),
                );
                ui.horizontal(|ui| {
                    if model.settings.max_frame_time_ms == 0.0
                        && ui.button("Turn on the 250 ms frame-time guard").clicked()
                    {
                        model.settings.max_frame_time_ms = ms_from_ns(DEFAULT_MAX_FRAME_TIME);
                    }
                    if ui.button("Remove the load").clicked() {
                        model.settings.load.step_cost_ms = 0.0;
                    }
                    actions.reset |= ui.button("Reset").clicked();
                });
            }
            if readouts.exploded {
                ui.label(
                    RichText::new(
                        "SPRING EXPLODED: the integrator is unstable at this step and stiffness",
                    )
                    .strong()
                    .size(18.0)
                    .color(Color32::WHITE),
                );
                actions.reset |= ui.button("Reset").clicked();
            }
        });
}

/// Milliseconds for a readout: two decimals, none once the value has five digits (a
/// spiralling loop's frame times), so the column keeps its width.
fn ms(value: f64) -> String {
    if value.abs() >= 1000.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    }
}

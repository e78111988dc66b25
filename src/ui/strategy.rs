//! The panel's first rows: the strategy (the lab's, or an engine's own loop) with its known
//! problem, or, comparing, each pane's strategy and which one is focused.

use egui::RichText;

use crate::live::LiveSettings;
use crate::timestep::{EnginePreset, Strategy};

/// What `display-time` does, where it is chosen.
const DISPLAY_TIME: &str = "Steps as the accumulator does, but draws the state at the time \
     the frame is predicted to reach the screen (from the modeled screen below: its refresh \
     grid, the images in flight) less a steady latency, instead of at the CPU's frame start. \
     The motion then advances as the refreshes do: CPU frame starts that wobble about the \
     refresh no longer show. A wrong prediction shows as a jump. docs/strategies.md";

/// Strategy choice (the lab's strategies, then an engine's own loop), with its known problem.
pub(super) fn strategy_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    ui.label(RichText::new("Strategy").strong());
    for strategy in Strategy::ALL {
        let key = strategy.key().unwrap_or(' ');
        let choice = ui.radio_value(
            &mut settings.strategy,
            strategy,
            format!("{key} {}  ({})", strategy.id(), strategy.name()),
        );
        if strategy == Strategy::DisplayTime {
            choice.on_hover_text(DISPLAY_TIME);
        }
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
pub(super) fn compare_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
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

//! The player and the input policies: where the camera is, how inputs reach the steps,
//! and what each policy made of the person's inputs so far.

use egui::RichText;

use crate::input::InputPolicy;
use crate::live::{LiveSettings, Readouts};
use crate::scene::CameraView;

/// View and input policy pickers, and every policy's measurements on the focused pane.
pub(super) fn hands_ui(ui: &mut egui::Ui, settings: &mut LiveSettings, readouts: &Readouts) {
    egui::ComboBox::from_label("view")
        .selected_text(view_label(settings.view))
        .show_ui(ui, |ui| {
            for view in CameraView::ALL {
                ui.selectable_value(&mut settings.view, view, view_label(view));
            }
        })
        .response
        .on_hover_text(
            "orbit: the camera circles the pivot, the player is the orange figure. player: \
             its eyes. WASD or the arrows walk; drag the mouse over the scene to look. The \
             camera driver (Physics) moves the look too.",
        );
    egui::ComboBox::from_label("input policy")
        .selected_text(settings.input_policy.label())
        .show_ui(ui, |ui| {
            for policy in InputPolicy::ALL {
                ui.selectable_value(&mut settings.input_policy, policy, policy.label())
                    .on_hover_text(policy.explanation());
            }
        })
        .response
        .on_hover_text(settings.input_policy.explanation());
    let input = &readouts.input;
    if !input.any() {
        ui.small(
            "Walk (WASD / arrows) or drag to look: every policy is measured on your inputs \
             here, the chosen one moves the player.",
        );
        return;
    }
    let speed = readouts.player_speed_mps;
    let number = |value: Option<f64>, decimals: usize| {
        value.map_or_else(|| "-".to_owned(), |v| format!("{v:.decimals$}"))
    };
    egui::Grid::new("input policies")
        .striped(true)
        .show(ui, |ui| {
            for heading in ["policy", "latency ms", "worst", "lost", "dup", "hold mm"] {
                ui.label(RichText::new(heading).small().strong());
            }
            ui.end_row();
            for policy in InputPolicy::ALL {
                let stats = input.get(policy);
                let chosen = policy == settings.input_policy;
                let cell = |text: String| {
                    let text = RichText::new(text).small().monospace();
                    if chosen { text.strong() } else { text }
                };
                ui.label(cell(policy.label().to_owned()))
                    .on_hover_text(policy.explanation());
                ui.label(cell(number(stats.latency_mean_ms(), 1)));
                ui.label(cell(number(stats.latency_worst_ms(), 1)));
                ui.label(cell(stats.lost.to_string()));
                ui.label(cell(stats.duplicated.to_string()));
                ui.label(cell(number(stats.hold_error_mean_mm(speed), 1)));
                ui.end_row();
            }
        });
    ui.small(format!(
        "{} inputs on the focused pane. Latency: from the input to the screen showing the \
         whole first step that used it. Hold: how far a held key walked off speed x time \
         held (mean).",
        input.get(InputPolicy::Buffered).inputs
    ));
}

/// A view's name in the panel.
fn view_label(view: CameraView) -> &'static str {
    match view {
        CameraView::Orbit => "orbit",
        CameraView::Player => "player (first person)",
    }
}

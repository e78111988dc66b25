//! The comparison panes' labels: each pane's strategy and numbers in its top left corner,
//! the focused pane outlined; clicking a pane focuses it.

use egui::{Color32, RichText};

use super::shared::ALARM;
use crate::live::{DisplayTimesBy, LiveSettings, PaneReadout, Readouts};

/// Outline of the focused comparison pane.
const FOCUS: Color32 = Color32::from_rgb(240, 160, 60);

/// Each comparison pane's label (strategy, latency, judder, steps per frame) in its top
/// left corner; the focused pane is outlined, and clicking a pane focuses it.
pub(super) fn pane_labels_ui(
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
                    RichText::new(pane_label(i, pane, readouts.screen.display_times))
                        .monospace()
                        .size(12.0)
                        .color(Color32::from_gray(235)),
                );
            });
    }
}

/// The text of pane `index`'s label; its screen numbers say whether the screen is measured.
fn pane_label(index: usize, pane: &PaneReadout, display_times: DisplayTimesBy) -> String {
    let strategy = pane.strategy.map_or("", |s| s.id());
    let screen = match display_times {
        DisplayTimesBy::Model => "modeled screen*",
        DisplayTimesBy::Measurement(_) => "measured screen*",
    };
    let at_screen = |value: Option<f64>, decimals: usize| {
        value.map_or_else(
            || super::readouts::NO_FRAME_SHOWN.to_owned(),
            |ms| format!("{ms:.decimals$} ms"),
        )
    };
    let mut label = format!(
        "{} {strategy}\nlatency {:.1} ms  judder {:.2} ms\n{screen} {}  {}\nsteps {} now, {:.2}/frame",
        index + 1,
        pane.latency_ms,
        pane.judder_ms,
        at_screen(pane.display_latency_ms, 1),
        at_screen(pane.display_judder_ms, 2),
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

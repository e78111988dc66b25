//! The comparison panes' labels: each pane's strategy and numbers in its top left corner,
//! the focused pane outlined; clicking a pane focuses it.

use egui::Color32;

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
        let id = ui.make_persistent_id(("comparison pane", i));
        let response = ui.interact(rect, id, egui::Sense::click());
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
        // Painted rather than built from a frame and a label widget: as widgets, the six
        // labels cost a fifth more (docs/performance.md).
        let text = pane_label(i, pane, readouts.screen.display_times);
        let inside = rect.shrink(LABEL_INSET + LABEL_MARGIN);
        let galley = ui.painter().layout(
            text,
            egui::FontId::monospace(12.0),
            TEXT,
            inside.width().max(0.0),
        );
        let plate = egui::Rect::from_min_size(inside.min, galley.size()).expand(LABEL_MARGIN);
        let painter = ui.painter_at(rect.shrink(LABEL_INSET));
        painter.rect_filled(plate, 3.0, fill);
        // The plate is the label for a screen reader (and for the tests); hovering it
        // leaves clicks to the pane.
        ui.interact(plate, id.with("label"), egui::Sense::hover())
            .widget_info(|| {
                egui::WidgetInfo::labeled(egui::accesskit::Role::Label, true, galley.text())
            });
        painter.galley(inside.min, galley, TEXT);
    }
}

/// The labels' text colour.
const TEXT: Color32 = Color32::from_gray(235);

/// Space between a pane's edge and its label's plate, points.
const LABEL_INSET: f32 = 6.0;

/// Space between a label's plate and its text, points.
const LABEL_MARGIN: f32 = 4.0;

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

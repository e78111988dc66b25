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
    // The outlines first, under one clip (each lies inside its pane): their shapes share a
    // mesh and a draw call, where a clip of their own would split the panes' shapes into
    // twice as many.
    let outlines = ui.painter_at(
        rects
            .iter()
            .fold(egui::Rect::NOTHING, |all, r| all.union(*r)),
    );
    for (i, &rect) in rects.iter().enumerate() {
        let stroke = if i == readouts.focus {
            egui::Stroke::new(2.0, FOCUS)
        } else {
            egui::Stroke::new(1.0, Color32::from_gray(70))
        };
        outlines.rect_stroke(rect.shrink(1.0), 0.0, stroke, egui::StrokeKind::Inside);
    }
    for (i, &rect) in rects.iter().enumerate() {
        let pane = &readouts.panes[i];
        let id = ui.make_persistent_id(("comparison pane", i));
        let response = ui.interact(rect, id, egui::Sense::click());
        if response.clicked() {
            settings.focus = i;
        }
        let fill = if pane.spiral || pane.exploded {
            ALARM
        } else {
            Color32::from_black_alpha(170)
        };
        // Painted rather than built from a frame and a label widget: as widgets, the six
        // labels cost a fifth more (docs/performance.md).
        let inside = rect.shrink(LABEL_INSET + LABEL_MARGIN);
        let font = egui::FontId::monospace(LABEL_SIZE);
        let columns = inside.width() / ui.fonts_mut(|fonts| fonts.glyph_width(&font, '0'));
        let text = pane_label(i, pane, readouts.screen.display_times, columns);
        let galley = ui
            .painter()
            .layout(text, font, TEXT, inside.width().max(0.0));
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

/// The labels' font size, points (monospace).
const LABEL_SIZE: f32 = 12.0;

/// The text of pane `index`'s label, `columns` characters wide at most where it can be (a
/// narrow pane gets each number on its own line rather than a number torn from its name);
/// its screen numbers say whether the screen is measured.
fn pane_label(
    index: usize,
    pane: &PaneReadout,
    display_times: DisplayTimesBy,
    columns: f32,
) -> String {
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
    let (latency, judder) = (pane.latency_ms, pane.judder_ms);
    let screen_latency = at_screen(pane.display_latency_ms, 1);
    let screen_judder = at_screen(pane.display_judder_ms, 2);
    let (steps_now, steps_mean) = (pane.steps_now, pane.steps_mean);
    let mut label = format!("{} {strategy}", index + 1);
    push_line(
        &mut label,
        columns,
        format_args!("latency {latency:.1} ms  judder {judder:.2} ms"),
        format_args!("latency {latency:.1} ms\njudder {judder:.2} ms"),
    );
    push_line(
        &mut label,
        columns,
        format_args!("{screen} {screen_latency}  {screen_judder}"),
        format_args!("{screen}\nlatency {screen_latency}\njudder {screen_judder}"),
    );
    push_line(
        &mut label,
        columns,
        format_args!("steps {steps_now} now, {steps_mean:.2}/frame"),
        format_args!("steps {steps_now} now\n{steps_mean:.2}/frame"),
    );
    if pane.spiral {
        label.push_str("\nSPIRAL");
    }
    if pane.exploded {
        label.push_str("\nEXPLODED");
    }
    label
}

/// Appends a line to `label`: `whole`, or `split` (the same numbers, one to a line) where
/// `whole` is wider than `columns` characters.
fn push_line(
    label: &mut String,
    columns: f32,
    whole: std::fmt::Arguments<'_>,
    split: std::fmt::Arguments<'_>,
) {
    use std::fmt::Write as _;
    label.push('\n');
    let start = label.len();
    // Writing to a String cannot fail.
    let _ = label.write_fmt(whole);
    if label[start..].chars().count() as f32 > columns {
        label.truncate(start);
        let _ = label.write_fmt(split);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timestep::Strategy;

    fn readout() -> PaneReadout {
        PaneReadout {
            strategy: Some(Strategy::Accumulator),
            latency_ms: 477.25,
            judder_ms: 8.141,
            display_latency_ms: Some(509.5),
            display_judder_ms: Some(11.48),
            steps_mean: 1.0,
            steps_now: 1,
            ..PaneReadout::default()
        }
    }

    #[test]
    fn a_wide_pane_gets_a_name_and_its_numbers_to_a_line() {
        let label = pane_label(3, &readout(), DisplayTimesBy::Model, 80.0);
        assert_eq!(
            label,
            "4 accumulator\nlatency 477.2 ms  judder 8.14 ms\n\
             modeled screen* 509.5 ms  11.48 ms\nsteps 1 now, 1.00/frame"
        );
    }

    #[test]
    fn a_narrow_pane_splits_only_the_lines_that_do_not_fit_and_keeps_each_number_named() {
        // 24 columns: the two latency lines do not fit, the steps line (23) does.
        let label = pane_label(3, &readout(), DisplayTimesBy::Model, 24.0);
        assert_eq!(
            label,
            "4 accumulator\nlatency 477.2 ms\njudder 8.14 ms\nmodeled screen*\n\
             latency 509.5 ms\njudder 11.48 ms\nsteps 1 now, 1.00/frame"
        );
        assert!(label.lines().all(|line| line.chars().count() <= 24));
        let narrower = pane_label(3, &readout(), DisplayTimesBy::Model, 20.0);
        assert!(
            narrower.ends_with("\nsteps 1 now\n1.00/frame"),
            "{narrower}"
        );
    }

    #[test]
    fn a_spiralling_pane_says_so_whatever_its_width() {
        let spiral = PaneReadout {
            spiral: true,
            ..readout()
        };
        for columns in [80.0, 10.0] {
            let label = pane_label(0, &spiral, DisplayTimesBy::Model, columns);
            assert!(label.ends_with("\nSPIRAL"), "{label}");
        }
    }
}

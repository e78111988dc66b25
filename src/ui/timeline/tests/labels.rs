//! The rows' names in the label column.

use egui::Color32;

use super::super::geometry::LABEL_TEXT_WIDTH;
use super::super::paint::row_label_job;

/// Lays out each of `names` as the timeline does, in a pass of a fresh context.
fn laid_out(names: &[&str]) -> Vec<std::sync::Arc<egui::Galley>> {
    let ctx = egui::Context::default();
    let mut galleys = Vec::new();
    let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
        galleys = names
            .iter()
            .map(|name| ui.fonts_mut(|fonts| fonts.layout_job(row_label_job(name, Color32::WHITE))))
            .collect();
    });
    // The font atlas's first upload, which no renderer takes here.
    output.textures_delta.clear();
    galleys
}

/// The characters a galley shows (its text less what was cut short, with the ellipsis).
fn shown(galley: &egui::Galley) -> String {
    galley
        .rows
        .iter()
        .flat_map(|row| row.glyphs.iter().map(|glyph| glyph.chr))
        .collect()
}

#[test]
fn a_name_wider_than_the_label_column_is_cut_short_with_an_ellipsis() {
    let [long, preset] = laid_out(&["velocity-extrapolated", "godot-interpolated"])
        .try_into()
        .expect("two galleys");
    for galley in [&long, &preset] {
        assert!(
            galley.size().x <= LABEL_TEXT_WIDTH,
            "{:?} is {} points wide, the column holds {LABEL_TEXT_WIDTH}",
            galley.text(),
            galley.size().x
        );
        assert!(
            galley.elided && shown(galley).ends_with('…'),
            "{:?}",
            shown(galley)
        );
    }
    assert!(
        shown(&long).starts_with("velocity-ex"),
        "{:?}",
        shown(&long)
    );
}

#[test]
fn a_name_that_fits_is_shown_whole() {
    let names = [
        "frames",
        "screen",
        "alpha",
        "accumulator",
        "interpolated",
        "fixed",
    ];
    for (galley, name) in laid_out(&names).iter().zip(names) {
        assert_eq!(shown(galley), name);
        assert!(!galley.elided);
    }
}

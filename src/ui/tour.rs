//! The guided tour's card at the top of the side panel: the chapter, the article it
//! follows, what to look at and try, its claim as measured now (green when it holds), and
//! the way on (back, next, the chapter list, restart, leave). Before the tour, on a first
//! launch, an offer to take it.

use egui::{Color32, RichText};

use super::shared::Edits;
use crate::tour::{CHAPTERS, TourRequest, TourStatus, Verdict};

/// The colour of a claim that holds.
const HOLDS: Color32 = Color32::from_rgb(60, 170, 80);
/// The colour of a claim that does not hold here.
const FAILS: Color32 = Color32::from_rgb(215, 90, 60);

/// The tour's card while it runs, or the offer to take it (`offer`) before; nothing else.
pub(super) fn tour_ui(
    ui: &mut egui::Ui,
    status: Option<&TourStatus>,
    offer: &mut bool,
    edits: &mut Edits,
) {
    match status {
        Some(status) => chapter_ui(ui, status, &mut edits.tour),
        None if *offer => offer_ui(ui, offer, &mut edits.tour),
        None => {}
    }
}

/// The first launch's offer.
fn offer_ui(ui: &mut egui::Ui, offer: &mut bool, request: &mut Option<TourRequest>) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new("New here?").strong());
        ui.label(
            "A guided tour walks through \"Fix Your Timestep!\" and engine stutter, setting \
             the lab up for each step and measuring each claim as you read.",
        );
        ui.horizontal(|ui| {
            if ui.button("Take the tour (G)").clicked() {
                *request = Some(TourRequest::Start);
            }
            if ui.button("Not now").clicked() {
                *offer = false;
            }
        });
    });
    ui.separator();
}

/// The chapter shown.
fn chapter_ui(ui: &mut egui::Ui, status: &TourStatus, request: &mut Option<TourRequest>) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!(
                "Tour {}/{}",
                status.chapter + 1,
                status.chapters
            )));
            ui.label(RichText::new(status.title).strong());
        });
        ui.small(format!("after {}", status.follows));
        ui.label(status.text);
        let (mark, colour) = match &status.verdict {
            Verdict::Holds(_) => ("holds", HOLDS),
            Verdict::Fails(_) => ("does not hold here", FAILS),
            Verdict::Waiting(_) => ("not judged yet", ui.visuals().weak_text_color()),
        };
        ui.label(RichText::new(format!("Claim {mark}: {}", status.verdict.text())).color(colour));
        if let Some(adapted) = &status.adapted {
            ui.small(adapted);
        }
        ui.horizontal(|ui| {
            let first = status.chapter == 0;
            let last = status.chapter + 1 == status.chapters;
            if ui
                .add_enabled(!first, egui::Button::new("< Back (B)"))
                .clicked()
            {
                *request = Some(TourRequest::Back);
            }
            if ui
                .add_enabled(!last, egui::Button::new("Next (N) >"))
                .clicked()
            {
                *request = Some(TourRequest::Next);
            }
            egui::ComboBox::from_id_salt("tour chapter")
                .selected_text("chapters")
                .show_ui(ui, |ui| {
                    for (i, chapter) in CHAPTERS.iter().enumerate() {
                        let label = format!("{}. {}", i + 1, chapter.title);
                        if ui.selectable_label(i == status.chapter, label).clicked() {
                            *request = Some(TourRequest::Go(i));
                        }
                    }
                })
                .response
                .on_hover_text("Go to any chapter")
                .widget_info(|| {
                    egui::WidgetInfo::labeled(egui::Role::ComboBox, true, "tour chapters")
                });
        });
        ui.horizontal(|ui| {
            if ui
                .button("Restart chapter")
                .on_hover_text("Set the chapter's settings up again")
                .clicked()
            {
                *request = Some(TourRequest::Restart);
            }
            if ui
                .button("Leave tour (G)")
                .on_hover_text("Back to the settings you had before the tour")
                .clicked()
            {
                *request = Some(TourRequest::Leave);
            }
        });
    });
    ui.separator();
}

//! The guided tour's card: offered on a first run, started, walked with its buttons, keys
//! and chapter list, each chapter's settings run, and left with the reader's settings back.

use egui_kittest::kittest::Queryable as _;
use timestep_lab::live::LiveSettings;
use timestep_lab::timestep::Strategy;
use timestep_lab::tour::CHAPTERS;

use super::{harness, scripted_state_with};

#[test]
fn the_tour_is_offered_walked_and_left_with_the_readers_settings_back() {
    let reader = LiveSettings {
        rate_hz: 75.0,
        strategy: Strategy::Hermite,
        ..LiveSettings::default()
    };
    let mut state = scripted_state_with(reader);
    state.model.panel.tour_offer = true;
    let mut harness = harness(state);
    harness.run();
    harness.get_by_label("Take the tour (G)").click();
    harness.run();
    let settings =
        |harness: &egui_kittest::Harness<'_, super::PanelState>| harness.state().model.settings;
    harness.get_by_label_contains("Tour 1/13");
    harness.get_by_label(CHAPTERS[0].title);
    assert_eq!(settings(&harness), CHAPTERS[0].setup(&reader));
    assert!(
        !harness.state().model.panel.tour_offer,
        "the offer was taken"
    );
    assert!(
        harness.query_by_label("Tour").is_none(),
        "no second way in while touring"
    );
    // Back is disabled on the first chapter; Next and the keys turn chapters.
    harness.get_by_label("< Back (B)").click();
    harness.run();
    assert_eq!(settings(&harness), CHAPTERS[0].setup(&reader));
    harness.get_by_label("Next (N) >").click();
    harness.run();
    harness.get_by_label(CHAPTERS[1].title);
    harness.key_press(egui::Key::N);
    harness.run();
    assert_eq!(settings(&harness), CHAPTERS[2].setup(&reader));
    harness.key_press(egui::Key::B);
    harness.run();
    assert_eq!(settings(&harness), CHAPTERS[1].setup(&reader));
    // The chapter list goes straight to one.
    harness.get_by_label("tour chapters").click();
    harness.run();
    harness
        .get_by_label(&format!("6. {}", CHAPTERS[5].title))
        .click();
    harness.run();
    harness.get_by_label_contains("Tour 6/13");
    assert_eq!(settings(&harness).strategy, Strategy::Accumulator);
    assert_eq!(settings(&harness).rate_hz, 50.0);
    // The reader tries something; Restart sets the chapter up again.
    harness.key_press(egui::Key::Num5);
    harness.run();
    assert_eq!(settings(&harness).strategy, Strategy::Interpolated);
    harness.get_by_label("Restart chapter").click();
    harness.run();
    assert_eq!(settings(&harness), CHAPTERS[5].setup(&reader));
    // Leaving gives the reader's settings back, and G starts the tour again.
    harness.get_by_label("Leave tour (G)").click();
    harness.run();
    assert_eq!(settings(&harness), reader);
    assert!(harness.query_by_label_contains("Tour 6/13").is_none());
    harness.key_press(egui::Key::G);
    harness.run();
    harness.get_by_label_contains("Tour 1/13");
    harness.key_press(egui::Key::G);
    harness.run();
    assert_eq!(settings(&harness), reader);
}

#[test]
fn the_card_says_whether_the_claim_holds_and_what_was_measured() {
    let mut harness = harness(scripted_state_with(LiveSettings::default()));
    harness.run();
    harness.get_by_label("Tour").click();
    harness.run();
    // Just started: measuring, not yet judged.
    harness.get_by_label_contains("Claim not judged yet: measuring: the claim is judged after");
    harness.get_by_label_contains("after Glenn Fiedler, \"Fix Your Timestep!\" (2004)");
}

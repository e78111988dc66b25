//! The keyboard shortcuts: numbers pick a strategy or focus a pane, C compares, T the
//! timeline, P pauses, `.` steps, Space kicks, R resets, F11 fullscreen, ? or F1 the help
//! overlay, H the panel, G starts or leaves the guided tour and N / B turn its chapters,
//! Esc closes what is open and then quits.

use egui::Key;

use super::shared::{Edits, PanelState};
use crate::live::Readouts;
use crate::timestep::Strategy;
use crate::tour::TourRequest;

/// The keyboard shortcuts.
pub(super) fn keys_ui(
    ui: &mut egui::Ui,
    state: &mut PanelState,
    edits: &mut Edits,
    readouts: &Readouts,
    touring: bool,
) {
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
        if pressed(Key::G) {
            edits.tour = Some(if touring {
                TourRequest::Leave
            } else {
                TourRequest::Start
            });
        } else if touring && pressed(Key::N) {
            edits.tour = Some(TourRequest::Next);
        } else if touring && pressed(Key::B) {
            edits.tour = Some(TourRequest::Back);
        }
    });
}

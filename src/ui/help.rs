//! The key and concept overlay (? or F1): every shortcut, and what the lab's numbers mean,
//! in one place over the scene.

use egui::RichText;

/// The keyboard shortcuts, as (keys, what they do).
pub const KEYS: [(&str, &str); 15] = [
    ("1-9, 0", "pick a strategy; comparing, focus that pane"),
    ("C", "compare strategies side by side"),
    ("T", "show or hide the frame timeline"),
    ("P", "pause or resume"),
    (".", "one step of time while paused"),
    ("Space", "kick the spring"),
    (
        "WASD / arrows",
        "walk the player (its eyes in the player view)",
    ),
    ("drag the scene", "turn the player's view"),
    ("R", "reset every pane to time zero"),
    ("H", "hide or show the panel"),
    ("G", "start or leave the guided tour"),
    ("N / B", "the tour's next / previous chapter"),
    ("F11", "fullscreen"),
    ("? or F1", "this overlay"),
    ("Esc", "close a drop-down or this overlay, else quit"),
];

/// The ideas behind the numbers, as (term, meaning).
pub const CONCEPTS: [(&str, &str); 11] = [
    (
        "dt",
        "the physics step: 1 / physics rate. Fixed-step strategies only ever step by dt.",
    ),
    (
        "frame time",
        "real time between two frames; the strategy turns it into steps.",
    ),
    (
        "T",
        "real time a frame is shown at: the frame times so far, less the time the guards \
         dropped.",
    ),
    ("S", "simulated time of the state the frame draws."),
    (
        "latency",
        "T - S: how far behind real time the picture is. Interpolation adds one dt.",
    ),
    (
        "judder",
        "how unevenly S advances against T from frame to frame: the stutter. 0 is even.",
    ),
    (
        "carried",
        "the accumulator: real time received but not simulated yet, less than dt.",
    ),
    (
        "alpha",
        "carried / dt: how far between its last two states interpolation draws.",
    ),
    (
        "spiral of death",
        "steps cost more real time than they simulate, so each frame owes more steps \
         than the last. The guards stop it: clamp the frame time, cap the steps.",
    ),
    (
        "fixed's lag",
        "fixed takes one step a frame whatever the time: it drifts from real time. \
         Leaving it resyncs real time to the simulation.",
    ),
    (
        "at the screen *",
        "modeled: when each image reaches the screen (D) under the present mode and \
         refresh rate. Screen judder is PresentMon's animation error.",
    ),
];

/// The overlay, while `open`; its close button and Esc close it.
pub fn help_ui(ctx: &egui::Context, open: &mut bool) {
    if !*open {
        return;
    }
    let mut window_open = true;
    egui::Window::new("Keys and concepts")
        .open(&mut window_open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .default_width(560.0)
        .show(ctx, |ui| {
            egui::Grid::new("help keys")
                .num_columns(2)
                .spacing([16.0, 3.0])
                .show(ui, |ui| {
                    for (keys, what) in KEYS {
                        ui.label(RichText::new(keys).monospace().strong());
                        ui.label(what);
                        ui.end_row();
                    }
                });
            ui.separator();
            egui::Grid::new("help concepts")
                .num_columns(2)
                .spacing([16.0, 3.0])
                .show(ui, |ui| {
                    for (term, meaning) in CONCEPTS {
                        ui.label(RichText::new(term).strong());
                        ui.label(meaning);
                        ui.end_row();
                    }
                });
            ui.separator();
            ui.small("Hover any readout or control in the panel for its own explanation.");
        });
    *open &= window_open;
}

//! The Scene and Physics sections: the scene presets and what to look for in the one in
//! force; the physics rate, integrator, spring and camera driver.

use super::shared::KEEP_GIVEN;
use crate::live::{LiveSettings, ScenePreset};
use crate::scene::{CameraDriver, Integrator};
use crate::timestep::RATE_PRESETS_HZ;

/// Scene presets and what to look for in the one in force.
pub(super) fn scene_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    ui.horizontal_wrapped(|ui| {
        for preset in ScenePreset::ALL {
            if ui
                .selectable_label(preset.matches(settings), preset.name())
                .clicked()
            {
                preset.apply(settings);
            }
        }
    });
    if let Some(preset) = ScenePreset::ALL.into_iter().find(|p| p.matches(settings)) {
        ui.small(preset.advice());
    }
}

/// Physics rate, integrator, spring, camera driver.
pub(super) fn physics_ui(ui: &mut egui::Ui, settings: &mut LiveSettings) {
    ui.add(
        egui::Slider::new(&mut settings.rate_hz, 1.0..=1000.0)
            .clamping(KEEP_GIVEN)
            .logarithmic(true)
            .suffix(" Hz")
            .text("physics rate"),
    );
    ui.horizontal_wrapped(|ui| {
        for preset in RATE_PRESETS_HZ {
            if ui
                .selectable_label(settings.rate_hz == preset, format!("{preset}"))
                .clicked()
            {
                settings.rate_hz = preset;
            }
        }
    });
    egui::ComboBox::from_label("integrator")
        .selected_text(settings.integrator.id())
        .show_ui(ui, |ui| {
            for integrator in Integrator::ALL {
                ui.selectable_value(&mut settings.integrator, integrator, integrator.id());
            }
        });
    ui.add(
        egui::Slider::new(&mut settings.spring_hz, 0.05..=50.0)
            .clamping(KEEP_GIVEN)
            .logarithmic(true)
            .suffix(" Hz")
            .text("spring stiffness"),
    );
    ui.add(
        egui::Slider::new(&mut settings.damping, 0.0..=2.0)
            .clamping(KEEP_GIVEN)
            .text("damping ratio"),
    );
    egui::ComboBox::from_label("camera")
        .selected_text(settings.camera.id())
        .show_ui(ui, |ui| {
            for driver in CameraDriver::ALL {
                ui.selectable_value(&mut settings.camera, driver, driver.id());
            }
        });
}

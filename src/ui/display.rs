//! The Display section: the present mode (what each does on hover), the frame cap, the
//! modeled screen and its refresh rate, and the frame-time filter.

use super::readouts::{measurement_note, refresh_source, screen_model};
use super::shared::{DisplayStatus, Edits, KEEP_GIVEN, reserved_ui};
use crate::live::{ASSUMED_REFRESH_HZ, DisplayTimesBy, PresentModeId, ScreenReadouts};
use crate::timestep::{FilterSpec, MAX_AVERAGE_FRAMES};

/// Present mode and frame cap.
pub(super) fn display_ui(
    ui: &mut egui::Ui,
    edits: &mut Edits,
    display: &DisplayStatus,
    screen: &ScreenReadouts,
) {
    // The concrete modes the surface offers, and the auto modes, which always resolve.
    let offered = PresentModeId::ALL.into_iter().filter(|mode| {
        display.offered.contains(mode)
            || matches!(mode, PresentModeId::AutoVsync | PresentModeId::AutoNoVsync)
    });
    egui::ComboBox::from_label("present mode")
        .selected_text(edits.present_mode.id())
        .show_ui(ui, |ui| {
            for mode in offered {
                ui.selectable_value(&mut edits.present_mode, mode, mode.id())
                    .on_hover_text(present_mode_help(mode));
            }
        })
        .response
        .on_hover_text(present_mode_help(edits.present_mode));
    let active = display.active.map_or("none", PresentModeId::id);
    ui.small(format!(
        "active: {active} · surface offers: {}",
        display
            .offered
            .iter()
            .map(|mode| mode.id())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let settings = &mut edits.settings;
    let mut cap_on = settings.frame_cap_hz > 0.0;
    if ui
        .checkbox(&mut cap_on, "frame cap (applies without vsync)")
        .changed()
    {
        settings.frame_cap_hz = if cap_on { 60.0 } else { 0.0 };
    }
    reserved_ui(ui, cap_on, &mut settings.frame_cap_hz, 60.0, |ui, value| {
        ui.add(
            egui::Slider::new(value, 5.0..=1000.0)
                .clamping(KEEP_GIVEN)
                .logarithmic(true)
                .suffix(" fps")
                .text("cap"),
        );
    });
    ui.separator();
    let model = match screen.display_times {
        DisplayTimesBy::Model => "The screen is modeled",
        DisplayTimesBy::Measurement(_) => "The screen is measured; beside it runs the model",
    };
    ui.small(format!(
        "{model}: {} ({}). Acquiring an image blocked {:.2} ms a frame (measured over {} \
         presents). {}",
        screen_model(screen),
        refresh_source(screen.refresh_source),
        screen.acquire_wait_ms,
        screen.measured_presents,
        measurement_note(screen),
    ));
    let monitor_hz = if screen.refresh_hz > 0.0 {
        screen.refresh_hz
    } else {
        ASSUMED_REFRESH_HZ
    };
    let mut own_rate = settings.refresh_override_hz > 0.0;
    if ui
        .checkbox(&mut own_rate, "set the refresh rate")
        .on_hover_text(
            "The screen model and the snap filter use the monitor's rate unless set here",
        )
        .changed()
    {
        settings.refresh_override_hz = if own_rate { monitor_hz } else { 0.0 };
    }
    reserved_ui(
        ui,
        own_rate,
        &mut settings.refresh_override_hz,
        monitor_hz,
        |ui, value| {
            ui.add(
                egui::Slider::new(value, 24.0..=360.0)
                    .clamping(KEEP_GIVEN)
                    .suffix(" Hz")
                    .text("refresh"),
            );
        },
    );
    filter_ui(ui, &mut settings.filter);
}

/// What a present mode does, for its tooltip.
fn present_mode_help(mode: PresentModeId) -> &'static str {
    match mode {
        PresentModeId::Fifo => {
            "Vsync: each image waits for a refresh in a queue; when the queue is full the \
             loop blocks, so it runs at the refresh rate. Never tears."
        }
        PresentModeId::FifoRelaxed => {
            "Vsync, but an image that misses its refresh is shown at once (may tear) \
             instead of waiting a whole refresh."
        }
        PresentModeId::Mailbox => {
            "Vsync without blocking: each refresh shows the newest image; older waiting \
             ones are dropped. Low latency, no tearing."
        }
        PresentModeId::Immediate => {
            "No vsync: each image is shown at once, tearing the refresh being scanned out."
        }
        PresentModeId::AutoVsync => "Vsync with the best mode offered: fifo-relaxed, else fifo.",
        PresentModeId::AutoNoVsync => {
            "No vsync with the best mode offered: immediate, else mailbox, else fifo."
        }
    }
}

/// The frame-time filter between the clock and the strategies.
fn filter_ui(ui: &mut egui::Ui, filter: &mut FilterSpec) {
    ui.horizontal(|ui| {
        ui.label("filter");
        let snap = matches!(filter, FilterSpec::Snap { .. });
        let average = matches!(filter, FilterSpec::Average(_));
        if ui
            .selectable_label(*filter == FilterSpec::None, "none")
            .clicked()
        {
            *filter = FilterSpec::None;
        }
        if ui
            .selectable_label(snap, "snap")
            .on_hover_text(
                "Frame times within 1/8 of a refresh of a whole number of refreshes become \
                 that number; the difference is carried, so no time is lost (Glaiel's vsync \
                 snapping). Removes the CPU's timing wobble from motion on a vsync'd screen.",
            )
            .clicked()
            && !snap
        {
            *filter = FilterSpec::Snap { tolerance: None };
        }
        if ui
            .selectable_label(average, "average")
            .on_hover_text("The mean of the last N frame times, paying back what it holds")
            .clicked()
            && !average
        {
            *filter = FilterSpec::Average(4);
        }
    });
    let mut frames = match filter {
        FilterSpec::Average(frames) => *frames,
        _ => 4,
    };
    let average = matches!(filter, FilterSpec::Average(_));
    reserved_ui(ui, average, &mut frames, 4, |ui, value| {
        ui.add(egui::Slider::new(value, 2..=MAX_AVERAGE_FRAMES).text("frames averaged"));
    });
    if let FilterSpec::Average(kept) = filter {
        *kept = frames;
    }
}

//! The panel's record and replay row: record the live loop to a file, or control a replay
//! (pause, speed, loop, progress and seek). The window owns the recording and the replay;
//! it passes their state down as a [`RecordReplayStatus`] and takes a [`RecordReplayRequest`] back.

use egui::RichText;

use super::shared::{ALARM, RecordReplayRequest, RecordReplayStatus};
use crate::live::{REPLAY_SPEEDS, ReplayStatus};

/// The session row.
pub(super) fn record_replay_ui(
    ui: &mut egui::Ui,
    status: &RecordReplayStatus,
    request: &mut Option<RecordReplayRequest>,
) {
    match &status.replay {
        Some((source, replay)) => replay_ui(ui, source, replay, request),
        None => record_ui(ui, status.recording.as_ref(), request),
    }
    if let Some(notice) = &status.notice {
        ui.small(notice);
    }
}

/// The record button, and what is being recorded.
fn record_ui(
    ui: &mut egui::Ui,
    recording: Option<&(String, u64)>,
    request: &mut Option<RecordReplayRequest>,
) {
    ui.horizontal(|ui| match recording {
        Some((path, frames)) => {
            if ui
                .button(RichText::new("Stop recording").color(ALARM))
                .on_hover_text("Finish the file; bench --trace FILE replays it")
                .clicked()
            {
                *request = Some(RecordReplayRequest::StopRecording);
            }
            ui.label(format!("{frames} frames to {path}"));
        }
        None => {
            let (hover, small) = if cfg!(target_arch = "wasm32") {
                (
                    "Reset, then record every frame and every change you make; stopping \
                     downloads the CSV: open it on the page to replay it, or measure it with \
                     bench --trace FILE",
                    "the session to a download",
                )
            } else {
                (
                    "Reset, then write every frame and every change you make to a CSV in the \
                     current directory (or --record FILE): replay it with --replay FILE or \
                     measure it with bench --trace FILE",
                    "the session to a file",
                )
            };
            if ui.button("Record").on_hover_text(hover).clicked() {
                *request = Some(RecordReplayRequest::StartRecording);
            }
            ui.small(small);
        }
    });
}

/// Play/pause, progress with seek, speed, loop and stop.
fn replay_ui(
    ui: &mut egui::Ui,
    source: &str,
    replay: &ReplayStatus,
    request: &mut Option<RecordReplayRequest>,
) {
    ui.label(RichText::new(format!("Replaying {source}")).strong());
    let last = replay.frames.saturating_sub(1);
    let mut frame = replay.frame.min(last);
    let seek = ui.add(
        egui::Slider::new(&mut frame, 0..=last)
            .text(format!(
                "frame · {:.1} / {:.1} s",
                replay.position_s, replay.duration_s
            ))
            .clamping(egui::SliderClamping::Always),
    );
    if seek.changed() {
        *request = Some(RecordReplayRequest::Seek(frame));
    }
    let fraction = if replay.frames == 0 {
        0.0
    } else {
        replay.frame as f32 / replay.frames as f32
    };
    ui.add(egui::ProgressBar::new(fraction).desired_height(6.0));
    ui.horizontal(|ui| {
        let (label, hover) = if replay.playing {
            ("Pause", "Stop the replay's time (P)")
        } else if replay.finished {
            ("Replay again", "Replay from the start")
        } else {
            ("Play", "Run the replay's time (P)")
        };
        if ui.button(label).on_hover_text(hover).clicked() {
            *request = Some(if replay.finished {
                RecordReplayRequest::Seek(0)
            } else {
                RecordReplayRequest::Play(!replay.playing)
            });
        }
        let mut looping = replay.looping;
        if ui.checkbox(&mut looping, "loop").changed() {
            *request = Some(RecordReplayRequest::Loop(looping));
        }
        if ui
            .button("Stop replay")
            .on_hover_text("Back to the live clock, from a reset")
            .clicked()
        {
            *request = Some(RecordReplayRequest::StopReplay);
        }
    });
    let mut speed = replay.speed;
    let changed = ui
        .add(
            egui::Slider::new(&mut speed, REPLAY_SPEEDS)
                .logarithmic(true)
                .text("speed (x)")
                .max_decimals(2),
        )
        .on_hover_text("Recorded time per real time: below 1 is slow motion")
        .changed();
    if changed {
        *request = Some(RecordReplayRequest::Speed(speed));
    }
}

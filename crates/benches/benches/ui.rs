//! Cost of the UI pass without a GPU: the panel, the plots, the frame timeline and the
//! pane labels run through egui and tessellated, as `bench-render`'s `ui` stage does, for
//! one pane and six, and with parts of the UI hidden to see what costs what.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use timestep_lab::app::UiPass;
use timestep_lab::live::{LiveLoop, LiveSettings, Panes, VirtualStopwatch};
use timestep_lab::timestep::Strategy;
use timestep_lab::ui::{DisplayStatus, PanelState, ShellStatus};

/// A 60 Hz loop with `panes` panes after two seconds.
fn warmed_up(panes: usize) -> LiveLoop<VirtualStopwatch> {
    let settings = if panes > 1 {
        LiveSettings {
            compare: true,
            panes: Panes::new(&Strategy::ALL[..panes]).expect("2 to 6 panes"),
            ..LiveSettings::default()
        }
    } else {
        LiveSettings::default()
    };
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid");
    live.frame();
    for _ in 0..120 {
        live.stopwatch_mut().advance(16_666_667);
        live.frame();
    }
    live
}

/// egui's input for a 1280 × 720 target at `time` seconds.
fn input(time: f64) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 720.0),
        )),
        time: Some(time),
        ..egui::RawInput::default()
    }
}

fn ui_pass(c: &mut Criterion) {
    let shell = ShellStatus {
        display: DisplayStatus {
            adapter: "bench adapter".into(),
            ..DisplayStatus::default()
        },
        ..ShellStatus::default()
    };
    let parts = [
        ("all", true, true),
        ("panel_only", true, false),
        ("timeline_only", false, true),
        ("labels_only", false, false),
    ];
    for panes in [1, 6] {
        for (name, visible, timeline) in parts {
            c.bench_function(&format!("ui_pass_{panes}_panes_{name}"), |b| {
                let mut live = warmed_up(panes);
                let ctx = egui::Context::default();
                let mut state = PanelState {
                    visible,
                    timeline,
                    ..PanelState::default()
                };
                let mut frame = 0u32;
                b.iter(|| {
                    live.stopwatch_mut().advance(16_666_667);
                    live.frame();
                    let snapshot = live.snapshot();
                    frame += 1;
                    let pass = UiPass::run(
                        &ctx,
                        input(f64::from(frame) / 60.0),
                        &mut state,
                        &snapshot,
                        &shell,
                        (1280, 720),
                    );
                    black_box(pass.primitives.len())
                })
            });
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(40).warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = ui_pass
}
criterion_main!(benches);

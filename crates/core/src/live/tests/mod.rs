//! The live loop on the virtual clock: exact frame times in, what a window would show out.

mod compare;
mod controls;
mod cost;
mod ramp;
mod screen;
mod spiral;

use super::*;
use crate::timestep::Nanos;

const MS: Nanos = 1_000_000;
/// One 60 Hz display period, rounded to the nanosecond.
const FRAME_60HZ: Nanos = 16_666_667;

fn live(settings: LiveSettings) -> LiveLoop<VirtualStopwatch> {
    LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings")
}

/// Runs one frame after `render` of real time passes (rendering / waiting for the display).
fn frame_after(lab: &mut LiveLoop<VirtualStopwatch>, render: Nanos) -> LiveFrame {
    lab.stopwatch_mut().advance(render);
    lab.frame()
}

/// A loop on a screen of `mode` at `hz`, fed `frames` of real time (after a first frame).
fn on_screen(
    settings: LiveSettings,
    mode: PresentModeId,
    hz: f64,
    frames: impl IntoIterator<Item = Nanos>,
) -> LiveLoop<VirtualStopwatch> {
    let mut lab = live(settings);
    lab.set_screen(ScreenFacts {
        present_mode: Some(mode),
        monitor_hz: Some(hz),
    });
    lab.frame();
    for frame in frames {
        frame_after(&mut lab, frame);
    }
    lab
}

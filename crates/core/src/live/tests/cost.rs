//! What a frame costs: nothing a frame does walks the frames of a window, so a loop at
//! 1000 Hz pays per frame what one at 60 Hz pays (a headless `render` of an hour runs
//! 3.6 million of them).

use super::*;
use crate::live::history::FRAMES_READ;
use crate::timestep::Strategy;

/// Frames the readouts have read on this thread so far.
fn frames_read() -> u64 {
    FRAMES_READ.with(std::cell::Cell::get)
}

/// A comparison of every strategy on a FIFO screen at `hz`, run for `seconds` of frames
/// on its refresh grid, as `render` runs it.
fn run_at(hz: f64, seconds: u64) -> LiveLoop<VirtualStopwatch> {
    let refresh = crate::display::Refresh::new(hz).expect("a valid rate");
    let frames = (1..=(hz as u64 * seconds)).map(|k| refresh.at(k) - refresh.at(k - 1));
    let settings = LiveSettings {
        compare: true,
        panes: Panes::new(&Strategy::ALL).expect("the lab's strategies"),
        ..LiveSettings::default()
    };
    on_screen(settings, PresentModeId::Fifo, hz, frames)
}

#[test]
fn a_frame_reads_no_readout_window_at_any_rate() {
    for hz in [60.0, 1000.0] {
        let before = frames_read();
        let lab = run_at(hz, 3);
        assert_eq!(
            frames_read() - before,
            0,
            "{hz} Hz: frames read the readout window"
        );
        // Read, the readouts cost the last second once per pane: 1001 frames at 1000 Hz
        // (both ends of the second included), 61 at 60 Hz.
        let panes = lab.panes().len() as u64;
        let before = frames_read();
        let readouts = lab.snapshot().readouts;
        let window = hz as u64 + 1;
        assert_eq!(readouts.window.frames, window);
        // The focused pane is read once: the slow-loop offer takes the same numbers.
        assert_eq!(frames_read() - before, panes * window, "{hz} Hz");
    }
}

//! `bench` over a recording: the recording replayed through the live loop itself
//! ([`replay_all`]), once per strategy, so each row is what the window would have measured
//! had it run that strategy on the very same frames, requests and presents — and the row of
//! the strategy the window ran is what it measured, to the last bit.

use std::sync::Arc;

use super::BenchResult;
use crate::live::{Recording, replay_all};
use crate::metrics::FrameTail;
use crate::timestep::{RangeError, Strategy};

/// Replays `recording` once per strategy.
pub fn run_recording(
    recording: &Arc<Recording>,
    strategies: &[Strategy],
) -> Result<Vec<BenchResult>, RangeError> {
    strategies
        .iter()
        .map(|&strategy| {
            let live = replay_all(recording, Some(strategy))?;
            let mut tail = FrameTail::new(recording.frames.len());
            let mut wall_time = 0u64;
            for frame in &recording.frames {
                tail.record(frame.frame_time);
                wall_time = wall_time.saturating_add(frame.frame_time);
            }
            let pane = &live.panes()[0];
            Ok(BenchResult {
                strategy,
                metrics: pane.run_metrics(),
                wall_time,
                dropped: pane.sim().engine().dropped(),
                spiral: live.spiralling(),
                frozen: false,
                display: live.screen().counts(),
                refresh_grid: live.screen().spec().is_modeled(),
                frame_time_p99: tail.p99(),
                frame_time_max: tail.max(),
                input: pane.input_stats(),
            })
        })
        .collect()
}

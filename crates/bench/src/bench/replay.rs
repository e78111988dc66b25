//! `bench` over a recording: the recording replayed through the live loop itself
//! ([`replay_all`]), once per strategy, so each row is what the window would have measured
//! had it run that strategy on the very same frames, requests and presents — and the row of
//! the strategy the window ran is what it measured, to the last bit.
//!
//! Every replay reads the recording's file again (see [`Recording`]); only its frame times
//! are held, packed, for the statistics: a ten-million-frame recording replays in tens of
//! megabytes.

use std::sync::Arc;

use super::{BenchError, BenchResult};
use crate::live::{Recording, replay_all};
use crate::metrics::{FrameTail, PackedFrameTimes};
use crate::timestep::Strategy;

/// Replays `recording` once per strategy; `frame_times` are its frame times, packed (a few
/// bytes a frame, see [`PackedFrameTimes`]) as the recording was read and checked: the
/// tail of each row is taken from them instead of from another pass over the file.
pub fn run_recording(
    recording: &Arc<Recording>,
    frame_times: &PackedFrameTimes,
    strategies: &[Strategy],
) -> Result<Vec<BenchResult>, BenchError> {
    let mut tail = FrameTail::new(frame_times.len());
    let mut wall_time = 0u64;
    for frame_time in frame_times.iter() {
        tail.record(frame_time);
        wall_time = wall_time.saturating_add(frame_time);
    }
    strategies
        .iter()
        .map(|&strategy| {
            let live = replay_all(recording, Some(strategy))?;
            let pane = &live.panes()[0];
            Ok(BenchResult {
                strategy,
                metrics: pane.run_metrics(),
                wall_time,
                dropped: pane.sim().engine().dropped(),
                carried: pane.sim().engine().accumulator(),
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

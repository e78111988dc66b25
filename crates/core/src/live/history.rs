//! The last few seconds of frames: what the live readouts and plots are computed from.

use crate::metrics::Smoothness;
use crate::ring::Ring;
use crate::stats::select_percentile;
use crate::timestep::{Nanos, ms_from_ns};

/// Frames the history keeps: several seconds even at the thousands of frames per second an
/// uncapped, non-vsync loop reaches.
pub const HISTORY_CAPACITY: usize = 8192;

/// Length of the sliding window the live readouts average over.
pub const READOUT_SPAN: Nanos = 1_000_000_000;

/// What became of a frame's image on the (modeled) screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnScreen {
    /// Not settled yet: presented at the end of the frame, shown at a later refresh.
    #[default]
    Pending,
    /// Its image reached the screen.
    Shown {
        /// When, on the loop's stopwatch.
        at: Nanos,
        /// `D_i` on the strategy's clock, as `presented_time` is `T_i`.
        display_time: Nanos,
    },
    /// Replaced before a refresh showed it.
    Dropped,
}

/// One render frame, as the live loop saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameSample {
    /// Real time the frame started, since the loop started.
    pub wall: Nanos,
    /// Real frame time measured (including load carried from the last frame).
    pub real_frame: Nanos,
    /// Frame time fed to the strategy: `real_frame` after pause and time scale, before the
    /// guards (simulated-time nanoseconds, like every field below).
    pub fed: Nanos,
    /// Time the frame had to simulate (carried accumulator plus the used frame time).
    pub owed: Nanos,
    /// Steps taken.
    pub steps: u32,
    /// Accumulator over dt after stepping.
    pub alpha: f32,
    /// Time dropped by the guards this frame.
    pub dropped: Nanos,
    /// `T_i`: real time the frame is shown at.
    pub presented_time: Nanos,
    /// `S_i`: simulated time of the drawn state.
    pub shown_time: Nanos,
    /// Simulated time of the latest state after the frame's steps. The frame's steps
    /// covered the time from the previous frame's `latest_time` up to this one.
    pub latest_time: Nanos,
    /// Whether smoothness metrics count this frame (a step happened in an earlier frame).
    pub judged: bool,
    /// Real time carried to the next frame (the accumulator), in the simulation's time base.
    pub accumulator: Nanos,
    /// The frame's sequence number on the screen.
    pub frame: u64,
    /// What became of its image.
    pub screen: OnScreen,
    /// How far `T` moved between the previous frame and this one without time passing: a
    /// resync on leaving `fixed` (see [`crate::timestep::Engine::resync`]), ns; almost
    /// always 0. `presented_time` and the display time are on the moved clock from this
    /// frame on.
    pub rebase: i64,
}

#[cfg(test)]
thread_local! {
    /// Frames [`History::stats`] has read on this thread: what a test counts to show that
    /// a frame never walks the readout window.
    pub(crate) static FRAMES_READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Recent frames, oldest first: a ring that never allocates after creation. The default
/// holds [`HISTORY_CAPACITY`] frames.
pub type History = Ring<FrameSample>;

impl Default for History {
    fn default() -> Self {
        Ring::new(HISTORY_CAPACITY)
    }
}

impl History {
    /// Records what the screen did with frame `frame`, if the history still holds it.
    pub fn settle(&mut self, frame: u64, screen: OnScreen) {
        let Some(newest) = self.latest().map(|sample| sample.frame) else {
            return;
        };
        let Some(back) = newest.checked_sub(frame) else {
            return;
        };
        if let Some(sample) = usize::try_from(back)
            .ok()
            .and_then(|back| self.newest_mut(back))
            && sample.frame == frame
        {
            sample.screen = screen;
        }
    }

    /// Frames that started within `window` of the newest one, oldest first. Costs the
    /// number of frames in the window, not the size of the history.
    pub fn recent(&self, window: Nanos) -> impl Iterator<Item = &FrameSample> + '_ {
        let newest = self.latest().map_or(0, |s| s.wall);
        let from = newest.saturating_sub(window);
        let count = self.iter().rev().take_while(|s| s.wall >= from).count();
        self.iter_from(self.len() - count)
    }

    /// Readouts over the frames of the last `window`. Costs the frames in the window, so
    /// it is computed when read, never per frame (see [`crate::live::Pane::window_stats`]);
    /// it does not allocate: the frame times for the percentiles are selected on the stack,
    /// and a window never holds more than the [`HISTORY_CAPACITY`] frames a history keeps.
    pub fn stats(&self, window: Nanos) -> SpanStats {
        // Filled as the window is read, never zeroed first: the array is 64 KiB, a
        // second's window holds a few hundred frames, and the panel's readouts ask for
        // every pane's every frame.
        let mut frame_times = arrayvec::ArrayVec::<Nanos, HISTORY_CAPACITY>::new();
        let mut stats = SpanStats::default();
        let mut steps_sum = 0u64;
        let mut smoothness = Smoothness::default();
        let mut screen = Smoothness::default();
        let mut first_wall = None;
        // The game's clock: simulated time plus what is carried to simulate next. Unlike the
        // latest state's time alone it does not jump by whole steps.
        let game_clock = |s: &FrameSample| s.latest_time.saturating_add(s.accumulator);
        let mut first_clock = None;
        for sample in self.recent(window) {
            first_wall.get_or_insert(sample.wall);
            first_clock.get_or_insert(game_clock(sample));
            // A window never holds more than the history keeps.
            let _ = frame_times.try_push(sample.real_frame);
            stats.frames += 1;
            steps_sum += u64::from(sample.steps);
            stats.steps_max = stats.steps_max.max(sample.steps);
            stats.dropped = stats.dropped.saturating_add(sample.dropped);
            if sample.rebase != 0 {
                smoothness.rebase(sample.rebase);
                screen.rebase(sample.rebase);
            }
            smoothness.record(sample.presented_time, sample.shown_time, sample.judged);
            match sample.screen {
                OnScreen::Shown { display_time, .. } => {
                    screen.record(display_time, sample.shown_time, sample.judged);
                }
                OnScreen::Dropped => stats.dropped_frames += 1,
                OnScreen::Pending => {}
            }
        }
        #[cfg(test)]
        FRAMES_READ.with(|read| read.set(read.get() + stats.frames));
        if stats.frames == 0 {
            return stats;
        }
        stats.steps_mean = steps_sum as f64 / stats.frames as f64;
        stats.latency_ms = smoothness.latency_ms();
        stats.judder_ms = smoothness.judder_ms();
        stats.display_latency_ms = (screen.judged() > 0).then(|| screen.latency_ms());
        stats.display_judder_ms = (screen.judder_terms() > 0).then(|| screen.judder_ms());
        // The bench's definitions: nearest-rank percentiles of the real frame times.
        if let (Some(p50), Some(p99)) = (
            select_percentile(&mut frame_times, 0.50),
            select_percentile(&mut frame_times, 0.99),
        ) {
            stats.frame_time_p50_ms = ms_from_ns(p50);
            stats.frame_time_p99_ms = ms_from_ns(p99);
        }
        let newest = self.latest().map_or(0, |s| s.wall);
        let span = newest.saturating_sub(first_wall.unwrap_or(newest));
        if stats.frames > 1 && span > 0 {
            stats.fps = (stats.frames - 1) as f64 * 1e9 / span as f64;
            let clock = self.latest().map_or(0, game_clock);
            let simulated = clock.saturating_sub(first_clock.unwrap_or(clock));
            stats.sim_speed = simulated as f64 / span as f64;
        }
        stats
    }
}

/// The live readouts over a sliding window.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpanStats {
    /// Frames in the window.
    pub frames: u64,
    /// Frames per second.
    pub fps: f64,
    /// Median real frame time, ms.
    pub frame_time_p50_ms: f64,
    /// 99th percentile real frame time, ms.
    pub frame_time_p99_ms: f64,
    /// Mean steps per frame.
    pub steps_mean: f64,
    /// Most steps in one frame.
    pub steps_max: u32,
    /// Time dropped by the guards in the window.
    pub dropped: Nanos,
    /// Mean `T_i - S_i`, ms.
    pub latency_ms: f64,
    /// RMS of `(S_i - S_{i-1}) - (T_i - T_{i-1})`, ms.
    pub judder_ms: f64,
    /// Mean `D_i - S_i` over frames shown on the screen, ms; `None` where none was.
    pub display_latency_ms: Option<f64>,
    /// RMS animation error `(S_i - S_j) - (D_i - D_j)` over frames shown, ms; `None`
    /// where no shown frame followed another.
    pub display_judder_ms: Option<f64>,
    /// Frames whose image the modeled screen never showed.
    pub dropped_frames: u64,
    /// Simulated time advanced over real time elapsed in the window: 1 keeps up, below 1
    /// the game runs slow (a step cap, the time scale, a spiral guard dropping time).
    pub sim_speed: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Nanos = 1_000_000;

    fn sample(wall: Nanos, real_frame: Nanos) -> FrameSample {
        FrameSample {
            wall,
            real_frame,
            presented_time: wall,
            shown_time: wall,
            judged: true,
            steps: 1,
            ..FrameSample::default()
        }
    }

    #[test]
    fn window_keeps_only_recent_frames() {
        let mut history = History::default();
        for i in 0..300 {
            history.push(sample(i * 10 * MS, 10 * MS));
        }
        let stats = history.stats(READOUT_SPAN);
        // Frames at 1.99 s .. 2.99 s inclusive.
        assert_eq!(stats.frames, 101);
        assert!((stats.fps - 100.0).abs() < 1e-9);
        assert_eq!(stats.frame_time_p50_ms, 10.0);
        assert_eq!(stats.latency_ms, 0.0);
        assert_eq!(stats.judder_ms, 0.0);
        assert_eq!(stats.steps_mean, 1.0);
        // The samples' simulated time does not advance: nothing is simulated.
        assert_eq!(stats.sim_speed, 0.0);
    }

    #[test]
    fn percentiles_see_the_slow_frame() {
        let mut history = History::default();
        let mut wall = 0;
        for i in 0..100 {
            let frame = if i == 50 || i == 70 { 80 * MS } else { 10 * MS };
            wall += frame;
            history.push(sample(wall, frame));
        }
        let stats = history.stats(10 * READOUT_SPAN);
        assert_eq!(stats.frame_time_p50_ms, 10.0);
        assert_eq!(stats.frame_time_p99_ms, 80.0);
    }

    #[test]
    fn judder_measures_uneven_shown_motion() {
        let mut history = History::default();
        // Shown time advances 20, 0, 20, 0 ... while real time advances 10 each frame.
        for i in 0..10u64 {
            history.push(FrameSample {
                wall: i * 10 * MS,
                real_frame: 10 * MS,
                presented_time: i * 10 * MS,
                shown_time: (i / 2) * 20 * MS,
                judged: true,
                ..FrameSample::default()
            });
        }
        let stats = history.stats(READOUT_SPAN);
        assert!((stats.judder_ms - 10.0).abs() < 1e-9, "{}", stats.judder_ms);
    }

    #[test]
    fn a_resync_is_not_judder() {
        let mut history = History::default();
        // Even motion, 10 ms a frame; between frames 4 and 5 `T` moves back 3 s (a resync)
        // and so does the display time, 5 ms after `T`.
        for i in 0..10u64 {
            let rebase = if i == 5 { -3_000 * MS as i64 } else { 0 };
            let clock = if i >= 5 { 0 } else { 3_000 * MS };
            let presented_time = clock + i * 10 * MS;
            history.push(FrameSample {
                wall: i * 10 * MS,
                real_frame: 10 * MS,
                presented_time,
                shown_time: i * 10 * MS,
                judged: true,
                screen: OnScreen::Shown {
                    at: i * 10 * MS + 5 * MS,
                    display_time: presented_time + 5 * MS,
                },
                rebase,
                ..FrameSample::default()
            });
        }
        let stats = history.stats(READOUT_SPAN);
        assert_eq!(stats.judder_ms, 0.0);
        assert_eq!(stats.display_judder_ms, Some(0.0));
        // Latency is each frame's own `T - S`: 3 s for the five before, 0 after.
        assert!(
            (stats.latency_ms - 1_500.0).abs() < 1e-9,
            "{}",
            stats.latency_ms
        );
    }

    #[test]
    fn the_ring_wraps_without_losing_order() {
        let mut history = History::default();
        for i in 0..(HISTORY_CAPACITY as u64 + 10) {
            history.push(sample(i, 1));
        }
        assert_eq!(history.len(), HISTORY_CAPACITY);
        assert_eq!(history.iter().next().map(|s| s.wall), Some(10));
        assert!(
            history
                .iter()
                .zip(history.iter().skip(1))
                .all(|(a, b)| b.wall == a.wall + 1)
        );
        history.clear();
        assert!(history.is_empty());
        assert_eq!(history.stats(READOUT_SPAN).frames, 0);
    }
}

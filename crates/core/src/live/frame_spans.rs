//! The loop's frame times over the three windows the panel's frame statistics offer: the
//! last second, the last ten seconds, and the whole session (since the start or the last
//! reset), each read by [`FrameStats`], the bench's trace statistics.
//!
//! The frame times are the loop's real frame times (`real_frame`: the stopwatch time
//! between two frame starts, plus artificial load carried in), the ones the history's
//! readouts use and a recording holds; frames paused without time are left out, as the
//! history leaves them. Every pane is fed the same frame times, so there is one set per
//! loop. A frame is in a window when it started within the window's length of the newest
//! frame's start, as in [`super::History::recent`].
//!
//! Memory is fixed at creation ([`FRAME_SPANS_BYTES`], 3.9 MiB):
//! - the 1 s and 10 s windows keep their frames exactly, ordered by length as they arrive
//!   ([`OrderedFrames`]: no frame sorts a window again, and a frame in or out costs the
//!   logarithm of the frames held, not their number, which at 1000 Hz is ten thousand),
//!   up to [`RECENT_FRAMES`] frames: ten seconds at [`RECENT_FULL_FPS`]; a faster
//!   loop's windows hold its newest [`RECENT_FRAMES`] frames and say so
//!   ([`SpanFrameStats::truncated`]);
//! - the session is a [`FrameHistogram`]: exact frame count, total time, average fps and
//!   longest frame, the percentiles and lows within 1/1024 (see its module), however long
//!   the session (a whole session exactly would grow by 8 bytes a frame, 29 MB an hour at
//!   1000 fps, and cost a sort of millions of frames to read).

use std::collections::VecDeque;

use crate::metrics::{
    AscendingFrames, FrameHistogram, FrameStats, FrameSum, HISTOGRAM_BYTES, OrderedFrames,
};
use crate::timestep::{NANOS_PER_SECOND, Nanos};

/// The fastest loop, in frames per second, whose last ten seconds the 10 s window holds
/// whole: well past a 1000 Hz frame cap and what an uncapped loop drawing this scene
/// reaches on a desktop GPU.
pub const RECENT_FULL_FPS: usize = 4000;

/// Frames the 1 s and 10 s windows hold at most: ten seconds at [`RECENT_FULL_FPS`].
pub const RECENT_FRAMES: usize = 10 * RECENT_FULL_FPS;

/// Memory [`FrameSpans`] holds, however long the session: the recent frames (start and
/// frame time), room in each of the two windows for as many distinct frame times, and
/// the session's histogram.
pub const FRAME_SPANS_BYTES: usize = RECENT_FRAMES
    * (size_of::<RecentFrame>() + 2 * OrderedFrames::BYTES_PER_TIME)
    + HISTOGRAM_BYTES;

/// A window the frame statistics are taken over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StatsSpan {
    /// The frames that started within the last second (the other readouts' window).
    #[default]
    OneSecond,
    /// The frames that started within the last ten seconds.
    TenSeconds,
    /// Every frame since the start or the last reset.
    Session,
}

impl StatsSpan {
    /// Every window, shortest first.
    pub const ALL: [Self; 3] = [Self::OneSecond, Self::TenSeconds, Self::Session];

    /// The window in a few characters, for a selector.
    pub fn label(self) -> &'static str {
        match self {
            Self::OneSecond => "1 s",
            Self::TenSeconds => "10 s",
            Self::Session => "session",
        }
    }

    /// How far back the window reaches; `None` for the whole session.
    pub fn length(self) -> Option<Nanos> {
        match self {
            Self::OneSecond => Some(NANOS_PER_SECOND),
            Self::TenSeconds => Some(10 * NANOS_PER_SECOND),
            Self::Session => None,
        }
    }
}

/// One recent frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RecentFrame {
    /// When it started, on the loop's stopwatch.
    wall: Nanos,
    /// Its real frame time.
    real_frame: Nanos,
}

/// A window's frame times, for [`FrameStats`] and the plots: in order (the 1 s and 10 s
/// windows, exact) or the session's histogram.
#[derive(Clone, Copy, Debug)]
pub enum SpanFrames<'a> {
    /// The window's frame times, in order.
    Ordered(&'a OrderedFrames),
    /// The session's frame times.
    Histogram(&'a FrameHistogram),
}

impl AscendingFrames for SpanFrames<'_> {
    fn all(&self) -> FrameSum {
        match self {
            Self::Ordered(frames) => frames.all(),
            Self::Histogram(frames) => frames.all(),
        }
    }

    fn at_rank(&self, rank: u64) -> Nanos {
        match self {
            Self::Ordered(frames) => frames.at_rank(rank),
            Self::Histogram(frames) => frames.at_rank(rank),
        }
    }

    fn longest(&self, count: u64) -> FrameSum {
        match self {
            Self::Ordered(frames) => frames.longest(count),
            Self::Histogram(frames) => frames.longest(count),
        }
    }

    fn longer_than(&self, threshold: Nanos) -> FrameSum {
        match self {
            Self::Ordered(frames) => frames.longer_than(threshold),
            Self::Histogram(frames) => frames.longer_than(threshold),
        }
    }

    fn for_each_run(&self, each: impl FnMut(Nanos, u64) -> bool) {
        match self {
            Self::Ordered(frames) => frames.for_each_run(each),
            Self::Histogram(frames) => frames.for_each_run(each),
        }
    }
}

/// The frame statistics over one window.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpanFrameStats {
    /// The statistics; `None` before the first frame.
    pub stats: Option<FrameStats>,
    /// Whether frames of the window were let go for room (a loop faster than
    /// [`RECENT_FULL_FPS`]): the statistics are of its newest [`RECENT_FRAMES`] frames.
    pub truncated: bool,
}

/// The frame statistics over every window, as of the last frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStatsReadouts {
    /// Over the last second.
    pub one_second: SpanFrameStats,
    /// Over the last ten seconds.
    pub ten_seconds: SpanFrameStats,
    /// Over the session (percentiles and lows within 1/1024).
    pub session: SpanFrameStats,
}

impl FrameStatsReadouts {
    /// The statistics over `window`.
    pub fn get(&self, window: StatsSpan) -> &SpanFrameStats {
        match window {
            StatsSpan::OneSecond => &self.one_second,
            StatsSpan::TenSeconds => &self.ten_seconds,
            StatsSpan::Session => &self.session,
        }
    }
}

/// The loop's frame times over the last second, the last ten seconds and the session, in
/// [`FRAME_SPANS_BYTES`] allocated at creation. Recording a frame never allocates.
#[derive(Clone, Debug)]
pub struct FrameSpans {
    /// The frames of the 10 s window, oldest first.
    recent: VecDeque<RecentFrame>,
    /// How many of the newest `recent` frames are in the 1 s window.
    one_second_frames: usize,
    /// The 1 s window's frame times.
    one_second: OrderedFrames,
    /// The 10 s window's frame times.
    ten_seconds: OrderedFrames,
    /// Every frame of the session.
    session: FrameHistogram,
    /// When the newest frame let go for room started; `None` when none was.
    let_go: Option<Nanos>,
}

impl Default for FrameSpans {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameSpans {
    /// Empty windows.
    pub fn new() -> Self {
        Self {
            recent: VecDeque::with_capacity(RECENT_FRAMES),
            one_second_frames: 0,
            one_second: OrderedFrames::new(RECENT_FRAMES),
            ten_seconds: OrderedFrames::new(RECENT_FRAMES),
            session: FrameHistogram::new(),
            let_go: None,
        }
    }

    /// Records a frame that started at `wall` on the loop's stopwatch and took
    /// `real_frame`; frames older than a window leave it.
    pub fn record(&mut self, wall: Nanos, real_frame: Nanos) {
        if self.recent.len() == RECENT_FRAMES {
            let in_one_second = self.one_second_frames == self.recent.len();
            if let Some(oldest) = self.pop_oldest() {
                if in_one_second {
                    remove(&mut self.one_second, oldest.real_frame);
                    self.one_second_frames -= 1;
                }
                self.let_go = Some(oldest.wall);
            }
        }
        self.recent.push_back(RecentFrame { wall, real_frame });
        self.one_second.insert(real_frame);
        self.ten_seconds.insert(real_frame);
        self.one_second_frames += 1;
        self.session.record(real_frame);
        // The 1 s window is the newest frames of the 10 s one: it lets go first.
        let from = wall.saturating_sub(NANOS_PER_SECOND);
        while self.one_second_frames > 0 {
            let oldest = self.recent[self.recent.len() - self.one_second_frames];
            if oldest.wall >= from {
                break;
            }
            remove(&mut self.one_second, oldest.real_frame);
            self.one_second_frames -= 1;
        }
        let from = wall.saturating_sub(10 * NANOS_PER_SECOND);
        while self.recent.front().is_some_and(|oldest| oldest.wall < from) {
            self.pop_oldest();
        }
    }

    /// Takes the oldest frame out of the 10 s window.
    fn pop_oldest(&mut self) -> Option<RecentFrame> {
        let oldest = self.recent.pop_front()?;
        remove(&mut self.ten_seconds, oldest.real_frame);
        Some(oldest)
    }

    /// Forgets every frame: a new session.
    pub fn clear(&mut self) {
        self.recent.clear();
        self.one_second_frames = 0;
        self.one_second.clear();
        self.ten_seconds.clear();
        self.session.clear();
        self.let_go = None;
    }

    /// The frame times of `window`.
    pub fn frames(&self, window: StatsSpan) -> SpanFrames<'_> {
        match window {
            StatsSpan::OneSecond => SpanFrames::Ordered(&self.one_second),
            StatsSpan::TenSeconds => SpanFrames::Ordered(&self.ten_seconds),
            StatsSpan::Session => SpanFrames::Histogram(&self.session),
        }
    }

    /// The frame statistics over `window`.
    pub fn stats(&self, window: StatsSpan) -> SpanFrameStats {
        let newest = self.recent.back().map_or(0, |frame| frame.wall);
        let truncated = match (window.length(), self.let_go) {
            (Some(length), Some(wall)) => wall >= newest.saturating_sub(length),
            _ => false,
        };
        SpanFrameStats {
            stats: FrameStats::from_ascending(&self.frames(window)),
            truncated,
        }
    }

    /// The frame statistics over every window.
    pub fn readouts(&self) -> FrameStatsReadouts {
        FrameStatsReadouts {
            one_second: self.stats(StatsSpan::OneSecond),
            ten_seconds: self.stats(StatsSpan::TenSeconds),
            session: self.stats(StatsSpan::Session),
        }
    }

    /// The memory held, bytes: [`FRAME_SPANS_BYTES`] (or a little more, as the
    /// allocator rounds), the same after any number of frames.
    pub fn memory_bytes(&self) -> usize {
        self.recent.capacity() * size_of::<RecentFrame>()
            + self.one_second.memory_bytes()
            + self.ten_seconds.memory_bytes()
            + self.session.memory_bytes()
    }
}

/// Takes one `frame` out of a window that holds it.
fn remove(window: &mut OrderedFrames, frame: Nanos) {
    let held = window.remove(frame);
    debug_assert!(held, "a frame the window never had");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timestep::ms_from_ns;

    const MS: Nanos = 1_000_000;

    /// Windows after `frames` frames of `frame` each, back to back from `start`; returns
    /// where the next frame starts.
    fn run(windows: &mut FrameSpans, start: Nanos, frames: u64, frame: Nanos) -> Nanos {
        let mut wall = start;
        for _ in 0..frames {
            wall += frame;
            windows.record(wall, frame);
        }
        wall
    }

    #[test]
    fn each_window_sees_only_its_frames() {
        // 10 s of 60 Hz frames (600 of 16.666667 ms), then 1 s of 30 Hz frames (30 of
        // 33.333333 ms). A frame's start is the previous one's plus its time.
        let (fast, slow) = (16_666_667, 33_333_333);
        let mut windows = FrameSpans::new();
        let end = run(&mut windows, 0, 600, fast);
        let end = run(&mut windows, end, 30, slow);
        let stats = |window| windows.stats(window).stats.expect("frames");

        // The last second: the newest frame started at `end`; the 30 slow frames started
        // within 0.97 s of it, and the fast frame before them 1.0 s before it exactly
        // (30 * 33.333333 ms = 999.99999 ms): 31 frames, one of them fast.
        let second = stats(StatsSpan::OneSecond);
        assert_eq!(second.all.frames, 31);
        assert_eq!(second.all.time, fast + 30 * slow);
        assert_eq!((second.p50, second.max), (slow, slow));
        // Upper median 33.3 ms: a hitch would be over 66.7 ms.
        assert_eq!(second.hitch_threshold, Some(2 * slow));
        assert_eq!(second.hitches.frames, 0);

        // The last ten seconds: frames starting at end - 10 s = 1000.00019 ms or later.
        // Fast frame i starts at i * 16.666667 ms: the 60th at 1000.00002 ms is out, the
        // 61st to the 600th are in.
        let ten = stats(StatsSpan::TenSeconds);
        assert_eq!(end - 10_000 * MS, 1_000_000_190);
        assert_eq!(ten.all.frames, 540 + 30);
        assert_eq!(ten.all.time, 540 * fast + 30 * slow);
        // 540 fast, 30 slow: P90 (rank 513) fast, P95 (rank 542) slow.
        assert_eq!((ten.p50, ten.p90, ten.p95), (fast, fast, slow));
        // The upper median is fast: slow frames are not over twice it (33.333333 <
        // 33.333334 ms).
        assert_eq!(ten.hitch_threshold, Some(2 * fast));
        assert_eq!(ten.hitches.frames, 0);
        // The slowest 1%: ceil(5.71) = 6 frames, all slow: 30 fps.
        assert_eq!(ten.slowest_1_percent.frames, 6);
        assert_eq!(ten.slowest_1_percent.time, 6 * slow);

        // The session: all 630 frames, read through the histogram (each bucket holds
        // equal frames: exact).
        let session = stats(StatsSpan::Session);
        assert_eq!(session.all.frames, 630);
        assert_eq!(session.all.time, 600 * fast + 30 * slow);
        // Ranks 1 to 600 are fast: P95 (rank 599) too, P99 (rank 624) is slow.
        assert_eq!((session.p50, session.p95, session.p99), (fast, fast, slow));
        assert_eq!(
            session,
            FrameStats::from_frame_times(
                std::iter::repeat_n(fast, 600).chain(std::iter::repeat_n(slow, 30)),
                &mut Vec::new()
            )
            .expect("frames")
        );
        for window in StatsSpan::ALL {
            assert!(!windows.stats(window).truncated);
        }
    }

    #[test]
    fn the_live_loop_reads_its_real_frame_times_as_the_bench_reads_a_trace() {
        use crate::live::{LiveLoop, LiveSettings, VirtualStopwatch};
        let (fast, slow) = (16_666_667, 33_333_333);
        let mut live =
            LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default()).expect("valid");
        // The first frame has no previous one: zero time. Then 10 s at 60 Hz, 1 s at 30 Hz.
        live.frame();
        let mut frames = vec![0];
        for frame in std::iter::repeat_n(fast, 600).chain(std::iter::repeat_n(slow, 30)) {
            live.stopwatch_mut().advance(frame);
            live.frame();
            frames.push(frame);
        }
        let readouts = live.snapshot().readouts;
        let bench = |frames: &[Nanos]| {
            FrameStats::from_frame_times(frames.iter().copied(), &mut Vec::new())
        };
        // The session: every frame, as `bench --trace` would read them.
        assert_eq!(readouts.frame_stats.session.stats, bench(&frames));
        // The last second: the last fast frame and the 30 slow ones (see
        // `each_window_sees_only_its_frames`), and the same frame-time percentiles as the
        // readouts over the last second.
        let second = readouts.frame_stats.one_second.stats.expect("frames");
        assert_eq!(Some(second), bench(&frames[600..]));
        assert_eq!(ms_from_ns(second.p50), readouts.window.frame_time_p50_ms);
        assert_eq!(ms_from_ns(second.p99), readouts.window.frame_time_p99_ms);
        // The last ten seconds: the 61st fast frame on.
        let ten = readouts.frame_stats.ten_seconds.stats;
        assert_eq!(ten, bench(&frames[61..]));
        // Frames paused without time are not frames of the run; a reset starts a session.
        live.set_paused(true);
        for _ in 0..10 {
            live.stopwatch_mut().advance(fast);
            live.frame();
        }
        assert_eq!(
            live.frame_spans().stats(StatsSpan::Session).stats,
            bench(&frames)
        );
        live.reset();
        assert_eq!(
            live.snapshot().readouts.frame_stats,
            FrameStatsReadouts::default()
        );
    }

    #[test]
    fn a_hitch_leaves_the_short_windows_but_stays_in_the_session() {
        let mut windows = FrameSpans::new();
        let end = run(&mut windows, 0, 60, 16 * MS);
        let end = run(&mut windows, end, 1, 500 * MS);
        let max = |windows: &FrameSpans, window| windows.stats(window).stats.expect("frames").max;
        assert_eq!(max(&windows, StatsSpan::OneSecond), 500 * MS);
        // 1.5 s later the hitch has left the 1 s window only; 10 s later, the 10 s one.
        let end = run(&mut windows, end, 94, 16 * MS);
        assert_eq!(max(&windows, StatsSpan::OneSecond), 16 * MS);
        assert_eq!(max(&windows, StatsSpan::TenSeconds), 500 * MS);
        run(&mut windows, end, 625, 16 * MS);
        assert_eq!(max(&windows, StatsSpan::TenSeconds), 16 * MS);
        assert_eq!(max(&windows, StatsSpan::Session), 500 * MS);
        let session = windows.stats(StatsSpan::Session).stats.expect("frames");
        assert_eq!(session.all.frames, 60 + 1 + 94 + 625);
        assert_eq!(session.hitches.frames, 1);
        windows.clear();
        for window in StatsSpan::ALL {
            assert_eq!(windows.stats(window), SpanFrameStats::default());
        }
    }

    #[test]
    fn memory_stays_as_allocated_however_fast_and_long_the_loop() {
        let mut windows = FrameSpans::new();
        let start = windows.memory_bytes();
        assert!(start >= FRAME_SPANS_BYTES);
        assert!(
            start < FRAME_SPANS_BYTES + FRAME_SPANS_BYTES / 8,
            "{start} bytes"
        );
        // 30 s at 10 kHz: 300 000 frames, far more than the windows hold.
        let end = run(&mut windows, 0, 300_000, 100_000);
        assert_eq!(windows.memory_bytes(), start);
        // The 10 s window holds the newest 40 000 frames (4 s) and says so; so does the
        // 1 s window, which holds its 10 000 frames whole but shares the ring.
        let ten = windows.stats(StatsSpan::TenSeconds);
        assert!(ten.truncated);
        assert_eq!(ten.stats.expect("frames").all.frames, RECENT_FRAMES as u64);
        let second = windows.stats(StatsSpan::OneSecond);
        assert!(!second.truncated);
        assert_eq!(second.stats.expect("frames").all.frames, 10_001);
        let session = windows.stats(StatsSpan::Session);
        assert!(!session.truncated);
        assert_eq!(session.stats.expect("frames").all.frames, 300_000);
        // Back at 60 Hz, once ten seconds have passed the window is whole again.
        run(&mut windows, end, 601, 16_666_667);
        assert!(!windows.stats(StatsSpan::TenSeconds).truncated);
        assert_eq!(windows.memory_bytes(), start);
    }
}

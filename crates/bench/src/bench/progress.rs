//! A long run's progress on stderr: what is running (a bench run's strategy, `render`'s
//! simulation), frames done of all the frames, the time taken and the time left, drawn with
//! `indicatif`. The bench and `render` draw it with this one code.
//!
//! Only where someone watches, and only when it helps: stderr must be a terminal (a pipe or a
//! file never gets a byte of it) and the run must have gone on for [`PROGRESS_DELAY`], so a
//! short run prints exactly what it always printed. The bar is cleared when the run is over
//! (or fails), before the report goes to stdout; it never writes to stdout, and a failed
//! write to the terminal is ignored (the bar is no output anyone depends on).

use std::io::IsTerminal as _;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{BenchFrame, BenchResult, FrameObserver};
use crate::timestep::Strategy;

/// How long a run goes silent before its progress shows: a run shorter than this is over
/// before anyone wonders whether it is stuck.
pub const PROGRESS_DELAY: Duration = Duration::from_secs(1);

/// Environment variable that sets [`PROGRESS_DELAY`] in milliseconds, for tests (`0` shows
/// the bar from the first update, so a test need not run for a second).
pub const PROGRESS_DELAY_ENV: &str = "TIMESTEP_LAB_PROGRESS_AFTER_MS";

/// Frames between two updates: often enough for a bar drawn 20 times a second (a frame takes
/// well under 1 µs to a few ms), rarely enough that reading the clock costs nothing.
const FRAMES_PER_UPDATE: u64 = 256;

/// What the bar shows: the strategy, the time taken, the bar, frames done of all, time left.
const TEMPLATE: &str =
    "{msg:>12} {elapsed_precise} [{wide_bar}] {human_pos}/{human_len} frames, ETA {eta}";

/// Whether a run's progress is drawn: on a terminal, once the run has taken `delay`.
pub fn shows_progress(terminal: bool, elapsed: Duration, delay: Duration) -> bool {
    terminal && elapsed >= delay
}

/// The delay [`PROGRESS_DELAY_ENV`] sets, or [`PROGRESS_DELAY`].
pub fn progress_delay() -> Duration {
    std::env::var(PROGRESS_DELAY_ENV)
        .ok()
        .and_then(|ms| ms.trim().parse().ok())
        .map_or(PROGRESS_DELAY, Duration::from_millis)
}

/// Watches a bench run (or any loop that says how far it is) and draws its progress on
/// stderr (see the module doc).
#[derive(Debug)]
pub struct Progress {
    /// Whether stderr is a terminal: if not, nothing is ever drawn.
    terminal: bool,
    /// How long the run goes before the bar shows.
    delay: Duration,
    /// When the run started.
    started: Instant,
    /// Frames in one strategy's run: the trace's.
    frames_per_run: u64,
    /// Frames of all the runs.
    total: u64,
    /// Runs finished.
    runs_done: u64,
    /// Frames done in the run under way.
    frames_done: u64,
    /// What is running: the strategy, or the label a caller gave.
    label: &'static str,
    /// The bar, once shown.
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Progress of `runs` runs of `frames` frames each, drawn on stderr if it is a terminal,
    /// after [`progress_delay`].
    pub fn on_stderr(frames: u64, runs: u64) -> Self {
        Self::new(
            frames,
            runs,
            std::io::stderr().is_terminal(),
            progress_delay(),
        )
    }

    /// Progress of `runs` runs of `frames` frames each, drawn if `terminal`, once the run
    /// has taken `delay`.
    pub fn new(frames: u64, runs: u64, terminal: bool, delay: Duration) -> Self {
        Self {
            terminal,
            delay,
            started: Instant::now(),
            frames_per_run: frames,
            total: frames.saturating_mul(runs),
            runs_done: 0,
            frames_done: 0,
            label: "",
            bar: None,
        }
    }

    /// The same progress, saying `label` for what runs until a strategy starts (a caller
    /// that runs no strategy after another: `render`'s loop).
    pub fn labelled(mut self, label: &'static str) -> Self {
        self.label = label;
        self
    }

    /// Moves the run under way to `frames_done` frames; the bar is shown and redrawn every
    /// `FRAMES_PER_UPDATE` frames.
    pub fn advance_to(&mut self, frames_done: u64) {
        self.frames_done = frames_done;
        if frames_done.is_multiple_of(FRAMES_PER_UPDATE) {
            self.update();
        }
    }

    /// Counts `frames` more done, whichever run they belong to (runs side by side on
    /// several threads report this way, through [`SharedProgress`]).
    pub fn add(&mut self, frames: u64) {
        self.frames_done = self.frames_done.saturating_add(frames);
        self.update();
    }

    /// Frames done, over all runs.
    pub fn done(&self) -> u64 {
        self.runs_done
            .saturating_mul(self.frames_per_run)
            .saturating_add(self.frames_done)
            .min(self.total)
    }

    /// Whether the bar is drawn.
    pub fn shown(&self) -> bool {
        self.bar.is_some()
    }

    /// Says what the run is doing once the strategies are done (the trace's statistics,
    /// the plot), if the bar is shown.
    pub fn working_on(&self, what: &'static str) {
        if let Some(bar) = &self.bar {
            bar.set_message(what);
        }
    }

    /// Clears the bar, if shown: the report comes next.
    pub fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    /// Shows the bar once it is time, and moves it to the frames done.
    fn update(&mut self) {
        if self.bar.is_none() && shows_progress(self.terminal, self.started.elapsed(), self.delay) {
            self.bar = Some(self.bar());
        }
        if let Some(bar) = &self.bar {
            bar.set_position(self.done());
        }
    }

    /// A new bar on stderr, where the run is now.
    fn bar(&self) -> ProgressBar {
        // The template is a constant that parses; the default bar would do if it did not.
        let style = ProgressStyle::with_template(TEMPLATE)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        let bar = ProgressBar::with_draw_target(Some(self.total), ProgressDrawTarget::hidden())
            .with_style(style)
            .with_message(self.label)
            .with_elapsed(self.started.elapsed());
        // The frames done before the bar existed are no measure of its speed: the estimate
        // of the time left starts from here, and only then is the bar drawn.
        bar.set_position(self.done());
        bar.reset_eta();
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar
    }
}

impl FrameObserver for Progress {
    fn start(&mut self, strategy: Strategy) {
        self.label = strategy.id();
        self.frames_done = 0;
        if let Some(bar) = &self.bar {
            bar.set_message(strategy.id());
            // Strategies run at very different speeds (one step a frame, or thousands): the
            // time left is estimated from the one running.
            bar.reset_eta();
        }
    }

    fn frame(&mut self, frame: &BenchFrame<'_>) {
        self.advance_to(frame.index + 1);
    }

    fn finish(&mut self, _result: &BenchResult) {
        // A run that froze stopped early: the next starts at its own share of the total.
        self.runs_done += 1;
        self.frames_done = 0;
        self.update();
    }
}

/// One [`Progress`] for runs on several threads at once: each run reports through its own
/// [`ProgressShare`], which takes the lock once every 256 frames (`FRAMES_PER_UPDATE`). The bar
/// counts frames of all the runs together; it names what runs with [`Progress::labelled`].
#[derive(Debug)]
pub struct SharedProgress(Mutex<Progress>);

impl SharedProgress {
    /// Shares `progress` between runs.
    pub fn new(progress: Progress) -> Self {
        Self(Mutex::new(progress))
    }

    /// An observer for one run of `frames` frames (a run that stops early, frozen, counts
    /// its frames as done when it finishes).
    pub fn share(&self, frames: u64) -> ProgressShare<'_> {
        ProgressShare {
            shared: self,
            frames,
            seen: 0,
            unreported: 0,
        }
    }

    /// The progress, to clear or to say what comes next.
    pub fn into_inner(self) -> Progress {
        self.0.into_inner().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds frames done.
    fn add(&self, frames: u64) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .add(frames);
    }
}

/// One run's report to a [`SharedProgress`].
#[derive(Debug)]
pub struct ProgressShare<'a> {
    /// Where the frames are counted.
    shared: &'a SharedProgress,
    /// Frames in the run.
    frames: u64,
    /// Frames run so far.
    seen: u64,
    /// Frames run but not yet counted.
    unreported: u64,
}

impl FrameObserver for ProgressShare<'_> {
    fn frame(&mut self, _frame: &BenchFrame<'_>) {
        self.seen += 1;
        self.unreported += 1;
        if self.unreported >= FRAMES_PER_UPDATE {
            self.shared.add(std::mem::take(&mut self.unreported));
        }
    }

    fn finish(&mut self, _result: &BenchResult) {
        let left = self.frames.saturating_sub(self.seen);
        self.shared.add(self.unreported.saturating_add(left));
        self.unreported = 0;
        self.seen = self.frames;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{BenchSettings, run_observed};

    #[test]
    fn progress_shows_only_on_a_terminal_after_the_delay() {
        let second = Duration::from_secs(1);
        assert!(!shows_progress(false, Duration::from_secs(3600), second));
        assert!(!shows_progress(true, Duration::from_millis(999), second));
        assert!(shows_progress(true, second, second));
        assert!(shows_progress(true, Duration::ZERO, Duration::ZERO));
        assert!(!shows_progress(false, Duration::ZERO, Duration::ZERO));
    }

    #[test]
    fn a_run_counts_every_frame_of_every_strategy_and_draws_nothing_off_a_terminal() {
        let frames = vec![16_666_667; 1000];
        let mut progress = Progress::new(1000, 3, false, Duration::ZERO);
        let strategies = [Strategy::Fixed, Strategy::Variable, Strategy::Accumulator];
        run_observed(
            &frames,
            None,
            &strategies,
            &BenchSettings::default(),
            &mut progress,
        );
        assert_eq!(progress.done(), 3000);
        assert!(!progress.shown(), "stderr is no terminal here");
    }

    #[test]
    fn a_loop_that_is_no_bench_run_moves_the_bar_by_its_frames() {
        let mut progress = Progress::new(1000, 1, false, Duration::ZERO).labelled("render");
        for frame in 1..=999 {
            progress.advance_to(frame);
        }
        assert_eq!(progress.done(), 999);
        progress.advance_to(1000);
        assert_eq!(progress.done(), 1000);
        assert!(!progress.shown(), "stderr is no terminal here");
    }

    #[test]
    fn a_run_that_froze_counts_its_frames_as_done() {
        // A step costing more than dt with no guard freezes the accumulator's run early.
        let mut settings = BenchSettings::default().with_costs_ms(25.0, 0.0).unwrap();
        settings.timestep.max_frame_time = None;
        let frames = vec![16_666_667; 600];
        let mut progress = Progress::new(600, 2, false, Duration::ZERO);
        let results = run_observed(
            &frames,
            None,
            &[Strategy::Accumulator, Strategy::Variable],
            &settings,
            &mut progress,
        );
        assert!(results[0].frozen);
        assert_eq!(progress.done(), 1200);
        // The same, side by side.
        let shared = SharedProgress::new(Progress::new(600, 2, false, Duration::ZERO));
        let strategies = [Strategy::Accumulator, Strategy::Variable];
        let results = crate::bench::run_parallel(&frames, None, &strategies, &settings, &shared);
        assert!(results[0].frozen);
        assert_eq!(shared.into_inner().done(), 1200);
    }
}

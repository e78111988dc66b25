//! The platform's presentation feedback for the lab's window, handed to the live loop as
//! values ([`FeedbackEvent`]s; the core's [`crate::feedback`] matches and measures them).
//! One source per platform; each says in words why there is none where it cannot measure:
//!
//! - X11: the Present extension, on a connection of the lab's own ([`x11`]).
//! - Wayland: presentation-time on the window's own connection (`wayland`, the one
//!   module with `unsafe`: it wraps winit's display and surface pointers).
//! - `VK_GOOGLE_display_timing` is not read yet (Debian's Mesa does not offer it); other
//!   platforms neither: the window says so and stays modeled.

#[cfg(target_os = "linux")]
pub mod wayland;
#[cfg(target_os = "linux")]
pub mod x11;

use std::sync::Arc;

use winit::raw_window_handle::HasWindowHandle as _;
#[cfg(target_os = "linux")]
use winit::raw_window_handle::RawWindowHandle;
use winit::window::Window;

use super::frame_costs::FrameCosts;
use crate::feedback::{ClockMap, FeedbackEvent, FeedbackSource, GaveUp};
use crate::live::Stopwatch;
use crate::timestep::Nanos;

/// How long the first answer may take, ns, before the window says none will come: at
/// least this long and [`FIRST_PRESENTS`] presents. A platform that answers does so a few
/// refreshes after each present.
const FIRST_ANSWER: Nanos = 500_000_000;

/// Presents the first answer may take, so a slow renderer's few frames are not judged
/// early, nor a fast one's first half second.
const FIRST_PRESENTS: u64 = 60;

/// Why an X11 window stays modeled when no Present event comes.
pub const NO_X11_EVENTS: &str = "no X11 Present event came for this window: its driver \
    puts images up without the Present extension (Mesa's software rasterizers and NVIDIA's \
    X11 driver do)";

/// Why a Wayland window stays modeled when the compositor never answers.
pub const NO_WAYLAND_FEEDBACK: &str = "the compositor never answered a presentation-time \
    feedback request";

/// Why a Wayland window stays modeled when the lab cannot ask for feedback.
pub const WAYLAND_UNWATCHED: &str = "the compositor offers no usable presentation-time \
    (wp_presentation on a steady clock)";

/// Why a window elsewhere stays modeled.
#[cfg(not(target_arch = "wasm32"))]
pub const OTHER_PLATFORM: &str = "this platform's presentation feedback is not read yet";
/// Why the display times stay modeled on a page: a browser tells it nothing.
#[cfg(target_arch = "wasm32")]
pub const OTHER_PLATFORM: &str =
    "a browser tells a page nothing of when its frames reach the screen";

/// Why an X11 window stays modeled when the lab cannot watch its Presents.
pub const X11_UNWATCHED: &str = "the X server's Present extension cannot be watched";

/// How often the platform clock is read against the stopwatch again, ns: a clock other
/// than CLOCK_MONOTONIC (Weston stamps CLOCK_MONOTONIC_RAW) drifts from it by up to a few
/// hundred parts per million, a few microseconds a second.
const CLOCK_RESAMPLE: Nanos = 1_000_000_000;

/// `clock` against the loop's stopwatch, both read now.
#[cfg(target_os = "linux")]
fn clock_map(clock: rustix::time::ClockId, stopwatch: &impl Stopwatch) -> ClockMap {
    let now = rustix::time::clock_gettime(clock);
    let platform = i128::from(now.tv_sec) * 1_000_000_000 + i128::from(now.tv_nsec);
    ClockMap::new(platform, stopwatch.now())
}

/// A platform's feedback, read every frame. Every platform's work is a method here, so
/// where no source exists (Windows, macOS: the enum has no variant) each is an empty
/// match and the watch above it compiles unchanged.
#[derive(Debug)]
enum Source {
    /// X11 Present events on a connection of the lab's own.
    #[cfg(target_os = "linux")]
    X11(Box<x11::PresentObserver>),
    /// Wayland presentation-time on the window's own connection.
    #[cfg(target_os = "linux")]
    Wayland(Box<wayland::PresentationWatch>),
}

/// What one poll of a source gave: the poll's outcome, why the screen stays modeled when
/// no answer ever comes, and why when the source breaks.
type Polled = (Result<(), String>, &'static str, &'static str);

impl Source {
    /// The source's clock against the loop's stopwatch, both read now.
    #[cfg_attr(not(target_os = "linux"), allow(unused_variables))]
    fn clock_map(&self, stopwatch: &impl Stopwatch) -> ClockMap {
        match *self {
            #[cfg(target_os = "linux")]
            Self::X11(_) => clock_map(rustix::time::ClockId::Monotonic, stopwatch),
            #[cfg(target_os = "linux")]
            Self::Wayland(ref watch) => clock_map(watch.clock(), stopwatch),
        }
    }

    /// The window is about to present a frame.
    fn before_present(&mut self) {
        match *self {
            #[cfg(target_os = "linux")]
            Self::X11(_) => {}
            #[cfg(target_os = "linux")]
            Self::Wayland(ref mut watch) => watch.before_present(),
        }
    }

    /// The window presented a frame (or tried to), numbered `numbers` by the loop.
    #[cfg_attr(not(target_os = "linux"), allow(unused_variables))]
    fn presented(&mut self, numbers: Option<(u32, u64)>) {
        match *self {
            #[cfg(target_os = "linux")]
            Self::X11(_) => {}
            #[cfg(target_os = "linux")]
            Self::Wayland(ref mut watch) => watch.presented(numbers),
        }
    }

    /// Hands each answer that arrived to `take`; never waits.
    #[cfg_attr(not(target_os = "linux"), allow(unused_variables, unused_mut))]
    fn poll(&mut self, mut take: impl FnMut(crate::feedback::PresentFeedback)) -> Polled {
        match *self {
            #[cfg(target_os = "linux")]
            Self::X11(ref mut observer) => (
                observer.poll(|complete| take(complete.feedback())),
                NO_X11_EVENTS,
                X11_UNWATCHED,
            ),
            #[cfg(target_os = "linux")]
            Self::Wayland(ref mut watch) => (
                watch.poll(&mut take),
                NO_WAYLAND_FEEDBACK,
                WAYLAND_UNWATCHED,
            ),
        }
    }
}

/// The window's feedback source and how long it has been silent.
#[derive(Debug, Default)]
pub struct PresentWatch {
    /// The source; `None` when there is none (the loop was told why).
    source: Option<Source>,
    /// When watching began, on the stopwatch.
    since: Nanos,
    /// Presents made since.
    presents: u64,
    /// Whether any feedback came.
    answered: bool,
    /// When the clocks were last read together, on the stopwatch.
    clock_read: Nanos,
    /// What the watch cost the main thread, per frame.
    cost: FeedbackCost,
    /// What the last poll found, for the window to hand to the loop (kept to reuse its
    /// room).
    events: Vec<FeedbackEvent>,
    /// Whether this frame's poll read a source (its cost ends with [`Self::handed`]).
    polled: bool,
}

/// What reading feedback costs the main thread, frame by frame: asking before the
/// present, noting it, and polling.
#[derive(Debug, Default)]
struct FeedbackCost {
    /// The cost of the frame running now so far.
    frame: std::time::Duration,
    /// Recent frames' costs.
    frames: FrameCosts,
}

impl FeedbackCost {
    /// Runs `work`, adding its time to the frame's cost.
    fn time<T>(&mut self, work: impl FnOnce() -> T) -> T {
        let start = web_time::Instant::now();
        let out = work();
        self.frame += start.elapsed();
        out
    }

    /// Ends the frame's cost.
    fn end_frame(&mut self) {
        self.frames.record(std::mem::take(&mut self.frame));
    }

    /// `presentation feedback cost: median X ms, p99 Y ms of the main thread a frame (N
    /// frames)`, for the exit summary; `None` before a frame.
    fn summary(&self) -> Option<String> {
        self.frames.stats().map(|stats| {
            format!(
                "presentation feedback cost: median {:.4} ms, p99 {:.4} ms of the main \
                 thread a frame ({} frames)",
                stats.median_ms, stats.p99_ms, stats.frames
            )
        })
    }
}

impl PresentWatch {
    /// Starts watching `window`'s presents, timed on the loop's `stopwatch`; with what to
    /// tell the loop: the source watched, or why the screen stays modeled.
    pub fn start(window: &Arc<Window>, stopwatch: &impl Stopwatch) -> (Self, FeedbackEvent) {
        let (source, event) = match Self::source(window) {
            Ok((source, kind)) => {
                let event = FeedbackEvent::Watching(kind, source.clock_map(stopwatch));
                (Some(source), event)
            }
            Err(reason) => (None, FeedbackEvent::Unwatched(reason)),
        };
        let watch = Self {
            source,
            since: stopwatch.now(),
            presents: 0,
            answered: false,
            clock_read: stopwatch.now(),
            cost: FeedbackCost::default(),
            events: Vec::new(),
            polled: false,
        };
        (watch, event)
    }

    /// What reading feedback cost the main thread per frame, in a line for the exit
    /// summary; `None` without a source or a frame.
    pub fn cost_summary(&self) -> Option<String> {
        self.cost.summary()
    }

    /// The source for `window`'s platform, or why there is none.
    fn source(window: &Arc<Window>) -> Result<(Source, FeedbackSource), &'static str> {
        let handle = window.window_handle().map(|handle| handle.as_raw());
        match handle {
            #[cfg(target_os = "linux")]
            Ok(RawWindowHandle::Xlib(handle)) => {
                Self::x11(u32::try_from(handle.window).unwrap_or(0))
            }
            #[cfg(target_os = "linux")]
            Ok(RawWindowHandle::Xcb(handle)) => Self::x11(handle.window.get()),
            #[cfg(target_os = "linux")]
            Ok(RawWindowHandle::Wayland(_)) => Self::wayland(window),
            _ => Err(OTHER_PLATFORM),
        }
    }

    /// Watches X11 window `window`.
    #[cfg(target_os = "linux")]
    fn x11(window: u32) -> Result<(Source, FeedbackSource), &'static str> {
        match x11::PresentObserver::watch(None, window) {
            Ok(observer) => Ok((Source::X11(Box::new(observer)), FeedbackSource::X11Present)),
            Err(error) => {
                eprintln!("timestep-lab: {error}; the screen stays modeled");
                Err(X11_UNWATCHED)
            }
        }
    }

    /// Watches `window`'s Wayland surface.
    #[cfg(target_os = "linux")]
    fn wayland(window: &Arc<Window>) -> Result<(Source, FeedbackSource), &'static str> {
        match wayland::PresentationWatch::for_window(window.clone()) {
            Ok(watch) => Ok((
                Source::Wayland(Box::new(watch)),
                FeedbackSource::WaylandPresentation,
            )),
            Err(error) => {
                eprintln!("timestep-lab: {error}; the screen stays modeled");
                Err(WAYLAND_UNWATCHED)
            }
        }
    }

    /// The window is about to present a frame.
    pub fn before_present(&mut self) {
        if let Some(source) = self.source.as_mut() {
            self.cost.time(|| source.before_present());
        }
    }

    /// The window presented a frame (or tried to), numbered `numbers` by the loop.
    pub fn presented(&mut self, numbers: Option<(u32, u64)>) {
        self.presents += 1;
        if let Some(source) = self.source.as_mut() {
            self.cost.time(|| source.presented(numbers));
        }
    }

    /// What arrived since the last poll, for the loop, in order: the answers, a fresh
    /// reading of the clocks now and then (on the loop's `stopwatch`), and, when none came
    /// for long enough or the source broke, that the window gave up and why (then the
    /// watch stops). Never waits. The window then says how long the poll and handing its
    /// events to the loop took ([`Self::handed`]), which ends the frame's cost.
    pub fn poll(&mut self, stopwatch: &impl Stopwatch) -> std::vec::Drain<'_, FeedbackEvent> {
        // The last poll's drain left `events` empty.
        self.polled = self.source.is_some();
        let Some(source) = self.source.as_mut() else {
            return self.events.drain(..);
        };
        let events = &mut self.events;
        let (polled, silent_reason, broken_reason) =
            source.poll(|feedback| events.push(FeedbackEvent::Answer(feedback)));
        self.answered |= !events.is_empty();
        let now = stopwatch.now();
        if now.saturating_sub(self.clock_read) >= CLOCK_RESAMPLE {
            self.clock_read = now;
            events.push(FeedbackEvent::Clock(source.clock_map(stopwatch)));
        }
        let waited = now.saturating_sub(self.since);
        let silent = !self.answered && self.presents >= FIRST_PRESENTS && waited >= FIRST_ANSWER;
        if let Err(error) = polled {
            eprintln!("timestep-lab: {error}; the screen stays modeled");
            events.push(FeedbackEvent::GaveUp(GaveUp::Broken, broken_reason));
            self.source = None;
        } else if silent {
            events.push(FeedbackEvent::GaveUp(GaveUp::Silent, silent_reason));
            self.source = None;
        }
        self.events.drain(..)
    }

    /// The poll and handing its events to the loop (which settles every pane's frames from
    /// the answers) took `took`: the last of the frame's cost.
    pub fn handed(&mut self, took: std::time::Duration) {
        if std::mem::take(&mut self.polled) {
            self.cost.frame += took;
            self.cost.end_frame();
        }
    }

    /// Stops watching (before the window and its connection go).
    pub fn stop(&mut self) {
        self.source = None;
    }
}

//! The platform's presentation feedback for the lab's window, handed to the live loop as
//! values (the core's [`crate::feedback`] matches and measures it). One source per
//! platform; each says in words why there is none where it cannot measure:
//!
//! - X11: the Present extension, on a connection of the lab's own ([`x11`]).
//! - Wayland's presentation-time and `VK_GOOGLE_display_timing` are not read yet: the
//!   window says so and stays modeled.

#[cfg(target_os = "linux")]
pub mod x11;

use winit::raw_window_handle::{HasWindowHandle as _, RawWindowHandle};
use winit::window::Window;

use crate::feedback::{ClockMap, FeedbackSource};
use crate::live::{LiveLoop, Stopwatch};
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

/// Why a Wayland window stays modeled.
pub const WAYLAND_NOT_READ: &str = "Wayland's presentation-time is not read yet";

/// Why a window elsewhere stays modeled.
pub const OTHER_PLATFORM: &str = "this platform's presentation feedback is not read yet";

/// Why an X11 window stays modeled when the lab cannot watch its Presents.
pub const X11_UNWATCHED: &str = "the X server's Present extension cannot be watched";

/// CLOCK_MONOTONIC now, ns: the clock every platform stamps feedback on.
#[cfg(target_os = "linux")]
fn monotonic_ns() -> i128 {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    i128::from(now.tv_sec) * 1_000_000_000 + i128::from(now.tv_nsec)
}

/// The platform clock against the loop's stopwatch, both read now.
#[cfg(target_os = "linux")]
fn clock_map<S: Stopwatch>(live: &LiveLoop<S>) -> ClockMap {
    let platform = monotonic_ns();
    ClockMap::new(platform, live.stopwatch().now())
}

/// The window's feedback source, read every frame.
#[derive(Debug, Default)]
pub enum PresentWatch {
    /// X11 Present events on a connection of the lab's own.
    #[cfg(target_os = "linux")]
    X11 {
        /// The connection watching the window (boxed: the enum's other variant is empty).
        observer: Box<x11::PresentObserver>,
        /// When watching began, on the stopwatch.
        since: Nanos,
        /// Presents made since.
        presents: u64,
        /// Whether any event came.
        answered: bool,
    },
    /// Nothing to read: the loop was told why.
    #[default]
    Off,
}

impl PresentWatch {
    /// Starts watching `window`'s presents for `live`, or tells it why the screen stays
    /// modeled.
    pub fn start<S: Stopwatch>(window: &Window, live: &mut LiveLoop<S>) -> Self {
        let handle = window.window_handle().map(|handle| handle.as_raw());
        match handle {
            #[cfg(target_os = "linux")]
            Ok(RawWindowHandle::Xlib(handle)) => {
                Self::watch_x11(u32::try_from(handle.window).unwrap_or(0), live)
            }
            #[cfg(target_os = "linux")]
            Ok(RawWindowHandle::Xcb(handle)) => Self::watch_x11(handle.window.get(), live),
            Ok(RawWindowHandle::Wayland(_)) => {
                live.screen_unmeasured(WAYLAND_NOT_READ);
                Self::Off
            }
            _ => {
                live.screen_unmeasured(OTHER_PLATFORM);
                Self::Off
            }
        }
    }

    /// Watches X11 window `window`.
    #[cfg(target_os = "linux")]
    fn watch_x11<S: Stopwatch>(window: u32, live: &mut LiveLoop<S>) -> Self {
        match x11::PresentObserver::watch(None, window) {
            Ok(observer) => {
                live.measure_screen(FeedbackSource::X11Present, clock_map(live));
                Self::X11 {
                    observer: Box::new(observer),
                    since: live.stopwatch().now(),
                    presents: 0,
                    answered: false,
                }
            }
            Err(error) => {
                eprintln!("timestep-lab: {error}; the screen stays modeled");
                live.screen_unmeasured(X11_UNWATCHED);
                Self::Off
            }
        }
    }

    /// The window presented a frame.
    pub fn presented(&mut self) {
        match self {
            #[cfg(target_os = "linux")]
            Self::X11 { presents, .. } => *presents += 1,
            Self::Off => {}
        }
    }

    /// Hands `live` the feedback that arrived; never waits. When none comes for long
    /// enough, or the source breaks, tells `live` why and stops.
    pub fn poll<S: Stopwatch>(&mut self, live: &mut LiveLoop<S>) {
        match self {
            #[cfg(target_os = "linux")]
            Self::X11 {
                observer,
                since,
                presents,
                answered,
            } => {
                let polled = observer.poll(|complete| {
                    *answered = true;
                    live.present_feedback(complete.feedback());
                });
                let waited = live.stopwatch().now().saturating_sub(*since);
                let silent = !*answered && *presents >= FIRST_PRESENTS && waited >= FIRST_ANSWER;
                if let Err(error) = polled {
                    eprintln!("timestep-lab: {error}; the screen stays modeled");
                    live.screen_unmeasured(X11_UNWATCHED);
                    *self = Self::Off;
                } else if silent {
                    live.screen_unmeasured(NO_X11_EVENTS);
                    *self = Self::Off;
                }
            }
            Self::Off => {}
        }
    }
}

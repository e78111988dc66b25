//! The page's clock: the browser's frame stamps. A browser runs each frame's animation
//! callbacks with the time the frame began (`requestAnimationFrame`'s timestamp, on
//! `performance.now()`'s scale), before any of the page's code for that frame; the loop
//! measures frames from those stamps, as a browser game does. The refresh rate is measured
//! from them too (a page is told none), and the timer's resolution, which the browser
//! coarsens (100 µs, or 5 µs on a cross-origin isolated page), is measured once.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast as _;
use wasm_bindgen::closure::Closure;

use crate::live::Stopwatch;
use crate::timestep::Nanos;

/// Frame intervals the refresh rate is measured over.
const MEASURED_INTERVALS: usize = 120;

/// Frame intervals needed before a refresh rate is reported.
const FIRST_MEASURE: usize = 30;

/// The refresh rates a screen has, Hz: a slower rhythm is the page's own (it took longer
/// than a refresh over most frames), not the screen's.
const SCREEN_RATES: std::ops::RangeInclusive<f64> = 24.0..=1000.0;

/// What the animation callback writes: the frame stamps and their intervals.
#[derive(Debug, Default)]
struct Stamps {
    /// The latest frame's stamp, ms on `performance.now()`'s scale.
    latest: Option<f64>,
    /// The last intervals between stamps, ms, oldest first.
    intervals: std::collections::VecDeque<f64>,
}

/// The browser's clock, read at its frame stamps.
#[derive(Clone, Debug)]
pub struct PageClock {
    /// The page's performance timer.
    performance: web_sys::Performance,
    /// `performance.now()` when the clock started, ms.
    origin_ms: f64,
    /// The frame stamps, written by an animation callback that runs every frame.
    stamps: Rc<RefCell<Stamps>>,
}

impl Default for PageClock {
    fn default() -> Self {
        let window = web_sys::window().expect("a page has a window");
        let performance = window
            .performance()
            .expect("every browser has performance.now()");
        let clock = Self {
            origin_ms: performance.now(),
            performance,
            stamps: Rc::default(),
        };
        watch_frames(&window, Rc::downgrade(&clock.stamps));
        clock
    }
}

impl PageClock {
    /// The refresh rate measured from the frame stamps, Hz, once [`FIRST_MEASURE`] frames
    /// came: the rate of the shortest tenth of the intervals (a frame the page took long
    /// over spans several refreshes; the browser's stamps fall on refreshes), where that is a
    /// rate a screen has ([`SCREEN_RATES`]); none where the page never kept up with one.
    pub fn refresh_hz(&self) -> Option<f64> {
        let stamps = self.stamps.borrow();
        if stamps.intervals.len() < FIRST_MEASURE {
            return None;
        }
        let mut intervals: Vec<f64> = stamps.intervals.iter().copied().collect();
        intervals.sort_by(f64::total_cmp);
        let short = intervals[intervals.len() / 10];
        // To a hundredth of a hertz: the screen model is not rebuilt for noise.
        let hz = (100_000.0 / short).round() / 100.0;
        SCREEN_RATES.contains(&hz).then_some(hz)
    }

    /// `ms` on `performance.now()`'s scale as a time on this clock.
    fn nanos(&self, ms: f64) -> Nanos {
        ((ms - self.origin_ms).max(0.0) * 1e6) as Nanos
    }
}

impl Stopwatch for PageClock {
    fn now(&self) -> Nanos {
        self.nanos(self.performance.now())
    }

    fn frame_start(&self) -> Nanos {
        let now = self.now();
        let stamp = self.stamps.borrow().latest;
        stamp.map_or(now, |stamp| self.nanos(stamp).min(now))
    }

    fn busy_wait(&mut self, duration: Nanos) {
        // The artificial load: the page's thread is busy, as a slow step would keep it.
        let until = self.performance.now() + duration as f64 / 1e6;
        while self.performance.now() < until {
            std::hint::spin_loop();
        }
    }

    fn sleep_until(&mut self, _deadline: Nanos) {
        // A page cannot sleep: the browser paces its frames.
    }
}

/// Registers an animation callback that writes each frame's stamp into `stamps` and
/// registers itself again, until the clock is gone.
fn watch_frames(window: &web_sys::Window, stamps: std::rc::Weak<RefCell<Stamps>>) {
    type Callback = Closure<dyn FnMut(f64)>;
    let callback: Rc<RefCell<Option<Callback>>> = Rc::default();
    let again = Rc::clone(&callback);
    let page = window.clone();
    *callback.borrow_mut() = Some(Closure::new(move |stamp: f64| {
        let Some(stamps) = stamps.upgrade() else {
            // The clock is gone: the callback ends, and with it the cycle that keeps it.
            again.borrow_mut().take();
            return;
        };
        let mut stamps = stamps.borrow_mut();
        if let Some(latest) = stamps.latest {
            if stamps.intervals.len() == MEASURED_INTERVALS {
                stamps.intervals.pop_front();
            }
            stamps.intervals.push_back(stamp - latest);
        }
        stamps.latest = Some(stamp);
        if let Some(callback) = again.borrow().as_ref() {
            let _ = page.request_animation_frame(callback.as_ref().unchecked_ref());
        }
    }));
    if let Some(callback) = callback.borrow().as_ref() {
        let _ = window.request_animation_frame(callback.as_ref().unchecked_ref());
    }
}

/// The page's timer's resolution, ms: the smallest step `performance.now()` takes, measured
/// by reading it until it has moved a few times (infinite where the page has no timer).
pub fn timer_resolution_ms() -> f64 {
    let Some(performance) = web_sys::window().and_then(|window| window.performance()) else {
        return f64::INFINITY;
    };
    let mut smallest = f64::INFINITY;
    let mut last = performance.now();
    let (mut steps, mut reads) = (0, 0u32);
    while steps < 8 && reads < 2_000_000 {
        let now = performance.now();
        reads += 1;
        if now > last {
            smallest = smallest.min(now - last);
            last = now;
            steps += 1;
        }
    }
    smallest
}

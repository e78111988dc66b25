//! Where the live loop reads time and spends it: the real clock in the app, a virtual one in
//! tests, so the loop's behaviour under load is tested exactly and without waiting.

use web_time::{Duration, Instant};

use crate::timestep::Nanos;

/// A source of time that can also be made to pass.
pub trait Stopwatch {
    /// Time since the stopwatch started.
    fn now(&self) -> Nanos;
    /// When the frame about to run started, on the same scale as [`Self::now`] and never
    /// after it: now, unless the platform stamps its frames itself (a browser stamps each
    /// frame's callbacks with the time its frame began, before the page's code runs).
    fn frame_start(&self) -> Nanos {
        self.now()
    }
    /// Spends `duration` of work on this thread (the artificial load): a busy wait, because
    /// a sleeping thread is not what a slow physics step looks like to the loop.
    fn busy_wait(&mut self, duration: Nanos);
    /// Waits until `deadline` (frame pacing); returns at once if it has passed.
    fn sleep_until(&mut self, deadline: Nanos);
}

/// The real monotonic clock.
#[derive(Clone, Debug)]
pub struct RealStopwatch {
    /// The moment `now()` is measured from.
    start: Instant,
}

impl Default for RealStopwatch {
    fn default() -> Self {
        Self {
            start: Instant::now(),
        }
    }
}

impl Stopwatch for RealStopwatch {
    fn now(&self) -> Nanos {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    fn busy_wait(&mut self, duration: Nanos) {
        let until = Instant::now() + Duration::from_nanos(duration);
        while Instant::now() < until {
            std::hint::spin_loop();
        }
    }

    fn sleep_until(&mut self, deadline: Nanos) {
        let now = self.now();
        if deadline > now {
            // Sleeps most of the way and spins the last stretch: OS sleeps overshoot by up to
            // a scheduler tick, which would make a frame cap uneven.
            spin_sleep::sleep(Duration::from_nanos(deadline - now));
        }
    }
}

/// A clock that moves only when told: busy waits and sleeps advance it exactly.
#[derive(Clone, Debug, Default)]
pub struct VirtualStopwatch {
    /// Current time.
    now: Nanos,
}

impl VirtualStopwatch {
    /// Lets `duration` pass (what rendering or the display would take).
    pub fn advance(&mut self, duration: Nanos) {
        self.now = self.now.saturating_add(duration);
    }
}

impl Stopwatch for VirtualStopwatch {
    fn now(&self) -> Nanos {
        self.now
    }

    fn busy_wait(&mut self, duration: Nanos) {
        self.advance(duration);
    }

    fn sleep_until(&mut self, deadline: Nanos) {
        self.now = self.now.max(deadline);
    }
}

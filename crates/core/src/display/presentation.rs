//! One display's presentation as a frame loop sees it: the [`Display`] model with the
//! [`Forecast`] that predicts each frame's display time, fed in the order a loop runs them
//! (a frame starts, runs, and is presented as the next one starts). The bench runs one per
//! strategy on its trace's clock; the live loop's screen wraps one on the stopwatch
//! ([`crate::live::LiveDisplay`]); both are driven by [`crate::drive::FrameDriver`].

use super::{Display, DisplayEvent, DisplaySpec, Forecast};
use crate::timestep::Nanos;

/// A display model with its forecast (see the module doc).
#[derive(Clone, Debug)]
pub struct Presentation {
    /// The model.
    display: Display,
    /// The display time forecast for each frame about to run.
    forecast: Forecast,
    /// GPU time per frame: delays when a presented image is ready.
    gpu_cost: Nanos,
    /// When the frame run last started; `None` before the first.
    frame_start: Option<Nanos>,
}

impl Presentation {
    /// A display of `spec` at time zero whose images are ready `gpu_cost` after the GPU's
    /// queued work.
    pub fn new(spec: DisplaySpec, gpu_cost: Nanos) -> Self {
        Self {
            display: Display::new(spec),
            forecast: Forecast::default(),
            gpu_cost,
            frame_start: None,
        }
    }

    /// A new model of `spec` from the next present on, numbering frames on from the old
    /// one; the forecast keeps what it learnt of the frames' work.
    pub fn replace(&mut self, spec: DisplaySpec) {
        let next = self.display.next_frame();
        self.display = Display::new(spec).numbered_from(next);
    }

    /// The model.
    pub fn display(&self) -> &Display {
        &self.display
    }

    /// The forecast.
    pub fn forecast(&self) -> &Forecast {
        &self.forecast
    }

    /// When the frame run last started; `None` before the first.
    pub fn frame_start(&self) -> Option<Nanos> {
        self.frame_start
    }

    /// The frame run last is presented at `at`: what the screen did up to it goes to
    /// `on_event`, in order (a shown frame also scores the forecast). Returns when the
    /// present returns: later than `at` when the images in flight fill a FIFO queue.
    pub fn present(&mut self, at: Nanos, mut on_event: impl FnMut(DisplayEvent)) -> Nanos {
        if let Some(start) = self.frame_start {
            self.forecast.presented(start, at);
        }
        let forecast = &mut self.forecast;
        self.display.present(at, self.gpu_cost, |event| {
            if let DisplayEvent::Shown { frame, at } = event {
                forecast.shown(frame, at);
            }
            on_event(event);
        })
    }

    /// A frame starts at `start`, `interval` after the one before it: its number on the
    /// display and when it is predicted to reach the screen (`None` where nothing predicts
    /// it: the `cpu` display, or before the forecast has anything to go on).
    pub fn frame_starts(&mut self, start: Nanos, interval: Nanos) -> (u64, Option<Nanos>) {
        self.frame_start = Some(start);
        self.forecast.frame_time(interval);
        let frame = self.display.next_frame();
        let predicted = self
            .forecast
            .predict(&self.display, frame, start, self.gpu_cost);
        (frame, predicted)
    }

    /// A frame whose display time the caller knows (the `cpu` display's, shown at once,
    /// or a capture's, shown `at` or never): the model counts it and the forecast scores
    /// a shown one.
    pub fn record(&mut self, frame: u64, at: Option<Nanos>) -> DisplayEvent {
        let event = match at {
            Some(at) => {
                self.forecast.shown(frame, at);
                DisplayEvent::Shown { frame, at }
            }
            None => DisplayEvent::Dropped { frame },
        };
        self.display.record(event);
        event
    }

    /// Settles what is still open at the end of a run at `end` (see [`Display::finish`]).
    pub fn finish(&mut self, end: Nanos, on_event: impl FnMut(DisplayEvent)) {
        self.display.finish(end, on_event);
    }
}

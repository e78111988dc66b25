//! What the screen shows: a presentation model that turns each frame's CPU timeline into
//! the time its image first reaches the screen, `D_i`, or marks it never shown.
//!
//! The lab's other measures use the CPU's clock: frame `i` is "shown" at `T_i`, the sum of
//! the frame times. A real display shows an image only at a refresh (FIFO, vsync), replaces
//! images that wait (mailbox), tears them into the scan-out (immediate), or refreshes when
//! they arrive within a range (VRR). [`DisplaySpec`] names the kind of display and
//! [`Display`] models one: frames are presented at CPU times, and the model says when each
//! reaches the screen ([`DisplayEvent`]) and when the CPU may go on, since a full FIFO
//! queue blocks the present and closes the loop, as the load model does.
//!
//! Time starts at 0 with a refresh; every time is integer nanoseconds on the CPU's clock,
//! and refresh `k` starts at `round(k * 1e9 / hz)`, so the grid never drifts.

mod forecast;
mod model;
mod presentation;
mod spec;

pub use forecast::{FORECAST_FRAMES, FORECAST_TOLERANCE, Forecast};
pub use model::{Display, DisplayCounts, DisplayEvent, RepeatCause, RepeatCauses};
pub use presentation::Presentation;
pub use spec::{
    DEFAULT_IMMEDIATE_HZ, DEFAULT_QUEUE, DISPLAY_SPECS, DisplaySpec, MAX_QUEUE, MAX_REFRESH_HZ,
    MIN_REFRESH_HZ, Refresh, same_refresh,
};

#[cfg(test)]
mod tests;

//! The numbers the panel shows, gathered from the live loop once per frame.

use super::frame_spans::FrameStatsReadouts;
use super::history::SpanStats;
use super::remedy::Remedies;
use super::screen::ScreenReadouts;
use super::settings::MAX_PANES;
use super::slow::SlowLoop;
use crate::input::InputStats;
use crate::metrics::{ForecastErrors, RefreshHistograms};
use crate::timestep::Strategy;

/// One comparison pane's label: its strategy and its numbers over the last second.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PaneReadout {
    /// The pane's strategy (`None` for an unused slot).
    pub strategy: Option<Strategy>,
    /// Mean `T_i - S_i` over the last second, ms.
    pub latency_ms: f64,
    /// Judder over the last second, ms.
    pub judder_ms: f64,
    /// Mean `D_i - S_i` at the screen over the last second, ms; `None` where no frame
    /// was shown.
    pub display_latency_ms: Option<f64>,
    /// Animation error (RMS) at the screen over the last second, ms; `None` where no
    /// shown frame followed another.
    pub display_judder_ms: Option<f64>,
    /// Mean steps per frame over the last second.
    pub steps_mean: f64,
    /// Steps the last frame took.
    pub steps_now: u64,
    /// Whether this pane's owed time is running away.
    pub spiral: bool,
    /// Whether this pane's spring exploded.
    pub exploded: bool,
    /// Shown frames in whole refreshes since the start or the last reset, as `bench`
    /// counts them; `None` before the first frame.
    pub refreshes: Option<RefreshHistograms>,
    /// How the display-time forecast did since the start or the last reset; `None` when
    /// the pane draws to no forecast (only `display-time` does).
    pub forecast: Option<ForecastErrors>,
}

/// Live readouts: the last frame and the sliding window.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Readouts {
    /// The strategy that ran the last frame.
    pub strategy: Option<Strategy>,
    /// Readouts over the last second (fps, frame-time percentiles, steps, latency, judder).
    pub window: SpanStats,
    /// Presents per second, measured.
    pub present_rate_hz: f64,
    /// The modeled screen over the last second.
    pub screen: ScreenReadouts,
    /// The frame-time statistics (the bench's) over the last second, the last ten seconds
    /// and the session.
    pub frame_stats: FrameStatsReadouts,
    /// Steps the last frame took.
    pub steps_this_frame: u64,
    /// Accumulator over dt after the last frame.
    pub alpha: f64,
    /// Simulated time of the latest state, s.
    pub sim_time_s: f64,
    /// Real time presented, s (dropped time excluded).
    pub real_time_s: f64,
    /// Time the last frame had to simulate, ms.
    pub owed_ms: f64,
    /// Real time carried to the next frame, ms.
    pub accumulator_ms: f64,
    /// Time dropped by the guards since the start, s.
    pub dropped_total_s: f64,
    /// Net shift of real time by resyncs on leaving `fixed` since the start, s.
    pub resynced_s: f64,
    /// Load carried to the next frame instead of busy-waited, ms.
    pub carried_load_ms: f64,
    /// Spring energy error over its reference energy.
    pub energy_drift: f64,
    /// Whether the loop is spiralling.
    pub spiral: bool,
    /// Whether the carried load reached the frozen limit.
    pub frozen: bool,
    /// Whether the spring exploded (in any pane).
    pub exploded: bool,
    /// What would keep the spring from exploding (computed while it has).
    pub remedies: Remedies,
    /// The loop is too slow to show the stutter, and the time scale that would.
    pub slow_loop: Option<SlowLoop>,
    /// Whether time is stopped.
    pub paused: bool,
    /// Every pane's label, in pane order; the first `pane_count` are in use.
    pub panes: [PaneReadout; MAX_PANES],
    /// Panes the loop runs (1 without a comparison).
    pub pane_count: usize,
    /// The focused pane.
    pub focus: usize,
    /// The focused pane's inputs under every policy since the start or the last reset.
    pub input: InputStats,
    /// The player's walking speed, m/s (hold errors are shown as distance).
    pub player_speed_mps: f64,
}

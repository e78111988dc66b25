//! The live loop behind the window, free of window and GPU types.
//!
//! Each redraw the window calls [`LiveLoop::frame`]: it reads the [`Stopwatch`], passes the
//! frame time through pause and time scale into the strategy, steps the scene, spends the
//! artificial load, and records the frame for the readouts. The window then reads the
//! [`Snapshot`] of the frame ([`LiveLoop::snapshot`]): the panel shows its readouts and the
//! renderer draws its panes; requests come back as values ([`LiveLoop::request`] takes a
//! [`LiveRequest`]: new settings, a kick, a reset, pause, a key). The shell makes no
//! timing decision of its own.
//!
//! A loop runs one [`Pane`] without a comparison, 2 to [`MAX_PANES`] with one. Each pane
//! is a [`crate::run::PaneRun`] (the unit `bench` runs) plus its trail and history. Every
//! pane is fed the same frame time from the one clock read; the load is spent once, for the
//! focused pane's steps.
//!
//! The artificial load is real work on the loop's thread (a busy wait), so expensive steps
//! lengthen the next frame exactly as in a game, and a step cost above `dt` without guards
//! spirals. So that the window stays responsive while it does, one frame busy-waits at most
//! [`MAX_BUSY_WAIT_PER_FRAME`]; the rest is added to the next frame's time, which the loop
//! cannot tell from waiting. Tests drive the same loop with a [`VirtualStopwatch`].
//!
//! A [`Ramp`] raises the per-step load from 0 to a maximum over a stretch of real time,
//! measuring each pane's simulation speed against it and marking where each breaks, then
//! puts the load back; pause, reset, a replay or a change of settings end it early the
//! same way.

mod frame_spans;
mod history;
mod live_loop;
mod load;
mod pane;
mod present_mode;
mod ramp;
mod readouts;
mod recorder;
mod recording;
mod remedy;
mod replay;
mod replay_control;
mod screen;
mod settings;
mod slow;
mod snapshot;
mod stopwatch;

pub use frame_spans::{
    FRAME_SPANS_BYTES, FrameSpans, FrameStatsReadouts, RECENT_FRAMES, RECENT_FULL_FPS,
    SpanFrameStats, SpanFrames, StatsSpan,
};
pub use history::{FrameSample, HISTORY_CAPACITY, History, OnScreen, READOUT_SPAN, SpanStats};
pub use live_loop::{LiveLoop, Present};
pub use load::{LoadModel, LoadSpent, MAX_BUSY_WAIT_PER_FRAME};
pub use pane::{LiveFrame, Pane};
pub use present_mode::{PresentModeId, UnknownPresentMode};
pub use ramp::{
    RAMP_DURATION_RANGE_S, RAMP_POINTS, RAMP_SPEED_WINDOW_RANGE, RAMP_WINDOW_STEPS, Ramp,
    RampCancel, RampOnset, RampPaneFrame, RampPhase, RampRequest, RampSample, RampSettings,
    speed_window,
};
pub use readouts::{PaneReadout, Readouts};
pub use recorder::RecordingStatus;
pub use recording::{
    FrameReader, LiveRequest, RecordedFrame, RecordedFrames, Recording, RecordingHeader,
    RecordingSink, RecordingSummary,
};
pub use remedy::{Remedies, STABILITY_MARGIN};
pub use replay::{
    MAX_FRAMES_PER_ADVANCE, REPLAY_SPEEDS, Replay, ReplayError, ReplayStatus, replay_all,
};
pub use replay_control::ReplayControl;
pub use screen::{
    ASSUMED_REFRESH_HZ, DisplayTimesBy, LiveDisplay, MeasuredFacts, REFRESH_MARKS, RefreshKind,
    RefreshMark, RefreshSource, ScreenFacts, ScreenReadouts,
};
pub use settings::{
    FRAME_CAP_RANGE_HZ, HITCH_PERIOD_RANGE_S, LiveSettings, LoadSettings, MAX_JITTER_MS,
    MAX_LOAD_MS, MAX_PANES, MIN_COMPARE_PANES, Panes, ScenePreset, UnknownScenePreset,
};
pub use slow::{LoopState, SLOW_LOOP_FPS, SLOW_LOOP_SETTLE, SLOW_LOOP_TARGET_HZ, SlowLoop};
pub use snapshot::{PaneSnapshot, Snapshot};
pub use stopwatch::{RealStopwatch, Stopwatch, VirtualStopwatch};

#[cfg(test)]
mod input_tests;
#[cfg(test)]
mod tests;

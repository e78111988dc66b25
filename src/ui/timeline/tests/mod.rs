//! The timeline's pure model tested headless: live loops on a virtual stopwatch (or
//! hand-made histories) in, frames, refreshes and step ends on the axis out.

mod frames;
mod labels;
mod refreshes;
mod steps;

use super::TIMELINE_MIN_FRAMES;
use super::model::TimelineModel;
use super::model::TimelineRefresh;
use super::refreshes::screen_label;
use super::steps::{PaneOffset, step_ends};
use crate::display::DisplaySpec;
use crate::feedback::{FeedbackSource, MeasuredRefresh};
use crate::live::{
    FrameSample, History, LiveLoop, LiveRequest, LiveSettings, OnScreen, PresentModeId,
    RefreshKind, RefreshMark, ScreenFacts, Stopwatch, VirtualStopwatch,
};
use crate::ring::Ring;
use crate::timestep::{Nanos, Strategy};

const MS: Nanos = 1_000_000;
/// One 60 Hz display frame.
const FRAME_60HZ: Nanos = 16_666_667;
/// The default step (50 Hz).
const DT: Nanos = 20 * MS;

/// The history of a live loop under `settings` fed `frames` (after a first, empty
/// frame at time zero).
fn history(settings: LiveSettings, frames: impl IntoIterator<Item = Nanos>) -> History {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings");
    live.frame();
    for frame in frames {
        live.stopwatch_mut().advance(frame);
        live.frame();
    }
    live.history().clone()
}

/// Default settings with `strategy`.
fn with(strategy: Strategy) -> LiveSettings {
    LiveSettings {
        strategy,
        ..LiveSettings::default()
    }
}

fn model_of(history: &History) -> TimelineModel {
    let mut model = TimelineModel::default();
    model.rebuild(history);
    model
}

/// Every step end of the model's frames, in order.
fn all_step_ends(model: &TimelineModel, dt: Nanos) -> Vec<Nanos> {
    model
        .frames
        .iter()
        .flat_map(|f| {
            step_ends(
                f.steps_from,
                f.sample.latest_time,
                f.sample.steps,
                dt,
                0..=Nanos::MAX,
                1,
            )
        })
        .collect()
}

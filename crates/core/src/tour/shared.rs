//! What the chapters share: the stutter threshold, the settings they start from (one
//! pane, or a comparison), and the verdicts and advice several give. Its own module, so
//! the chapters' files import from it and none from another.

use super::{PaneEvidence, Verdict};
use crate::live::{LiveSettings, Panes};
use crate::timestep::Strategy;

/// A fifth of a step: judder above it is a stutter the eye sees.
pub(super) const STUTTER: f64 = 0.2;

/// Comparison panes of `strategies` (2 to the most a comparison takes).
pub(super) fn compare(
    settings: LiveSettings,
    strategies: &[Strategy],
    focus: usize,
) -> LiveSettings {
    LiveSettings {
        compare: true,
        panes: Panes::new(strategies).unwrap_or_default(),
        focus,
        ..settings
    }
}

/// One pane of `strategy` at `rate_hz`, from the defaults.
pub(super) fn single(strategy: Strategy, rate_hz: f64) -> LiveSettings {
    LiveSettings {
        strategy,
        rate_hz,
        ..LiveSettings::default()
    }
}

/// Advice for a pane whose steps line up with the frames: a physics rate the measured
/// frame rate does not divide (five steps in six frames, as 50 Hz on a 60 Hz screen).
pub(super) fn other_rate(pane: &PaneEvidence) -> String {
    let rate = (pane.stats.fps * 5.0 / 6.0).round().max(1.0);
    format!(
        "set the physics rate (Physics) to {rate:.0} Hz, five steps to every six of these \
         {:.1} fps frames",
        pane.stats.fps
    )
}

/// The verdict before any pane ran a frame.
pub(super) fn no_frames() -> Verdict {
    Verdict::Waiting("no frame yet".into())
}

/// The verdict when the reader chose another strategy than the chapter's claim is about.
pub(super) fn other_strategy(pane: &PaneEvidence, chapter: &str) -> Verdict {
    Verdict::Fails(format!(
        "the pane runs {}, and the claim is about {chapter}: Restart the chapter to set it \
         up again",
        pane.strategy.id()
    ))
}

/// The verdict where the chapter's evidence lacks what its claim reads: the tour watched
/// something else (another chapter's measurements), which only a restart mends.
pub(super) fn not_watched() -> Verdict {
    Verdict::Fails(
        "the chapter's measurements are missing: Restart the chapter to measure them afresh".into(),
    )
}

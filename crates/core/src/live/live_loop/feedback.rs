//! The live loop's side of presentation feedback: numbering presents for their answers,
//! taking the answers, and what the window says when there are none (see
//! [`crate::feedback`]).

use super::LiveLoop;
use crate::feedback::{ClockMap, FeedbackSource, MatchedFeedback, PresentFeedback, UNSCORED};
use crate::live::recording::RecordedEvent;
use crate::live::stopwatch::Stopwatch;
use crate::timestep::Nanos;

impl<S: Stopwatch> LiveLoop<S> {
    /// The window presented a frame the loop did not time (a replay presents its recorded
    /// times instead): numbered for its feedback all the same, since the platform numbers
    /// every present, but only measured, not scored: the replay's model runs on the
    /// recording's clock. Returns its generation and number, when the screen is measured.
    pub fn note_present(&mut self) -> Option<(u32, u64)> {
        let now = self.stopwatch.now();
        self.screen.note_present(now, false)
    }

    /// The platform reports presentation through `source`, on a clock that maps onto the
    /// stopwatch by `clock`: the screen is measured from now on (see [`crate::feedback`]).
    pub fn measure_screen(&mut self, source: FeedbackSource, clock: ClockMap) {
        self.screen.measure(source, clock);
    }

    /// Maps feedback times through `clock` from now on: a fresh reading of the platform's
    /// clock and the stopwatch, for a platform clock that drifts from it.
    pub fn set_feedback_clock(&mut self, clock: ClockMap) {
        self.screen.set_feedback_clock(clock);
    }

    /// The screen cannot be measured, for `reason`: it stays modeled, and says why.
    pub fn screen_unmeasured(&mut self, reason: &'static str) {
        self.screen.unmeasured(reason);
    }

    /// The window recreated its surface (resize, lost surface, present mode) before the
    /// present it began at `at` on the stopwatch: feedback for the old one is ignored.
    /// Returns the new generation when the screen is measured.
    pub fn surface_recreated(&mut self, at: Nanos) -> Option<u32> {
        self.screen.new_surface(at)
    }

    /// Takes presentation feedback from the platform; returns the frame it matched. A
    /// recording running notes when the frame's image reached the screen (its frames are
    /// numbered from the recording's start, as the screen model's are).
    pub fn present_feedback(&mut self, feedback: PresentFeedback) -> Option<MatchedFeedback> {
        let matched = self.screen.feedback(feedback)?;
        if matched.frame != UNSCORED {
            self.note(RecordedEvent::Displayed {
                frame: matched.frame,
                at: matched.shown_at,
            });
        }
        Some(matched)
    }
}

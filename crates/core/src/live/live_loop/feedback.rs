//! The live loop's side of presentation feedback: numbering presents for their answers,
//! taking the answers, and what the window says when there are none (see
//! [`crate::feedback`]).

use super::LiveLoop;
use crate::display::{DisplayEvent, same_refresh};
use crate::feedback::{
    ClockMap, FeedbackSource, GaveUp, MatchedFeedback, PresentFeedback, UNSCORED,
};
use crate::live::recording::LiveRequest;
use crate::live::screen::MeasuredFacts;
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
        if !self.replaying() {
            self.set_measured(Some(MeasuredFacts {
                source,
                refresh: None,
                vblank: false,
            }));
        }
    }

    /// Maps feedback times through `clock` from now on: a fresh reading of the platform's
    /// clock and the stopwatch, for a platform clock that drifts from it.
    pub fn set_feedback_clock(&mut self, clock: ClockMap) {
        self.screen.set_feedback_clock(clock);
    }

    /// The screen cannot be measured, for `reason`: it stays modeled, and says why.
    pub fn screen_unmeasured(&mut self, reason: &'static str) {
        self.screen.unmeasured(reason);
        if !self.replaying() {
            self.screen.forget_answers();
            self.set_measured(None);
        }
    }

    /// The window gave up measuring the screen, `why` (`reason` in words): it is modeled
    /// from now on, and a recording running says when and why, so that no reader takes its
    /// frames for measured.
    pub fn measurement_gave_up(&mut self, why: GaveUp, reason: &'static str) {
        self.screen.unmeasured(reason);
        if !self.replaying() {
            self.screen.forget_answers();
            self.change_measured(None, LiveRequest::GaveUp(why));
        }
    }

    /// Takes what the measurement says about the screen (a replay: what it said when the
    /// frames were recorded), noted for a recording when it changed; the model starts over
    /// when its refresh changed.
    pub(in crate::live) fn set_measured(&mut self, facts: Option<MeasuredFacts>) {
        self.change_measured(facts, LiveRequest::Measured(facts));
    }

    /// [`Self::set_measured`], noting `noted` for a recording when the facts changed.
    fn change_measured(&mut self, facts: Option<MeasuredFacts>, noted: LiveRequest) {
        if facts != self.screen.measured_facts() {
            self.note(noted);
            self.screen.set_measured(facts);
            if !same_refresh(self.screen.refresh_period(), self.filters_period) {
                self.rebuild_filters();
            }
        }
    }

    /// The platform said frame `frame` (the model's numbering) reached the screen at `at`
    /// on the stopwatch, or was discarded (`None`): while such answers keep coming, they
    /// settle every pane's frames instead of the model (a replay: as recorded).
    pub(in crate::live) fn displayed(&mut self, frame: u64, at: Option<Nanos>) {
        self.screen.answered(frame);
        let event = match at {
            Some(at) => DisplayEvent::Shown { frame, at },
            None => DisplayEvent::Dropped { frame },
        };
        crate::drive::settle(&mut self.panes, &event);
    }

    /// The window recreated its surface (resize, lost surface, present mode) before the
    /// present it began at `at` on the stopwatch: feedback for the old one is ignored.
    /// Returns the new generation when the screen is measured.
    pub fn surface_recreated(&mut self, at: Nanos) -> Option<u32> {
        self.screen.new_surface(at)
    }

    /// Takes presentation feedback from the platform; returns the frame it matched. The
    /// frame's display time settles the panes' metrics (see `Self::displayed`), and a
    /// recording running notes it (its frames are numbered from the recording's start, as
    /// the screen model's are).
    pub fn present_feedback(&mut self, feedback: PresentFeedback) -> Option<MatchedFeedback> {
        let matched = self.screen.feedback(feedback)?;
        if matched.frame != UNSCORED {
            self.note(LiveRequest::Displayed {
                frame: matched.frame,
                at: matched.shown_at,
            });
            self.displayed(matched.frame, matched.shown_at);
        }
        // The model takes the measured refresh (checked every sixteenth image: the grid
        // moves slowly), recorded so a replay models the same screen.
        let counts = self.screen.measured().map(|m| m.counts());
        if matched.shown_at.is_some()
            && counts.is_some_and(|counts| counts.shown % 16 == 0)
            && !self.replaying()
            && let Some((refresh, vblank)) = self.screen.refresh_to_measure()
            && let Some(facts) = self.screen.measured_facts()
        {
            self.set_measured(Some(MeasuredFacts {
                refresh: Some(refresh),
                vblank,
                ..facts
            }));
        }
        Some(matched)
    }
}

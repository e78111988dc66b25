//! The live loop's side of presentation feedback: numbering presents for their answers,
//! taking the answers, and what the window says when there are none (see
//! [`crate::feedback`]). The window speaks through two values: a [`Present`] after each
//! present, and a [`FeedbackEvent`] for everything its feedback source says.

use super::LiveLoop;
use crate::display::{DisplayEvent, same_refresh};
use crate::feedback::{
    ClockMap, FeedbackEvent, FeedbackSource, GaveUp, MatchedFeedback, PresentFeedback, UNSCORED,
};
use crate::live::recording::LiveRequest;
use crate::live::screen::MeasuredFacts;
use crate::live::stopwatch::Stopwatch;
use crate::timestep::Nanos;

/// What the window did to put the last frame on the screen, handed to the loop after each
/// present (`LiveLoop::presented`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Present {
    /// When presenting began, on the stopwatch.
    pub began: Nanos,
    /// Whether the swap chain was made anew since the last present: its presents are
    /// numbered afresh from this one, and feedback for the old one is stale.
    pub new_surface: bool,
    /// How long acquiring the image blocked; `None` when no image was presented (the
    /// surface was lost, outdated or timed out).
    pub acquire_wait: Option<Nanos>,
}

impl<S: Stopwatch> LiveLoop<S> {
    /// The window presented the last frame (or tried to): a new surface starts a new
    /// generation of presents, and an image presented is noted for the measured present
    /// rate and the screen model (see [`Self::record_present`]); while frames are replayed,
    /// only numbered for its feedback, since the replay presents its recorded times.
    /// Returns the present's surface generation and number for its feedback to name, when
    /// the screen is measured.
    pub fn presented(&mut self, present: Present) -> Option<(u32, u64)> {
        if present.new_surface {
            self.screen.new_surface(present.began);
        }
        let acquire_wait = present.acquire_wait?;
        if self.replaying() {
            self.note_present()
        } else {
            self.record_present(acquire_wait)
        }
    }

    /// Takes what the window's feedback source says; returns the frame an answer matched.
    pub fn feedback(&mut self, event: FeedbackEvent) -> Option<MatchedFeedback> {
        match event {
            FeedbackEvent::Watching(source, clock) => self.measure_screen(source, clock),
            FeedbackEvent::Unwatched(reason) => self.screen_unmeasured(reason),
            FeedbackEvent::Clock(clock) => self.screen.set_feedback_clock(clock),
            FeedbackEvent::Answer(feedback) => return self.present_feedback(feedback),
            FeedbackEvent::GaveUp(why, reason) => self.measurement_gave_up(why, reason),
        }
        None
    }

    /// The window presented a frame the loop did not time (a replay presents its recorded
    /// times instead): numbered for its feedback all the same, since the platform numbers
    /// every present, but only measured, not scored: the replay's model runs on the
    /// recording's clock. Returns its generation and number, when the screen is measured.
    fn note_present(&mut self) -> Option<(u32, u64)> {
        let now = self.stopwatch.now();
        self.screen.note_present(now, false)
    }

    /// The platform reports presentation through `source`, on a clock that maps onto the
    /// stopwatch by `clock`: the screen is measured from now on (see [`crate::feedback`]).
    fn measure_screen(&mut self, source: FeedbackSource, clock: ClockMap) {
        self.screen.measure(source, clock);
        if !self.replaying() {
            self.set_measured(Some(MeasuredFacts {
                source,
                refresh: None,
                vblank: false,
            }));
        }
    }

    /// The screen cannot be measured, for `reason`: it stays modeled, and says why.
    fn screen_unmeasured(&mut self, reason: &'static str) {
        self.screen.unmeasured(reason);
        if !self.replaying() {
            self.screen.forget_answers();
            self.set_measured(None);
        }
    }

    /// The window gave up measuring the screen, `why` (`reason` in words): it is modeled
    /// from now on, and a recording running says when and why, so that no reader takes its
    /// frames for measured.
    fn measurement_gave_up(&mut self, why: GaveUp, reason: &'static str) {
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

    /// Takes presentation feedback from the platform; returns the frame it matched. The
    /// frame's display time settles the panes' metrics (see `Self::displayed`), and a
    /// recording running notes it (its frames are numbered from the recording's start, as
    /// the screen model's are).
    fn present_feedback(&mut self, feedback: PresentFeedback) -> Option<MatchedFeedback> {
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

//! Matching feedback to the frames presented: a fixed table of the presents still waiting
//! for an answer, keyed by their number within the surface generation.

use super::{ClockMap, FeedbackFlags, FeedbackOutcome, PresentFeedback};
use crate::timestep::Nanos;

/// Presents that may wait for feedback at once. A present not answered within this many
/// later presents (about a second at 60 Hz) is counted unanswered and forgotten: feedback
/// arrives a few frames late, never a second.
pub const IN_FLIGHT: usize = 64;

/// Earliest a frame may be shown before its present was recorded, ns: the window records
/// the present after the call returns, and a compositor can show it while the call is
/// still returning. Earlier than this, the time is on another clock.
const SHOWN_BEFORE_PRESENT: Nanos = 50_000_000;

/// The same for a source that cannot name the surface generation (X11), ns: there an
/// answer shown before its present was recorded may be an old swap chain's present of the
/// same number, so only a little slack is allowed (the server completes a Present after
/// the request that the present call sends).
const SHOWN_BEFORE_PRESENT_UNNAMED: Nanos = 1_000_000;

/// The frame of a present numbered only to keep count with the platform, never scored
/// against the model or recorded (a replay's present, or one made before the model
/// restarted its numbering).
pub const UNSCORED: u64 = u64::MAX;

/// Latest a frame may be shown after its present, ns. Later than this, the time is on
/// another clock (or the platform kept it past any display's queue).
const SHOWN_AFTER_PRESENT: Nanos = 5_000_000_000;

/// What became of the feedback and the presents so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FeedbackCounts {
    /// Presents made.
    pub presents: u64,
    /// Presents answered: shown.
    pub shown: u64,
    /// Presents answered: discarded (never shown).
    pub discarded: u64,
    /// Presents never answered (forgotten after [`IN_FLIGHT`] more, or when the surface
    /// was recreated).
    pub unanswered: u64,
    /// Feedback for a surface recreated since: ignored.
    pub old_surface: u64,
    /// Feedback for a present answered already: ignored.
    pub duplicate: u64,
    /// Feedback for a present not made (yet), or forgotten: ignored.
    pub unknown: u64,
    /// Feedback whose time cannot be on the stopwatch's clock (before the frame started or
    /// well before its present, long after it, or out of range): ignored.
    pub implausible: u64,
}

impl FeedbackCounts {
    /// Feedback ignored, for any reason.
    pub fn ignored(&self) -> u64 {
        self.old_surface + self.duplicate + self.unknown + self.implausible
    }
}

/// Feedback matched to the frame it is for, its time on the stopwatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchedFeedback {
    /// The frame's sequence number on the display model.
    pub frame: u64,
    /// When the window presented it, on the stopwatch.
    pub presented_at: Nanos,
    /// When it reached the screen on the stopwatch; `None`: discarded.
    pub shown_at: Option<Nanos>,
    /// The refresh period the platform reports, ns.
    pub refresh: Option<Nanos>,
    /// The refresh counter when it was shown.
    pub sequence: Option<u64>,
    /// How it was shown.
    pub flags: FeedbackFlags,
}

/// A present waiting for its feedback.
#[derive(Clone, Copy, Debug, Default)]
struct InFlight {
    /// Its number in the generation (0: the slot is free).
    present: u64,
    /// The frame it showed.
    frame: u64,
    /// When the frame started, on the stopwatch: it cannot be shown before.
    started: Nanos,
    /// When it was presented, on the stopwatch.
    at: Nanos,
}

/// Numbers presents, and matches feedback to them (see the module's doc).
#[derive(Clone, Debug)]
pub struct FeedbackMatcher {
    /// The platform clock against the stopwatch.
    clock: ClockMap,
    /// The surface generation presents go to.
    generation: u32,
    /// When the generation started, on the stopwatch.
    generation_start: Nanos,
    /// Presents made in this generation.
    presents: u64,
    /// Presents waiting, at `present % IN_FLIGHT`.
    in_flight: [InFlight; IN_FLIGHT],
    /// What became of them.
    counts: FeedbackCounts,
}

impl FeedbackMatcher {
    /// A matcher reading platform times through `clock`, in generation 0.
    pub fn new(clock: ClockMap) -> Self {
        Self {
            clock,
            generation: 0,
            generation_start: 0,
            presents: 0,
            in_flight: [InFlight::default(); IN_FLIGHT],
            counts: FeedbackCounts::default(),
        }
    }

    /// Maps platform times through `clock` from now on (a fresh reading of both clocks:
    /// a platform clock other than CLOCK_MONOTONIC drifts from the stopwatch).
    pub fn set_clock(&mut self, clock: ClockMap) {
        self.clock = clock;
    }

    /// The surface generation presents go to now.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// What became of the feedback and the presents so far.
    pub fn counts(&self) -> FeedbackCounts {
        self.counts
    }

    /// The surface was recreated at `now`: a new generation, whose presents count from 1.
    /// Presents of the old one still waiting are counted unanswered; feedback for them is
    /// ignored from now on.
    pub fn new_surface(&mut self, now: Nanos) -> u32 {
        let waiting = self
            .in_flight
            .iter()
            .filter(|slot| slot.present > 0)
            .count();
        self.counts.unanswered += waiting as u64;
        self.in_flight = [InFlight::default(); IN_FLIGHT];
        self.generation = self.generation.wrapping_add(1);
        self.generation_start = now;
        self.presents = 0;
        self.generation
    }

    /// The model numbers its frames from scratch: the presents still waiting keep their
    /// numbers (the platform's count goes on) but are no longer scored or recorded.
    pub fn forget_frames(&mut self) {
        for slot in self.in_flight.iter_mut().filter(|slot| slot.present > 0) {
            slot.frame = UNSCORED;
        }
    }

    /// The window presented `frame`, which started at `started`, at `at` on the stopwatch:
    /// returns the present's number in the generation, which its feedback will name.
    pub fn presented(&mut self, frame: u64, started: Nanos, at: Nanos) -> u64 {
        self.presents += 1;
        self.counts.presents += 1;
        let slot = &mut self.in_flight[(self.presents % IN_FLIGHT as u64) as usize];
        if slot.present > 0 {
            self.counts.unanswered += 1;
        }
        *slot = InFlight {
            present: self.presents,
            frame,
            started,
            at,
        };
        self.presents
    }

    /// Takes feedback: the frame it is for and what happened to it, or `None` when it is
    /// ignored (counted in [`FeedbackCounts`] by why).
    pub fn take(&mut self, feedback: PresentFeedback) -> Option<MatchedFeedback> {
        if feedback.generation.is_some_and(|g| g != self.generation) {
            self.counts.old_surface += 1;
            return None;
        }
        let present = feedback.present;
        if present == 0 || present > self.presents {
            self.counts.unknown += 1;
            return None;
        }
        let index = (present % IN_FLIGHT as u64) as usize;
        let waiting = self.in_flight[index];
        if waiting.present != present {
            if present + (IN_FLIGHT as u64) > self.presents {
                self.counts.duplicate += 1;
            } else {
                self.counts.unknown += 1;
            }
            return None;
        }
        let matched = match feedback.outcome {
            FeedbackOutcome::Presented {
                at,
                refresh,
                sequence,
                flags,
            } => {
                let shown_at = self.clock.stopwatch(at).filter(|&shown| {
                    shown >= waiting.started
                        && shown.saturating_add(SHOWN_BEFORE_PRESENT) >= waiting.at
                        && shown <= waiting.at.saturating_add(SHOWN_AFTER_PRESENT)
                });
                let Some(shown_at) = shown_at else {
                    self.counts.implausible += 1;
                    return None;
                };
                let unnamed = feedback.generation.is_none();
                if unnamed
                    && (shown_at < self.generation_start
                        || shown_at.saturating_add(SHOWN_BEFORE_PRESENT_UNNAMED) < waiting.at)
                {
                    // A source that cannot name the generation: shown before this one
                    // began, or before this present, so it was an old swap chain's present
                    // of the same number.
                    self.counts.old_surface += 1;
                    return None;
                }
                self.counts.shown += 1;
                MatchedFeedback {
                    frame: waiting.frame,
                    presented_at: waiting.at,
                    shown_at: Some(shown_at),
                    refresh,
                    sequence,
                    flags,
                }
            }
            FeedbackOutcome::Discarded => {
                self.counts.discarded += 1;
                MatchedFeedback {
                    frame: waiting.frame,
                    presented_at: waiting.at,
                    shown_at: None,
                    refresh: None,
                    sequence: None,
                    flags: FeedbackFlags::default(),
                }
            }
        };
        self.in_flight[index] = InFlight::default();
        Some(matched)
    }
}

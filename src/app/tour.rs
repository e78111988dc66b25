//! The guided tour in the window: the core's [`Tour`] started, walked and left on the
//! reader's requests, watching the loop each frame, and the chapter to start from next
//! time (the one the reader was on).

use super::Clock;
use crate::live::{LiveLoop, LiveRequest, LiveSettings, RampRequest};
use crate::timestep::RangeError;
use crate::tour::{CHAPTERS, Tour, TourRequest, TourStatus};

/// The window's tour.
#[derive(Debug, Default)]
pub struct WindowTour {
    /// The tour, while it runs.
    tour: Option<Tour>,
    /// The chapter to start at (the one the reader was last on), 0-based.
    resume_at: usize,
}

impl WindowTour {
    /// No tour yet; the next starts at chapter `resume_at` (0-based, clamped).
    pub fn new(resume_at: usize) -> Self {
        Self {
            tour: None,
            resume_at: resume_at.min(CHAPTERS.len() - 1),
        }
    }

    /// Takes the reader's `request`; a refused setting is said on stderr, and the settings
    /// in force stay.
    pub fn request(&mut self, request: TourRequest, live: &mut LiveLoop<Clock>) {
        // A key the chapter holds down is let go before the chapter changes or the tour
        // ends.
        if request != TourRequest::Start
            && let Some(release) = self.tour.as_mut().and_then(Tour::let_go)
        {
            // Only new settings can be refused.
            let _ = live.request(live.input_now(release));
        }
        let settings = match (request, self.tour.as_mut()) {
            (TourRequest::Start, None) => {
                // A ramp running ends, and the reader's own settings are kept, not the
                // ramp's momentary load.
                // Stopping a ramp is never refused.
                let _ = live.request_ramp(RampRequest::Stop);
                let (tour, setup) = Tour::start(self.resume_at, &live.resting_settings());
                self.tour = Some(tour);
                Some(setup)
            }
            (TourRequest::Start, Some(_)) | (_, None) => None,
            (TourRequest::Leave, Some(tour)) => {
                let saved = *tour.saved();
                self.resume_at = tour.chapter();
                self.tour = None;
                Some(saved)
            }
            (request, Some(tour)) => {
                let settings = tour.navigate(request);
                self.resume_at = tour.chapter();
                settings
            }
        };
        if let Some(settings) = settings {
            apply(live, settings);
            // Each chapter starts from rest (not from the last one's exploded spring),
            // and so does the reader's own lab on leaving.
            // Only new settings can be refused.
            let _ = live.request(LiveRequest::Reset);
        }
    }

    /// Watches the loop after a frame, and does what the tour asks of it: settings to run,
    /// a kick, key presses (the chapter's, which the next frame reads).
    pub fn observe(&mut self, live: &mut LiveLoop<Clock>) {
        let Some(tour) = self.tour.as_mut() else {
            return;
        };
        if let Err(error) = tour.observe(live).apply(live) {
            refused(&error);
        }
    }

    /// Where the tour stands, while it runs.
    pub fn status(&self) -> Option<TourStatus> {
        self.tour.as_ref().map(Tour::status)
    }

    /// Writes where the tour stands into `shown` (the panel's copy, kept from frame to
    /// frame so its text is reused), `None` when no tour runs.
    pub fn show_status(&self, shown: &mut Option<TourStatus>) {
        match (self.tour.as_ref(), shown.as_mut()) {
            (Some(tour), Some(status)) => tour.status_into(status),
            (tour, _) => *shown = tour.map(Tour::status),
        }
    }

    /// The chapter to start at next time (0-based).
    pub fn resume_at(&self) -> usize {
        self.resume_at
    }

    /// The settings to remember on closing: the reader's own while the tour runs (the
    /// chapter's are the tour's), else `settings`.
    pub fn resting_settings(&self, settings: LiveSettings) -> LiveSettings {
        self.tour.as_ref().map_or(settings, |tour| *tour.saved())
    }

    /// `tour: chapter K/M TITLE: check passed (WHAT WAS MEASURED)`, for the exit summary.
    pub fn summary(&self) -> Option<String> {
        let status = self.status()?;
        Some(format!(
            "tour: chapter {}/{} {}: {}",
            status.chapter + 1,
            status.chapters,
            status.title,
            status.verdict.summary()
        ))
    }
}

/// Runs `settings`; the tour's are valid by construction, but should one not be, it is said
/// and the settings in force stay.
fn apply(live: &mut LiveLoop<Clock>, settings: LiveSettings) {
    if let Err(error) = live.request(LiveRequest::Settings(settings)) {
        refused(&error);
    }
}

/// Says that the loop refused one of the tour's settings.
fn refused(error: &RangeError) {
    eprintln!("timestep-lab: the tour's setting was refused: {error}");
}

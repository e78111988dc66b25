//! X11's Present extension: a connection of the lab's own selects `CompleteNotify` on a
//! window (any client with access to a window may), and the X server sends it one event
//! per Present on that window: its serial, when it completed (UST, µs of
//! CLOCK_MONOTONIC), the refresh counter (MSC) and how (Copy, Flip or Skip). Mesa's
//! hardware Vulkan drivers present through it, numbering a swap chain's presents 1, 2, ...
//! as the serial; software rasterizers (lavapipe) and NVIDIA's X11 driver put images up
//! another way, and then no event comes. Reading is non-blocking: each frame takes what
//! arrived. No `unsafe`: x11rb's connection is pure Rust.

use x11rb::connection::Connection as _;
use x11rb::protocol::Event;
use x11rb::protocol::present::{self, CompleteKind, CompleteMode, EventMask};
use x11rb::rust_connection::RustConnection;

use crate::feedback::{FeedbackFlags, FeedbackOutcome, PresentFeedback, x11_ust_ns};

/// One `PresentCompleteNotify` for a Present of a pixmap, as the server sent it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresentComplete {
    /// The presenting client's serial for the Present.
    pub serial: u32,
    /// When it completed: µs of CLOCK_MONOTONIC.
    pub ust: u64,
    /// The refresh counter then.
    pub msc: u64,
    /// How: Copy, Flip, Skip (never shown) or SuboptimalCopy.
    pub mode: CompleteMode,
}

impl PresentComplete {
    /// As the core's feedback for present `serial` (the generation unnamed: X11 does not
    /// say which swap chain presented).
    pub fn feedback(&self) -> PresentFeedback {
        let outcome = if self.mode == CompleteMode::SKIP {
            FeedbackOutcome::Discarded
        } else {
            FeedbackOutcome::Presented {
                at: x11_ust_ns(self.ust),
                refresh: None,
                sequence: Some(self.msc),
                flags: FeedbackFlags {
                    zero_copy: self.mode == CompleteMode::FLIP,
                    ..FeedbackFlags::default()
                },
            }
        };
        PresentFeedback {
            present: u64::from(self.serial),
            generation: None,
            outcome,
        }
    }
}

/// Watches one window's Presents on a connection of its own.
pub struct PresentObserver {
    /// The lab's own connection to the X server.
    connection: RustConnection,
}

impl std::fmt::Debug for PresentObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PresentObserver").finish_non_exhaustive()
    }
}

impl PresentObserver {
    /// Connects to `display` (`None`: `$DISPLAY`) and selects `CompleteNotify` on `window`.
    /// The error says what is missing, in words.
    pub fn watch(display: Option<&str>, window: u32) -> Result<Self, String> {
        let (connection, _) = RustConnection::connect(display)
            .map_err(|error| format!("cannot open a second X11 connection: {error}"))?;
        let version = present::query_version(&connection, 1, 2)
            .map_err(|error| format!("the X server has no Present extension: {error}"))?
            .reply()
            .map_err(|error| format!("the X server has no Present extension: {error}"))?;
        if version.major_version < 1 {
            return Err(format!(
                "the X server's Present is version {}.{}, older than 1.0",
                version.major_version, version.minor_version
            ));
        }
        let event_id = connection
            .generate_id()
            .map_err(|error| format!("cannot select Present events: {error}"))?;
        present::select_input(&connection, event_id, window, EventMask::COMPLETE_NOTIFY)
            .map_err(|error| format!("cannot select Present events: {error}"))?
            .check()
            .map_err(|error| format!("cannot select Present events on the window: {error:?}"))?;
        Ok(Self { connection })
    }

    /// Every pixmap Present completed since the last call, in the order the server sent
    /// them; never waits. A broken connection ends the events (and says why).
    pub fn poll(&mut self, mut on_complete: impl FnMut(PresentComplete)) -> Result<(), String> {
        loop {
            let event = self
                .connection
                .poll_for_event()
                .map_err(|error| format!("the X11 Present connection broke: {error}"))?;
            let Some(event) = event else {
                return Ok(());
            };
            if let Event::PresentCompleteNotify(complete) = event
                && complete.kind == CompleteKind::PIXMAP
            {
                on_complete(PresentComplete {
                    serial: complete.serial,
                    ust: complete.ust,
                    msc: complete.msc,
                    mode: complete.mode,
                });
            }
        }
    }
}

//! Wayland's presentation-time protocol (`wp_presentation`) for the window's own surface.
//!
//! Only the client that owns a `wl_surface` may ask for its feedback, so this speaks on
//! winit's connection: the window's raw handles give the `wl_display` and `wl_surface`
//! pointers, which wayland-client wraps (the one place the lab needs `unsafe`). Feedback is
//! requested just before each present, since the Vulkan WSI commits the surface inside it;
//! the compositor answers after the frame is shown (`presented`: when, on the clock it
//! names, the refresh period, the refresh counter and how) or replaced (`discarded`). Its
//! events land on a queue of the lab's own, read without waiting once per frame.
//!
//! What keeps the pointers valid: the `wl_surface` lives as long as winit's window, which
//! the watch holds. The `wl_display` connection is owned by winit's event loop and closed
//! when `run_app` returns, which the watch cannot hold: it must be dropped before that.
//! So only the feedback module makes a window's watch (`for_window`), for its one owner,
//! `PresentWatch`, stopped in `ApplicationHandler::exiting`, which winit calls before it
//! closes the connection. A watch on a connection of the caller's own
//! ([`PresentationWatch::for_surface`]: the feedback benchmark's) needs no such care.
#![allow(unsafe_code)]

use std::sync::Arc;

use rustix::time::ClockId;

use winit::raw_window_handle::{
    HasDisplayHandle as _, HasWindowHandle as _, RawDisplayHandle, RawWindowHandle,
};
use winit::window::Window;

use wayland_backend::client::{Backend, ObjectId};
use wayland_client::globals::{GlobalListContents, registry_queue_init};
use wayland_client::protocol::wl_registry::WlRegistry;
use wayland_client::protocol::wl_surface::WlSurface;
use wayland_client::{Connection, Dispatch, EventQueue, Proxy, QueueHandle, WEnum};
use wayland_protocols::wp::presentation_time::client::wp_presentation::{self, WpPresentation};
use wayland_protocols::wp::presentation_time::client::wp_presentation_feedback::{
    self, Kind, WpPresentationFeedback,
};

use crate::feedback::{
    FeedbackFlags, FeedbackOutcome, PresentFeedback, wayland_sequence, wayland_time_ns,
};

/// Feedback requests whose present numbers are kept: far more than wait for an answer.
const REQUESTS: usize = 64;

/// What the queue's events leave for the next poll.
#[derive(Debug)]
struct Received {
    /// The clock the compositor stamps feedback on.
    clock_id: Option<u32>,
    /// Feedback not handed on yet.
    feedback: Vec<PresentFeedback>,
    /// The loop's numbers (generation, present) of recent requests, at `request %
    /// REQUESTS`, keyed by `request + 1` (0: none). A feedback object's data is its request.
    numbers: [(u64, u32, u64); REQUESTS],
}

impl Default for Received {
    fn default() -> Self {
        Self {
            clock_id: None,
            feedback: Vec::with_capacity(REQUESTS),
            numbers: [(0, 0, 0); REQUESTS],
        }
    }
}

/// The window surface's presentation feedback.
pub struct PresentationWatch {
    /// The lab's queue on winit's connection.
    queue: EventQueue<Received>,
    /// Its handle, for new feedback objects.
    handle: QueueHandle<Received>,
    /// The compositor's presentation global.
    presentation: WpPresentation,
    /// The window's surface.
    surface: WlSurface,
    /// What the events left.
    received: Received,
    /// Feedback requests made.
    requests: u64,
    /// The request for the present about to be made.
    requested: Option<u64>,
    /// The clock the compositor stamps feedback on.
    clock: ClockId,
    /// The window, so its surface lives while the watch uses it (none: the caller's own
    /// surface); last, so it goes after the proxies on it.
    _window: Option<Arc<Window>>,
}

impl std::fmt::Debug for PresentationWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PresentationWatch").finish_non_exhaustive()
    }
}

impl PresentationWatch {
    /// Binds the compositor's `wp_presentation` on `window`'s connection for its surface,
    /// and checks its clock. The error says what is missing (or that the window is not a
    /// Wayland one). The watch must be dropped before winit's event loop returns (see the
    /// module's doc).
    pub(super) fn for_window(window: Arc<Window>) -> Result<Self, String> {
        let not_wayland = || "the window is not a Wayland window".to_owned();
        let display = match window.display_handle().map(|handle| handle.as_raw()) {
            Ok(RawDisplayHandle::Wayland(display)) => display.display,
            _ => return Err(not_wayland()),
        };
        let surface = match window.window_handle().map(|handle| handle.as_raw()) {
            Ok(RawWindowHandle::Wayland(surface)) => surface.surface,
            _ => return Err(not_wayland()),
        };
        // SAFETY: winit's display handle is its live `wl_display`. The event loop owns it
        // and closes it when `run_app` returns; the app drops this watch before that, in
        // `exiting` (module doc), so the display outlives this backend and its proxies.
        let backend = unsafe { Backend::from_foreign_display(display.as_ptr().cast()) };
        let connection = Connection::from_backend(backend);
        // SAFETY: winit's window handle is the window's live `wl_surface` proxy, alive as
        // long as the window, which the watch holds (`_window`); the id checks its
        // interface, and tracks whether winit destroyed it.
        let id = unsafe { ObjectId::from_ptr(WlSurface::interface(), surface.as_ptr().cast()) }
            .map_err(|_| "the window's surface is not a wl_surface")?;
        let surface = WlSurface::from_id(&connection, id)
            .map_err(|_| "the window's surface is gone".to_owned())?;
        let mut watch = Self::for_surface(&connection, surface)?;
        watch._window = Some(window);
        Ok(watch)
    }

    /// Binds the compositor's `wp_presentation` on `connection` for `surface`, and checks
    /// its clock; the error says what is missing. The window uses `Self::for_window`;
    /// this is for a connection of the caller's own (the feedback benchmark's surface).
    pub fn for_surface(connection: &Connection, surface: WlSurface) -> Result<Self, String> {
        let (globals, mut queue) = registry_queue_init::<Received>(connection)
            .map_err(|error| format!("cannot list the compositor's globals: {error}"))?;
        let handle = queue.handle();
        let presentation: WpPresentation = globals
            .bind(&handle, 1..=1, ())
            .map_err(|_| "the compositor offers no presentation-time (wp_presentation)")?;
        let mut received = Received::default();
        queue
            .roundtrip(&mut received)
            .map_err(|error| format!("the compositor did not answer: {error}"))?;
        let clock = match received.clock_id.map(steady_clock) {
            Some(Ok(clock)) => clock,
            Some(Err(id)) => {
                return Err(format!(
                    "the compositor stamps presentation on clock {id}, which jumps or is \
                     unknown (allowed: CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME)"
                ));
            }
            None => return Err("the compositor named no presentation clock".to_owned()),
        };
        Ok(Self {
            queue,
            handle,
            presentation,
            surface,
            received,
            requests: 0,
            requested: None,
            clock,
            _window: None,
        })
    }

    /// The clock the compositor stamps feedback on.
    pub fn clock(&self) -> ClockId {
        self.clock
    }

    /// Asks for feedback on the surface's next commit (the present about to be made).
    pub fn before_present(&mut self) {
        let request = self.requests;
        self.requests += 1;
        self.presentation
            .feedback(&self.surface, &self.handle, request);
        self.requested = Some(request);
    }

    /// The present was made, numbered `numbers` (generation, number) by the loop; `None`:
    /// no present was made or the loop does not measure.
    pub fn presented(&mut self, numbers: Option<(u32, u64)>) {
        if let (Some(request), Some((generation, present))) = (self.requested.take(), numbers) {
            self.received.numbers[(request % REQUESTS as u64) as usize] =
                (request + 1, generation, present);
        }
    }

    /// Every feedback that arrived, in order; never waits. A broken connection says why.
    pub fn poll(&mut self, mut on_feedback: impl FnMut(PresentFeedback)) -> Result<(), String> {
        let broken =
            |error: &dyn std::fmt::Display| format!("the Wayland connection broke: {error}");
        // Neither a flush nor a read of the socket here. The feedback request waits in the
        // connection's one outgoing buffer ahead of the commit the Vulkan WSI makes and
        // flushes. libwayland's read waits for every other reader that prepared one (the
        // WSI, winit's loop): it cost 9 ms a frame under Weston. winit's loop reads the
        // socket between frames, and this queue's events wait in it.
        self.queue
            .dispatch_pending(&mut self.received)
            .map_err(|error| broken(&error))?;
        for feedback in self.received.feedback.drain(..) {
            on_feedback(feedback);
        }
        Ok(())
    }
}

/// The clock `id` names, if it runs steadily (monotonic; Weston's headless output names
/// CLOCK_MONOTONIC_RAW); else the id.
fn steady_clock(id: u32) -> Result<ClockId, u32> {
    let clock = i32::try_from(id)
        .ok()
        .and_then(|id| ClockId::try_from(id).ok());
    match clock {
        Some(
            clock @ (ClockId::Monotonic
            | ClockId::MonotonicRaw
            | ClockId::MonotonicCoarse
            | ClockId::Boottime),
        ) => Ok(clock),
        _ => Err(id),
    }
}

impl Dispatch<WlRegistry, GlobalListContents> for Received {
    fn event(
        _: &mut Self,
        _: &WlRegistry,
        _: <WlRegistry as Proxy>::Event,
        _: &GlobalListContents,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
    }
}

impl Dispatch<WpPresentation, ()> for Received {
    fn event(
        state: &mut Self,
        _: &WpPresentation,
        event: wp_presentation::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wp_presentation::Event::ClockId { clk_id } = event {
            state.clock_id = Some(clk_id);
        }
    }
}

impl Dispatch<WpPresentationFeedback, u64> for Received {
    fn event(
        state: &mut Self,
        _: &WpPresentationFeedback,
        event: wp_presentation_feedback::Event,
        request: &u64,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        // Feedback for a present the loop did not number is of no use.
        let (key, generation, present) = state.numbers[(*request % REQUESTS as u64) as usize];
        if key != request + 1 {
            return;
        }
        let outcome = match event {
            wp_presentation_feedback::Event::Presented {
                tv_sec_hi,
                tv_sec_lo,
                tv_nsec,
                refresh,
                seq_hi,
                seq_lo,
                flags,
            } => {
                let Some(at) = wayland_time_ns(tv_sec_hi, tv_sec_lo, tv_nsec) else {
                    return;
                };
                let kind = match flags {
                    WEnum::Value(kind) => kind,
                    WEnum::Unknown(bits) => Kind::from_bits_truncate(bits),
                };
                FeedbackOutcome::Presented {
                    at,
                    refresh: (refresh > 0).then_some(u64::from(refresh)),
                    // A counter of 0 means the output has none (the protocol's words).
                    sequence: Some(wayland_sequence(seq_hi, seq_lo)).filter(|&seq| seq != 0),
                    flags: FeedbackFlags {
                        vsync: kind.contains(Kind::Vsync),
                        hw_clock: kind.contains(Kind::HwClock),
                        hw_completion: kind.contains(Kind::HwCompletion),
                        zero_copy: kind.contains(Kind::ZeroCopy),
                    },
                }
            }
            wp_presentation_feedback::Event::Discarded => FeedbackOutcome::Discarded,
            _ => return,
        };
        state.feedback.push(PresentFeedback {
            present,
            generation: Some(generation),
            outcome,
        });
    }
}

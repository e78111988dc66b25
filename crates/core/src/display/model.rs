//! The presentation model: frames presented at CPU times in, the times their images reach
//! the screen out (or that they never do), and when the CPU may go on.

use super::spec::{DEFAULT_QUEUE, DisplaySpec, MAX_QUEUE, Refresh};
use crate::timestep::Nanos;

/// What happened on the screen. Events come in time order for each frame, and frames are
/// settled in the order they were presented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayEvent {
    /// Frame `frame` (its sequence number, from 0 in present order) first reached the screen
    /// at `at`: a refresh start, or for `immediate` the moment it tore into the scan-out.
    Shown {
        /// The frame's sequence number.
        frame: u64,
        /// When its image reached the screen.
        at: Nanos,
    },
    /// Frame `frame` was rendered and presented but replaced before any refresh showed it.
    Dropped {
        /// The frame's sequence number.
        frame: u64,
    },
    /// `count` refreshes from `at` on, `every` apart, showed the image already on screen
    /// again (for VRR, low-framerate compensation repeats), all for one `cause`.
    Repeated {
        /// When the first of them started.
        at: Nanos,
        /// How many.
        count: u64,
        /// Time between them, ns (rounded: refresh `k` of a grid starts at its exact time).
        every: Nanos,
        /// Why no new image was there.
        cause: RepeatCause,
    },
    /// The refresh scanned out from `at` showed parts of more than one image (`immediate`).
    Torn {
        /// When the refresh started.
        at: Nanos,
    },
}

/// Why a refresh showed the image already on screen again: the one cause each repeated
/// refresh is blamed on, from the frame that came next (its present, its ready time, and
/// how long its start waited for a free swap-chain image).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepeatCause {
    /// The CPU frame was late: the next frame was presented after the refresh started, and
    /// would have been even without waiting for the queue (or none came before the run
    /// ended).
    CpuLate,
    /// The GPU was late: the next frame was presented before the refresh, but its image was
    /// ready only after it started (`--gpu-cost`).
    GpuLate,
    /// The queue was full: the next frame's CPU work started late because the present
    /// before it waited for a free image (buffer stuffing), and without that wait it would
    /// have been presented in time.
    QueueFull,
    /// The display: VRR's low-framerate compensation repeated the image because nothing new
    /// came within its slowest refresh.
    Display,
}

impl RepeatCause {
    /// Every cause, in the order tables list them.
    pub const ALL: [Self; 4] = [Self::CpuLate, Self::GpuLate, Self::QueueFull, Self::Display];

    /// The cause in a few words, for a tooltip: `CPU late`, `GPU late`, `queue full`, `VRR`.
    pub fn label(self) -> &'static str {
        match self {
            Self::CpuLate => "CPU late",
            Self::GpuLate => "GPU late",
            Self::QueueFull => "queue full",
            Self::Display => "VRR",
        }
    }
}

/// Repeated refreshes counted by cause; they add up to [`DisplayCounts::repeated`]. Its
/// fields are `bench`'s JSON `repeated_by_cause`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RepeatCauses {
    /// [`RepeatCause::CpuLate`].
    pub cpu_late: u64,
    /// [`RepeatCause::GpuLate`].
    pub gpu_late: u64,
    /// [`RepeatCause::QueueFull`].
    pub queue_full: u64,
    /// [`RepeatCause::Display`] (VRR).
    pub display: u64,
}

impl RepeatCauses {
    /// All causes' counts added up.
    pub fn total(&self) -> u64 {
        self.cpu_late + self.gpu_late + self.queue_full + self.display
    }

    /// The refreshes repeated for `cause`.
    pub fn get(&self, cause: RepeatCause) -> u64 {
        let mut copy = *self;
        *copy.slot(cause)
    }

    /// The count of `cause`.
    fn slot(&mut self, cause: RepeatCause) -> &mut u64 {
        match cause {
            RepeatCause::CpuLate => &mut self.cpu_late,
            RepeatCause::GpuLate => &mut self.gpu_late,
            RepeatCause::QueueFull => &mut self.queue_full,
            RepeatCause::Display => &mut self.display,
        }
    }

    /// The counts in words, largest first, e.g. `2 CPU late, 1 queue full`; `none` when
    /// nothing repeated.
    pub fn describe(&self) -> String {
        let mut causes = RepeatCause::ALL.map(|cause| (cause, self.get(cause)));
        causes.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
        let parts: Vec<String> = causes
            .iter()
            .filter(|&&(_, count)| count > 0)
            .map(|&(cause, count)| format!("{count} {}", cause.label()))
            .collect();
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join(", ")
        }
    }

    /// Counts `count` more refreshes repeated for `cause`.
    pub fn add(&mut self, cause: RepeatCause, count: u64) {
        *self.slot(cause) += count;
    }
}

/// The frame a run of repeated refreshes waited for: when it was presented, how long its
/// start waited for a free image, and when its image was ready.
#[derive(Clone, Copy, Debug)]
struct Awaited {
    /// When the CPU presented it.
    present: Nanos,
    /// How long the present before it blocked (the frame's work started that much late).
    held: Nanos,
    /// When its image was ready.
    ready: Nanos,
}

/// Counts of what the screen did over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DisplayCounts {
    /// Frames presented.
    pub presented: u64,
    /// Frames whose image reached the screen.
    pub shown: u64,
    /// Frames presented but never shown.
    pub dropped: u64,
    /// Refreshes that showed the previous image again.
    pub repeated: u64,
    /// The repeated refreshes by cause.
    pub repeated_by_cause: RepeatCauses,
    /// Frames shown later than the first refresh they could have made (their image was
    /// ready, but earlier images were still waiting in the queue, or VRR's refresh was
    /// still busy).
    pub late: u64,
    /// Refreshes that showed parts of two or more images.
    pub torn: u64,
    /// Time the CPU spent blocked in present because the queue was full.
    pub blocked: Nanos,
    /// When the first shown frame reached the screen.
    pub first_shown: Option<Nanos>,
    /// When the last shown frame reached the screen.
    pub last_shown: Option<Nanos>,
}

impl DisplayCounts {
    /// New images per second on the screen: shown frames over the time between the first
    /// and the last (0 with fewer than two).
    pub fn shown_fps(&self) -> f64 {
        match (self.first_shown, self.last_shown) {
            (Some(first), Some(last)) if last > first && self.shown > 1 => {
                (self.shown - 1) as f64 * 1e9 / (last - first) as f64
            }
            _ => 0.0,
        }
    }

    /// Adds one event to the counts.
    fn count(&mut self, event: &DisplayEvent) {
        match *event {
            DisplayEvent::Shown { at, .. } => {
                self.shown += 1;
                self.first_shown.get_or_insert(at);
                self.last_shown = Some(at);
            }
            DisplayEvent::Dropped { .. } => self.dropped += 1,
            DisplayEvent::Repeated { count, cause, .. } => {
                self.repeated += count;
                self.repeated_by_cause.add(cause, count);
            }
            DisplayEvent::Torn { .. } => self.torn += 1,
        }
    }
}

/// The state of one swap chain and its screen. Times are nanoseconds on the CPU's clock
/// from the start of the run (the first refresh starts at 0).
#[derive(Clone, Debug)]
pub struct Display {
    /// What kind of display.
    spec: DisplaySpec,
    /// Images in flight before a present blocks.
    queue: usize,
    /// When each of the last `queue` frames stops holding a swap-chain image (shown for
    /// FIFO and VRR, rendered for mailbox and immediate), indexed by sequence number.
    releases: [Nanos; MAX_QUEUE as usize],
    /// Sequence number of the next frame presented.
    next_frame: u64,
    /// When the GPU finishes the work queued so far.
    gpu_free: Nanos,
    /// Index of the refresh that showed the last new image (FIFO, mailbox, immediate).
    shown_refresh: Option<u64>,
    /// First refresh whose fate (new image or repeat) is not settled yet.
    next_refresh: u64,
    /// Mailbox: the newest ready frame not yet shown, with what it waited for.
    pending: Option<(u64, Awaited)>,
    /// How long the latest present blocked: the frame after it started that much late.
    held: Nanos,
    /// VRR: when the last refresh (new image or repeat) started.
    last_scan: Option<Nanos>,
    /// Immediate: the last refresh counted as torn.
    torn_refresh: Option<u64>,
    /// What happened so far.
    counts: DisplayCounts,
}

impl Display {
    /// A display at time zero. `cpu` and `trace` displays decide nothing: the caller takes
    /// the display times from the CPU timeline or the capture; [`Display::present`] only
    /// counts frames for them.
    pub fn new(spec: DisplaySpec) -> Self {
        let queue = match spec {
            DisplaySpec::Fifo { queue, .. } => queue,
            _ => DEFAULT_QUEUE,
        };
        Self {
            spec,
            queue: queue.clamp(1, MAX_QUEUE) as usize,
            releases: [0; MAX_QUEUE as usize],
            next_frame: 0,
            gpu_free: 0,
            shown_refresh: None,
            next_refresh: 0,
            pending: None,
            held: 0,
            last_scan: None,
            torn_refresh: None,
            counts: DisplayCounts::default(),
        }
    }

    /// The display's spec.
    pub fn spec(&self) -> DisplaySpec {
        self.spec
    }

    /// What happened so far.
    pub fn counts(&self) -> DisplayCounts {
        self.counts
    }

    /// Sequence number the next presented frame gets.
    pub fn next_frame(&self) -> u64 {
        self.next_frame
    }

    /// The same display, numbering presented frames from `frame` on (a new model taking
    /// over a running loop's frames).
    pub fn numbered_from(mut self, frame: u64) -> Self {
        self.next_frame = frame;
        self
    }

    /// Presents the next frame at `present_at`; its image is ready once the GPU has spent
    /// `gpu_cost` on it after the previous frame's work. Reports what the screen did up to
    /// this frame through `on_event` (in order) and returns when the present returns: later
    /// than `present_at` when the images in flight fill the queue.
    pub fn present(
        &mut self,
        present_at: Nanos,
        gpu_cost: Nanos,
        mut on_event: impl FnMut(DisplayEvent),
    ) -> Nanos {
        let on_event = &mut on_event;
        let frame = self.next_frame;
        self.next_frame += 1;
        self.counts.presented += 1;
        // A full queue blocks the present until the oldest image in flight is released.
        let resume = match frame.checked_sub(self.queue as u64) {
            Some(oldest) => present_at.max(self.releases[self.slot(oldest)]),
            None => present_at,
        };
        self.counts.blocked += resume - present_at;
        let ready = present_at.max(self.gpu_free).saturating_add(gpu_cost);
        self.gpu_free = ready;
        let awaited = Awaited {
            present: present_at,
            held: std::mem::replace(&mut self.held, resume - present_at),
            ready,
        };
        let release = match self.spec {
            DisplaySpec::Cpu | DisplaySpec::Trace => ready,
            DisplaySpec::Fifo { refresh, .. } => {
                let earliest = refresh.first_at_or_after(ready);
                let k = self
                    .shown_refresh
                    .map_or(earliest, |last| earliest.max(last + 1));
                self.repeat(refresh, k, Some(awaited), on_event);
                self.counts.late += u64::from(k > earliest);
                self.shown_refresh = Some(k);
                self.next_refresh = k + 1;
                let at = refresh.at(k);
                self.emit(DisplayEvent::Shown { frame, at }, on_event);
                at
            }
            DisplaySpec::Mailbox { refresh } => {
                self.scan_mailbox(refresh, ready, Some(awaited), on_event);
                if let Some((replaced, _)) = self.pending.replace((frame, awaited)) {
                    self.emit(DisplayEvent::Dropped { frame: replaced }, on_event);
                }
                ready
            }
            DisplaySpec::Immediate { refresh } => {
                let k = refresh.last_at_or_before(ready);
                self.repeat(refresh, k, Some(awaited), on_event);
                // A frame that arrives after a refresh has started tears it, unless the
                // screen was still empty.
                if refresh.at(k) < ready
                    && self.shown_refresh.is_some()
                    && self.torn_refresh != Some(k)
                {
                    self.torn_refresh = Some(k);
                    self.emit(DisplayEvent::Torn { at: refresh.at(k) }, on_event);
                }
                self.shown_refresh = Some(k);
                self.next_refresh = self.next_refresh.max(k + 1);
                self.emit(DisplayEvent::Shown { frame, at: ready }, on_event);
                ready
            }
            DisplaySpec::Vrr { min, max } => {
                let at = match self.last_scan {
                    None => ready,
                    Some(last) => {
                        let last = self.hold_vrr(min, last, ready, on_event);
                        // A refresh takes the fastest period: a frame arriving during one
                        // (a repeat included) waits for it to end.
                        ready.max(last.saturating_add(max.period_ns()))
                    }
                };
                self.counts.late += u64::from(at > ready);
                self.last_scan = Some(at);
                self.emit(DisplayEvent::Shown { frame, at }, on_event);
                at
            }
        };
        let slot = self.slot(frame);
        self.releases[slot] = release;
        resume
    }

    /// When a frame presented at `present_at`, its image ready `gpu_cost` after the work
    /// the GPU has queued, would first reach the screen if nothing came after it: the model
    /// itself run forward on a copy (a full queue, the refresh grid, the frame on screen,
    /// VRR's range and its low-framerate repeats all count). `None` for the `cpu` and
    /// `trace` displays, which decide no times.
    pub fn predict(&self, present_at: Nanos, gpu_cost: Nanos) -> Option<Nanos> {
        if !self.spec.is_modeled() {
            return None;
        }
        let mut copy = self.clone();
        let frame = copy.next_frame;
        let shown_at = |event: DisplayEvent| match event {
            DisplayEvent::Shown { frame: shown, at } if shown == frame => Some(at),
            _ => None,
        };
        let mut predicted = None;
        copy.present(present_at, gpu_cost, |event| {
            predicted = predicted.or(shown_at(event));
        });
        if predicted.is_none() {
            // A mailbox shows a ready image at the next refresh, when nothing replaces it.
            copy.finish(present_at, |event| {
                predicted = predicted.or(shown_at(event))
            });
        }
        predicted
    }

    /// Settles what is still open at the end of a run at `end`: a mailbox frame waiting for
    /// a refresh is shown at the next one (nothing newer will replace it), and the refreshes
    /// before `end` that showed nothing new are counted.
    pub fn finish(&mut self, end: Nanos, mut on_event: impl FnMut(DisplayEvent)) {
        let on_event = &mut on_event;
        match self.spec {
            DisplaySpec::Mailbox { refresh } => {
                if let Some((_, awaited)) = self.pending {
                    let k = refresh
                        .first_at_or_after(awaited.ready)
                        .max(self.next_refresh);
                    self.scan_mailbox(refresh, refresh.at(k).saturating_add(1), None, on_event);
                }
                self.scan_mailbox(refresh, end, None, on_event);
            }
            DisplaySpec::Immediate { refresh } | DisplaySpec::Fifo { refresh, .. } => {
                self.repeat(refresh, refresh.first_at_or_after(end), None, on_event);
            }
            DisplaySpec::Vrr { min, .. } => {
                if let Some(last) = self.last_scan {
                    self.last_scan = Some(self.hold_vrr(min, last, end, on_event));
                }
            }
            DisplaySpec::Cpu | DisplaySpec::Trace => {}
        }
    }

    /// Counts a frame presented and then shown or dropped as the caller says (`cpu` and
    /// `trace` displays, whose times the model does not decide); the next frame is
    /// numbered after it.
    pub fn record(&mut self, event: DisplayEvent) {
        if let DisplayEvent::Shown { frame, .. } | DisplayEvent::Dropped { frame } = event {
            self.counts.presented += 1;
            self.next_frame = self.next_frame.max(frame.saturating_add(1));
        }
        self.counts.count(&event);
    }

    /// Mailbox: settles every refresh that starts before `until`, the ready time of the
    /// frame `next` (the one being presented; `None` at the end of a run). Each shows the
    /// pending frame if it is ready by then, else repeats the image on screen.
    fn scan_mailbox(
        &mut self,
        refresh: Refresh,
        until: Nanos,
        next: Option<Awaited>,
        on_event: &mut impl FnMut(DisplayEvent),
    ) {
        let end = refresh.first_at_or_after(until);
        if end <= self.next_refresh {
            return;
        }
        if let Some((frame, awaited)) = self.pending {
            let earliest = refresh.first_at_or_after(awaited.ready);
            let k = earliest.max(self.next_refresh);
            if k < end {
                self.repeat(refresh, k, Some(awaited), on_event);
                self.counts.late += u64::from(k > earliest);
                self.emit(
                    DisplayEvent::Shown {
                        frame,
                        at: refresh.at(k),
                    },
                    on_event,
                );
                self.pending = None;
                self.shown_refresh = Some(k);
                self.next_refresh = k + 1;
            }
        }
        self.repeat(refresh, end, next, on_event);
    }

    /// Counts the refreshes from `next_refresh` up to (not including) `end` as repeats of
    /// the image on screen, if there is one, each blamed on why the frame `awaited` (the
    /// next one to come; `None`: none came before the run ended) missed it: refreshes
    /// before it would have been presented even without waiting for the queue on the CPU,
    /// those before it was presented on the queue, and the rest, before its image was
    /// ready, on the GPU.
    fn repeat(
        &mut self,
        refresh: Refresh,
        end: u64,
        awaited: Option<Awaited>,
        on_event: &mut impl FnMut(DisplayEvent),
    ) {
        let start = self.next_refresh;
        if end <= start {
            return;
        }
        self.next_refresh = end;
        if self.shown_refresh.is_none() {
            return;
        }
        let bounds = awaited.map_or([end, end], |awaited| {
            let unblocked = awaited.present.saturating_sub(awaited.held);
            [unblocked, awaited.present].map(|at| refresh.first_at_or_after(at).clamp(start, end))
        });
        let segments = [
            (start, bounds[0], RepeatCause::CpuLate),
            (bounds[0], bounds[1], RepeatCause::QueueFull),
            (bounds[1], end, RepeatCause::GpuLate),
        ];
        for (from, to, cause) in segments {
            if to > from {
                let event = DisplayEvent::Repeated {
                    at: refresh.at(from),
                    count: to - from,
                    every: refresh.period_ns(),
                    cause,
                };
                self.emit(event, on_event);
            }
        }
    }

    /// VRR's low-framerate compensation: the panel cannot hold an image longer than its
    /// slowest refresh, so from the refresh at `last` it repeats the image every `1/min`
    /// while nothing new is ready before `until`. Returns when the last refresh started.
    fn hold_vrr(
        &mut self,
        min: Refresh,
        last: Nanos,
        until: Nanos,
        on_event: &mut impl FnMut(DisplayEvent),
    ) -> Nanos {
        let longest = min.period_ns();
        let repeats = until.saturating_sub(last).saturating_sub(1) / longest;
        if repeats == 0 {
            return last;
        }
        let event = DisplayEvent::Repeated {
            at: last + longest,
            count: repeats,
            every: longest,
            cause: RepeatCause::Display,
        };
        self.emit(event, on_event);
        last + repeats * longest
    }

    /// Counts an event and passes it on.
    fn emit(&mut self, event: DisplayEvent, on_event: &mut impl FnMut(DisplayEvent)) {
        self.counts.count(&event);
        on_event(event);
    }

    /// Where frame `frame`'s release time is kept.
    fn slot(&self, frame: u64) -> usize {
        (frame % self.queue as u64) as usize
    }
}

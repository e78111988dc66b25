//! Presentation feedback: what the platform says happened to each presented image, as one
//! type whatever the platform ([`PresentFeedback`]), matched to the lab's frames
//! ([`FeedbackMatcher`]) and gathered into the measured screen ([`MeasuredScreen`]): its
//! refreshes, its refresh period and whether it varies, and how the display model's
//! prediction of each frame compares with what was measured.
//!
//! # Clocks
//!
//! Every platform stamps feedback on CLOCK_MONOTONIC: Wayland's `wp_presentation` names its
//! clock (`clock_id`, CLOCK_MONOTONIC in practice) and sends seconds and nanoseconds; X11's
//! Present sends UST, microseconds of CLOCK_MONOTONIC; `VK_GOOGLE_display_timing` sends
//! nanoseconds of the clock the driver uses for `actualPresentTime`, CLOCK_MONOTONIC on
//! Linux. The lab's stopwatch is nanoseconds since it started, read from `Instant`, which on
//! Linux is CLOCK_MONOTONIC too. So a platform time maps onto the stopwatch by one offset,
//! sampled once by reading both clocks together ([`ClockMap`]); the two readings are a few
//! hundred nanoseconds apart, well under any refresh. Nothing here reads a clock: the window
//! samples them and hands the numbers in.
//!
//! # Matching
//!
//! Feedback arrives frames after its present, on another thread or another connection, in
//! any order, perhaps twice, perhaps never. Each present the window makes is numbered within
//! its surface's generation (1, 2, ...: the serial X11's Mesa drivers give a swap chain's
//! presents, and the order Wayland feedback objects are created in), and feedback names the
//! present it is for. A surface recreated (resize, lost surface, new present mode) starts a
//! new generation: feedback for the old one is ignored. Nothing ever waits for feedback.

mod matcher;
mod measured;

pub use matcher::{FeedbackCounts, FeedbackMatcher, IN_FLIGHT, MatchedFeedback, UNSCORED};
pub use measured::{
    MEASURED_REFRESHES, MeasuredReadouts, MeasuredRefresh, MeasuredScreen, ModelScore, VblankTiming,
};

use crate::timestep::Nanos;

/// Where feedback came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeedbackSource {
    /// Wayland's presentation-time protocol (`wp_presentation`).
    WaylandPresentation,
    /// X11's Present extension (`PresentCompleteNotify`).
    X11Present,
    /// Vulkan's `VK_GOOGLE_display_timing` (`vkGetPastPresentationTimingGOOGLE`).
    VulkanDisplayTiming,
}

crate::id::stable_ids!(FeedbackSource, UnknownFeedbackSource, "feedback source");

impl FeedbackSource {
    /// Every source.
    pub const ALL: [FeedbackSource; 3] = [
        FeedbackSource::WaylandPresentation,
        FeedbackSource::X11Present,
        FeedbackSource::VulkanDisplayTiming,
    ];

    /// The source's stable id, as recordings write it.
    pub fn id(self) -> &'static str {
        match self {
            Self::WaylandPresentation => "wayland-presentation-time",
            Self::X11Present => "x11-present",
            Self::VulkanDisplayTiming => "vk-google-display-timing",
        }
    }

    /// The source in words, as the panel and the summary name it.
    pub fn label(self) -> &'static str {
        match self {
            Self::WaylandPresentation => "Wayland presentation-time",
            Self::X11Present => "X11 Present",
            Self::VulkanDisplayTiming => "VK_GOOGLE_display_timing",
        }
    }
}

/// Why the window stopped measuring the screen it had begun to measure, as a recording
/// keeps it (`measured - silent`): the frames from then on are the model's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GaveUp {
    /// No answer came for the first presents: the driver puts images up without the
    /// source (X11 Present under Mesa's software rasterizers and NVIDIA's X11 driver), or
    /// the compositor never answers.
    Silent,
    /// The source failed (its connection broke, or it sent what cannot be read).
    Broken,
}

crate::id::stable_ids!(GaveUp, UnknownGaveUp, "reason the measurement ended");

impl GaveUp {
    /// Every reason.
    pub const ALL: [GaveUp; 2] = [GaveUp::Silent, GaveUp::Broken];

    /// The reason's stable id, as recordings write it.
    pub fn id(self) -> &'static str {
        match self {
            Self::Silent => "silent",
            Self::Broken => "broken",
        }
    }

    /// What happened with `source`, in words.
    pub fn describe(self, source: FeedbackSource) -> String {
        match self {
            Self::Silent => format!("{} never answered", source.label()),
            Self::Broken => format!("{} broke off", source.label()),
        }
    }
}

/// What the platform says about how an image reached the screen. Each source sets what it
/// knows; the rest stay false.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FeedbackFlags {
    /// The image was shown at a vertical blank, not torn into the scan-out.
    pub vsync: bool,
    /// The time is the display hardware's, not a software estimate.
    pub hw_clock: bool,
    /// The hardware signalled the scan-out itself.
    pub hw_completion: bool,
    /// The image was scanned out directly, not copied (X11 Present's Flip mode).
    pub zero_copy: bool,
}

/// What happened to one presented image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedbackOutcome {
    /// It reached the screen.
    Presented {
        /// When, on the platform's clock, ns (see [`ClockMap`]).
        at: i128,
        /// The refresh period the platform reports, ns; `None` when it reports none (or
        /// 0: a variable refresh).
        refresh: Option<Nanos>,
        /// The refresh counter when it was shown (Wayland's `seq`, X11's MSC), if known.
        sequence: Option<u64>,
        /// How it was shown.
        flags: FeedbackFlags,
    },
    /// It never reached the screen: replaced before a refresh showed it (Wayland's
    /// `discarded`, X11's Skip mode).
    Discarded,
}

/// Feedback for one present, as a source reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresentFeedback {
    /// Which present, numbered from 1 within its surface generation.
    pub present: u64,
    /// The surface generation it was presented to, when the source knows it; else the
    /// matcher judges by time.
    pub generation: Option<u32>,
    /// What happened to it.
    pub outcome: FeedbackOutcome,
}

impl PresentFeedback {
    /// Present `present` of surface generation `generation` shown at platform time `at`
    /// (ns) at refresh `sequence`, with the refresh period `refresh` and no flags: the
    /// answer a test or a benchmark plays the platform with.
    pub fn shown(
        present: u64,
        generation: Option<u32>,
        at: i128,
        refresh: Option<Nanos>,
        sequence: Option<u64>,
    ) -> Self {
        Self {
            present,
            generation,
            outcome: FeedbackOutcome::Presented {
                at,
                refresh,
                sequence,
                flags: FeedbackFlags::default(),
            },
        }
    }
}

/// A platform clock (CLOCK_MONOTONIC, ns) against the stopwatch, from one reading of each
/// taken together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockMap {
    /// Platform time less stopwatch time, ns.
    offset: i128,
}

impl ClockMap {
    /// The map from a platform time and a stopwatch time read at the same moment.
    pub fn new(platform_ns: i128, stopwatch: Nanos) -> Self {
        Self {
            offset: platform_ns - i128::from(stopwatch),
        }
    }

    /// Platform time `platform_ns` on the stopwatch; `None` before the stopwatch started
    /// or beyond its range.
    pub fn stopwatch(&self, platform_ns: i128) -> Option<Nanos> {
        Nanos::try_from(platform_ns - self.offset).ok()
    }
}

/// What the window's feedback source tells the live loop, handed in as a value: the one
/// way the shell speaks of presentation feedback (`LiveLoop::feedback`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedbackEvent {
    /// The platform reports presentation through this source, on a clock that maps onto
    /// the stopwatch by the [`ClockMap`]: the screen is measured from now on.
    Watching(FeedbackSource, ClockMap),
    /// The screen cannot be measured, for this reason: it stays modeled, and says why.
    Unwatched(&'static str),
    /// A fresh reading of the platform's clock against the stopwatch, for a platform clock
    /// that drifts from it.
    Clock(ClockMap),
    /// An answer for one present.
    Answer(PresentFeedback),
    /// The window gave up measuring the screen (the reason, and in words): it is modeled
    /// from now on.
    GaveUp(GaveUp, &'static str),
}

/// Wayland's split timestamp (`tv_sec_hi`, `tv_sec_lo`, `tv_nsec`) in ns; `None` when the
/// nanoseconds are not below a second, which the protocol forbids.
pub fn wayland_time_ns(sec_hi: u32, sec_lo: u32, nsec: u32) -> Option<i128> {
    (nsec < 1_000_000_000)
        .then(|| (i128::from(sec_hi) << 32 | i128::from(sec_lo)) * 1_000_000_000 + i128::from(nsec))
}

/// Wayland's split sequence counter (`seq_hi`, `seq_lo`).
pub fn wayland_sequence(seq_hi: u32, seq_lo: u32) -> u64 {
    u64::from(seq_hi) << 32 | u64::from(seq_lo)
}

/// X11 Present's UST (µs of CLOCK_MONOTONIC) in ns.
pub fn x11_ust_ns(ust: u64) -> i128 {
    i128::from(ust) * 1000
}

#[cfg(test)]
mod tests;

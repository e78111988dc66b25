//! What the window does for tests and scripts rather than for a person: stop after
//! `--frames`, write the last frame to `--screenshot`, ask for a new size at
//! `--resize-at`, and switch present modes every `--cycle-present-modes` frames as a
//! person would in the panel. The decisions are plain values; taking the screenshot is
//! `screenshot`'s.

use std::path::{Path, PathBuf};

use crate::live::PresentModeId;
use crate::options::WindowOptions;

/// The automation a window run was asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Automation {
    /// Run this many frames, then exit.
    frames: Option<u64>,
    /// Write the last frame to this PNG.
    screenshot: Option<PathBuf>,
    /// After this many frames, ask for this window size (physical pixels).
    resize_at: Option<(u64, (u32, u32))>,
    /// Switch to the next present mode offered every this many frames.
    cycle_present_modes: Option<u64>,
}

impl Automation {
    /// The automation `options` ask for.
    pub fn new(options: &WindowOptions) -> Self {
        Self {
            frames: options.frames,
            screenshot: options.screenshot.clone(),
            resize_at: options.resize_at,
            cycle_present_modes: options.cycle_present_modes,
        }
    }

    /// Whether the frame after `drawn` frames is the last one asked for.
    pub fn is_last_frame(&self, drawn: u64) -> bool {
        self.frames.is_some_and(|frames| drawn + 1 >= frames)
    }

    /// Where the last frame goes, if it is to be written.
    pub fn screenshot(&self) -> Option<&Path> {
        self.screenshot.as_deref()
    }

    /// The window size to ask for once `drawn` frames have been drawn, if that is when.
    pub fn resize(&self, drawn: u64) -> Option<(u32, u32)> {
        self.resize_at
            .and_then(|(frame, size)| (drawn == frame).then_some(size))
    }

    /// The present mode to switch to once `drawn` frames have been drawn, if that is when:
    /// the one after `active` among `offered` (the first when `active` is not offered).
    pub fn next_present_mode(
        &self,
        drawn: u64,
        active: Option<PresentModeId>,
        offered: &[PresentModeId],
    ) -> Option<PresentModeId> {
        let every = self.cycle_present_modes.filter(|&every| every > 0)?;
        if drawn == 0 || !drawn.is_multiple_of(every) {
            return None;
        }
        let next = active
            .and_then(|mode| offered.iter().position(|&m| m == mode))
            .map_or(0, |i| (i + 1) % offered.len().max(1));
        offered.get(next).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OFFERED: [PresentModeId; 3] = [
        PresentModeId::Immediate,
        PresentModeId::Mailbox,
        PresentModeId::Fifo,
    ];

    fn cycling(every: u64) -> Automation {
        Automation {
            cycle_present_modes: Some(every),
            ..Automation::default()
        }
    }

    #[test]
    fn present_modes_cycle_through_the_offered_ones_every_n_frames() {
        let automation = cycling(6);
        let fifo = Some(PresentModeId::Fifo);
        assert_eq!(automation.next_present_mode(0, fifo, &OFFERED), None);
        assert_eq!(automation.next_present_mode(5, fifo, &OFFERED), None);
        assert_eq!(
            automation.next_present_mode(6, fifo, &OFFERED),
            Some(PresentModeId::Immediate)
        );
        assert_eq!(
            automation.next_present_mode(12, Some(PresentModeId::Immediate), &OFFERED),
            Some(PresentModeId::Mailbox)
        );
        // A mode not offered (or none yet) starts from the first.
        assert_eq!(
            automation.next_present_mode(18, Some(PresentModeId::AutoVsync), &OFFERED),
            Some(PresentModeId::Immediate)
        );
        assert_eq!(
            automation.next_present_mode(18, None, &OFFERED),
            Some(PresentModeId::Immediate)
        );
        assert_eq!(automation.next_present_mode(18, fifo, &[]), None);
        assert_eq!(cycling(0).next_present_mode(6, fifo, &OFFERED), None);
        assert_eq!(
            Automation::default().next_present_mode(6, fifo, &OFFERED),
            None
        );
    }

    #[test]
    fn the_last_frame_and_the_resize_come_when_asked() {
        let automation = Automation {
            frames: Some(120),
            resize_at: Some((10, (480, 360))),
            ..Automation::default()
        };
        assert!(!automation.is_last_frame(118));
        assert!(automation.is_last_frame(119));
        assert!(!Automation::default().is_last_frame(u64::MAX - 1));
        assert_eq!(automation.resize(9), None);
        assert_eq!(automation.resize(10), Some((480, 360)));
        assert_eq!(automation.resize(11), None);
    }
}

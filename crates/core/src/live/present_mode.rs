//! Present modes by stable id, as the command line, the settings and the panel name them.
//! The window maps them to its graphics API's modes; the core only names them.

/// How frames reach the display (wgpu's present modes, by their command-line ids).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PresentModeId {
    /// Wait for vertical blank, queue frames (vsync; always supported).
    Fifo,
    /// Vsync, but a late frame is shown at once (tears instead of stuttering).
    FifoRelaxed,
    /// Vsync without blocking: the newest frame replaces a queued one.
    Mailbox,
    /// No vsync: frames are shown at once (may tear).
    Immediate,
    /// Vsync with the best mode available (FifoRelaxed, else Fifo).
    #[default]
    AutoVsync,
    /// No vsync with the best mode available (Immediate, else Mailbox, else Fifo).
    AutoNoVsync,
}

crate::id::stable_ids!(PresentModeId, UnknownPresentMode, "present mode");

impl PresentModeId {
    /// Every id, in the order the panel lists them.
    pub const ALL: [PresentModeId; 6] = [
        PresentModeId::Fifo,
        PresentModeId::FifoRelaxed,
        PresentModeId::Mailbox,
        PresentModeId::Immediate,
        PresentModeId::AutoVsync,
        PresentModeId::AutoNoVsync,
    ];

    /// The stable id.
    pub fn id(self) -> &'static str {
        match self {
            PresentModeId::Fifo => "fifo",
            PresentModeId::FifoRelaxed => "fifo-relaxed",
            PresentModeId::Mailbox => "mailbox",
            PresentModeId::Immediate => "immediate",
            PresentModeId::AutoVsync => "auto-vsync",
            PresentModeId::AutoNoVsync => "auto-no-vsync",
        }
    }

    /// Whether the mode waits for vertical blank.
    pub fn is_vsync(self) -> bool {
        matches!(
            self,
            PresentModeId::Fifo | PresentModeId::FifoRelaxed | PresentModeId::AutoVsync
        )
    }

    /// The concrete mode to configure, among those the surface `supported`: the mode
    /// itself, or for the `auto-*` ids the first supported of their fallback chain. Fifo is
    /// always supported, so there is always an answer.
    pub fn resolve(self, supported: &[PresentModeId]) -> PresentModeId {
        let chain: &[PresentModeId] = match self {
            PresentModeId::AutoVsync => &[PresentModeId::FifoRelaxed, PresentModeId::Fifo],
            PresentModeId::AutoNoVsync => &[
                PresentModeId::Immediate,
                PresentModeId::Mailbox,
                PresentModeId::Fifo,
            ],
            _ => std::slice::from_ref(&self),
        };
        chain
            .iter()
            .copied()
            .find(|mode| supported.contains(mode))
            .unwrap_or(PresentModeId::Fifo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_modes_fall_back_to_what_is_supported() {
        let lavapipe = [
            PresentModeId::Immediate,
            PresentModeId::Mailbox,
            PresentModeId::Fifo,
            PresentModeId::FifoRelaxed,
        ];
        let gl = [PresentModeId::Fifo];
        assert_eq!(
            PresentModeId::AutoNoVsync.resolve(&lavapipe),
            PresentModeId::Immediate
        );
        assert_eq!(PresentModeId::AutoNoVsync.resolve(&gl), PresentModeId::Fifo);
        assert_eq!(
            PresentModeId::AutoVsync.resolve(&lavapipe),
            PresentModeId::FifoRelaxed
        );
        assert_eq!(PresentModeId::Mailbox.resolve(&gl), PresentModeId::Fifo);
        assert_eq!(
            PresentModeId::Mailbox.resolve(&lavapipe),
            PresentModeId::Mailbox
        );
    }

    #[test]
    fn ids_round_trip_and_unknown_ones_are_named() {
        for mode in PresentModeId::ALL {
            assert_eq!(mode.id().parse::<PresentModeId>(), Ok(mode));
        }
        let error = "vsync".parse::<PresentModeId>().expect_err("unknown");
        assert!(
            error
                .to_string()
                .starts_with("unknown present mode \"vsync\" (allowed: fifo")
        );
    }
}

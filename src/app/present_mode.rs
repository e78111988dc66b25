//! Present modes as wgpu knows them: the core names modes by [`PresentModeId`]; only the
//! window, which configures the surface, converts them.

use crate::live::PresentModeId;

/// Conversion between the lab's present-mode ids and wgpu's modes.
pub trait WgpuPresentMode {
    /// The wgpu mode.
    fn to_wgpu(self) -> wgpu::PresentMode;
    /// The id of a wgpu mode.
    fn from_wgpu(mode: wgpu::PresentMode) -> Self;
}

impl WgpuPresentMode for PresentModeId {
    fn to_wgpu(self) -> wgpu::PresentMode {
        match self {
            PresentModeId::Fifo => wgpu::PresentMode::Fifo,
            PresentModeId::FifoRelaxed => wgpu::PresentMode::FifoRelaxed,
            PresentModeId::Mailbox => wgpu::PresentMode::Mailbox,
            PresentModeId::Immediate => wgpu::PresentMode::Immediate,
            PresentModeId::AutoVsync => wgpu::PresentMode::AutoVsync,
            PresentModeId::AutoNoVsync => wgpu::PresentMode::AutoNoVsync,
        }
    }

    fn from_wgpu(mode: wgpu::PresentMode) -> Self {
        match mode {
            wgpu::PresentMode::Fifo => PresentModeId::Fifo,
            wgpu::PresentMode::FifoRelaxed => PresentModeId::FifoRelaxed,
            wgpu::PresentMode::Mailbox => PresentModeId::Mailbox,
            wgpu::PresentMode::Immediate => PresentModeId::Immediate,
            wgpu::PresentMode::AutoVsync => PresentModeId::AutoVsync,
            wgpu::PresentMode::AutoNoVsync => PresentModeId::AutoNoVsync,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_wgpu() {
        for mode in PresentModeId::ALL {
            assert_eq!(PresentModeId::from_wgpu(mode.to_wgpu()), mode);
        }
    }
}

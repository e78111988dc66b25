//! How finely frames are drawn, chosen for the adapter.
//!
//! A CPU rasterizer (Mesa's lavapipe, or any adapter of type `Cpu`) pays for every sample
//! and every triangle: on lavapipe, two cores, 4× MSAA took the default frame from 14 to
//! 27 ms, and egui's feathered edges (a one-pixel anti-aliasing strip around every shape)
//! 3–4 ms more, for edges the eye barely tells apart at the panel's sizes
//! (docs/performance.md). So a CPU adapter draws the scene with one sample and the panel
//! without feathering, and a GPU with 4× MSAA and feathering; `--msaa` overrides the
//! scene's samples either way.

use super::DEFAULT_SAMPLE_COUNT;

/// How finely frames are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawQuality {
    /// MSAA samples of the scene (1 or 4).
    pub msaa: u32,
    /// Whether egui's shapes get feathered (anti-aliased) edges.
    pub feathering: bool,
    /// Whether the adapter rasterizes on the CPU.
    pub cpu_adapter: bool,
}

impl DrawQuality {
    /// The quality for an adapter of `device_type`, the scene's samples `msaa` where the
    /// person chose them.
    pub fn for_adapter(device_type: wgpu::DeviceType, msaa: Option<u32>) -> Self {
        let cpu_adapter = device_type == wgpu::DeviceType::Cpu;
        Self {
            msaa: msaa.unwrap_or(if cpu_adapter { 1 } else { DEFAULT_SAMPLE_COUNT }),
            feathering: !cpu_adapter,
            cpu_adapter,
        }
    }

    /// Applies the panel's part to `ctx`: its shapes' feathering.
    pub fn apply_to(&self, ctx: &egui::Context) {
        ctx.tessellation_options_mut(|options| options.feathering = self.feathering);
    }

    /// In words, for the panel and the exit summary.
    pub fn describe(&self) -> String {
        let edges = if self.feathering { "smooth" } else { "plain" };
        let whose = if self.cpu_adapter {
            ": CPU defaults"
        } else {
            ""
        };
        format!("{}x MSAA, {edges} panel edges{whose}", self.msaa)
    }

    /// Why, for the panel's tooltip.
    pub fn why(&self) -> &'static str {
        if self.cpu_adapter {
            "A CPU rasterizer pays for every sample and every triangle: 4x MSAA doubled the \
             frame on two cores, and the panel's feathered edges cost 3-4 ms more for edges \
             the eye barely tells apart. --msaa 4 brings the smooth scene edges back."
        } else {
            "4 samples per pixel keep the grid lines and the coil from crawling as the \
             camera orbits; --msaa 1 draws one."
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_adapter_draws_cheaply_and_a_gpu_finely_unless_told_otherwise() {
        let cpu = DrawQuality::for_adapter(wgpu::DeviceType::Cpu, None);
        assert_eq!(
            (cpu.msaa, cpu.feathering, cpu.cpu_adapter),
            (1, false, true)
        );
        for gpu in [
            wgpu::DeviceType::DiscreteGpu,
            wgpu::DeviceType::IntegratedGpu,
            wgpu::DeviceType::VirtualGpu,
            wgpu::DeviceType::Other,
        ] {
            let quality = DrawQuality::for_adapter(gpu, None);
            assert_eq!((quality.msaa, quality.feathering), (4, true), "{gpu:?}");
        }
        assert_eq!(
            DrawQuality::for_adapter(wgpu::DeviceType::Cpu, Some(4)).msaa,
            4
        );
        assert_eq!(
            DrawQuality::for_adapter(wgpu::DeviceType::DiscreteGpu, Some(1)).msaa,
            1
        );
        assert_eq!(cpu.describe(), "1x MSAA, plain panel edges: CPU defaults");
        assert_eq!(
            DrawQuality::for_adapter(wgpu::DeviceType::DiscreteGpu, None).describe(),
            "4x MSAA, smooth panel edges"
        );
    }

    #[test]
    fn the_panel_quality_reaches_egui() {
        let ctx = egui::Context::default();
        DrawQuality::for_adapter(wgpu::DeviceType::Cpu, None).apply_to(&ctx);
        assert!(!ctx.tessellation_options(|options| options.feathering));
        DrawQuality::for_adapter(wgpu::DeviceType::DiscreteGpu, None).apply_to(&ctx);
        assert!(ctx.tessellation_options(|options| options.feathering));
    }
}

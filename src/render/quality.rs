//! How finely frames are drawn, chosen for the adapter.
//!
//! A CPU rasterizer (Mesa's lavapipe, or any adapter of type `Cpu`) pays for every sample
//! and every triangle: on lavapipe, two cores, 4× MSAA took the default frame from 14 to
//! 27 ms, and egui's feathered edges (a one-pixel anti-aliasing strip around every shape)
//! 3–4 ms more, for edges the eye barely tells apart at the panel's sizes
//! (docs/performance.md). So a CPU adapter draws the scene with one sample and the panel
//! without feathering, and a GPU with 4× MSAA and feathering; `--msaa` overrides the
//! scene's samples either way.
//!
//! What the adapter offers comes second ([`DrawQuality::within`]): the scene's samples are
//! cut to the most the adapter offers for the target (`GpuContext::sample_count`), and
//! where a texture cannot be viewed in another format (GL) the panel is drawn through the
//! sRGB target itself. Both are said in [`DrawQuality::describe`] and why in
//! [`DrawQuality::why`].

use super::{DEFAULT_SAMPLE_COUNT, GpuContext};

/// How the drawing is described where the panel goes through the sRGB target itself.
pub const PANEL_THROUGH_SRGB: &str = "panel through the sRGB target";

/// How finely frames are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawQuality {
    /// MSAA samples of the scene (1 or 4).
    pub msaa: u32,
    /// Whether egui's shapes get feathered (anti-aliased) edges.
    pub feathering: bool,
    /// Whether the adapter rasterizes on the CPU.
    pub cpu_adapter: bool,
    /// The samples chosen before the adapter was asked (`msaa` is less where it offers
    /// fewer).
    pub msaa_asked: u32,
    /// Whether the panel is drawn through the sRGB target itself (blended in linear light),
    /// because the target cannot be viewed in its non-sRGB twin.
    pub panel_through_srgb: bool,
}

impl DrawQuality {
    /// The quality for an adapter of `device_type`, the scene's samples `msaa` where the
    /// person chose them.
    pub fn for_adapter(device_type: wgpu::DeviceType, msaa: Option<u32>) -> Self {
        let cpu_adapter = device_type == wgpu::DeviceType::Cpu;
        let msaa = msaa.unwrap_or(if cpu_adapter { 1 } else { DEFAULT_SAMPLE_COUNT });
        Self {
            msaa,
            feathering: !cpu_adapter,
            cpu_adapter,
            msaa_asked: msaa,
            panel_through_srgb: false,
        }
    }

    /// The quality for `gpu`'s adapter drawing frames through `formats` (the scene's, the
    /// panel's), the scene's samples `msaa` where the person chose them, cut to what the
    /// adapter offers.
    pub fn for_gpu(
        gpu: &GpuContext,
        (format, ui_format): (wgpu::TextureFormat, wgpu::TextureFormat),
        msaa: Option<u32>,
    ) -> Self {
        let asked = Self::for_adapter(gpu.adapter.get_info().device_type, msaa);
        asked.within(
            gpu.sample_count(format, asked.msaa),
            format.is_srgb() && ui_format == format,
        )
    }

    /// This quality as the adapter can draw it: `offered_msaa` samples (what it offers up
    /// to [`Self::msaa`]), and the panel through the sRGB target where `panel_through_srgb`.
    #[must_use]
    pub fn within(self, offered_msaa: u32, panel_through_srgb: bool) -> Self {
        Self {
            msaa: offered_msaa.clamp(1, self.msaa_asked),
            panel_through_srgb,
            ..self
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
        let cut = if self.msaa < self.msaa_asked {
            format!(" ({}x not offered)", self.msaa_asked)
        } else {
            String::new()
        };
        let linear = if self.panel_through_srgb {
            format!(", {PANEL_THROUGH_SRGB}")
        } else {
            String::new()
        };
        format!(
            "{}x MSAA{cut}, {edges} panel edges{whose}{linear}",
            self.msaa
        )
    }

    /// Why, for the panel's tooltip and the exit summary.
    pub fn why(&self) -> String {
        let mut why = if self.cpu_adapter {
            "A CPU rasterizer pays for every sample and every triangle: 4x MSAA doubled the \
             frame on two cores, and the panel's feathered edges cost 3-4 ms more for edges \
             the eye barely tells apart. --msaa 4 brings the smooth scene edges back."
        } else {
            "4 samples per pixel keep the grid lines and the coil from crawling as the \
             camera orbits; --msaa 1 draws one."
        }
        .to_owned();
        why.push_str(&self.what_it_lacks());
        why
    }

    /// [`Self::describe`] for the exit summary: what the adapter lacks and how the drawing
    /// makes do said after it (the rest of [`Self::why`] is for the panel's tooltip).
    pub fn summary(&self) -> String {
        let lacks = self.what_it_lacks();
        if lacks.is_empty() {
            self.describe()
        } else {
            format!("{}.{lacks}", self.describe())
        }
    }

    /// What the adapter lacks and how the drawing makes do, in sentences each led by a
    /// space (empty where it lacks nothing).
    fn what_it_lacks(&self) -> String {
        let mut why = String::new();
        if self.msaa < self.msaa_asked {
            why.push_str(&format!(
                " This adapter offers no {}x MSAA for the frame's colour and depth formats, \
                 so the scene is drawn with {}.",
                self.msaa_asked, self.msaa
            ));
        }
        if self.panel_through_srgb {
            why.push_str(
                " This adapter cannot view a texture in another format (a downlevel API \
                 such as GL has no view formats), so the panel is drawn through the sRGB \
                 target and blended in linear light: its translucent edges look a little \
                 thinner than elsewhere.",
            );
        }
        why
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
    fn what_the_adapter_lacks_is_cut_and_said() {
        let asked = DrawQuality::for_adapter(wgpu::DeviceType::DiscreteGpu, None);
        let cut = asked.within(1, true);
        assert_eq!((cut.msaa, cut.msaa_asked), (1, 4));
        assert_eq!(
            cut.describe(),
            "1x MSAA (4x not offered), smooth panel edges, panel through the sRGB target"
        );
        assert!(cut.why().contains("offers no 4x MSAA"), "{}", cut.why());
        assert!(cut.why().contains("cannot view a texture"), "{}", cut.why());
        // The summary says what was cut, then why.
        assert!(
            cut.summary().starts_with(
                "1x MSAA (4x not offered), smooth panel edges, panel through the sRGB \
                 target. This adapter offers no 4x MSAA"
            ),
            "{}",
            cut.summary()
        );
        // An adapter offering all keeps the words of before, and never raises the count.
        let kept = asked.within(8, false);
        assert_eq!(kept.describe(), "4x MSAA, smooth panel edges");
        assert_eq!(kept.summary(), kept.describe());
        assert!(!kept.why().contains("offers no"));
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

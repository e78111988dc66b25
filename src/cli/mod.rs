//! The command line: `timestep-lab [OPTIONS]` opens the window; `bench`, `sweep`, `render`
//! and `bench-render` run headless.
mod bench_args;
mod files;
pub mod query;
pub mod ranges;
mod run_bench;
#[cfg(test)]
mod tests;
mod window_args;

use clap::{Parser, Subcommand};

use crate::bench::plot::{self};
use crate::options::GpuBackend;
use crate::timestep::{EnginePreset, RangeError, Strategy};

pub use bench_args::{BenchArgs, RunArgs, SweepArgs};
pub use files::{check_new_file, check_png_path, load_replay, read_replay};
pub use run_bench::{run_bench, run_sweep};
pub use window_args::{
    BenchRenderArgs, LiveArgs, RenderArgs, SimArgs, WindowArgs, X11_SCALE_FACTOR,
    X11_SCALE_FACTORS, check_x11_scale_factor,
};

use files::check_report_paths;
use run_bench::font_override;

/// See, measure and understand game-loop timesteps.
#[derive(Debug, Parser)]
#[command(
    name = "timestep-lab",
    version,
    about,
    long_about = None,
    args_conflicts_with_subcommands = true,
    allow_negative_numbers = true
)]
pub struct Cli {
    /// What to do; with none, the interactive window opens.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The window's starting values.
    #[command(flatten)]
    pub window: WindowArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run strategies over a frame-time trace and print a comparison table.
    #[command(allow_negative_numbers = true)]
    Bench(Box<BenchArgs>),
    /// Ramp one load over a range and find where each strategy breaks (the spiral of
    /// death, measured and predicted).
    #[command(allow_negative_numbers = true)]
    Sweep(Box<SweepArgs>),
    /// Render one frame of the scene headless (no window) to a PNG.
    #[command(allow_negative_numbers = true)]
    Render(RenderArgs),
    /// Render frames headless and report the CPU cost per frame, split by stage.
    #[command(name = "bench-render", allow_negative_numbers = true)]
    BenchRender(BenchRenderArgs),
}

/// The option that sets the value a [`RangeError`] names, for the message.
pub(super) fn flag_of(error: &RangeError) -> Option<&'static str> {
    Some(match error.name {
        "physics rate" => "--hz",
        "max frame time" => "--max-frame-time",
        "max steps" => "--max-steps",
        "spring frequency" => "--spring-hz",
        "damping ratio" => "--damping",
        "step cost" => "--step-cost",
        "render cost" => "--render-cost",
        "time scale" => "--time-scale",
        "jitter" => "--jitter",
        "hitch length" => "--hitch",
        "hitch period" => "--hitch-every",
        "refresh rate" => "--refresh",
        "frame cap" => "--frame-cap",
        "averaged frames" => "--filter",
        _ => return None,
    })
}

/// A range error as an option's error: prefixed with the flag that set the value.
pub(super) fn flagged(error: RangeError) -> anyhow::Error {
    match flag_of(&error) {
        Some(flag) => anyhow::anyhow!("{flag}: {error}"),
        None => error.into(),
    }
}

/// Parses `--backend`: one of the graphics APIs this build draws with
/// ([`GpuBackend::here`]).
pub(super) fn parse_backend(value: &str) -> Result<GpuBackend, String> {
    let here = GpuBackend::here();
    let ids = here.iter().map(|backend| backend.id()).collect::<Vec<_>>();
    let Ok(backend) = value.parse::<GpuBackend>() else {
        // The ones this build draws with, not every one there is.
        return Err(format!(
            "unknown graphics backend {value:?} (allowed: {})",
            ids.join(", ")
        ));
    };
    if here.contains(&backend) {
        return Ok(backend);
    }
    let (place, other) = if cfg!(target_arch = "wasm32") {
        ("a page", "the desktop application's")
    } else {
        ("the desktop application", "a browser's")
    };
    Err(format!(
        "{} is {other}; {place} draws with {}",
        backend.id(),
        ids.join(" or ")
    ))
}

/// Parses an MSAA sample count: 1 or 4, the counts every wgpu adapter supports.
pub(super) fn parse_msaa(value: &str) -> Result<u32, String> {
    match value {
        "1" => Ok(1),
        "4" => Ok(4),
        _ => Err(format!(
            "{value} is not an MSAA sample count (allowed: 1, 4)"
        )),
    }
}

/// Parses the plot's `WxH`, each within [`plot::MIN_SIZE`] and [`plot::MAX_SIZE`].
pub(super) fn parse_plot_size(value: &str) -> Result<(u32, u32), String> {
    let (min, max) = (plot::MIN_SIZE, plot::MAX_SIZE);
    let bad = || {
        format!(
            "{value:?} is not WxH from {}x{} to {}x{} (e.g. 1600x1200)",
            min.0, min.1, max.0, max.1
        )
    };
    let (width, height) = value.split_once('x').ok_or_else(bad)?;
    let width: u32 = width.parse().map_err(|_| bad())?;
    let height: u32 = height.parse().map_err(|_| bad())?;
    if !(min.0..=max.0).contains(&width) || !(min.1..=max.1).contains(&height) {
        return Err(bad());
    }
    Ok((width, height))
}

/// Parses `N:WxH` (frame, width, height).
pub(super) fn parse_resize(value: &str) -> Result<(u64, (u32, u32)), String> {
    let bad = || {
        format!(
            "\"{}\" is not N:WxH (e.g. 30:640x360)",
            crate::text::escape_within(value, 40)
        )
    };
    let (frame, size) = value.split_once(':').ok_or_else(bad)?;
    let (width, height) = size.split_once('x').ok_or_else(bad)?;
    // clap quotes the whole value before this: the part and its range are enough.
    let part = |what: &str, range: crate::setting::Whole, text: &str| {
        range.parse(text).map_err(|error| format!("{what} {error}"))
    };
    Ok((
        u64::from(part("N", ranges::RESIZE_FRAME, frame)?),
        (
            part("W", ranges::IMAGE_SIZE, width)?,
            part("H", ranges::IMAGE_SIZE, height)?,
        ),
    ))
}

/// Parses `--ramp MAX_MS:SECONDS`, each checked against the ramp's range.
pub(super) fn parse_ramp(value: &str) -> Result<crate::live::RampSettings, String> {
    let bad = || format!("{value:?} is not MAX_MS:SECONDS (e.g. 30:30)");
    let (max, duration) = value.split_once(':').ok_or_else(bad)?;
    let number = |text: &str| text.trim().parse::<f64>().map_err(|_| bad());
    let ramp = crate::live::RampSettings {
        max_step_cost_ms: number(max)?,
        duration_s: number(duration)?,
    };
    ramp.validate().map_err(|error| error.to_string())?;
    Ok(ramp)
}

/// The lab's strategy ids as the parser knows them, for help text: one table, no copy.
fn strategy_ids() -> String {
    Strategy::ALL.map(|strategy| strategy.id()).join(", ")
}

/// The engine preset ids as the parser knows them, for help text.
fn preset_ids() -> String {
    EnginePreset::ALL.map(|preset| preset.id()).join(", ")
}

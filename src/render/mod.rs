//! The wgpu renderer (the shell): draws [`crate::view::PaneView`]s into any texture view.
//!
//! [`Renderer`] turns panes (a viewport and a view each) into a handful of instanced
//! draws in one render pass; [`RenderTargets`] owns the MSAA and depth textures and records
//! that pass. The window and the headless tests share this code: the window draws into its
//! surface texture, the tests into an [`Offscreen`] texture read back with
//! [`Offscreen::read_rgba`] (or all at once with [`render_scene_png`]). [`GpuContext`]
//! finds an adapter (lavapipe on machines without a GPU).

mod buffers;
mod gpu;
mod mesh;
mod pass;
mod quality;
mod readback;
mod renderer;
mod ui_painter;

pub use gpu::{
    DeviceError, ErrorScope, GpuContext, GpuError, adapter_summary, catch_errors,
    log_uncaptured_errors, request_adapter, with_backend,
};
pub use pass::begin_color_pass;
pub use quality::{DrawQuality, PANEL_THROUGH_SRGB};
pub use readback::{
    FrameTarget, Offscreen, ReadbackError, render_scene_parts_png, render_scene_png, ui_view_format,
};
pub use renderer::{
    ALARM_COLOR, BACKGROUND, DEFAULT_SAMPLE_COUNT, DEPTH_FORMAT, GHOST_ALPHA, GHOST_COLOR,
    GRID_COLOR, MASS_COLOR, PIVOT_COLOR, PlacedView, RenderTargets, Renderer, SPHERE_COLOR,
    SPHERE_STRIPE_COLOR, SPRING_COLOR, SceneParts, TRAIL_COLOR, Viewport, clip_from_world,
};
pub use ui_painter::{Backdrop, UiPainter};

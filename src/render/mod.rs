//! The wgpu renderer (the shell): draws [`crate::view::PaneView`]s into any texture view.

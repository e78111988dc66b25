//! What wakes the window's event loop from outside the window: the GPU connected, and on a
//! page a file opened, the screenshot read back or the tab shown again. Its own module, so
//! that what sends one (`gpu_start`, `screenshot`, `page`) and the window that takes it
//! import it from here.

/// What wakes the window's event loop from outside the window.
pub enum Wake {
    /// Connecting the GPU has ended, on a page, when the browser answered.
    #[cfg_attr(
        not(target_arch = "wasm32"),
        expect(dead_code, reason = "natively the window waits for its GPU")
    )]
    Connected,
    /// A recording or trace opened on a page (its file picker, or dropped on it) to
    /// replay, or the message that refuses it.
    #[cfg(target_arch = "wasm32")]
    Opened(Result<crate::live::Recording, String>),
    /// The last frame read back from the GPU for the screenshot, on a page, or why it
    /// could not be.
    #[cfg(target_arch = "wasm32")]
    Shot(Result<image::RgbaImage, String>),
    /// The page's tab shown again after it was hidden for `hidden_s` seconds, in which the
    /// browser ran no frames.
    #[cfg(target_arch = "wasm32")]
    Shown {
        /// How long the tab was hidden, s.
        hidden_s: f64,
    },
}

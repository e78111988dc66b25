//! What wakes the window's event loop from outside the window: the GPU connected, natively a
//! signal to end, and on a page a file opened, the screenshot read back or the tab shown
//! again. Its own module, so that what sends one (`gpu_start`, `signals`, `screenshot`,
//! `page`) and the window that takes it import it from here.

/// What wakes the window's event loop from outside the window.
pub enum Wake {
    /// Connecting the GPU has ended, on a page, when the browser answered.
    #[cfg_attr(
        not(target_arch = "wasm32"),
        expect(dead_code, reason = "natively the window waits for its GPU")
    )]
    Connected,
    /// The terminal or the system asked the application to end (Ctrl+C, SIGTERM, SIGHUP;
    /// a Windows console's Ctrl+C or Ctrl+Break): it ends as when its window is closed.
    #[cfg(not(target_arch = "wasm32"))]
    Signalled,
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

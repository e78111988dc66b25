//! Connecting the GPU to a new window, which is asynchronous: natively the window waits for
//! it (`pollster`), on a page the browser answers later, on its own event loop, and the
//! window learns of the answer through a user event.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use winit::event_loop::EventLoopProxy;
use winit::window::Window;

use super::active::{Connected, Opening};
use super::wake::Wake;
use crate::options::GpuBackend;

/// What connecting the GPU comes to, once it has.
type Answer = Rc<RefCell<Option<anyhow::Result<Connected>>>>;

/// A window whose GPU is being connected.
pub struct GpuStart {
    /// The window.
    window: Arc<Window>,
    /// The GPU, or why there is none, once connecting has ended.
    answer: Answer,
}

impl GpuStart {
    /// Starts connecting a GPU (on `backend` where one is named) to `opening`'s surface;
    /// `wake` is sent a user event when it has ended, where that is not at once.
    pub fn begin(
        opening: Opening,
        backend: Option<GpuBackend>,
        wake: EventLoopProxy<Wake>,
    ) -> Self {
        let window = opening.window.clone();
        let answer = Answer::default();
        let connecting = opening.connect(backend);
        let slot = Rc::clone(&answer);
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = wake;
            *slot.borrow_mut() = Some(pollster::block_on(connecting));
        }
        #[cfg(target_arch = "wasm32")]
        wasm_bindgen_futures::spawn_local(async move {
            let connected = connecting.await;
            *slot.borrow_mut() = Some(connected);
            // The loop is gone only when the page is: nothing is left to tell.
            let _ = wake.send_event(Wake::Connected);
        });
        Self { window, answer }
    }

    /// The window and its GPU (or why there is none), once connecting has ended.
    pub fn take(&self) -> Option<(Arc<Window>, anyhow::Result<Connected>)> {
        let connected = self.answer.borrow_mut().take()?;
        Some((Arc::clone(&self.window), connected))
    }
}

//! The files a person opens on the page to replay, as `--replay` replays one: chosen with
//! the page's file picker (`<input id="open">`) or dropped anywhere on the page, read by the
//! browser, checked whole by the same reader (`cli::read_replay`, the same messages with
//! the line and the value), and handed to the window as a [`Wake::Opened`].

use wasm_bindgen::JsCast as _;
use wasm_bindgen::closure::Closure;
use winit::event_loop::EventLoopProxy;

use super::dom;
use crate::app::wake::Wake;
use crate::live::Recording;
use crate::text::escape;

/// Largest file a page replays, bytes: it holds the whole file in memory (a desktop
/// replay reads it from the disk as it goes), and a page's memory is the browser's.
const MAX_OPENED_BYTES: f64 = 256.0 * 1024.0 * 1024.0;

/// Listens for files opened on the page (the file picker, or dropped on the page) and
/// sends each, read and checked, to the window through `wake`. Called once, when the lab
/// runs.
pub fn watch_files(wake: EventLoopProxy<Wake>) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    if let Some(input) = document
        .get_element_by_id("open")
        .and_then(|element| element.dyn_into::<web_sys::HtmlInputElement>().ok())
    {
        let picker = input.clone();
        let to = wake.clone();
        listen(&input, "change", move |_| {
            open_first(picker.files(), &to);
            // The same file chosen again is a change too.
            picker.set_value("");
        });
        let _ = input.remove_attribute("disabled");
    }
    // The page's script keeps the browser from opening a dragged file in the lab's place
    // from the page's start (and says, until this runs, that nothing is replayed: it
    // tells by `#open`'s being disabled); this replays it.
    listen(&document, "drop", move |event| {
        event.prevent_default();
        let files = event
            .dyn_ref::<web_sys::DragEvent>()
            .and_then(web_sys::DragEvent::data_transfer)
            .and_then(|transfer| transfer.files());
        open_first(files, &wake);
    });
}

/// Calls `handle` for every `kind` event on `target`, as long as the page lives.
fn listen(target: &web_sys::EventTarget, kind: &str, handle: impl FnMut(web_sys::Event) + 'static) {
    let handler = Closure::<dyn FnMut(web_sys::Event)>::new(handle);
    let _ = target.add_event_listener_with_callback(kind, handler.as_ref().unchecked_ref());
    handler.forget();
}

/// Reads the one file in `files` and sends it to the window; several are refused (a
/// replay plays one).
fn open_first(files: Option<web_sys::FileList>, wake: &EventLoopProxy<Wake>) {
    let Some(files) = files else { return };
    match (files.length(), files.get(0)) {
        (1, Some(file)) => read(file, wake.clone()),
        (0, _) | (_, None) => {}
        (count, _) => dom::show_error(&format!(
            "{count} files were dropped: a replay plays one; drop one recording or trace"
        )),
    }
}

/// Reads `file` (in the browser's time), checks it as `--replay` does, and sends the
/// recording or the message that refuses it to the window.
fn read(file: web_sys::File, wake: EventLoopProxy<Wake>) {
    let name = file.name();
    if file.size() > MAX_OPENED_BYTES {
        dom::show_error(&format!(
            "{}: {:.0} MiB is more than a page replays (at most {:.0} MiB, held in memory); \
             the desktop application replays it (--replay)",
            escape(&name),
            file.size() / 1024.0 / 1024.0,
            MAX_OPENED_BYTES / 1024.0 / 1024.0
        ));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let opened = match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
            Ok(buffer) => {
                let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                crate::cli::read_replay(bytes, &name).map_err(|error| format!("{error:#}"))
            }
            Err(_) => Err(format!(
                "{}: the browser could not read the file",
                escape(&name)
            )),
        };
        // The loop is gone only when the page is: nothing is left to tell.
        let _ = wake.send_event(Wake::Opened(opened));
    });
}

/// Says on the page that `recording` replays: the error of a file refused before is
/// hidden, and what the reader noticed goes to the console.
pub fn opened(recording: &Recording) {
    dom::hide("error");
    for note in &recording.notes {
        web_sys::console::warn_1(&format!("note: {note}").into());
    }
    web_sys::console::log_1(
        &format!(
            "timestep-lab: replaying {} ({} frames)",
            recording.source, recording.summary.frames
        )
        .into(),
    );
}

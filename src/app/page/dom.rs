//! The page around the canvas: where the canvas goes, the elements the lab writes into
//! (`error`, `summary`, `screenshot`, `clock`, `throttled`, `recording-download`), the
//! query, downloads and the browser's storage.

use wasm_bindgen::JsCast as _;

/// The key the settings are kept under in the browser's local storage.
const SETTINGS_KEY: &str = "timestep-lab.settings";

/// The page's document.
fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Writes `text` into the element with id `id`, and shows it (the page hides them until
/// they have something to say).
pub fn show_text(id: &str, text: &str) {
    let Some(element) = document().and_then(|document| document.get_element_by_id(id)) else {
        web_sys::console::log_1(&format!("{id}: {text}").into());
        return;
    };
    element.set_text_content(Some(text));
    let _ = element.remove_attribute("hidden");
}

/// Hides the element with id `id` again.
pub fn hide(id: &str) {
    if let Some(element) = document().and_then(|document| document.get_element_by_id(id)) {
        let _ = element.set_attribute("hidden", "");
    }
}

/// A new canvas for the lab, placed at the top of the page, right under `#error` (what the
/// page says of a failure stays in sight above it), with everything else the page says
/// under it; none where the page has no `#error` to place it under.
pub fn placed_canvas() -> Option<web_sys::HtmlCanvasElement> {
    let document = document()?;
    let canvas: web_sys::HtmlCanvasElement =
        document.create_element("canvas").ok()?.dyn_into().ok()?;
    document
        .get_element_by_id("error")?
        .after_with_node_1(&canvas)
        .ok()?;
    Some(canvas)
}

/// Says `message` on the page (`#error`) and in the console.
pub fn show_error(message: &str) {
    show_text("error", &format!("error: {message}"));
    web_sys::console::error_1(&format!("error: {message}").into());
}

/// The page's query as `(name, value)` pairs, decoded, in order.
pub fn query_pairs() -> Vec<(String, String)> {
    let Some(search) = web_sys::window().and_then(|window| window.location().search().ok()) else {
        return Vec::new();
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    for entry in js_sys::try_iter(&params)
        .ok()
        .flatten()
        .into_iter()
        .flatten()
    {
        let Ok(entry) = entry else { continue };
        let entry: js_sys::Array = entry.unchecked_into();
        let text = |index| entry.get(index).as_string().unwrap_or_default();
        pairs.push((text(0), text(1)));
    }
    pairs
}

/// Shows the PNG `png` in `<img id="screenshot">` (its `src` the PNG as a data URL) and
/// offers it as a download named `name`.
pub fn show_png(png: &[u8], name: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("the page has no window")?;
    // The browser's own base64: each byte one character of a binary string.
    let binary: String = png.iter().copied().map(char::from).collect();
    let base64 = window
        .btoa(&binary)
        .map_err(|_| "the browser refused to encode the screenshot".to_owned())?;
    let url = format!("data:image/png;base64,{base64}");
    let Some(document) = document() else {
        return Ok(());
    };
    if let Some(image) = document
        .get_element_by_id("screenshot")
        .and_then(|element| element.dyn_into::<web_sys::HtmlImageElement>().ok())
    {
        image.set_src(&url);
        let _ = image.remove_attribute("hidden");
    }
    if let Some(link) = document
        .get_element_by_id("screenshot-download")
        .and_then(|element| element.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        link.set_href(&url);
        link.set_download(name);
        let _ = link.remove_attribute("hidden");
    }
    Ok(())
}

/// Offers `bytes` as a download named `name` (of type `mime`): the browser saves it where
/// it saves downloads, and `<a id="recording-download">` links to it while the page lives.
pub fn offer_download(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    let refused = |what: &str| format!("the browser refused {what}");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|_| refused("to hold the recording"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| refused("a link to the recording"))?;
    let link = document()
        .and_then(|document| document.get_element_by_id("recording-download"))
        .and_then(|element| element.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        .ok_or("the page has no link for downloads (#recording-download)")?;
    link.set_href(&url);
    link.set_download(name);
    link.set_text_content(Some(&format!("download the recording ({name})")));
    let _ = link.remove_attribute("hidden");
    link.click();
    Ok(())
}

/// The browser's local storage, where the page may keep things.
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The settings the page kept when it was last left, as the settings file's text.
pub fn kept_settings() -> Option<String> {
    storage()?.get_item(SETTINGS_KEY).ok().flatten()
}

/// Keeps `text` (the settings file's) in the browser's local storage.
pub fn keep_settings(text: &str) -> Result<(), String> {
    let storage = storage().ok_or("the browser gives this page no local storage")?;
    storage
        .set_item(SETTINGS_KEY, text)
        .map_err(|_| "the browser's local storage refused the settings (full?)".to_owned())
}

/// Whether the page is cross-origin isolated (its timer then has 5 µs steps, not 100 µs).
pub fn cross_origin_isolated() -> bool {
    web_sys::window()
        .and_then(|window| {
            js_sys::Reflect::get(&window, &"crossOriginIsolated".into())
                .ok()?
                .as_bool()
        })
        .unwrap_or(false)
}

/// Marks the first frame on the page's performance timeline (`timestep-lab: first frame`,
/// its `startTime` the time to first frame, ms since the page began loading).
pub fn mark_first_frame() {
    if let Some(performance) = web_sys::window().and_then(|window| window.performance()) {
        let _ = performance.mark("timestep-lab: first frame");
    }
}

//! The lab on a web page: the window's application (`app::window`) on winit's web backend,
//! drawing with the browser's WebGPU, else WebGL2, into a canvas. Only what a page does
//! differently is here: the query as the command line, the browser's clock, the settings
//! in local storage, and the page's elements for what the desktop prints or writes (the
//! summary, the screenshot, errors), and the files a person opens on the page to replay.

mod clock;
mod dom;
mod files;

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use winit::event_loop::EventLoopProxy;

pub use clock::PageClock;
pub use dom::{
    keep_settings, mark_first_frame, offer_download, placed_canvas, show_error, show_png,
};
pub use files::{opened, watch_files};

use super::run_window;
use super::wake::Wake;
use crate::cli::query;
use crate::live::LiveSettings;
use crate::options::WindowOptions;

/// Starts the lab on the page: the query read as the window's command line (a bad value
/// shows the command line's message in `#error`, and nothing starts), then the window.
/// When a run ends (`frames=N`), its summary goes into `#summary` and the console.
pub fn start() {
    console_error_panic_hook::set_once();
    let options = match page_options() {
        Ok(options) => options,
        Err(message) => return dom::show_error(&message),
    };
    show_clock();
    run_window(options, |outcome| {
        if let Some(summary) = outcome.summary {
            let text = summary.to_string();
            web_sys::console::log_1(&text.clone().into());
            dom::show_text("summary", &text);
        }
        if let Some(error) = outcome.error {
            dom::show_error(&format!("{error:#}"));
        }
    });
}

/// The window's options from the page's query over the settings kept in local storage
/// (unless `no-config`), whose problems are warned about in the console.
fn page_options() -> Result<WindowOptions, String> {
    let (options, warnings) = query::page_options(&dom::query_pairs(), dom::kept_settings)?;
    for warning in warnings {
        web_sys::console::warn_1(&format!("warning: {warning}").into());
    }
    Ok(options)
}

/// Shows the timer's resolution in `#clock`, and whether the page is isolated.
fn show_clock() {
    let resolution_us = clock::timer_resolution_ms() * 1000.0;
    let isolated = if dom::cross_origin_isolated() {
        "cross-origin isolated"
    } else {
        "not cross-origin isolated: the browser coarsens the timer (serve the page with \
         scripts/web serve for 5 µs)"
    };
    dom::show_text(
        "clock",
        &format!(
            "frame times from requestAnimationFrame; timer resolution {resolution_us:.0} µs \
             ({isolated})"
        ),
    );
}

/// Sends `wake` a [`Wake::Shown`] whenever the page's tab is shown again after it was
/// hidden (the browser runs no animation frames for a hidden tab). Called once, when the
/// lab runs.
pub fn watch_visibility(wake: EventLoopProxy<Wake>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    let Some(performance) = window.performance() else {
        return;
    };
    let hidden_at = Rc::new(Cell::new(None::<f64>));
    let page = document.clone();
    let changed = Closure::<dyn FnMut()>::new(move || {
        let now = performance.now();
        if page.hidden() {
            hidden_at.set(Some(now));
        } else if let Some(since) = hidden_at.take() {
            // The loop is gone only when the page is: nothing is left to tell.
            let _ = wake.send_event(Wake::Shown {
                hidden_s: (now - since) / 1000.0,
            });
        }
    });
    let _ = document.add_event_listener_with_callback(
        "visibilitychange",
        wasm_bindgen::JsCast::unchecked_ref(changed.as_ref()),
    );
    // The listener lives as long as the page.
    changed.forget();
}

/// Says in `#throttled` that the tab was hidden for `hidden_s` seconds, in which the
/// browser ran no frames, and what comes of that time in the first frame back: what the
/// guards in `settings` (those in effect now, for that frame) do with it, or nothing where
/// the lab is `paused`.
pub fn say_hidden(hidden_s: f64, settings: &LiveSettings, paused: bool) {
    dom::show_text("throttled", &hidden_message(hidden_s, settings, paused));
}

/// [`say_hidden`]'s words.
fn hidden_message(hidden_s: f64, settings: &LiveSettings, paused: bool) -> String {
    let hidden = format!("The tab was hidden for {hidden_s:.1} s: the browser ran no frames");
    if paused {
        return format!("{hidden} meanwhile, and the lab is paused, so the game owes none of it.");
    }
    let clamp_ms = settings.max_frame_time_ms;
    let mut guards = Vec::new();
    if clamp_ms > 0.0 && hidden_s * 1000.0 > clamp_ms {
        guards.push(format!(
            "the frame-time clamp cut the first frame back to {clamp_ms} ms"
        ));
    } else if clamp_ms > 0.0 {
        guards.push(format!(
            "the first frame took all of it, within the frame-time clamp ({clamp_ms} ms)"
        ));
    }
    if settings.max_steps > 0 {
        guards.push(format!(
            "the steps-per-frame cap held it to at most {} steps",
            settings.max_steps
        ));
    }
    let guarded = if guards.is_empty() {
        "no guard is on (max-frame-time 0, no max-steps), so the first frame owed all of it \
         and each strategy took it whole"
            .to_owned()
    } else {
        guards.join(", and ")
    };
    let engines = if settings
        .pane_strategies()
        .iter()
        .any(|strategy| strategy.preset().is_some())
    {
        " (an engine preset keeps its own guards)"
    } else {
        ""
    };
    format!("{hidden} meanwhile, and {guarded}{engines}.")
}

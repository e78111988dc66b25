//! The window system's errors in words for a person: with no display at all, how to get
//! one; otherwise what the window system said, without the source location winit puts in
//! front of OS errors (a path into the dependency registry).

use anyhow::anyhow;

/// Why the event loop could not start, in words for a person: with no display at all, how
/// to get one; otherwise the display tried and what the window system said, without the
/// source location winit puts in front (a path into the dependency registry).
pub fn no_window_error(error: impl std::fmt::Display) -> anyhow::Error {
    let set = |name: &str| std::env::var_os(name).is_some_and(|value| !value.is_empty());
    let wayland = set("WAYLAND_DISPLAY") || set("WAYLAND_SOCKET");
    let x11 = set("DISPLAY");
    let free_unix = cfg!(any(
        target_os = "linux",
        target_os = "dragonfly",
        target_os = "freebsd",
        target_os = "netbsd",
        target_os = "openbsd"
    ));
    if free_unix && !wayland && !x11 {
        return anyhow!(
            "cannot open a window: no display was found (neither DISPLAY nor WAYLAND_DISPLAY \
             is set). Run it in a desktop session, or start a virtual X server: \
             `Xvfb :99 -screen 0 1280x800x24 &` then `DISPLAY=:99 timestep-lab ...` \
             (or `xvfb-run -a timestep-lab ...`; Debian and Ubuntu: apt-get install xvfb). \
             bench, render and bench-render need no display."
        );
    }
    let display = match (std::env::var("WAYLAND_DISPLAY"), std::env::var("DISPLAY")) {
        (Ok(name), _) if wayland && !name.is_empty() => format!(" on Wayland display {name}"),
        (_, Ok(name)) if x11 => format!(" on X display {name}"),
        _ => String::new(),
    };
    anyhow!(
        "cannot open a window{display}: {}",
        without_source_location(&error.to_string())
    )
}

/// winit's message without the `os error at FILE:LINE: ` it starts OS errors with.
pub fn without_source_location(message: &str) -> &str {
    message
        .strip_prefix("os error at ")
        .and_then(|rest| rest.split_once(": "))
        .map_or(message, |(_, reason)| reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_location_is_cut_from_os_errors_only() {
        assert_eq!(
            without_source_location(
                "os error at /home/me/.cargo/registry/src/winit-0.30.13/src/x.rs:788: \
                 Failed to open connection to X server"
            ),
            "Failed to open connection to X server"
        );
        assert_eq!(
            without_source_location("EventLoop can't be recreated"),
            "EventLoop can't be recreated"
        );
    }
}

//! The ranges of the command line's whole-number options, as their parsers apply them: each
//! option's `value_parser` reads its value through one [`Whole`] here (or the core's, for a
//! setting the core checks too), so the message for a bad value names the range the program
//! enforces, never the range of the type that holds it. [`WHOLE_OPTIONS`] lists them all
//! for the tests (`--resize-at`'s parts are tested beside them). Numbers with a fraction are checked by the core's settings, whose
//! messages name their ranges the same way.

use crate::live::MAX_PANES;
use crate::setting::Whole;
use crate::timestep::MAX_STEPS;

/// `--width`, `--height` of the window and of `bench-render`, in points or pixels.
pub const WINDOW_SIZE: Whole = Whole::new(64, 16384);
/// `render --width`, `--height`, in pixels.
pub const IMAGE_SIZE: Whole = Whole::new(1, 16384);
/// The window's `--frames`: at 1000 fps, a day and more.
pub const WINDOW_FRAMES: Whole = Whole::new(1, 100_000_000);
/// `bench-render --frames`.
pub const RENDER_FRAMES: Whole = Whole::new(1, 1_000_000);
/// `bench-render --panes`, as in the window.
pub const PANES: Whole = Whole::new(1, MAX_PANES as u32);
/// `--focus`: a pane, 1-based (then checked against the panes there are).
pub const FOCUS: Whole = Whole::new(1, MAX_PANES as u32);
/// `--resize-at N:WxH` (a test's hook): the frame N; W and H are [`IMAGE_SIZE`].
pub const RESIZE_FRAME: Whole = Whole::new(1, WINDOW_FRAMES.high);
/// `--cycle-present-modes` (a test's hook): frames between switches.
pub const CYCLE_FRAMES: Whole = Whole::new(1, 1_000_000);

/// Every whole-number option: the command it belongs to (empty: the window), its flag and
/// its range.
pub const WHOLE_OPTIONS: [(&str, &str, Whole); 15] = [
    ("", "--width", WINDOW_SIZE),
    ("", "--height", WINDOW_SIZE),
    ("", "--frames", WINDOW_FRAMES),
    ("", "--focus", FOCUS),
    ("", "--max-steps", MAX_STEPS),
    ("", "--cycle-present-modes", CYCLE_FRAMES),
    ("render", "--width", IMAGE_SIZE),
    ("render", "--height", IMAGE_SIZE),
    ("bench-render", "--width", WINDOW_SIZE),
    ("bench-render", "--height", WINDOW_SIZE),
    ("bench-render", "--frames", RENDER_FRAMES),
    ("bench-render", "--panes", PANES),
    ("render", "--max-steps", MAX_STEPS),
    ("bench", "--max-steps", MAX_STEPS),
    ("sweep", "--max-steps", MAX_STEPS),
];

/// A `value_parser` reading a whole number in `range`, held as `T` (`u32`, `u64`, `usize`).
pub fn whole<T: TryFrom<u32>>(
    range: Whole,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync {
    move |text| {
        let n = range.parse(text)?;
        T::try_from(n).map_err(|_| format!("{n} does not fit this machine's numbers"))
    }
}

//! Frame times as the bench consumes them: gone through from the first frame as often as
//! needed (once per strategy, and a few times for the statistics), the same every time.
//!
//! A trace read from a file is a slice in memory; a generated one
//! ([`super::GeneratedTrace`]) is made again on each pass, so however long it is, its frames
//! are never all held at once.

/// Frame times, in nanoseconds, that can be gone through from the start any number of
/// times, each time the same.
pub trait FrameSource {
    /// How many frames each pass yields.
    fn frame_count(&self) -> u64;

    /// A pass over the frame times, in order, from the first.
    fn frame_times(&self) -> impl Iterator<Item = u64> + '_;
}

/// Frame times held in memory: a slice, an array or a `Vec`.
impl<T: AsRef<[u64]> + ?Sized> FrameSource for T {
    fn frame_count(&self) -> u64 {
        self.as_ref().len() as u64
    }

    fn frame_times(&self) -> impl Iterator<Item = u64> + '_ {
        self.as_ref().iter().copied()
    }
}

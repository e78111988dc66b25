//! Frame times packed for passes that need them all but cannot hold eight bytes apiece: each
//! the difference from the one before, zigzag-encoded (small either way) in LEB128 bytes
//! (seven bits a byte). A steady trace takes a byte a frame; frame times that wander by a
//! millisecond at nanosecond resolution, three or four.

use crate::timestep::Nanos;

/// Frame times, packed; read back in order, exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackedFrameTimes {
    /// The packed differences.
    bytes: Vec<u8>,
    /// The last frame time pushed (what the next difference is from).
    last: Nanos,
    /// Frame times pushed.
    len: usize,
}

impl PackedFrameTimes {
    /// No frame times.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `frame` at the end.
    pub fn push(&mut self, frame: Nanos) {
        // The difference, wrapping, as a two's complement i64 then zigzagged: 0, -1, 1, -2 ...
        // become 0, 1, 2, 3 ..., so small changes either way take few bytes.
        let delta = frame.wrapping_sub(self.last) as i64;
        let mut zigzag = ((delta << 1) ^ (delta >> 63)) as u64;
        loop {
            let low = (zigzag & 0x7F) as u8;
            zigzag >>= 7;
            if zigzag == 0 {
                self.bytes.push(low);
                break;
            }
            self.bytes.push(low | 0x80);
        }
        self.last = frame;
        self.len += 1;
    }

    /// Frame times held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether none is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes they take.
    pub fn bytes(&self) -> usize {
        self.bytes.len()
    }

    /// The frame times, in the order pushed.
    pub fn iter(&self) -> PackedIter<'_> {
        PackedIter {
            bytes: &self.bytes,
            last: 0,
        }
    }
}

impl FromIterator<Nanos> for PackedFrameTimes {
    fn from_iter<I: IntoIterator<Item = Nanos>>(frames: I) -> Self {
        let mut packed = Self::new();
        for frame in frames {
            packed.push(frame);
        }
        packed
    }
}

/// The frame times of a [`PackedFrameTimes`], in order.
#[derive(Clone, Debug)]
pub struct PackedIter<'a> {
    /// The bytes not read yet.
    bytes: &'a [u8],
    /// The last frame time read.
    last: Nanos,
}

impl Iterator for PackedIter<'_> {
    type Item = Nanos;

    fn next(&mut self) -> Option<Nanos> {
        let mut zigzag = 0u64;
        let mut shift = 0;
        loop {
            let (&byte, rest) = self.bytes.split_first()?;
            self.bytes = rest;
            zigzag |= u64::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
        }
        let delta = ((zigzag >> 1) as i64) ^ -((zigzag & 1) as i64);
        self.last = self.last.wrapping_add(delta as u64);
        Some(self.last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn steady_frames_take_a_byte_and_extremes_come_back() {
        let steady: PackedFrameTimes = std::iter::repeat_n(16_666_667, 1000).collect();
        // The first is a difference from zero; the rest are no difference at all.
        assert_eq!(steady.bytes(), 4 + 999);
        assert!(steady.iter().all(|frame| frame == 16_666_667));
        let extremes = [0, Nanos::MAX, 0, 1, Nanos::MAX - 1, 1 << 63, 7];
        let packed: PackedFrameTimes = extremes.iter().copied().collect();
        assert_eq!(packed.len(), extremes.len());
        assert_eq!(packed.iter().collect::<Vec<_>>(), extremes);
    }

    proptest! {
        #[test]
        fn frame_times_come_back_exactly_in_order(frames in proptest::collection::vec(any::<u64>(), 0..200)) {
            let packed: PackedFrameTimes = frames.iter().copied().collect();
            prop_assert_eq!(packed.iter().collect::<Vec<_>>(), frames);
        }
    }
}

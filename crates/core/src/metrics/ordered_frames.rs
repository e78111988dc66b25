//! Frame times that come and go, kept in order: a sliding window's exact statistics
//! ([`AscendingFrames`]) with every frame in and out costing the logarithm of the frames
//! held, not their number.
//!
//! A sorted array answers by rank at once but moves half of itself on each insertion and
//! removal: at 1000 Hz a ten-second window moves thousands of frame times every frame. Here
//! each distinct frame time is one node of a treap (a binary search tree by time whose nodes
//! also form a heap by a fixed pseudo-random priority, which keeps it balanced: depth about
//! `2 ln n` whatever order frames come in). Each node keeps how many frames of its time the
//! window holds and, for its subtree, the frames and their total time, so ranks, the longest
//! frames and the frames above a threshold are one walk from the root.
//!
//! The nodes live in one array allocated at creation: as long as no more than `capacity`
//! distinct times are held at once, nothing allocates.

use super::frame_times::{AscendingFrames, FrameSum};
use crate::timestep::Nanos;

/// No node: an empty subtree.
const NONE: u32 = u32::MAX;

/// One distinct frame time and the subtree under it.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The frame time.
    time: Nanos,
    /// Total time of the subtree's frames, ns (saturating, as [`FrameSum`] adds).
    total: Nanos,
    /// Frames of this time held.
    count: u32,
    /// Frames in the subtree.
    frames: u32,
    /// The subtree of shorter times; the next free node while this one is free.
    left: u32,
    /// The subtree of longer times.
    right: u32,
}

/// Frame times held in ascending order, read exactly (see the module doc). Holds at most
/// `u32::MAX` frames at once.
#[derive(Clone, Debug)]
pub struct OrderedFrames {
    /// Every node, in use or free.
    nodes: Vec<Node>,
    /// The root, or [`NONE`].
    root: u32,
    /// The first free node, or [`NONE`]; the free ones chain through `left`.
    free: u32,
}

impl OrderedFrames {
    /// Bytes a distinct frame time takes.
    pub const BYTES_PER_TIME: usize = size_of::<Node>();

    /// No frames, with room for `capacity` distinct frame times.
    pub fn new(capacity: usize) -> Self {
        Self {
            nodes: Vec::with_capacity(capacity),
            root: NONE,
            free: NONE,
        }
    }

    /// Adds a frame of `time`.
    pub fn insert(&mut self, time: Nanos) {
        let (shorter, rest) = self.split(self.root, time, false);
        let (same, longer) = self.split(rest, time, true);
        let same = if same == NONE {
            self.allocate(time)
        } else {
            self.nodes[same as usize].count += 1;
            self.pull(same);
            same
        };
        let shorter = self.merge(shorter, same);
        self.root = self.merge(shorter, longer);
    }

    /// Takes out one frame of `time`. Returns whether there was one.
    pub fn remove(&mut self, time: Nanos) -> bool {
        let (shorter, rest) = self.split(self.root, time, false);
        let (mut same, longer) = self.split(rest, time, true);
        let found = same != NONE;
        if found {
            let node = &mut self.nodes[same as usize];
            node.count -= 1;
            if node.count == 0 {
                node.left = self.free;
                self.free = same;
                same = NONE;
            } else {
                self.pull(same);
            }
        }
        let shorter = self.merge(shorter, same);
        self.root = self.merge(shorter, longer);
        found
    }

    /// Forgets every frame.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.root = NONE;
        self.free = NONE;
    }

    /// The memory held, bytes (the same however many frames come and go, as long as no
    /// more than the capacity's distinct times are held at once).
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * Self::BYTES_PER_TIME
    }

    /// How deep the tree is: a walk from the root visits at most this many nodes (for the
    /// tests: it grows with the logarithm of the distinct times held).
    pub fn depth(&self) -> usize {
        self.depth_of(self.root)
    }

    /// The depth of the subtree at `node`.
    fn depth_of(&self, node: u32) -> usize {
        match self.node(node) {
            Some(n) => 1 + self.depth_of(n.left).max(self.depth_of(n.right)),
            None => 0,
        }
    }

    /// A node for one frame of `time`, taken from the free ones if any.
    fn allocate(&mut self, time: Nanos) -> u32 {
        let node = Node {
            time,
            total: time,
            count: 1,
            frames: 1,
            left: NONE,
            right: NONE,
        };
        if self.free == NONE {
            self.nodes.push(node);
            // Indices stay below NONE: u32::MAX distinct times would be 137 GB of nodes.
            u32::try_from(self.nodes.len() - 1).unwrap_or(NONE - 1)
        } else {
            let index = self.free;
            self.free = self.nodes[index as usize].left;
            self.nodes[index as usize] = node;
            index
        }
    }

    /// Node `index`, `None` for [`NONE`].
    fn node(&self, index: u32) -> Option<&Node> {
        self.nodes.get(index as usize)
    }

    /// The frames and total time of the subtree at `index`.
    fn sum(&self, index: u32) -> FrameSum {
        self.node(index)
            .map_or(FrameSum::default(), |node| FrameSum {
                frames: u64::from(node.frames),
                time: node.total,
            })
    }

    /// Node `index`'s heap priority: a fixed mix of its index (SplitMix64's finaliser), so
    /// the shape depends on the times held and the order nodes were taken, never on chance.
    fn priority(index: u32) -> u64 {
        let mut z = u64::from(index).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Recomputes node `index`'s subtree sums from its children.
    fn pull(&mut self, index: u32) {
        let node = self.nodes[index as usize];
        let (mut frames, mut total) = (node.count, node.time.saturating_mul(u64::from(node.count)));
        for child in [node.left, node.right]
            .into_iter()
            .flat_map(|child| self.node(child))
        {
            frames += child.frames;
            total = total.saturating_add(child.total);
        }
        let node = &mut self.nodes[index as usize];
        node.frames = frames;
        node.total = total;
    }

    /// Splits the subtree at `index` into the times below `time` (with `inclusive`, at or
    /// below it) and the rest. Returns both roots.
    fn split(&mut self, index: u32, time: Nanos, inclusive: bool) -> (u32, u32) {
        let Some(&node) = self.node(index) else {
            return (NONE, NONE);
        };
        let goes_left = if inclusive {
            node.time <= time
        } else {
            node.time < time
        };
        if goes_left {
            let (low, high) = self.split(node.right, time, inclusive);
            self.nodes[index as usize].right = low;
            self.pull(index);
            (index, high)
        } else {
            let (low, high) = self.split(node.left, time, inclusive);
            self.nodes[index as usize].left = high;
            self.pull(index);
            (low, index)
        }
    }

    /// Joins two subtrees, every time in `low` below every time in `high`. Returns the root.
    fn merge(&mut self, low: u32, high: u32) -> u32 {
        if low == NONE {
            return high;
        }
        if high == NONE {
            return low;
        }
        if Self::priority(low) >= Self::priority(high) {
            let right = self.nodes[low as usize].right;
            self.nodes[low as usize].right = self.merge(right, high);
            self.pull(low);
            low
        } else {
            let left = self.nodes[high as usize].left;
            self.nodes[high as usize].left = self.merge(low, left);
            self.pull(high);
            high
        }
    }

    /// Calls `each` on the runs of the subtree at `index` in ascending order; `false` once
    /// `each` has asked to stop.
    fn each_run(&self, index: u32, each: &mut impl FnMut(Nanos, u64) -> bool) -> bool {
        let Some(node) = self.node(index) else {
            return true;
        };
        self.each_run(node.left, each)
            && each(node.time, u64::from(node.count))
            && self.each_run(node.right, each)
    }
}

/// `a` and `b` together (saturating, as [`FrameSum::of`] adds).
fn plus(a: FrameSum, b: FrameSum) -> FrameSum {
    FrameSum {
        frames: a.frames + b.frames,
        time: a.time.saturating_add(b.time),
    }
}

impl AscendingFrames for OrderedFrames {
    fn all(&self) -> FrameSum {
        self.sum(self.root)
    }

    fn at_rank(&self, rank: u64) -> Nanos {
        let mut rank = rank;
        let mut index = self.root;
        while rank > 0
            && let Some(node) = self.node(index)
        {
            let shorter = self.sum(node.left).frames;
            if rank <= shorter {
                index = node.left;
            } else if rank <= shorter + u64::from(node.count) {
                return node.time;
            } else {
                rank -= shorter + u64::from(node.count);
                index = node.right;
            }
        }
        0
    }

    fn longest(&self, count: u64) -> FrameSum {
        let mut wanted = count;
        let mut taken = FrameSum::default();
        let mut index = self.root;
        while wanted > 0
            && let Some(node) = self.node(index)
        {
            let longer = self.sum(node.right);
            if wanted <= longer.frames {
                index = node.right;
                continue;
            }
            wanted -= longer.frames;
            let own = wanted.min(u64::from(node.count));
            wanted -= own;
            let own = FrameSum {
                frames: own,
                time: node.time.saturating_mul(own),
            };
            taken = plus(plus(taken, longer), own);
            index = node.left;
        }
        taken
    }

    fn longer_than(&self, threshold: Nanos) -> FrameSum {
        let mut above = FrameSum::default();
        let mut index = self.root;
        while let Some(node) = self.node(index) {
            if node.time > threshold {
                let own = FrameSum {
                    frames: u64::from(node.count),
                    time: node.time.saturating_mul(u64::from(node.count)),
                };
                above = plus(plus(above, self.sum(node.right)), own);
                index = node.left;
            } else {
                index = node.right;
            }
        }
        above
    }

    fn for_each_run(&self, mut each: impl FnMut(Nanos, u64) -> bool) {
        self.each_run(self.root, &mut each);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::metrics::{FrameStats, SortedFrames};

    /// Every run of `frames`, in order.
    fn runs(frames: &impl AscendingFrames) -> Vec<(Nanos, u64)> {
        let mut runs = Vec::new();
        frames.for_each_run(|time, count| {
            runs.push((time, count));
            true
        });
        runs
    }

    /// Every reading of `ordered` equals that of the same frames sorted.
    fn assert_reads_as(ordered: &OrderedFrames, frames: &[Nanos]) {
        let mut sorted = frames.to_vec();
        sorted.sort_unstable();
        let sorted = SortedFrames::new(&sorted);
        assert_eq!(ordered.all(), sorted.all());
        let n = frames.len() as u64;
        for rank in 0..=n + 1 {
            assert_eq!(ordered.at_rank(rank), sorted.at_rank(rank), "rank {rank}");
            assert_eq!(
                ordered.longest(rank),
                sorted.longest(rank),
                "longest {rank}"
            );
        }
        for &threshold in sorted.as_slice().iter().chain(&[0, 1, Nanos::MAX]) {
            for threshold in [threshold.saturating_sub(1), threshold] {
                assert_eq!(
                    ordered.longer_than(threshold),
                    sorted.longer_than(threshold),
                    "above {threshold}"
                );
            }
        }
        assert_eq!(runs(ordered), runs(&sorted));
        assert_eq!(
            FrameStats::from_ascending(ordered),
            FrameStats::from_ascending(&sorted)
        );
    }

    #[test]
    fn equal_frames_are_one_node() {
        let mut ordered = OrderedFrames::new(4);
        for _ in 0..10_000 {
            ordered.insert(1_000_000);
        }
        assert_eq!(ordered.depth(), 1);
        assert_eq!(
            ordered.all(),
            FrameSum {
                frames: 10_000,
                time: 10_000_000_000
            }
        );
        assert!(ordered.remove(1_000_000));
        assert!(!ordered.remove(999_999));
        assert_reads_as(&ordered, &[1_000_000; 9_999]);
    }

    #[test]
    fn a_run_stops_when_asked() {
        let mut ordered = OrderedFrames::new(8);
        for time in [5, 1, 3, 3, 9] {
            ordered.insert(time);
        }
        let mut seen = Vec::new();
        ordered.for_each_run(|time, count| {
            seen.push((time, count));
            time < 3
        });
        assert_eq!(seen, [(1, 1), (3, 2)]);
    }

    #[test]
    fn sums_saturate_as_a_sorted_slice_does() {
        let mut ordered = OrderedFrames::new(4);
        let frames = [Nanos::MAX - 1, Nanos::MAX, 7, Nanos::MAX];
        for time in frames {
            ordered.insert(time);
        }
        assert_reads_as(&ordered, &frames);
    }

    #[test]
    fn the_tree_stays_shallow_in_any_order_and_never_grows_past_its_capacity() {
        // Frames in ascending order (a plain search tree's worst case), then a sliding
        // window of 10 000 distinct frames moving on by 100 000 frames.
        let window = 10_000u64;
        let mut ordered = OrderedFrames::new(window as usize);
        let memory = ordered.memory_bytes();
        for time in 0..window {
            ordered.insert(time);
        }
        // 2 ln(10 000) is 18.4; a treap's depth stays within a small multiple of it.
        let limit = 4 * (window as f64).log2().ceil() as usize;
        assert!(ordered.depth() <= limit, "depth {}", ordered.depth());
        let mut deepest = 0;
        for time in window..window * 11 {
            assert!(ordered.remove(time - window));
            ordered.insert(time);
            if time % 1000 == 0 {
                deepest = deepest.max(ordered.depth());
            }
        }
        assert!(deepest <= limit, "depth {deepest} of at most {limit}");
        assert_eq!(ordered.memory_bytes(), memory);
        assert_eq!(ordered.all().frames, window);
        assert_eq!(ordered.at_rank(1), 10 * window);
        ordered.clear();
        assert_eq!(ordered.all(), FrameSum::default());
        assert_eq!(ordered.memory_bytes(), memory);
    }

    proptest! {
        /// Any sequence of frames in and out reads exactly as the frames held, sorted.
        #[test]
        fn reads_equal_the_sorted_frames_after_any_inserts_and_removals(
            steps in proptest::collection::vec(
                (any::<bool>(), prop_oneof![0u64..8, 16_000_000u64..16_000_010, any::<u64>()]),
                0..400,
            ),
        ) {
            let mut ordered = OrderedFrames::new(16);
            let mut held: Vec<Nanos> = Vec::new();
            for (insert, time) in steps {
                if insert || held.is_empty() {
                    ordered.insert(time);
                    held.push(time);
                } else {
                    // Take out a frame held (the window's case) or one perhaps not held.
                    let time = if time % 2 == 0 { held[time as usize % held.len()] } else { time };
                    let position = held.iter().position(|&t| t == time);
                    prop_assert_eq!(ordered.remove(time), position.is_some());
                    if let Some(position) = position {
                        held.swap_remove(position);
                    }
                }
            }
            assert_reads_as(&ordered, &held);
        }
    }
}

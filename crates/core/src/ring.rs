//! A fixed-capacity ring of recent values: the newest replaces the oldest, and nothing is
//! allocated after creation.

/// The last `capacity` values pushed, oldest first.
#[derive(Clone, Debug)]
pub struct Ring<T> {
    /// Storage; `len` entries are valid, the newest just before `next`.
    items: Box<[T]>,
    /// Next slot to write.
    next: usize,
    /// Valid entries.
    len: usize,
}

impl<T: Copy + Default> Ring<T> {
    /// An empty ring holding at most `capacity` values (at least one).
    pub fn new(capacity: usize) -> Self {
        Self {
            items: vec![T::default(); capacity.max(1)].into_boxed_slice(),
            next: 0,
            len: 0,
        }
    }

    /// Adds the newest value, dropping the oldest when full.
    pub fn push(&mut self, value: T) {
        self.items[self.next] = value;
        self.next = (self.next + 1) % self.items.len();
        self.len = (self.len + 1).min(self.items.len());
    }

    /// Forgets every value.
    pub fn clear(&mut self) {
        self.len = 0;
        self.next = 0;
    }

    /// Number of values kept.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no value is kept.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The newest value.
    pub fn latest(&self) -> Option<&T> {
        let capacity = self.items.len();
        (self.len > 0).then(|| &self.items[(self.next + capacity - 1) % capacity])
    }

    /// The value `back` places before the newest (0: the newest), to change it.
    pub fn newest_mut(&mut self, back: usize) -> Option<&mut T> {
        let capacity = self.items.len();
        (back < self.len).then(|| &mut self.items[(self.next + 2 * capacity - 1 - back) % capacity])
    }

    /// Values, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + '_ {
        self.iter_from(0)
    }

    /// Values from the `skip`-th oldest on, oldest first (`skip` 0: all of them).
    pub fn iter_from(
        &self,
        skip: usize,
    ) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + '_ {
        let capacity = self.items.len();
        let start = (self.next + capacity - self.len) % capacity;
        (skip.min(self.len)..self.len).map(move |i| &self.items[(start + i) % capacity])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_values_oldest_first() {
        let mut ring = Ring::new(4);
        assert!(ring.is_empty() && ring.latest().is_none());
        for i in 0..10u32 {
            ring.push(i);
        }
        assert_eq!(ring.len(), 4);
        assert_eq!(ring.iter_from(0).copied().collect::<Vec<_>>(), [6, 7, 8, 9]);
        assert_eq!(ring.iter_from(3).copied().collect::<Vec<_>>(), [9]);
        assert_eq!(ring.iter_from(9).count(), 0);
        assert_eq!(ring.iter_from(0).next_back(), Some(&9));
        assert_eq!(ring.latest(), Some(&9));
        *ring.newest_mut(1).unwrap() = 80;
        assert_eq!(ring.iter().copied().collect::<Vec<_>>(), [6, 7, 80, 9]);
        assert!(ring.newest_mut(4).is_none());
        ring.clear();
        assert!(ring.is_empty());
        ring.push(42);
        assert_eq!(ring.iter_from(0).copied().collect::<Vec<_>>(), [42]);
    }
}

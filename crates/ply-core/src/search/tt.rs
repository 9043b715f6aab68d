//! The transposition table: a fixed block of memory, given in MiB, that
//! remembers what a search learned about each position it met, so a
//! position reached again by another move order is not searched again.
//!
//! Each entry holds the position's 64-bit key, a score with its bound type
//! (exact, lower or upper), the depth it was searched to (or "complete":
//! searched to the end, valid at any depth), and the best move found.
//!
//! Replacement: entries live in buckets of two. The first slot keeps the
//! deepest result (it cost the most to compute and saves the most); the
//! second always takes the newest (recent positions are the likeliest to
//! recur soon). A new result replaces the first slot when it is at least as
//! deep or the slot is from an older search, otherwise it goes into the
//! second. This is the "two-level" scheme of Breuker, Uiterwijk and van den
//! Herik, who found it the best of the simple policies.

/// What an entry's score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is the value.
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

impl Bound {
    fn code(self) -> u8 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_code(c: u8) -> Bound {
        match c {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
}

/// The depth stored for a subtree searched to the end of the game.
pub const COMPLETE: u8 = u8::MAX;

/// One remembered position, as [`TransTable::probe`] gives it.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// The full key: a hit must match all 64 bits.
    pub key: u64,
    /// The score, from the view of the player to move there, distance
    /// scores relative to the node.
    pub score: i32,
    /// Plies searched below the node (at most 254), or [`COMPLETE`].
    pub depth: u8,
    /// How `score` bounds the value.
    pub bound: Bound,
    /// The best (or refuting) move found, if any.
    pub best: Option<M>,
}

/// A slot as stored: 16 bytes for one-byte moves, so a bucket of two is a
/// quarter of a cache line. `meta` packs the bound (low 2 bits, 0 = empty
/// slot) and the search generation (high 6 bits, for replacement).
#[derive(Clone, Copy)]
struct Slot<M> {
    key: u64,
    score: i32,
    depth: u8,
    meta: u8,
    best: Option<M>,
}

impl<M: Copy> Slot<M> {
    const EMPTY_META: u8 = 0;

    #[inline]
    fn is_empty(&self) -> bool {
        self.meta & 3 == Self::EMPTY_META
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.meta >> 2
    }

    #[inline]
    fn entry(&self) -> Entry<M> {
        Entry {
            key: self.key,
            score: self.score,
            depth: self.depth,
            bound: Bound::from_code(self.meta & 3),
            best: self.best,
        }
    }
}

/// A fixed-size table. It never grows: the size is chosen at creation.
pub struct TransTable<M> {
    slots: Vec<Slot<M>>,
    mask: usize,
    /// The current search, 6 bits.
    generation: u8,
}

impl<M: Copy> TransTable<M> {
    /// A table of at most `mib` MiB (rounded down to a power-of-two number
    /// of buckets; at least one bucket).
    pub fn new(mib: usize) -> Self {
        let slot = std::mem::size_of::<Slot<M>>();
        let budget = mib.saturating_mul(1 << 20) / (2 * slot);
        let buckets = if budget == 0 {
            1
        } else {
            1usize << (usize::BITS - 1 - budget.leading_zeros())
        };
        let empty = Slot {
            key: 0,
            score: 0,
            depth: 0,
            meta: Slot::<M>::EMPTY_META,
            best: None,
        };
        TransTable {
            slots: vec![empty; buckets * 2],
            mask: buckets - 1,
            generation: 0,
        }
    }

    /// The memory the entries take, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot<M>>()
    }

    /// The number of entries it can hold.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Marks the start of a new search: older entries become first to go.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots
            .iter_mut()
            .for_each(|s| s.meta = Slot::<M>::EMPTY_META);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Fold the high bits in: keys from simple hashes vary most there.
        ((key ^ (key >> 32)) as usize & self.mask) * 2
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|s| !s.is_empty() && s.key == key)
            .map(Slot::entry)
    }

    /// Stores a result, by the two-level policy.
    #[inline]
    pub fn store(&mut self, key: u64, score: i32, depth: u8, bound: Bound, best: Option<M>) {
        let b = self.bucket(key);
        let meta = (self.generation << 2) | bound.code();
        let slot = Slot {
            key,
            score,
            depth,
            meta,
            best,
        };
        // The same position: keep its best move if the new result has none.
        for i in b..b + 2 {
            let s = &self.slots[i];
            if !s.is_empty() && s.key == key {
                let best = best.or(s.best);
                self.slots[i] = Slot { best, ..slot };
                return;
            }
        }
        let deep = &self.slots[b];
        let replace_deep =
            deep.is_empty() || depth >= deep.depth || deep.generation() != self.generation;
        if replace_deep {
            self.slots[b] = slot;
        } else {
            self.slots[b + 1] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_compact() {
        assert_eq!(std::mem::size_of::<Slot<u8>>(), 16);
    }

    #[test]
    fn size_is_fixed_and_bounded() {
        for mib in [1, 16] {
            let t: TransTable<u8> = TransTable::new(mib);
            assert!(t.bytes() <= mib << 20);
            assert!(t.bytes() > (mib << 20) / 2);
        }
        let t: TransTable<u8> = TransTable::new(0);
        assert_eq!(t.capacity(), 2);
    }

    #[test]
    fn deep_entries_survive_shallow_ones() {
        let mut t: TransTable<u8> = TransTable::new(0); // one bucket
        t.clear();
        t.store(1, 10, 8, Bound::Exact, Some(1));
        t.store(2, 20, 3, Bound::Lower, None);
        t.store(3, 30, 2, Bound::Upper, None);
        assert_eq!(t.probe(1).unwrap().score, 10, "the deep entry stays");
        assert!(
            t.probe(2).is_none(),
            "the always-replace slot took the newest"
        );
        assert_eq!(t.probe(3).unwrap().bound, Bound::Upper);
        // Updating a position keeps its move when the new result has none.
        t.store(1, 11, 9, Bound::Lower, None);
        assert_eq!(t.probe(1).unwrap().best, Some(1));
        assert_eq!(t.probe(1).unwrap().score, 11);
    }
}

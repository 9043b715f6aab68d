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

/// The depth stored for a subtree searched to the end of the game.
pub const COMPLETE: u16 = u16::MAX;

/// One remembered position.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// The full key: a hit must match all 64 bits.
    pub key: u64,
    /// The score, from the view of the player to move there, distance
    /// scores relative to the node.
    pub score: i32,
    /// Plies searched below the node, or [`COMPLETE`].
    pub depth: u16,
    /// How `score` bounds the value.
    pub bound: Bound,
    /// The search that wrote it, for replacement.
    pub generation: u8,
    /// The best (or refuting) move found, if any.
    pub best: Option<M>,
}

/// A fixed-size table. It never grows: the size is chosen at creation.
pub struct TransTable<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
    generation: u8,
}

impl<M: Copy> TransTable<M> {
    /// A table of at most `mib` MiB (rounded down to a power-of-two number
    /// of buckets; at least one bucket).
    pub fn new(mib: usize) -> Self {
        let slot = std::mem::size_of::<Option<Entry<M>>>();
        let budget = mib.saturating_mul(1 << 20) / (2 * slot);
        let buckets = if budget == 0 {
            1
        } else {
            1usize << (usize::BITS - 1 - budget.leading_zeros())
        };
        TransTable {
            slots: vec![None; buckets * 2],
            mask: buckets - 1,
            generation: 0,
        }
    }

    /// The memory the entries take, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Option<Entry<M>>>()
    }

    /// The number of entries it can hold.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Marks the start of a new search: older entries become first to go.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // The high bits: keys from simple hashes vary most there after mixing.
        ((key ^ (key >> 32)) as usize & self.mask) * 2
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        let b = self.bucket(key);
        self.slots[b..b + 2].iter().flatten().find(|e| e.key == key)
    }

    /// Stores a result, by the two-level policy.
    #[inline]
    pub fn store(&mut self, key: u64, score: i32, depth: u16, bound: Bound, best: Option<M>) {
        let b = self.bucket(key);
        let generation = self.generation;
        let entry = Entry {
            key,
            score,
            depth,
            bound,
            generation,
            best,
        };
        // The same position: keep its best move if the new result has none.
        for i in b..b + 2 {
            if let Some(e) = &self.slots[i]
                && e.key == key
            {
                let best = best.or(e.best);
                self.slots[i] = Some(Entry { best, ..entry });
                return;
            }
        }
        let replace_deep = match &self.slots[b] {
            None => true,
            Some(e) => depth >= e.depth || e.generation != generation,
        };
        if replace_deep {
            self.slots[b] = Some(entry);
        } else {
            self.slots[b + 1] = Some(entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

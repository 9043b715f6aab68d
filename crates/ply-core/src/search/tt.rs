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

use std::sync::atomic::AtomicU8;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The full key: a hit matches all 64 bits.
    pub key: u64,
    /// The score, from the view of the player to move there, distance
    /// scores relative to the node.
    pub score: i32,
    /// Plies searched below the node (at most 254), or [`COMPLETE`].
    pub depth: u8,
    /// How `score` bounds the value.
    pub bound: Bound,
    /// The best (or refuting) move found, if any, as its index in the
    /// node's legal moves in the game's natural order.
    pub best: Option<u8>,
}

/// A slot: two 64-bit words, 16 bytes (a bucket of two is a quarter of a
/// cache line). `data` packs the score (32 bits), depth (8), `meta` (8: the
/// bound in the low 2 bits, 0 = empty, and the search generation in the high
/// 6) and the best move's index plus one (8, 0 = none). The other word is
/// `key ^ data`, so a slot half-written by another thread (the two words
/// from different stores) fails the key check and reads as a miss: the
/// table can be shared by threads without locks (Hyatt and Mann's
/// "lockless" scheme), and a wrong entry can never be returned.
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[inline]
fn pack(score: i32, depth: u8, meta: u8, best: Option<u8>) -> u64 {
    let best = best.map_or(0u64, |b| u64::from(b) + 1);
    u64::from(score as u32) | u64::from(depth) << 32 | u64::from(meta) << 40 | best << 48
}

#[inline]
fn meta_of(data: u64) -> u8 {
    (data >> 40) as u8
}

#[inline]
fn depth_of(data: u64) -> u8 {
    (data >> 32) as u8
}

#[inline]
fn unpack(key: u64, data: u64) -> Entry {
    let best = ((data >> 48) & 0xff) as u8;
    Entry {
        key,
        score: data as u32 as i32,
        depth: depth_of(data),
        bound: Bound::from_code(meta_of(data) & 3),
        best: best.checked_sub(1),
    }
}

/// A fixed-size table. It never grows: the size is chosen at creation. It
/// is `Sync`: the threads of a parallel search share one (see [`Slot`]).
pub struct TransTable {
    slots: Vec<Slot>,
    mask: usize,
    /// The current search, 6 bits.
    generation: AtomicU8,
}

impl TransTable {
    /// A table of at most `mib` MiB (rounded down to a power-of-two number
    /// of buckets; at least one bucket).
    pub fn new(mib: usize) -> Self {
        let slot = std::mem::size_of::<Slot>();
        let budget = mib.saturating_mul(1 << 20) / (2 * slot);
        let buckets = if budget == 0 {
            1
        } else {
            1usize << (usize::BITS - 1 - budget.leading_zeros())
        };
        TransTable {
            slots: (0..buckets * 2)
                .map(|_| Slot {
                    check: AtomicU64::new(0),
                    data: AtomicU64::new(0),
                })
                .collect(),
            mask: buckets - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// The memory the entries take, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// The number of entries it can hold.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Marks the start of a new search: older entries become first to go.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) & 63, Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Relaxed);
            s.data.store(0, Relaxed);
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Fold the high bits in: keys from simple hashes vary most there.
        ((key ^ (key >> 32)) as usize & self.mask) * 2
    }

    /// Reads a slot: its data if it holds `key`.
    #[inline]
    fn read(&self, i: usize, key: u64) -> Option<u64> {
        let s = &self.slots[i];
        let data = s.data.load(Relaxed);
        let check = s.check.load(Relaxed);
        (meta_of(data) & 3 != 0 && check ^ data == key).then_some(data)
    }

    #[inline]
    fn write(&self, i: usize, key: u64, data: u64) {
        let s = &self.slots[i];
        s.check.store(key ^ data, Relaxed);
        s.data.store(data, Relaxed);
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        (b..b + 2)
            .find_map(|i| self.read(i, key))
            .map(|d| unpack(key, d))
    }

    /// Stores a result, by the two-level policy. `best` is the index of
    /// the best move among the legal moves in their natural order (moves
    /// past index 254 are not stored).
    #[inline]
    pub fn store(&self, key: u64, score: i32, depth: u8, bound: Bound, best: Option<usize>) {
        self.store_as(key, score, depth, bound, best, false);
    }

    /// [`TransTable::store`] for a helper thread of a parallel search when
    /// `helper`: it never evicts the deep slot of another position (only
    /// takes it when empty), so the main thread's costly entries survive.
    #[inline]
    pub fn store_as(
        &self,
        key: u64,
        score: i32,
        depth: u8,
        bound: Bound,
        best: Option<usize>,
        helper: bool,
    ) {
        let b = self.bucket(key);
        let generation = self.generation.load(Relaxed);
        let meta = (generation << 2) | bound.code();
        let best = best.and_then(|i| u8::try_from(i).ok()).filter(|&i| i < 255);
        // The same position: keep its best move if the new result has none.
        for i in b..b + 2 {
            if let Some(old) = self.read(i, key) {
                let best = best.or(unpack(key, old).best);
                self.write(i, key, pack(score, depth, meta, best));
                return;
            }
        }
        let data = pack(score, depth, meta, best);
        let deep = self.slots[b].data.load(Relaxed);
        let replace_deep = meta_of(deep) & 3 == 0
            || !helper && (depth >= depth_of(deep) || meta_of(deep) >> 2 != generation);
        self.write(if replace_deep { b } else { b + 1 }, key, data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_compact() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
    }

    #[test]
    fn size_is_fixed_and_bounded() {
        for mib in [1, 16] {
            let t = TransTable::new(mib);
            assert!(t.bytes() <= mib << 20);
            assert!(t.bytes() > (mib << 20) / 2);
        }
        let t = TransTable::new(0);
        assert_eq!(t.capacity(), 2);
    }

    #[test]
    fn deep_entries_survive_shallow_ones() {
        let t = TransTable::new(0); // one bucket
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
        // Negative scores and every field survive the packing.
        t.store(4, -123_456_789, COMPLETE, Bound::Exact, Some(254));
        let e = t.probe(4).unwrap();
        assert_eq!(
            (e.score, e.depth, e.bound, e.best),
            (-123_456_789, COMPLETE, Bound::Exact, Some(254))
        );
        t.store(5, 1, 1, Bound::Lower, Some(255));
        assert_eq!(t.probe(5).unwrap().best, None, "index 255 is not stored");
    }

    /// Threads hammering one small table never read an entry that was
    /// not stored whole: every hit's fields belong together.
    #[test]
    fn shared_between_threads() {
        let t = TransTable::new(0);
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    for i in 0..20_000u64 {
                        let key = ((i + thread * 3) % 7) * 1_000 + 1;
                        // The score, depth and move are all functions of the key.
                        let v = key as i32;
                        t.store(
                            key,
                            v,
                            (key % 200) as u8,
                            Bound::Lower,
                            Some((key % 100) as usize),
                        );
                        if let Some(e) = t.probe(key) {
                            assert_eq!(e.score, e.key as i32);
                            assert_eq!(u64::from(e.depth), e.key % 200);
                            assert_eq!(e.best, Some((e.key % 100) as u8));
                        }
                    }
                });
            }
        });
    }
}

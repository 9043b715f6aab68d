//! The transposition table: a fixed block of memory, given in MiB, that
//! remembers what a search learned about each position it met, so a
//! position reached again by another move order is not searched again.
//!
//! Each entry holds the position's 64-bit key, a score with its bound type
//! (exact, lower or upper), the depth it was searched to (or "complete":
//! searched to the end, valid at any depth), the best move found, and how
//! much work the result cost (the size of the subtree searched, as a
//! power of two).
//!
//! Layout: entries live in buckets of four, one 64-byte cache line, so a
//! probe costs one memory access. On Linux the table asks for huge pages:
//! a probe lands anywhere in a table of many megabytes, and with 4 KiB
//! pages almost every probe would also miss the TLB (measured on Connect
//! Four: the same search twice as slow with a 64 MiB table as with 4 MiB).
//!
//! Growth: the memory is allocated once, but a search uses only the part
//! it needs, from 1 MiB up, doubling as it fills (see [`TransTable`]).
//!
//! Replacement: a position already in the bucket is updated in place;
//! otherwise the new result takes the least valuable slot: an empty one,
//! else one from an older search, else the shallowest, else the one that
//! cost the least work. A new result is always stored (recent positions
//! are the likeliest to recur soon) and the costly ones survive: the
//! "two-level" idea of Breuker, Uiterwijk and van den Herik with more
//! ways, and with the subtree size deciding between equal depths, which
//! is what matters to an exact solver, where every entry is complete.

use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicU8;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

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
    /// node's moves in the game's natural order (as the search lists them:
    /// after the solver shortcuts' narrowing, which depends on the position
    /// alone).
    pub best: Option<u8>,
}

/// A slot: two 64-bit words, 16 bytes. `data` packs the score (32 bits),
/// depth (8), `meta` (8: the bound in the low 2 bits, 0 = empty, and the
/// search generation in the high 6), the best move's index plus one (8, 0 =
/// none) and the work (8: the subtree's size as a power of two). The other
/// word is `key ^ data`, so a slot half-written by another thread (the two
/// words from different stores) fails the key check and reads as a miss:
/// the table can be shared by threads without locks (Hyatt and Mann's
/// "lockless" scheme), and a wrong entry can never be returned.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Slots a bucket holds: four 16-byte slots are one cache line.
const WAYS: usize = 4;

/// One cache line of slots (the alignment makes a probe one memory access).
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; WAYS]);

#[inline]
fn pack(score: i32, depth: u8, meta: u8, best: Option<u8>, work: u8) -> u64 {
    let best = best.map_or(0u64, |b| u64::from(b) + 1);
    u64::from(score as u32)
        | u64::from(depth) << 32
        | u64::from(meta) << 40
        | best << 48
        | u64::from(work) << 56
}

#[inline]
fn meta_of(data: u64) -> u8 {
    (data >> 40) as u8
}

/// Whether a slot's data is empty (bound code 0).
#[inline]
fn is_empty(data: u64) -> bool {
    meta_of(data) & 3 == 0
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

/// How much a stored result is worth keeping: one from the current search
/// before any older one, then the deeper, then the costlier. Empty is 0.
#[inline]
fn keep_value(data: u64, generation: u8) -> u32 {
    if is_empty(data) {
        return 0;
    }
    let current = u32::from(meta_of(data) >> 2 == generation);
    1 + (current << 16 | u32::from(depth_of(data)) << 8 | (data >> 56) as u32)
}

/// The work of a subtree of `nodes` nodes, for the table: its size as a
/// power of two (1 for a single node, 0 for none).
#[inline]
pub fn work_of(nodes: u64) -> u8 {
    (u64::BITS - nodes.leading_zeros()) as u8
}

/// Asks the kernel to back `memory` with huge pages (a hint: ignored where
/// it cannot be given). Called before the memory is first touched, since
/// pages are chosen when they are first written.
fn advise_huge_pages(memory: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = memory as usize;
        let end = start + bytes;
        let first = start.next_multiple_of(PAGE);
        if end > first {
            // SAFETY: madvise only advises: the range lies inside this
            // allocation (rounded inwards to whole pages), nothing is read
            // or written, and a failure (an old kernel) changes nothing.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    (end - first) / PAGE * PAGE,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (memory, bytes);
}

/// The table's buckets, in memory that comes zeroed from the allocator:
/// an all-zero bucket is an empty one, so nothing is written at creation,
/// and a large block (which the allocator maps fresh from the system)
/// costs only the pages a search touches. Filling a `Vec` with empty
/// buckets instead wrote every page of it: 13 ms for the default 64 MiB,
/// paid by every `ply.solve` from Python on a Connect Four line whose
/// search takes 30 us. (`alloc_zeroed` with more than the allocator's
/// least alignment zeroes the block itself, page by page; asked for
/// 8-byte alignment, it is `calloc`, which knows fresh pages are zero.
/// The block is over-allocated by one bucket and aligned inside.)
struct Buckets {
    /// The block as allocated, and its layout, to give it back.
    block: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    /// The first bucket (64-byte aligned, inside the block) and how many.
    first: std::ptr::NonNull<Bucket>,
    len: usize,
}

// SAFETY: the buckets are atomics only, shared as `&[Bucket]` (which is
// Send and Sync); `Buckets` owns its block alone.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `count` empty buckets (at least one).
    fn zeroed(count: usize) -> Self {
        use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
        let count = count.max(1);
        let align = std::mem::align_of::<Bucket>();
        let bytes = count
            .checked_add(1)
            .and_then(|n| n.checked_mul(std::mem::size_of::<Bucket>()))
            .expect("the table's size was checked (check_size)");
        let layout = Layout::from_size_align(bytes, 8).expect("a valid layout");
        // SAFETY: the layout's size is not zero.
        let raw = unsafe { alloc_zeroed(layout) };
        let Some(block) = std::ptr::NonNull::new(raw) else {
            handle_alloc_error(layout)
        };
        let skip = raw.align_offset(align);
        // SAFETY: `skip` < 64 and the block holds `count + 1` buckets of
        // 64 bytes, so `count` aligned buckets fit from `raw + skip`; zero
        // bits are a valid (empty) `Bucket`: two `AtomicU64`s a slot.
        let first = unsafe { raw.add(skip) };
        advise_huge_pages(first, count * std::mem::size_of::<Bucket>());
        Buckets {
            block,
            layout,
            first: std::ptr::NonNull::new(first.cast()).expect("inside a non-null block"),
            len: count,
        }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `first` points at `len` initialised (zeroed) buckets
        // inside the block, which lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: the block was allocated with this layout and is freed once.
        unsafe { std::alloc::dealloc(self.block.as_ptr(), self.layout) }
    }
}

/// Buckets in use when a table is new or cleared: 1 MiB, about what one
/// core's L2 cache holds. (Measured on Connect Four's `Test_L1_R1`,
/// about 3,300 nodes a solve: starting from 64 KiB is 15% slower, the
/// growth's moves and first touches of new memory costing more than the
/// smaller table saves.)
const FIRST_BUCKETS: usize = 16384;

/// The table grows when this share of the slots in use is filled
/// (numerator, over 8). Late growth keeps the table small and close to
/// the core at the cost of a few evictions: on Connect Four's
/// `Test_L1_R1` and `Test_L2_R2`, growing at 7/8 is faster than at 1/2
/// or 3/4 for about 1% more nodes.
const GROW_AT_EIGHTHS: usize = 7;

/// A counter on a cache line of its own: threads write it, and it must
/// not evict the mask every probe reads.
#[derive(Default)]
#[repr(align(64))]
struct Padded(AtomicUsize);

/// A fixed-size table: the memory is allocated once, at creation, and
/// never grows. It is `Sync`: the threads of a parallel search share one
/// (see [`Slot`]).
///
/// Of that memory, a search uses only as much as it needs: the table
/// starts with [`FIRST_BUCKETS`] buckets in use and doubles them (moving
/// the entries that belong to the new half) each time the slots in use
/// are nearly all filled ([`GROW_AT_EIGHTHS`]), up to the whole
/// allocation. A small search then stays in the cache instead of
/// scattering its probes over many megabytes, where each one is a miss,
/// and clearing costs what was used, not the whole allocation. (Connect
/// Four, `ply solve --batch`, 64 MiB, best of three runs: `Test_L3_R1`,
/// 50 nodes a solve, 10.4 -> 4.6 us a position; `Test_L2_R2`, 38,000
/// nodes, 4.9 -> 3.4 ms.)
pub struct TransTable {
    buckets: Buckets,
    /// Buckets in use, minus one (a power of two minus one).
    mask: AtomicUsize,
    /// Slots filled since the last clear.
    filled: Padded,
    /// Set while a thread moves entries to grow the table.
    growing: AtomicBool,
    /// The current search, 6 bits.
    generation: AtomicU8,
}

/// The largest table a front end accepts (`--tt-mb`, UCI's `Hash`), in
/// MiB: 64 GiB.
pub const MAX_TT_MB: usize = 65_536;

impl TransTable {
    /// A table of at most `mib` MiB (rounded down to a power-of-two number
    /// of buckets; at least one bucket).
    pub fn new(mib: usize) -> Self {
        let count = Self::buckets_for(mib);
        let buckets = Buckets::zeroed(count);
        TransTable {
            buckets,
            mask: AtomicUsize::new(count.min(FIRST_BUCKETS) - 1),
            filled: Padded::default(),
            growing: AtomicBool::new(false),
            generation: AtomicU8::new(0),
        }
    }

    /// The buckets a table of `mib` MiB has: a power of two, at least one.
    fn buckets_for(mib: usize) -> usize {
        let budget = mib.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>();
        if budget == 0 {
            1
        } else {
            1usize << (usize::BITS - 1 - budget.leading_zeros())
        }
    }

    /// Whether a table of `mib` MiB may be made here: at most
    /// [`MAX_TT_MB`], and memory the system agrees to reserve for it (asked
    /// for and given back at once, untouched). Front ends ask before they
    /// make an engine, so that a size too big is an error that names it,
    /// not a panic or an abort in the allocator; the table, once made,
    /// never grows past its size.
    pub fn check_size(mib: usize) -> Result<(), String> {
        if mib > MAX_TT_MB {
            return Err(format!(
                "a table of {mib} MiB is more than the {MAX_TT_MB} MiB allowed"
            ));
        }
        Vec::<Bucket>::new()
            .try_reserve_exact(Self::buckets_for(mib))
            .map_err(|_| format!("a table of {mib} MiB cannot be allocated on this machine"))
    }

    /// The memory the entries take, in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// The number of entries it can hold.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// The memory in use now, in bytes (see [`TransTable`]: it grows with
    /// the search up to [`TransTable::bytes`]).
    pub fn bytes_in_use(&self) -> usize {
        (self.mask.load(Relaxed) + 1) * std::mem::size_of::<Bucket>()
    }

    /// Marks the start of a new search: older entries become first to go.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) & 63, Relaxed);
    }

    /// Forgets everything, and goes back to using its first buckets only.
    /// Only the buckets that were in use are cleared: the rest were never
    /// written since the last clear.
    pub fn clear(&self) {
        let used = self.mask.load(Relaxed) + 1;
        for bucket in &self.buckets[..used] {
            bucket.0.iter().for_each(Self::empty);
        }
        self.mask
            .store(self.buckets.len().min(FIRST_BUCKETS) - 1, Relaxed);
        self.filled.0.store(0, Relaxed);
    }

    /// The bucket index of `key` among the first `mask + 1` buckets.
    #[inline]
    fn index(key: u64, mask: usize) -> usize {
        // Fold the high bits in: keys from simple hashes vary most there.
        (key ^ (key >> 32)) as usize & mask
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; WAYS] {
        &self.buckets[Self::index(key, self.mask.load(Relaxed))].0
    }

    /// Doubles the buckets in use (if any are left): an entry of bucket
    /// `i` either stays or belongs to bucket `i + n` under the new mask,
    /// which is empty, so each moves without a search for room. Helper
    /// threads that store meanwhile under the old mask may leave an entry
    /// where no probe looks: a lost entry, never a wrong one.
    #[cold]
    #[inline(never)]
    fn grow(&self) {
        // One thread at a time: another that finds the table growing
        // carries on, and counts its fills for the next time.
        if self.growing.swap(true, Acquire) {
            return;
        }
        let n = self.mask.load(Relaxed) + 1;
        if n == self.buckets.len() {
            self.growing.store(false, Release);
            return;
        }
        let new_mask = 2 * n - 1;
        for (i, bucket) in self.buckets[..n].iter().enumerate() {
            if i + 16 < n {
                self.prefetch_bucket(i + 16);
                self.prefetch_bucket(i + n + 16);
            }
            let mut room = self.buckets[i + n].0.iter();
            for s in &bucket.0 {
                let data = s.data.load(Relaxed);
                if is_empty(data) {
                    continue;
                }
                let key = s.check.load(Relaxed) ^ data;
                if Self::index(key, new_mask) != i
                    && let Some(to) = room.next()
                {
                    Self::write(to, key, data);
                    Self::empty(s);
                }
            }
        }
        self.mask.store(new_mask, Relaxed);
        self.growing.store(false, Release);
    }

    /// Counts a slot that was empty and now holds an entry, and grows the
    /// table when the slots in use are nearly all filled. An atomic add:
    /// with a plain load and store, threads racing would lose counts, and
    /// a table whose count stays below the mark never grows.
    #[inline]
    fn count_fill(&self) {
        let mask = self.mask.load(Relaxed);
        if mask + 1 == self.buckets.len() {
            return; // every bucket is in use: nothing to grow into
        }
        let filled = self.filled.0.fetch_add(1, Relaxed) + 1;
        if filled * 8 > (mask + 1) * WAYS * GROW_AT_EIGHTHS {
            self.grow();
        }
    }

    /// Reads a slot: its data if it holds `key`.
    #[inline]
    fn read(s: &Slot, key: u64) -> Option<u64> {
        let data = s.data.load(Relaxed);
        Self::holds(s, data, key).then_some(data)
    }

    /// Whether slot `s`, whose data word was read as `data`, holds `key`
    /// (its other word is `key ^ data`).
    #[inline]
    fn holds(s: &Slot, data: u64, key: u64) -> bool {
        !is_empty(data) && s.check.load(Relaxed) ^ data == key
    }

    /// Empties a slot.
    #[inline]
    fn empty(s: &Slot) {
        s.check.store(0, Relaxed);
        s.data.store(0, Relaxed);
    }

    #[inline]
    fn write(s: &Slot, key: u64, data: u64) {
        s.check.store(key ^ data, Relaxed);
        s.data.store(data, Relaxed);
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe
    /// of it soon after does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        self.prefetch_bucket(Self::index(key, self.mask.load(Relaxed)));
    }

    #[inline]
    fn prefetch_bucket(&self, i: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let line = &self.buckets[i] as *const Bucket as *const i8;
            // SAFETY: a prefetch is a hint; it reads nothing the program sees.
            unsafe {
                std::arch::x86_64::_mm_prefetch(line, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key)
            .iter()
            .find_map(|s| Self::read(s, key))
            .map(|d| unpack(key, d))
    }

    /// Stores a result, replacing the least valuable entry of its bucket.
    /// `best` is the index of the best move in the node's move list in
    /// natural order (moves past index 254 are not stored); `nodes` is the
    /// size of the subtree the result cost.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        score: i32,
        depth: u8,
        bound: Bound,
        best: Option<usize>,
        nodes: u64,
    ) {
        self.store_as(key, score, depth, bound, best, nodes, false);
    }

    /// [`TransTable::store`] for a helper thread of a parallel search when
    /// `helper`: it never evicts another position's entry worth more than
    /// its own, so the main thread's costly entries survive.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store_as(
        &self,
        key: u64,
        score: i32,
        depth: u8,
        bound: Bound,
        best: Option<usize>,
        nodes: u64,
        helper: bool,
    ) {
        let bucket = self.bucket(key);
        let generation = self.generation.load(Relaxed);
        let meta = (generation << 2) | bound.code();
        let best = best.and_then(|i| u8::try_from(i).ok()).filter(|&i| i < 255);
        let work = work_of(nodes);
        let data = pack(score, depth, meta, best, work);
        // One pass: the same position is updated in place (keeping its best
        // move if the new result has none); otherwise the least valuable
        // slot is the victim.
        let mut victim = &bucket[0];
        let mut lowest = u32::MAX;
        for s in bucket {
            let old = s.data.load(Relaxed);
            if Self::holds(s, old, key) {
                let best = best.or(unpack(key, old).best);
                Self::write(s, key, pack(score, depth, meta, best, work));
                return;
            }
            let value = keep_value(old, generation);
            if value < lowest {
                lowest = value;
                victim = s;
            }
        }
        if helper && lowest > keep_value(data, generation) {
            return;
        }
        Self::write(victim, key, data);
        if lowest == 0 {
            self.count_fill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_cache_lines() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn size_is_fixed_and_bounded() {
        for mib in [1, 16] {
            let t = TransTable::new(mib);
            assert!(t.bytes() <= mib << 20);
            assert!(t.bytes() > (mib << 20) / 2);
            assert_eq!(t.buckets.as_ptr() as usize % 64, 0);
        }
        let t = TransTable::new(0);
        assert_eq!(t.capacity(), WAYS);
    }

    /// A size past the cap is refused with its number (the fuzzer's
    /// 444,444,444,444,444 MiB, which overflowed `Vec`'s capacity before
    /// the check, among them); an ordinary one passes; the bucket count
    /// of any size is computed without overflow. (A size under the cap
    /// that the system will not reserve depends on the machine, so no
    /// test here asks for one.)
    #[test]
    fn sizes_past_the_cap_are_refused() {
        assert_eq!(TransTable::check_size(16), Ok(()));
        assert_eq!(
            TransTable::check_size(MAX_TT_MB + 1).unwrap_err(),
            "a table of 65537 MiB is more than the 65536 MiB allowed"
        );
        assert_eq!(
            TransTable::check_size(444_444_444_444_444).unwrap_err(),
            "a table of 444444444444444 MiB is more than the 65536 MiB allowed"
        );
        assert_eq!(TransTable::buckets_for(usize::MAX), 1 << (usize::BITS - 7));
    }

    /// The table starts small, grows as it fills without losing an entry,
    /// never past its size, and a clear takes it back to its start.
    #[test]
    fn grows_as_it_fills_and_keeps_its_entries() {
        let t = TransTable::new(4);
        let first = FIRST_BUCKETS * 64;
        assert_eq!((t.bytes(), t.bytes_in_use()), (4 << 20, first));
        let key = |i: u64| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let present =
            |n: u64| -> Vec<u64> { (0..n).filter(|&i| t.probe(key(i)).is_some()).collect() };
        let mut stored = 0u64;
        let mut sizes = vec![t.bytes_in_use()];
        while t.bytes_in_use() < t.bytes() {
            let before = t.bytes_in_use();
            let slots = before / 64 * WAYS;
            // Just before the fill that grows the table, what it holds.
            let next_grows = (t.filled.0.load(Relaxed) + 1) * 8 > slots * GROW_AT_EIGHTHS;
            let held = if next_grows {
                present(stored)
            } else {
                Vec::new()
            };
            t.store(key(stored), stored as i32, 1, Bound::Exact, None, 1);
            stored += 1;
            if t.bytes_in_use() != before {
                assert!(next_grows);
                sizes.push(t.bytes_in_use());
                // The moves lost nothing: every entry is found, whole.
                for &i in held.iter().chain([stored - 1].iter()) {
                    assert_eq!(t.probe(key(i)).map(|e| e.score), Some(i as i32));
                }
            }
        }
        assert_eq!(sizes, [1 << 20, 2 << 20, 4 << 20]);
        // At full size it fills on, evicting, never growing.
        for _ in 0..100_000 {
            t.store(key(stored), 0, 1, Bound::Exact, None, 1);
            stored += 1;
        }
        assert_eq!(t.bytes_in_use(), t.bytes());
        t.clear();
        assert_eq!(t.bytes_in_use(), first);
        assert!(present(stored).is_empty());
    }

    #[test]
    fn work_is_a_power_of_two() {
        assert_eq!(
            [0, 1, 2, 3, 4, 1000, u64::MAX].map(work_of),
            [0, 1, 2, 2, 3, 10, 64]
        );
    }

    #[test]
    fn the_least_valuable_entry_goes() {
        let t = TransTable::new(0); // one bucket of four
        t.store(1, 10, 8, Bound::Exact, Some(1), 1);
        t.store(2, 20, 3, Bound::Lower, None, 1000);
        t.store(3, 30, 3, Bound::Upper, None, 10);
        t.store(4, 40, 9, Bound::Upper, None, 1);
        // Full: the next result evicts the shallowest, cheapest entry (3).
        t.store(5, 50, 2, Bound::Lower, None, 1);
        assert!(t.probe(3).is_none());
        for k in [1, 2, 4, 5] {
            assert_eq!(t.probe(k).unwrap().score, k as i32 * 10);
        }
        // Then the newest, shallowest one (5): new results always go in.
        t.store(6, 60, 2, Bound::Lower, None, 1);
        assert!(t.probe(5).is_none());
        assert_eq!(t.probe(6).unwrap().score, 60);
        // An entry of an older search goes before a deeper one of this search.
        t.new_search();
        t.store(7, 70, 0, Bound::Lower, None, 1);
        t.store(8, 80, 0, Bound::Lower, None, 1);
        t.store(9, 90, 0, Bound::Lower, None, 1);
        t.store(10, 100, 0, Bound::Lower, None, 1);
        for k in [1, 2, 4, 6] {
            assert!(t.probe(k).is_none(), "{k} was from the older search");
        }
        // A helper never evicts a more valuable entry: its result, of no
        // work, does not go in (the main thread's would).
        t.store(11, 110, 5, Bound::Lower, None, 1);
        t.store_as(12, 120, 0, Bound::Lower, None, 0, true);
        assert!(t.probe(12).is_none());
        // Updating a position keeps its move when the new result has none.
        t.store(11, 111, 9, Bound::Lower, Some(3), 1);
        t.store(11, 112, 9, Bound::Lower, None, 1);
        assert_eq!(t.probe(11).unwrap().best, Some(3));
        assert_eq!(t.probe(11).unwrap().score, 112);
        // Negative scores and every field survive the packing.
        t.store(4, -123_456_789, COMPLETE, Bound::Exact, Some(254), u64::MAX);
        let e = t.probe(4).unwrap();
        assert_eq!(
            (e.score, e.depth, e.bound, e.best),
            (-123_456_789, COMPLETE, Bound::Exact, Some(254))
        );
        t.store(5, 1, 1, Bound::Lower, Some(255), 1);
        assert_eq!(t.probe(5).unwrap().best, None, "index 255 is not stored");
    }

    /// Threads hammering one small table never read an entry that was
    /// not stored whole: every hit's fields belong together.
    #[test]
    fn shared_between_threads() {
        // One bucket fought over; then a table that grows under the threads.
        for (mib, keys, stores) in [(0, 7, 20_000u64), (4, 1 << 20, 150_000)] {
            let t = TransTable::new(mib);
            std::thread::scope(|s| {
                for thread in 0..4u64 {
                    let t = &t;
                    s.spawn(move || {
                        for i in 0..stores {
                            let key =
                                ((i * 4 + thread) % keys + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                            // The score, depth and move are all functions of the key.
                            let v = key as i32;
                            t.store_as(
                                key,
                                v,
                                (key % 200) as u8,
                                Bound::Lower,
                                Some((key % 100) as usize),
                                key,
                                thread > 0,
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
            assert_eq!(t.bytes_in_use(), t.bytes(), "{mib} MiB: grown to its size");
        }
    }
}

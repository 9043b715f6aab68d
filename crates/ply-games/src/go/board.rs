//! The Go board: stones, groups and liberties kept up to date as stones
//! are placed and captured, so that a move costs what it changes, never a
//! flood fill.
//!
//! Points live on a padded grid of `stride = size + 2` columns and rows:
//! a border of [`BORDER`] cells all round means a neighbour is always an
//! index (`p ± 1`, `p ± stride`) and never off the array. A group is a
//! circular list of its stones (`next`), each stone naming the group's
//! head (`head`); the head holds the group's size and its *pseudo-
//! liberties*: one count per (stone, empty neighbour) pair, with the sum
//! and the sum of squares of those neighbours' indices. The count is 0
//! exactly when the group has no liberty, and the group has exactly one
//! liberty (atari) exactly when every pseudo-liberty is the same point,
//! that is when `count × sum of squares = sum²` (Cauchy–Schwarz is an
//! equality only for equal terms). Merging two groups relabels the
//! smaller and splices the lists; a capture visits the captured stones.

/// An empty point.
pub const EMPTY: u8 = 0;
/// A black stone (the first player, MAX).
pub const BLACK: u8 = 1;
/// A white stone.
pub const WHITE: u8 = 2;
/// Off the board.
pub const BORDER: u8 = 3;

/// The other colour of a stone.
#[inline]
pub fn opposite(colour: u8) -> u8 {
    colour ^ 3
}

/// One point of the padded grid. The group fields mean something only
/// on a group's head.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    colour: u8,
    /// The head of this stone's group.
    head: u16,
    /// The next stone of the group (a circular list).
    next: u16,
    /// The group's stones (on the head).
    size: u16,
    /// The group's pseudo-liberties (on the head).
    libs: u16,
    lib_sum: u32,
    lib_squares: u32,
}

/// The stones on a board with their groups, and the board's Zobrist hash.
/// `Clone` is one allocation and a copy: 20 bytes a point (2.4 KB on 9×9).
#[derive(Clone, Debug)]
pub struct Board {
    size: u16,
    cells: Vec<Cell>,
    /// XOR of the Zobrist keys of the stones.
    hash: u64,
    /// Stones on the board, black and white.
    stones: [u16; 2],
}

/// What a legal play would do, found without playing it: the board's
/// hash and stone count after it (for the repetition rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The hash of the board after the play.
    pub hash: u64,
    /// The stones on the board after the play.
    pub stones: u16,
    /// Whether the play captures.
    pub captures: bool,
}

/// The Zobrist keys of a board size: one per point and colour, from a
/// fixed seed, so keys are the same in every run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zobrist {
    keys: Vec<[u64; 2]>,
}

impl Zobrist {
    /// Keys for every point of a grid of `points` cells.
    pub fn new(points: usize) -> Self {
        let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ points as u64;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            mix(x)
        };
        Zobrist {
            keys: (0..points).map(|_| [next(), next()]).collect(),
        }
    }

    /// The key of a `colour` stone at `p`.
    #[inline]
    pub fn key(&self, p: usize, colour: u8) -> u64 {
        self.keys[p][usize::from(colour - 1)]
    }
}

/// SplitMix64's finaliser: a 64-bit value spread over all 64 bits.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Board {
    /// The empty board of `size` × `size` points.
    pub fn new(size: usize) -> Self {
        let stride = size + 2;
        let mut cells = vec![Cell::default(); stride * stride];
        for (i, c) in cells.iter_mut().enumerate() {
            let (x, y) = (i % stride, i / stride);
            if x == 0 || y == 0 || x == stride - 1 || y == stride - 1 {
                c.colour = BORDER;
            }
        }
        Board {
            size: size as u16,
            cells,
            hash: 0,
            stones: [0, 0],
        }
    }

    /// The distance between rows in the padded grid.
    #[inline]
    pub fn stride(&self) -> usize {
        usize::from(self.size) + 2
    }

    /// The number of cells in the padded grid.
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// The colour at `p` ([`EMPTY`], [`BLACK`], [`WHITE`] or [`BORDER`]).
    #[inline]
    pub fn colour(&self, p: usize) -> u8 {
        self.cells[p].colour
    }

    /// The hash of the stones (0 for the empty board).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The stones on the board.
    pub fn stone_count(&self) -> u16 {
        self.stones[0] + self.stones[1]
    }

    /// The four neighbours of `p` (border cells included).
    #[inline]
    pub fn neighbours(&self, p: usize) -> [usize; 4] {
        let s = self.stride();
        [p - s, p - 1, p + 1, p + s]
    }

    /// The eight points around `p` (its 3×3 neighbourhood less itself):
    /// where a reply to a move at `p` is looked for.
    #[inline]
    pub fn neighbours8(&self, p: usize) -> [usize; 8] {
        let s = self.stride();
        [p - s - 1, p - s, p - s + 1, p - 1, p + 1, p + s - 1, p + s, p + s + 1]
    }

    /// The head of the group of the stone at `p`.
    #[inline]
    pub fn head(&self, p: usize) -> usize {
        usize::from(self.cells[p].head)
    }

    /// The stones of the group at `p`, in no particular order.
    pub fn group(&self, p: usize) -> Vec<usize> {
        let mut out = vec![p];
        let mut q = usize::from(self.cells[p].next);
        while q != p {
            out.push(q);
            q = usize::from(self.cells[q].next);
        }
        out
    }

    /// Whether the group whose head is `g` has exactly one liberty.
    #[inline]
    pub(super) fn in_atari(&self, g: usize) -> bool {
        let c = &self.cells[g];
        c.libs > 0 && u64::from(c.libs) * u64::from(c.lib_squares) == u64::from(c.lib_sum).pow(2)
    }

    /// The one liberty of the group whose head is `g`, which is in atari:
    /// every pseudo-liberty is that point, so their sum over their count.
    #[inline]
    pub(super) fn atari_liberty(&self, g: usize) -> usize {
        let c = &self.cells[g];
        (c.lib_sum / u32::from(c.libs)) as usize
    }

    /// The stones of the group whose head is `g`.
    #[inline]
    pub(super) fn group_size(&self, g: usize) -> u16 {
        self.cells[g].size
    }

    /// Whether a play of `colour` at the empty point `p` is legal by the
    /// stones alone (not suicide; repetition aside), without a copy.
    #[inline]
    pub(super) fn breathes(&self, p: usize, colour: u8) -> bool {
        let enemy = opposite(colour);
        self.neighbours(p).into_iter().any(|q| {
            let c = self.colour(q);
            c == EMPTY
                || (c == colour && !self.in_atari(self.head(q)))
                || (c == enemy && self.in_atari(self.head(q)))
        })
    }

    /// If a play of `colour` at the empty point `p` would capture nothing
    /// and leave its group with one liberty (self-atari), that group's
    /// size; `None` when the play captures or leaves two liberties or
    /// more. Walks the friendly groups beside `p` only until it has seen
    /// two liberties.
    pub(super) fn self_atari(&self, p: usize, colour: u8) -> Option<u16> {
        let enemy = opposite(colour);
        let mut libs = [usize::MAX; 2];
        let mut found = 0;
        let mut note = |l: usize, libs: &mut [usize; 2]| {
            if l != p && found < 2 && !libs[..found].contains(&l) {
                libs[found] = l;
                found += 1;
            }
            found >= 2
        };
        let mut heads = [usize::MAX; 4];
        let mut size = 1;
        for (i, q) in self.neighbours(p).into_iter().enumerate() {
            match self.colour(q) {
                EMPTY if note(q, &mut libs) => return None,
                EMPTY => {}
                c if c == enemy && self.in_atari(self.head(q)) => return None,
                c if c == colour => {
                    let g = self.head(q);
                    if heads.contains(&g) {
                        continue;
                    }
                    heads[i] = g;
                    size += self.cells[g].size;
                    let mut s = g;
                    loop {
                        for l in self.neighbours(s) {
                            if self.colour(l) == EMPTY && note(l, &mut libs) {
                                return None;
                            }
                        }
                        s = usize::from(self.cells[s].next);
                        if s == g {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        Some(size)
    }

    /// Whether the group at `p` has exactly one liberty.
    pub fn group_in_atari(&self, p: usize) -> bool {
        self.in_atari(self.head(p))
    }

    /// The liberties of the group at `p`, counted exactly (each empty
    /// point once): for display and tests, not for the search's paths.
    pub fn liberties(&self, p: usize) -> usize {
        let mut seen = Vec::new();
        for s in self.group(p) {
            for q in self.neighbours(s) {
                if self.colour(q) == EMPTY && !seen.contains(&q) {
                    seen.push(q);
                }
            }
        }
        seen.len()
    }

    /// What a play of `colour` at the empty point `p` would do, or `None`
    /// if it is suicide (it captures nothing and leaves its own group
    /// without a liberty). Reads the board only.
    pub fn outcome(&self, p: usize, colour: u8, z: &Zobrist) -> Option<Outcome> {
        debug_assert_eq!(self.colour(p), EMPTY);
        let enemy = opposite(colour);
        let mut hash = self.hash ^ z.key(p, colour);
        let mut captured = 0u16;
        let mut heads = [usize::MAX; 4];
        let mut breathes = false;
        for (i, q) in self.neighbours(p).into_iter().enumerate() {
            let c = self.colour(q);
            if c == EMPTY {
                breathes = true;
            } else if c == colour {
                // A friendly group keeps a liberty after the play unless
                // `p` was its only one.
                breathes |= !self.in_atari(self.head(q));
            } else if c == enemy {
                let g = self.head(q);
                if self.in_atari(g) && !heads.contains(&g) {
                    heads[i] = g;
                    captured += self.cells[g].size;
                    for s in self.group(g) {
                        hash ^= z.key(s, enemy);
                    }
                }
            }
        }
        (breathes || captured > 0).then(|| Outcome {
            hash,
            stones: self.stone_count() + 1 - captured,
            captures: captured > 0,
        })
    }

    /// Whether a neighbour of `p` is empty (a stone there has a liberty).
    #[inline]
    pub fn has_empty_neighbour(&self, p: usize) -> bool {
        self.neighbours(p).into_iter().any(|q| self.colour(q) == EMPTY)
    }

    /// Whether a play of `colour` at `p` would capture: an opponent's
    /// group beside it has one liberty (which is `p`).
    #[inline]
    pub fn captures(&self, p: usize, colour: u8) -> bool {
        let enemy = opposite(colour);
        self.neighbours(p)
            .into_iter()
            .any(|q| self.colour(q) == enemy && self.in_atari(self.head(q)))
    }

    /// Places a `colour` stone at the empty point `p` (the play must not
    /// be suicide) and removes what it captures; returns the stones
    /// captured.
    pub fn place(&mut self, p: usize, colour: u8, z: &Zobrist) -> u16 {
        let p16 = p as u16;
        self.cells[p] = Cell {
            colour,
            head: p16,
            next: p16,
            size: 1,
            ..Cell::default()
        };
        self.hash ^= z.key(p, colour);
        self.stones[usize::from(colour - 1)] += 1;
        let around = self.neighbours(p);
        for q in around {
            match self.colour(q) {
                EMPTY => self.add_liberty(p, q),
                BORDER => {}
                _ => {
                    let g = self.head(q);
                    self.remove_liberty(g, p);
                }
            }
        }
        for q in around {
            if self.colour(q) == colour {
                let (a, b) = (self.head(p), self.head(q));
                if a != b {
                    self.merge(a, b);
                }
            }
        }
        let enemy = opposite(colour);
        let mut captured = 0;
        for q in around {
            if self.colour(q) == enemy && self.cells[self.head(q)].libs == 0 {
                captured += self.remove_group(self.head(q), z);
            }
        }
        debug_assert!(self.cells[self.head(p)].libs > 0, "suicide at {p}");
        captured
    }

    #[inline]
    fn add_liberty(&mut self, g: usize, l: usize) {
        let c = &mut self.cells[g];
        c.libs += 1;
        c.lib_sum += l as u32;
        c.lib_squares += (l * l) as u32;
    }

    #[inline]
    fn remove_liberty(&mut self, g: usize, l: usize) {
        let c = &mut self.cells[g];
        c.libs -= 1;
        c.lib_sum -= l as u32;
        c.lib_squares -= (l * l) as u32;
    }

    /// Joins the groups with heads `a` and `b`: the smaller one's stones
    /// are relabelled, the lists spliced, the liberties added.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.cells[a].size >= self.cells[b].size {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.cells[s].head = big as u16;
            s = usize::from(self.cells[s].next);
            if s == small {
                break;
            }
        }
        let (nb, ns) = (self.cells[big].next, self.cells[small].next);
        self.cells[big].next = ns;
        self.cells[small].next = nb;
        let sm = self.cells[small];
        let c = &mut self.cells[big];
        c.size += sm.size;
        c.libs += sm.libs;
        c.lib_sum += sm.lib_sum;
        c.lib_squares += sm.lib_squares;
    }

    /// Takes the group with head `g` off the board; its points become
    /// liberties of the groups around them. Returns its size.
    fn remove_group(&mut self, g: usize, z: &Zobrist) -> u16 {
        let colour = self.colour(g);
        let size = self.cells[g].size;
        let mut s = g;
        loop {
            self.cells[s].colour = EMPTY;
            self.hash ^= z.key(s, colour);
            s = usize::from(self.cells[s].next);
            if s == g {
                break;
            }
        }
        loop {
            for q in self.neighbours(s) {
                let c = self.colour(q);
                if c == BLACK || c == WHITE {
                    let h = self.head(q);
                    self.add_liberty(h, s);
                }
            }
            s = usize::from(self.cells[s].next);
            if s == g {
                break;
            }
        }
        self.stones[usize::from(colour - 1)] -= size;
        size
    }

    /// Whether `p` is an eye of `colour`: empty, every neighbour that
    /// of `colour` (or off the board), and at most one diagonal the
    /// opponent's (none on the edge). Playouts do not fill their own eyes.
    pub fn is_eye(&self, p: usize, colour: u8) -> bool {
        if self.colour(p) != EMPTY {
            return false;
        }
        if self
            .neighbours(p)
            .into_iter()
            .any(|q| self.colour(q) != colour && self.colour(q) != BORDER)
        {
            return false;
        }
        let s = self.stride();
        let (mut enemy, mut border) = (0, 0);
        for q in [p - s - 1, p - s + 1, p + s - 1, p + s + 1] {
            match self.colour(q) {
                BORDER => border = 1,
                c if c == opposite(colour) => enemy += 1,
                _ => {}
            }
        }
        enemy + border < 2
    }

    /// Calls `visit` with each empty region (its points) and the colour
    /// that owns it: [`BLACK`] or [`WHITE`] when it reaches only that
    /// colour's stones, [`EMPTY`] when it reaches both or neither. The
    /// one flood fill of scoring, done at the end of a game only.
    fn empty_regions(&self, mut visit: impl FnMut(&[usize], u8)) {
        let mut seen = vec![false; self.cells.len()];
        let mut region = Vec::new();
        for start in 0..self.cells.len() {
            if self.colour(start) != EMPTY || seen[start] {
                continue;
            }
            region.clear();
            region.push(start);
            seen[start] = true;
            let mut touches = 0u8;
            let mut i = 0;
            while i < region.len() {
                for q in self.neighbours(region[i]) {
                    match self.colour(q) {
                        EMPTY if !seen[q] => {
                            seen[q] = true;
                            region.push(q);
                        }
                        c @ (BLACK | WHITE) => touches |= c,
                        _ => {}
                    }
                }
                i += 1;
            }
            let owner = if touches == BLACK || touches == WHITE {
                touches
            } else {
                EMPTY
            };
            visit(&region, owner);
        }
    }

    /// Tromp–Taylor area: each colour's stones plus the empty points that
    /// reach only that colour's stones. Returns (black, white).
    pub fn area(&self) -> (i32, i32) {
        let mut area = [i32::from(self.stones[0]), i32::from(self.stones[1])];
        self.empty_regions(|region, owner| {
            if owner != EMPTY {
                area[usize::from(owner - 1)] += region.len() as i32;
            }
        });
        (area[0], area[1])
    }

    /// Who owns each point at the end under area scoring: the stone's
    /// colour, or for an empty point the one colour its region reaches
    /// ([`EMPTY`] for a point reaching both or neither).
    pub fn owners(&self) -> Vec<u8> {
        let mut owner: Vec<u8> = self.cells.iter().map(|c| c.colour).collect();
        self.empty_regions(|region, who| {
            for &p in region {
                owner[p] = who;
            }
        });
        owner
    }

    /// Checks every group's bookkeeping against a recount: heads, sizes,
    /// pseudo-liberty counts and sums. For tests.
    pub fn check(&self) -> Result<(), String> {
        let mut stones = [0u16; 2];
        for p in 0..self.cells.len() {
            let c = self.colour(p);
            if c != BLACK && c != WHITE {
                continue;
            }
            stones[usize::from(c - 1)] += 1;
            let g = self.head(p);
            if self.colour(g) != c {
                return Err(format!("the stone at {p} names head {g} of another colour"));
            }
            if g != p {
                continue;
            }
            let members = self.group(p);
            if members.iter().any(|&s| self.head(s) != g) {
                return Err(format!("the group at {g} lists a stone of another group"));
            }
            if members.len() != usize::from(self.cells[g].size) {
                return Err(format!("the group at {g} has the wrong size"));
            }
            let (mut libs, mut sum, mut squares) = (0u16, 0u32, 0u32);
            for &s in &members {
                for q in self.neighbours(s) {
                    if self.colour(q) == EMPTY {
                        libs += 1;
                        sum += q as u32;
                        squares += (q * q) as u32;
                    }
                }
            }
            let cell = &self.cells[g];
            if (libs, sum, squares) != (cell.libs, cell.lib_sum, cell.lib_squares) {
                return Err(format!("the group at {g} has the wrong liberties"));
            }
            if libs == 0 {
                return Err(format!("the group at {g} has no liberty"));
            }
        }
        if stones != self.stones {
            return Err("the stone counts are wrong".into());
        }
        Ok(())
    }

    /// Whether the stones are the same as `other`'s (groups' internal
    /// order aside).
    pub fn same_stones(&self, other: &Board) -> bool {
        self.size == other.size
            && self.hash == other.hash
            && self
                .cells
                .iter()
                .zip(&other.cells)
                .all(|(a, b)| a.colour == b.colour)
    }
}

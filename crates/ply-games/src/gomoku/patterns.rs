//! Line patterns: what a stone on an empty point would make along one line,
//! for each colour, read from the ten points around it (five each side).
//!
//! The levels are defined by how close the line is to five, recursively, so
//! no shape is listed by hand: a *five* is five in a row through the point
//! (exactly five under the standard rule); a *four* leaves one empty point
//! that makes a five, an *open four* two or more; a *three* can become a four
//! with one more stone, an *open three* an open four; and so on down to one.
//! The table is computed once per rule, from these definitions, for every
//! arrangement of the ten neighbours (3^10 = 59,049 of them for one colour,
//! with the opponent's stones and the edge both as "blocked").

use std::sync::OnceLock;

/// Nothing: no five can ever pass through the point along this line.
pub const DEAD: u8 = 0;
/// One stone towards a five, one side blocked.
pub const B1: u8 = 1;
/// One stone, open.
pub const F1: u8 = 2;
/// Two, blocked.
pub const B2: u8 = 3;
/// Two, open.
pub const F2: u8 = 4;
/// A three: one stone more makes a four.
pub const B3: u8 = 5;
/// An open three: one stone more makes an open four.
pub const F3: u8 = 6;
/// A four: one empty point left that makes five.
pub const B4: u8 = 7;
/// An open four (or two fours in one line): two points make five.
pub const F4: u8 = 8;
/// Five in a row.
pub const F5: u8 = 9;
/// The number of levels.
pub const LEVELS: usize = 10;

/// Points read each side of the centre.
pub const RADIUS: i32 = 5;
/// The neighbours a key encodes: offsets -5..-1 then 1..5.
pub const NEIGHBOURS: usize = 10;
/// The number of keys: each neighbour empty, own or blocked.
pub const KEYS: usize = 59_049;

/// Powers of three, for keys: neighbour `i` (offset order above) is digit `i`.
pub const POW3: [u32; NEIGHBOURS] = {
    let mut p = [1u32; NEIGHBOURS];
    let mut i = 1;
    while i < NEIGHBOURS {
        p[i] = p[i - 1] * 3;
        i += 1;
    }
    p
};

/// A digit of a key: the neighbour is empty.
pub const EMPTY_DIGIT: u32 = 0;
/// The neighbour holds the colour's own stone.
pub const OWN_DIGIT: u32 = 1;
/// The neighbour is the opponent's stone or off the board.
pub const BLOCKED_DIGIT: u32 = 2;

/// The level of every key, for one rule.
pub struct Table {
    levels: Vec<u8>,
}

impl Table {
    /// The level a stone at the centre makes, given its neighbours' key.
    #[inline(always)]
    pub fn level(&self, key: u32) -> u8 {
        self.levels[key as usize]
    }
}

/// The table for freestyle (`exact == false`: five or more wins) or the
/// standard rule (`exact`: exactly five), built on first use.
pub fn table(exact: bool) -> &'static Table {
    static FREESTYLE: OnceLock<Table> = OnceLock::new();
    static STANDARD: OnceLock<Table> = OnceLock::new();
    let cell = if exact { &STANDARD } else { &FREESTYLE };
    cell.get_or_init(|| build(exact))
}

/// Masks over eleven bits, bit 5 the centre, bit `5 + k` the point at offset `k`.
const CENTRE: u32 = 5;

fn build(exact: bool) -> Table {
    let mut memo = vec![u8::MAX; KEYS];
    for key in 0..KEYS as u32 {
        let (own, blocked) = masks(key);
        level_of(own, blocked, exact, &mut memo);
    }
    Table { levels: memo }
}

/// The own and blocked masks (eleven bits, centre set in `own`) of a key.
fn masks(key: u32) -> (u32, u32) {
    let (mut own, mut blocked) = (1 << CENTRE, 0);
    let mut k = key;
    for i in 0..NEIGHBOURS as u32 {
        let bit = if i < CENTRE { i } else { i + 1 };
        match k % 3 {
            OWN_DIGIT => own |= 1 << bit,
            BLOCKED_DIGIT => blocked |= 1 << bit,
            _ => {}
        }
        k /= 3;
    }
    (own, blocked)
}

/// The key of masks made by [`masks`].
fn key_of(own: u32, blocked: u32) -> u32 {
    let mut key = 0;
    for i in 0..NEIGHBOURS as u32 {
        let bit = if i < CENTRE { i } else { i + 1 };
        if own >> bit & 1 == 1 {
            key += POW3[i as usize] * OWN_DIGIT;
        } else if blocked >> bit & 1 == 1 {
            key += POW3[i as usize] * BLOCKED_DIGIT;
        }
    }
    key
}

/// Whether `own` holds a five through the centre (exactly five, not part
/// of a longer run, when `exact`).
fn five(own: u32, exact: bool) -> bool {
    (1..=CENTRE).any(|a| {
        let w = 0b11111 << a;
        own & w == w && !(exact && (own >> (a - 1) & 1 == 1 || own >> (a + 5) & 1 == 1))
    })
}

fn level_of(own: u32, blocked: u32, exact: bool, memo: &mut [u8]) -> u8 {
    let key = key_of(own, blocked) as usize;
    if memo[key] != u8::MAX {
        return memo[key];
    }
    let level = if five(own, exact) {
        F5
    } else {
        let empty = |j: u32| j != CENTRE && (own | blocked) >> j & 1 == 0;
        let fives = (0..11)
            .filter(|&j| empty(j) && five(own | 1 << j, exact))
            .count();
        match fives {
            0 => {
                let best = (0..11)
                    .filter(|&j| empty(j))
                    .map(|j| level_of(own | 1 << j, blocked, exact, memo))
                    .max()
                    .unwrap_or(DEAD);
                // One stone further from five than the best next step.
                if best >= B2 { best - 2 } else { DEAD }
            }
            1 => B4,
            _ => F4,
        }
    };
    memo[key] = level;
    level
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The level at the centre of a line written with 'X' own, 'O' or '|'
    /// blocked, '.' empty and '*' the centre (the point being played).
    fn level(line: &str, exact: bool) -> u8 {
        let centre = line.find('*').expect("a centre") as i32;
        let mut key = 0;
        for (i, ch) in line.chars().enumerate() {
            let k = i as i32 - centre;
            if k == 0 || k.abs() > RADIUS {
                continue;
            }
            let idx = if k < 0 { k + RADIUS } else { k + RADIUS - 1 } as usize;
            let digit = match ch {
                'X' => OWN_DIGIT,
                'O' | '|' => BLOCKED_DIGIT,
                _ => EMPTY_DIGIT,
            };
            key += POW3[idx] * digit;
        }
        // Points beyond the written line count as empty.
        table(exact).level(key)
    }

    #[test]
    fn the_shapes_players_name() {
        let free = |l| level(l, false);
        assert_eq!(free(".....XX*XX....."), F5);
        assert_eq!(free("....XXX*XX....."), F5, "six counts under freestyle");
        assert_eq!(free("......XX*X....."), F4, "open four");
        assert_eq!(free(".....OXX*X....."), B4, "four blocked at one end");
        assert_eq!(free("......X.*XX...."), B4, "broken four");
        assert_eq!(free(".....X.X*X.X..."), F4, "two fours in one line");
        assert_eq!(free(".......X*X....."), F3, "open three");
        assert_eq!(free("......OX*X....."), B3, "three blocked at one end");
        assert_eq!(free("......X.*X....."), F3, "split three");
        assert_eq!(free("...O..X*XO....."), B3, "three with room for one five only");
        assert_eq!(free("....O.X*XO....."), DEAD, "four points between the walls");
        assert_eq!(free("........*X....."), F2);
        assert_eq!(free("........*......"), F1);
        assert_eq!(free("....O...*O....."), DEAD, "no room for five");
        assert_eq!(free("...O....*O....."), B1, "room for exactly one five");
    }

    #[test]
    fn the_standard_rule_refuses_overlines() {
        let std = |l| level(l, true);
        assert_eq!(std(".....XX*XX....."), F5);
        assert_eq!(std("....XXX*XX....."), DEAD, "six is no win, and nothing grows it");
        assert_eq!(std("....X.X*XX....."), B4, "filling the gap would make six");
        assert_eq!(level("....X.X*XX.....", false), F4, "both gaps make five or more");
    }
}

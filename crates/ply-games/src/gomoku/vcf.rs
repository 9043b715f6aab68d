//! Victory by continuous fours (VCF): a win in which every attacking move
//! makes a four, so the defender's reply is forced (the one point that stops
//! the five), until a four cannot be stopped (an open four, two fours at
//! once) or the five is made.
//!
//! Because the defender never chooses, the search is narrow and can go
//! far deeper than the main search: a VCF of fifteen fours is common, and
//! proving there is none costs a few thousand positions. Positions already
//! proven to have no VCF are kept in the search's own table.

use ply_core::{Game, ThreatSearch};

use super::patterns::{B4, F5};
use super::{Gomoku, Point, Position};

/// The failed-position table: 2^16 entries (512 KiB).
const TABLE_BITS: u32 = 16;

/// One threat search: the game, its table and its budget.
pub struct Vcf<'a> {
    game: &'a Gomoku,
    /// Keys of positions (attacker to move) with no VCF, by the low bits.
    failed: Vec<u64>,
    nodes: u64,
    max_nodes: u64,
    aborted: bool,
}

impl<'a> Vcf<'a> {
    /// A search of `game` with an empty table.
    pub fn new(game: &'a Gomoku) -> Self {
        Vcf {
            game,
            failed: vec![0; 1 << TABLE_BITS],
            nodes: 0,
            max_nodes: 0,
            aborted: false,
        }
    }

    /// A VCF for the player to move in `s` within `max_nodes` positions:
    /// the line of both sides' moves, ending with the five.
    pub fn search(&mut self, s: &Position, max_nodes: u64) -> ThreatSearch<Point> {
        self.nodes = 0;
        self.max_nodes = max_nodes;
        self.aborted = false;
        if self.game.is_terminal(s) {
            return ThreatSearch {
                win: None,
                nodes: 0,
                complete: true,
            };
        }
        let mut line = Vec::new();
        let won = self.attack(s, &mut line);
        ThreatSearch {
            win: won.then_some(line),
            nodes: self.nodes,
            complete: won || !self.aborted,
        }
    }

    /// Whether the player to move in `s` wins by fours; the winning moves
    /// are appended to `line`.
    fn attack(&mut self, s: &Position, line: &mut Vec<Point>) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.aborted = true;
            return false;
        }
        let game = self.game;
        let (me, them) = (s.mover(), 1 - s.mover());
        let mut fives = Vec::new();
        game.five_points(s, me, &mut fives);
        if let Some(&p) = fives.first() {
            line.push(p);
            return true;
        }
        let slot = (s.key & ((1 << TABLE_BITS) - 1)) as usize;
        if self.failed[slot] == s.key {
            return false;
        }
        let mut fours = Vec::new();
        if s.count(them, F5) > 0 {
            // Their four must be blocked first; the attack goes on only if
            // the block is itself a four.
            game.five_points(s, them, &mut fours);
            fours.retain(|&p| s.best_level(p as usize, me) >= B4);
            if fours.len() > 1 {
                fours.clear();
            }
        } else {
            fours.extend(
                (0..game.cells())
                    .filter(|&p| s.order[p] == 0 && s.near[p] > 0 && s.best_level(p, me) >= B4)
                    .map(|p| p as Point),
            );
            ply_core::sort_by_priority(&mut fours, |p| game.priority(s, p as usize));
        }
        for f in fours {
            let after = game.play(s, f);
            fives.clear();
            self.fives_through(&after, f, me, &mut fives);
            match fives[..] {
                [] => continue,
                [block] => {
                    let defended = game.play(&after, block);
                    if game.is_terminal(&defended) {
                        continue;
                    }
                    line.extend([f, block]);
                    if self.attack(&defended, line) {
                        return true;
                    }
                    line.truncate(line.len() - 2);
                    if self.aborted {
                        return false;
                    }
                }
                // Two points make five: the defender stops one at most.
                [one, other, ..] => {
                    line.extend([f, one, other]);
                    return true;
                }
            }
        }
        if !self.aborted {
            self.failed[slot] = s.key;
        }
        false
    }

    /// The distinct empty points where `colour` makes five along the lines
    /// through `p` (after a stone on `p`, the only new ones).
    fn fives_through(&self, s: &Position, p: Point, colour: usize, out: &mut Vec<Point>) {
        for d in 0..4 {
            for q in self.game.lines[p as usize][d].iter().flatten() {
                let q = *q as usize;
                if s.order[q] == 0
                    && (0..4).any(|e| s.level(q, e, colour) == F5)
                    && !out.contains(&(q as Point))
                {
                    out.push(q as Point);
                }
            }
        }
    }
}

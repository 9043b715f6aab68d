//! The nimber search: the Sprague-Grundy value of a position of an
//! impartial game under normal play, by memoised mex.
//!
//! A terminal position (no move) has nimber 0; any other has the smallest
//! number that is not the nimber of one of its children (the *mex*). The
//! player to move loses exactly when the nimber is 0. A position that is a
//! sum of independent parts ([`Impartial::components`]: heaps, numbers,
//! trees) has the XOR of their nimbers, each part computed once and
//! remembered, so a sum too large for alpha-beta is solved at once: the
//! search visits each distinct part, not each combination of them.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::game::{Chance, Impartial};
use crate::score::MaxScore;
use crate::search::{SearchError, refuse_chance};

/// What the nimber search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimberResult<M> {
    /// The position's nimber.
    pub nimber: u32,
    /// The value from MAX's view: +1 when the player to move wins (nimber
    /// not 0), -1 when it loses.
    pub value: MaxScore,
    /// A move to a position of nimber 0 when there is one (a winning move),
    /// else the first legal move; `None` when the game is over.
    pub best_move: Option<M>,
    /// Positions visited (memo hits included).
    pub nodes: u64,
    /// Distinct positions whose nimber was computed.
    pub computed: u64,
    /// The deepest ply the search reached.
    pub max_ply: u32,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl<M> NimberResult<M> {
    /// What the search cost, as the other searches count it.
    pub fn stats(&self) -> crate::observe::Stats {
        crate::observe::Stats {
            nodes: self.nodes,
            max_ply: self.max_ply,
            ..Default::default()
        }
    }
}

/// The memoised search; keep one to share its memo between positions (the
/// analysis of every move).
pub struct Nimbers<'a, G: Impartial> {
    game: &'a G,
    memo: HashMap<G::State, u32>,
    /// Split sums into their parts (off: every position is searched whole,
    /// the check that splitting changes nothing).
    pub split: bool,
    /// Positions visited.
    pub nodes: u64,
    /// The deepest ply reached below the first position asked about.
    pub max_ply: u32,
    ply: u32,
}

impl<'a, G: Impartial + Chance> Nimbers<'a, G> {
    /// A search over `game`; refuses a game that is not impartial.
    pub fn new(game: &'a G) -> Result<Self, SearchError> {
        if !G::IMPARTIAL || G::HAS_CHANCE {
            return Err(SearchError::NotImpartial);
        }
        Ok(Nimbers {
            game,
            memo: HashMap::new(),
            split: true,
            nodes: 0,
            max_ply: 0,
            ply: 0,
        })
    }

    /// Distinct positions remembered.
    pub fn computed(&self) -> u64 {
        self.memo.len() as u64
    }

    /// The nimber of `state`.
    pub fn nimber(&mut self, state: &G::State) -> u32 {
        self.nodes += 1;
        let mut parts = Vec::new();
        if self.split && self.game.components(state, &mut parts) {
            return parts.iter().fold(0, |x, p| x ^ self.whole(p));
        }
        self.whole(state)
    }

    /// The nimber of one component, by mex over its children, remembered.
    fn whole(&mut self, state: &G::State) -> u32 {
        if let Some(&g) = self.memo.get(state) {
            return g;
        }
        let mut moves = Vec::new();
        if !self.game.is_terminal(state) {
            self.game.legal_moves(state, &mut moves);
        }
        let mut seen = Vec::with_capacity(moves.len());
        self.ply += 1;
        self.max_ply = self.max_ply.max(self.ply);
        for &m in &moves {
            let child = self.game.play(state, m);
            seen.push(self.nimber(&child));
        }
        self.ply -= 1;
        let g = mex(&mut seen);
        self.memo.insert(state.clone(), g);
        g
    }
}

/// The smallest natural number not in `values` (which it sorts).
pub fn mex(values: &mut [u32]) -> u32 {
    values.sort_unstable();
    let mut m = 0;
    for &v in values.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

/// The nimber of `state`, its value, and a winning move where there is
/// one. Refuses a game that is not impartial or has chance.
pub fn nimber<G: Impartial + Chance>(
    game: &G,
    state: &G::State,
) -> Result<NimberResult<G::Move>, SearchError> {
    refuse_chance(game, state)?;
    let start = Instant::now();
    let mut search = Nimbers::new(game)?;
    let g = search.nimber(state);
    let mut moves = Vec::new();
    if !game.is_terminal(state) {
        game.legal_moves(state, &mut moves);
    }
    let best_move = moves
        .iter()
        .copied()
        .find(|&m| search.nimber(&game.play(state, m)) == 0)
        .or(moves.first().copied());
    let mover = game.to_move(state);
    let win = MaxScore(if g != 0 { 1 } else { -1 });
    Ok(NimberResult {
        nimber: g,
        value: MaxScore(win.0 * mover.sign()),
        best_move,
        nodes: search.nodes,
        computed: search.computed(),
        max_ply: search.max_ply,
        elapsed: start.elapsed(),
    })
}

/// Every move's resulting nimber.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimberAnalysis<M> {
    /// Each move with the nimber of the position it leads to, in the
    /// game's order.
    pub moves: Vec<(M, u32)>,
    /// Positions visited.
    pub nodes: u64,
    /// The deepest ply reached, from the position analysed.
    pub max_ply: u32,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl<M> NimberAnalysis<M> {
    /// What the searches cost, as the other searches count it.
    pub fn stats(&self) -> crate::observe::Stats {
        crate::observe::Stats {
            nodes: self.nodes,
            max_ply: self.max_ply,
            ..Default::default()
        }
    }
}

/// Every move's resulting nimber (0 for a winning move).
pub fn analyze_nimbers<G: Impartial + Chance>(
    game: &G,
    state: &G::State,
) -> Result<NimberAnalysis<G::Move>, SearchError> {
    refuse_chance(game, state)?;
    let start = Instant::now();
    let mut search = Nimbers::new(game)?;
    let mut moves = Vec::new();
    if !game.is_terminal(state) {
        game.legal_moves(state, &mut moves);
    }
    let values = moves
        .iter()
        .map(|&m| (m, search.nimber(&game.play(state, m))))
        .collect();
    Ok(NimberAnalysis {
        moves: values,
        nodes: search.nodes,
        max_ply: search.max_ply + 1,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::mex;

    #[test]
    fn mex_is_the_least_missing() {
        assert_eq!(mex(&mut []), 0);
        assert_eq!(mex(&mut [1, 2]), 0);
        assert_eq!(mex(&mut [0, 0, 2]), 1);
        assert_eq!(mex(&mut [3, 0, 1, 2]), 4);
    }
}

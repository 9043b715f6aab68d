//! Plain minimax: the reference search.
//!
//! No pruning, no table, no negamax trick: MAX takes the largest child value,
//! MIN the smallest, written in MAX's view exactly as a textbook does. It is
//! deliberately naive, because it is the oracle every faster search is tested
//! against (same value, never more nodes), so it must be easy to believe.

use crate::game::{Chance, Evaluation};
use crate::observe::Observer;
use crate::score::MaxScore;
use crate::search::{
    Outcome, PvTable, RootTies, Scoring, SearchError, SearchOptions, TieBreak, entered_and_stopped,
    refuse_chance, too_deep,
};

struct Minimax<'a, G: Evaluation + Chance, O> {
    game: &'a G,
    observer: &'a mut O,
    limit: u32,
    scoring: Scoring,
    moves: Vec<Vec<G::Move>>,
    pv: PvTable<G::Move>,
    /// Nodes entered, for the stop question every `CHECK_INTERVAL`.
    nodes: u64,
    /// Why the search stopped, once it has: every node then returns at
    /// once (see [`Minimax::value`]).
    error: Option<SearchError>,
}

impl<G: Evaluation + Chance, O: Observer> Minimax<'_, G, O> {
    /// The value of `state`, or, once the search has stopped (`self.error`
    /// set), anything: the caller looks at `error` after each child and
    /// returns at once. A flag rather than a `Result` per node, whose
    /// packing and unpacking at every call cost 2% of the search on
    /// tic-tac-toe (callgrind), and the reference search should cost
    /// no more than the textbook's.
    fn value(&mut self, state: &G::State, ply: u32, index: Option<usize>) -> MaxScore {
        let game = self.game;
        // Minimax has no rule for nature's moves (compiled out for games
        // without chance).
        if G::HAS_CHANCE && game.is_chance(state) {
            return self.fail(SearchError::Chance);
        }
        if entered_and_stopped(&mut self.nodes, self.observer) {
            return self.fail(SearchError::Stopped);
        }
        let player = game.to_move(state);
        self.observer.enter(ply, index, player.into(), None);
        let p = ply as usize;
        self.pv.clear(p);

        let terminal = game.is_terminal(state);
        if terminal || ply >= self.limit {
            if too_deep(ply, terminal) {
                return self.fail(SearchError::TooDeep);
            }
            let v = self.scoring.leaf(game, state, terminal, ply);
            self.observer.leaf(ply, v, terminal);
            self.observer.exit(ply, v);
            return v;
        }

        if self.moves.len() <= p {
            self.moves.resize_with(p + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[p]);
        moves.clear();
        game.legal_moves(state, &mut moves);

        let mut best = MaxScore::worst_for(player);
        for (i, &mv) in moves.iter().enumerate() {
            let child = game.play(state, mv);
            let v = self.value(&child, ply + 1, Some(i));
            if self.error.is_some() {
                return v;
            }
            if v.better_for(best, player) {
                best = v;
                self.pv.update(p, mv);
            }
            self.observer.child_value(ply, i, v, best, None, None);
        }
        if moves.is_empty() {
            // A game that reports no moves in a non-terminal state: score it
            // as a leaf rather than return an infinity.
            best = self.scoring.leaf(game, state, false, ply);
        }
        self.moves[p] = moves;
        self.observer.exit(ply, best);
        best
    }

    /// Stops the search for `error`.
    #[cold]
    fn fail(&mut self, error: SearchError) -> MaxScore {
        self.error = Some(error);
        MaxScore(0)
    }

    /// [`Minimax::value`] as a `Result`, for the root.
    fn root_value(
        &mut self,
        state: &G::State,
        ply: u32,
        index: Option<usize>,
    ) -> Result<MaxScore, SearchError> {
        let v = self.value(state, ply, index);
        self.error.map_or(Ok(v), Err)
    }
}

/// Plain minimax from `state`, reporting every event to `observer`.
///
/// Visits every node of the game tree (to `options.depth` plies if set):
/// 549,946 nodes on empty tic-tac-toe. A position from which chance can be
/// reached is refused with [`SearchError::Chance`].
pub fn minimax<G: Evaluation + Chance, O: Observer>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    observer: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    refuse_chance(game, state)?;
    let mut search = Minimax {
        game,
        observer,
        limit: options.recursion_limit(),
        scoring: Scoring::new(options, false),
        moves: Vec::new(),
        pv: PvTable::new(),
        nodes: 0,
        error: None,
    };
    match options.tie_break {
        TieBreak::First => {
            let score = search.root_value(state, 0, None)?;
            let pv = search.pv.line(0).to_vec();
            let (value, distance) = search.scoring.report(score);
            Ok(Outcome {
                value,
                best_move: pv.first().copied(),
                pv,
                distance,
                proven: options.depth.is_none(),
            })
        }
        TieBreak::Random(seed) => random_root(&mut search, state, seed),
    }
}

/// The root searched move by move so every tie is known, then a seeded choice.
fn random_root<G: Evaluation + Chance, O: Observer>(
    search: &mut Minimax<'_, G, O>,
    state: &G::State,
    seed: u64,
) -> Result<Outcome<G::Move>, SearchError> {
    let game = search.game;
    let player = game.to_move(state);
    search.observer.enter(0, None, player.into(), None);
    search.pv.clear(0);
    let terminal = game.is_terminal(state);
    if terminal || search.limit == 0 {
        let v = search.scoring.leaf(game, state, terminal, 0);
        search.observer.leaf(0, v, terminal);
        search.observer.exit(0, v);
        let (value, distance) = search.scoring.report(v);
        return Ok(Outcome {
            value,
            best_move: None,
            pv: Vec::new(),
            distance,
            proven: terminal || search.scoring.exact,
        });
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let mut best = MaxScore::worst_for(player);
    let mut ties = RootTies::new();
    for (i, &mv) in moves.iter().enumerate() {
        let child = game.play(state, mv);
        let v = search.root_value(&child, 1, Some(i))?;
        let better = v.better_for(best, player);
        if better {
            best = v;
        }
        if better || v == best {
            search.pv.update(0, mv);
            ties.offer(v, better, search.pv.line(0));
        }
        search.observer.child_value(0, i, v, best, None, None);
    }
    search.observer.exit(0, best);
    let pv = ties.choose(seed).unwrap_or_default();
    let (value, distance) = search.scoring.report(best);
    Ok(Outcome {
        value,
        best_move: pv.first().copied(),
        pv,
        distance,
        proven: search.scoring.exact,
    })
}

#[cfg(test)]
mod tests {
    // The reference is tested against published counts in tests/textbook.rs.
    use super::*;
    use crate::game::Game;
    use crate::score::Player;

    /// A two-level tree ((3 5) (2 9)) as a game: state = node number.
    struct Tiny;
    impl Game for Tiny {
        type State = u8;
        type Move = u8;
        fn initial_state(&self) -> u8 {
            0
        }
        fn to_move(&self, s: &u8) -> Player {
            if *s == 0 { Player::Max } else { Player::Min }
        }
        fn legal_moves(&self, s: &u8, out: &mut Vec<u8>) {
            match s {
                0 => out.extend([1, 2]),
                1 => out.extend([3, 4]),
                2 => out.extend([5, 6]),
                _ => {}
            }
        }
        fn play(&self, _: &u8, m: u8) -> u8 {
            m
        }
        fn is_terminal(&self, s: &u8) -> bool {
            *s >= 3
        }
        fn utility(&self, s: &u8) -> MaxScore {
            MaxScore([3, 5, 2, 9][(*s - 3) as usize])
        }
    }
    crate::no_hooks!(Tiny);

    #[test]
    fn tiny_tree() {
        let mut stats = crate::observe::Stats::default();
        let out = minimax(&Tiny, &0, &SearchOptions::exact(), &mut stats).unwrap();
        assert_eq!(out.value, MaxScore(3));
        assert_eq!(out.pv, vec![1, 3]);
        assert_eq!(stats.nodes, 7);
        assert_eq!(stats.leaves, 4);
    }
}

//! Property tests: on random trees and random m,n,k positions, alpha-beta
//! returns minimax's value and never visits more nodes; depth-limited
//! searches agree too; random tie-breaking only picks best moves.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::prelude::*;
use ply_games::{TicTacToe, Tree};

/// A random tree as text: integer leaves, 1 to 4 children, up to 6 levels.
fn tree_text() -> impl Strategy<Value = String> {
    let leaf = (-20i32..20).prop_map(|v| v.to_string());
    leaf.prop_recursive(6, 200, 4, |inner| {
        prop::collection::vec(inner, 1..5).prop_map(|c| format!("({})", c.join(" ")))
    })
}

fn compare<G: Game>(g: &G, s: &G::State, opts: &SearchOptions) -> Result<(), TestCaseError> {
    let (mut sm, mut sa) = (Stats::default(), Stats::default());
    let m = minimax(g, s, opts, &mut sm);
    let a = alphabeta(g, s, opts, &mut sa);
    prop_assert_eq!(m.value, a.value);
    prop_assert!(
        sa.nodes <= sm.nodes,
        "alpha-beta {} > minimax {}",
        sa.nodes,
        sm.nodes
    );
    prop_assert!(sa.leaves <= sm.leaves);
    // The principal variation is a line of legal moves that leads to a
    // position worth the root value (exact searches only).
    if opts.depth.is_none() {
        let mut st = s.clone();
        for &mv in &a.pv {
            let mut legal = Vec::new();
            g.legal_moves(&st, &mut legal);
            prop_assert!(legal.contains(&mv));
            st = g.play(&st, mv);
        }
        prop_assert!(g.is_terminal(&st));
        prop_assert_eq!(g.utility(&st), a.value);
    }
    Ok(())
}

/// A position of the m,n,k game reached by `plies` random moves.
fn random_position(g: &TicTacToe, seed: u64, plies: usize) -> ply_games::tictactoe::Board {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut s = g.initial_state();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        g.legal_moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        s = g.play(&s, moves[rng.random_range(0..moves.len())]);
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn alphabeta_equals_minimax_on_random_trees(text in tree_text(), min_root in any::<bool>()) {
        let text = if min_root { format!("{text}/min") } else { text };
        let s = Tree.parse_position(&text).unwrap();
        compare(&Tree, &s, &SearchOptions::exact())?;
        for d in 0..4 {
            compare(&Tree, &s, &SearchOptions::depth(d))?;
        }
    }

    #[test]
    fn alphabeta_equals_minimax_on_random_tictactoe(seed in any::<u64>(), plies in 0usize..9) {
        let g = TicTacToe::classic();
        let s = random_position(&g, seed, plies);
        compare(&g, &s, &SearchOptions::exact())?;
        compare(&g, &s, &SearchOptions::depth(2))?;
    }

    #[test]
    fn random_ties_pick_a_best_move(seed in any::<u64>(), plies in 0usize..8, tie in any::<u64>()) {
        let g = TicTacToe::classic();
        let s = random_position(&g, seed, plies);
        prop_assume!(!g.is_terminal(&s));
        let opts = SearchOptions { tie_break: TieBreak::Random(tie), ..SearchOptions::exact() };
        let out = alphabeta(&g, &s, &opts, &mut NoObserver);
        let a = analyze(&g, &s, Algorithm::Minimax, &SearchOptions::exact());
        let best = a.moves[0].value;
        let chosen = a.moves.iter().find(|m| Some(m.mv) == out.best_move).unwrap().value;
        prop_assert_eq!(chosen, best);
        prop_assert_eq!(out.value, best);
    }
}

proptest! {
    // Larger boards are slower to solve exactly: fewer cases, later positions.
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn alphabeta_equals_minimax_on_random_mnk(seed in any::<u64>(), shape in 0usize..4) {
        let (m, n, k, plies) = [(3, 4, 3, 5), (4, 4, 3, 8), (4, 4, 4, 9), (2, 5, 2, 2)][shape];
        let g = TicTacToe::new(m, n, k).unwrap();
        let s = random_position(&g, seed, plies);
        compare(&g, &s, &SearchOptions::exact())?;
        compare(&g, &s, &SearchOptions::depth(3))?;
    }
}

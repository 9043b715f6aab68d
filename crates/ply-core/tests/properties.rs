//! Property tests: on random trees and random m,n,k positions, alpha-beta
//! returns minimax's value and never visits more nodes; depth-limited
//! searches agree too; random tie-breaking only picks best moves.

use proptest::prelude::*;

mod common;

use common::random_position;
use ply_core::prelude::*;
use ply_games::{TicTacToe, Tree};

/// A random tree as text: integer leaves, 1 to 4 children, up to 6 levels.
fn tree_text() -> impl Strategy<Value = String> {
    let leaf = (-20i32..20).prop_map(|v| v.to_string());
    leaf.prop_recursive(6, 200, 4, |inner| {
        prop::collection::vec(inner, 1..5).prop_map(|c| format!("({})", c.join(" ")))
    })
}

fn compare<G: Searchable>(g: &G, s: &G::State, opts: &SearchOptions) -> Result<(), TestCaseError> {
    let (mut sm, mut sa) = (Stats::default(), Stats::default());
    let m = minimax(g, s, opts, &mut sm).unwrap();
    let a = alphabeta(g, s, opts, &mut sa).unwrap();
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
        let out = alphabeta(&g, &s, &opts, &mut NoObserver).unwrap();
        let a = analyze(&g, &s, Algorithm::Minimax, &SearchOptions::exact()).unwrap();
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

/// A random tree with chance nodes: `[p1 c1 p2 c2 ...]` with probabilities
/// from random weights (written to 3 decimals, the last one closing the sum).
fn chance_tree_text() -> impl Strategy<Value = String> {
    let leaf = (-20i32..20).prop_map(|v| v.to_string());
    leaf.prop_recursive(5, 120, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|c| format!("({})", c.join(" "))),
            prop::collection::vec((1u32..10, inner), 1..4).prop_map(|c| {
                let total: u32 = c.iter().map(|(w, _)| w).sum();
                let mut left = 1000u32;
                let mut parts = Vec::new();
                for (i, (w, child)) in c.iter().enumerate() {
                    let p = if i + 1 == c.len() {
                        left
                    } else {
                        w * 1000 / total
                    };
                    left -= p;
                    parts.push(format!("{}.{:03} {child}", p / 1000, p % 1000));
                }
                format!("[{}]", parts.join(" "))
            }),
        ]
    })
}

/// Expectiminimax by its definition, straight from the tree: the oracle.
fn expect_oracle(s: &ply_games::tree::TreeState) -> f64 {
    let g = Tree;
    if g.is_terminal(s) {
        return f64::from(g.utility(s).0);
    }
    let mut moves = Vec::new();
    g.legal_moves(s, &mut moves);
    if g.is_chance(s) {
        let mut outcomes = Vec::new();
        g.chance_outcomes(s, &mut outcomes);
        return outcomes
            .iter()
            .map(|&(m, p)| p * expect_oracle(&g.play(s, m)))
            .sum();
    }
    let values = moves.iter().map(|&m| expect_oracle(&g.play(s, m)));
    match g.to_move(s) {
        Player::Max => values.fold(f64::NEG_INFINITY, f64::max),
        Player::Min => values.fold(f64::INFINITY, f64::min),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn expectiminimax_and_star1_on_random_chance_trees(text in chance_tree_text()) {
        use ply_core::search::expectiminimax;
        let s = Tree.parse_position(&text).unwrap();
        let oracle = expect_oracle(&s);
        let (mut a, mut b) = (Stats::default(), Stats::default());
        let plain = expectiminimax(&Tree, &s, &SearchOptions::exact(), false, &mut a).unwrap();
        let star = expectiminimax(&Tree, &s, &SearchOptions::exact(), true, &mut b).unwrap();
        prop_assert!((plain.value - oracle).abs() < 1e-9, "{} vs {oracle}", plain.value);
        prop_assert!((star.value - oracle).abs() < 1e-9, "star1 {} vs {oracle}", star.value);
        prop_assert!(b.nodes <= a.nodes, "star1 {} > plain {}", b.nodes, a.nodes);
    }

    #[test]
    fn expectiminimax_is_minimax_without_chance(text in tree_text()) {
        use ply_core::search::expectiminimax;
        let s = Tree.parse_position(&text).unwrap();
        let m = minimax(&Tree, &s, &SearchOptions::exact(), &mut NoObserver).unwrap();
        let e = expectiminimax(&Tree, &s, &SearchOptions::exact(), true, &mut NoObserver).unwrap();
        prop_assert_eq!(e.value, f64::from(m.value.0));
    }
}

#[test]
fn star1_prunes_on_chance_trees() {
    use ply_core::observe::path_name;
    use ply_core::search::expectiminimax;
    // Leaves bounded by [0, 10]: after the first outcome (value 1 at p=0.5),
    // the second chance node can reach at most 0.5*1 + 0.5*10 = 5.5 < 6, so
    // its second outcome is pruned.
    let s = Tree.parse_position("((6 7) [0.5 1 0.5 (10 0)])").unwrap();
    let mut t = ply_core::observe::Trace::new();
    let mut st = Stats::default();
    let out = expectiminimax(
        &Tree,
        &s,
        &SearchOptions::exact(),
        true,
        &mut (&mut t, &mut st),
    )
    .unwrap();
    assert_eq!(out.value, 6.0);
    let all: Vec<String> = ply_core::explore::leaf_paths(&Tree, &s, None, usize::MAX)
        .unwrap()
        .iter()
        .map(|p| path_name(p))
        .collect();
    let pruned: Vec<&String> = all.iter().filter(|p| !t.evaluated.contains(p)).collect();
    assert_eq!(pruned, ["2.2.1", "2.2.2"]);
    assert_eq!(st.cutoffs, 1);
}

//! Chess through the generic engine: perft against the published counts,
//! the horizon effect and its remedy (quiescence), mates found with their
//! distance, and alpha-beta equal to minimax at fixed depth on random
//! positions.

use std::path::PathBuf;

use proptest::prelude::*;

mod common;

use common::random_position;
use ply_core::Tuning;
use ply_core::explore::perft;
use ply_core::prelude::*;
use ply_core::search::iterative_deepening;
use ply_games::Chess;

/// The published perft counts (`../shared/data/chess/perft.epd`, copied to
/// testdata): every position and depth up to 10 million leaves.
#[test]
fn perft_matches_the_published_counts() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/chess/perft.epd");
    let text = std::fs::read_to_string(&path).expect("testdata/chess/perft.epd");
    let g = Chess::new();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let s = g.parse_position(fen).unwrap();
        for p in parts {
            let p = p.trim();
            let Some(rest) = p.strip_prefix('D') else {
                continue;
            };
            let (d, n) = rest.split_once(' ').unwrap();
            let (d, n): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
            if n > 10_000_000 {
                continue;
            }
            assert_eq!(perft(&g, &s, d), n, "perft({d}) of {fen}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} counts checked");
}

/// The horizon effect: White's queen can take a pawn on d5 that the e6
/// pawn defends. A one-ply search without quiescence sees the capture but
/// not the recapture beyond its horizon, and takes; with quiescence it
/// follows the exchange to the end and does not.
#[test]
fn quiescence_cures_the_horizon_effect() {
    let g = Chess::new();
    let s = g
        .parse_position("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1")
        .unwrap();
    let qxd5 = g.parse_move(&s, "Qxd5").unwrap();
    let plain = SearchOptions::depth(1);
    let blind = alphabeta(&g, &s, &plain, &mut NoObserver).unwrap();
    assert_eq!(
        blind.best_move,
        Some(qxd5),
        "without quiescence the queen takes"
    );
    assert!(
        blind.value.0 > g.evaluate(&s).0,
        "and it thinks it won a pawn"
    );
    let quiet = SearchOptions {
        quiescence: true,
        ..plain
    };
    let seeing = alphabeta(&g, &s, &quiet, &mut NoObserver).unwrap();
    assert_ne!(seeing.best_move, Some(qxd5), "with quiescence it does not");
    // The exchange it avoided: the queen for a pawn, leaving White a
    // pawn down where it was a queen up.
    let after = g.play(&s, qxd5);
    let line = alphabeta(
        &g,
        &after,
        &SearchOptions {
            depth: Some(0),
            ..quiet
        },
        &mut NoObserver,
    )
    .unwrap();
    assert!(g.evaluate(&s).0 > 600);
    assert!(
        line.value.0 < -50,
        "Qxd5 exd5 loses the queen: {}",
        line.value.0
    );
}

/// Mates come back as decided scores with their distance, through the
/// whole engine (table, null move, reductions, extensions, aspiration).
#[test]
fn mates_with_distance() {
    let g = Chess::new();
    // Depth 8: the pruning near the leaves (futility, reductions) can
    // hide a quiet mate from shallower searches.
    let engine = SearchOptions {
        depth: Some(8),
        ..SearchOptions::engine()
    };
    // Back-rank mate in one; Qg6 (WAC.001) mates in two; the side to move
    // being mated in one.
    for (fen, best, value_sign, distance) in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1, 1),
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "g3g6",
            1,
            3,
        ),
        ("6k1/5ppp/8/8/8/8/r4PPP/r5K1 w - - 0 1", "", -1, 0),
    ] {
        let s = g.parse_position(fen).unwrap();
        let out = iterative_deepening(&g, &s, &engine, None, &mut NoObserver, |_| {}).unwrap();
        assert_eq!(out.value.0.signum(), value_sign, "{fen}");
        assert_eq!(out.value.0.abs(), ply_games::chess::MATE, "{fen}");
        if best.is_empty() {
            // Already mated: no move, distance 0.
            assert_eq!(out.best_move, None);
        } else {
            assert_eq!(g.format_move(&s, out.best_move.unwrap()), best, "{fen}");
        }
        assert_eq!(out.distance, Some(distance), "{fen}");
    }
}

/// Static-exchange pruning (a `Tuning` switch): on a tactical position it
/// visits fewer nodes at the same depth, yet still finds WAC.001's queen
/// sacrifice, which loses its exchange at once (Qg6 stands on a square two
/// pawns guard) but mates: the root's moves are never pruned this way,
/// and deeper the line is searched to its end.
#[test]
fn exchange_pruning_prunes_but_keeps_sacrifices_at_the_root() {
    let g = Chess::new();
    // Chess prunes by default; the same search with it off is the baseline.
    let pruned = SearchOptions {
        depth: Some(6),
        ..SearchOptions::engine()
    };
    const { assert!(<Chess as EngineHooks>::TUNING.see_pruning > 0) };
    let off = Tuning {
        see_pruning: 0,
        ..<Chess as EngineHooks>::TUNING
    };
    let engine = SearchOptions {
        tuning: Some(off),
        ..pruned
    };
    let kiwipete = g
        .parse_position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        .unwrap();
    let nodes = |o: &SearchOptions| {
        let mut stats = Stats::default();
        iterative_deepening(&g, &kiwipete, o, None, &mut stats, |_| {}).unwrap();
        stats.nodes
    };
    let (all, fewer) = (nodes(&engine), nodes(&pruned));
    assert!(fewer < all, "pruned {fewer} nodes, unpruned {all}");
    let wac1 = g
        .parse_position("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1")
        .unwrap();
    let qg6 = g.parse_move(&wac1, "g3g6").unwrap();
    assert!(
        g.exchange(&wac1, qg6).unwrap() < 0,
        "Qg6 loses its exchange"
    );
    let out = iterative_deepening(&g, &wac1, &pruned, None, &mut NoObserver, |_| {}).unwrap();
    assert_eq!(out.best_move, Some(qg6));
    assert_eq!(out.value.0, ply_games::chess::MATE);
}

fn compare(
    g: &Chess,
    s: &<Chess as Game>::State,
    opts: &SearchOptions,
) -> Result<(), TestCaseError> {
    let (mut sm, mut sa) = (Stats::default(), Stats::default());
    let m = minimax(g, s, &SearchOptions::depth(opts.depth.unwrap()), &mut sm).unwrap();
    let a = alphabeta(g, s, opts, &mut sa).unwrap();
    prop_assert_eq!(m.value, a.value, "{:?}", s);
    prop_assert!(
        sa.nodes <= sm.nodes,
        "alpha-beta {} > minimax {}",
        sa.nodes,
        sm.nodes
    );
    Ok(())
}

/// Alpha-beta at depth 3 with ordering, an exact-depth table and
/// principal-variation search: what minimax is compared with below.
fn ordered_depth_3() -> SearchOptions {
    SearchOptions {
        ordering: true,
        tt_mb: 4,
        tt_exact_depth: true,
        pvs: true,
        ..SearchOptions::depth(3)
    }
}

/// Found by the property below once chess pruned losing exchanges by
/// default: the pruning ran in a search with none of the engine's pruning
/// on, and alpha-beta's value there (1203) left minimax's (1200).
#[test]
fn exchange_pruning_stays_out_of_textbook_searches() {
    let g = Chess::new();
    let s = g
        .parse_position("rnbk1bnr/pp3p2/2p4P/1B1p4/3P2P1/P6Q/K1PqNP2/RNB4R w - - 2 19")
        .unwrap();
    for opts in [SearchOptions::depth(3), ordered_depth_3()] {
        compare(&g, &s, &opts).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// At a fixed depth, alpha-beta (textbook, and with ordering, an
    /// exact-depth table and principal-variation search, with either kind
    /// of history, and with continuation history) returns minimax's value
    /// on random chess positions, visiting no more nodes.
    #[test]
    fn alphabeta_equals_minimax_on_random_chess(seed in any::<u64>(), plies in 0usize..60) {
        let g = Chess::new();
        let s = random_position(&g, seed, plies);
        compare(&g, &s, &SearchOptions::depth(2))?;
        compare(&g, &s, &SearchOptions::depth(3))?;
        let engine = ordered_depth_3();
        compare(&g, &s, &engine)?;
        let gravity = Tuning { history_gravity: true, ..Tuning::NONE };
        compare(&g, &s, &SearchOptions { tuning: Some(gravity), ..engine })?;
        let continuation = Tuning { continuation_history: true, ..gravity };
        compare(&g, &s, &SearchOptions { tuning: Some(continuation), ..engine })?;
    }
}

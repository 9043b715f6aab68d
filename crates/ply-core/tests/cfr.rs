//! Counterfactual regret minimisation on Kuhn and Leduc poker, checked
//! against independent figures: OpenSpiel's tree sizes and its solvers'
//! NashConv iteration by iteration, Kuhn's value of -1/18 and its family
//! of equilibria (Kuhn 1950), and best responses found by brute force
//! over every pure strategy, walking the game through its rules.

use std::collections::HashMap;

use ply_core::search::cfr::{Cfr, CfrOptions, GameTree, MAX_CFR_NODES, Variant};
use ply_core::search::{SearchError, SearchOptions};
use ply_core::{Chance, Game, Player};
use ply_games::{Kuhn, Leduc};

fn run<G: Game + Chance>(game: &G, variant: Variant, iterations: u64) -> Cfr<G> {
    let mut cfr = Cfr::new(
        game,
        &CfrOptions {
            variant,
            ..CfrOptions::default()
        },
    )
    .unwrap();
    for _ in 0..iterations {
        cfr.iterate();
    }
    cfr
}

/// The trees have OpenSpiel's sizes (`pyspiel.load_game("kuhn_poker")`
/// walked from its initial state: 58 states, 30 terminal, 12 information
/// states; `leduc_poker`: 9,457, 5,520 and 936).
#[test]
fn trees_have_openspiels_sizes() {
    let t = GameTree::build(&Kuhn, &Kuhn.initial_state(), MAX_CFR_NODES).unwrap();
    assert_eq!(
        (t.node_count(), t.terminal_count(), t.infosets().len()),
        (58, 30, 12)
    );
    let t = GameTree::build(&Leduc, &Leduc.initial_state(), MAX_CFR_NODES).unwrap();
    assert_eq!(
        (t.node_count(), t.terminal_count(), t.infosets().len()),
        (9457, 5520, 936)
    );
}

/// NashConv of the average strategy after iterations 1, 2, 3, 5, 10, 50,
/// 100, 200 and 1,000 of OpenSpiel 2.0.2's C++ solvers on `leduc_poker`
/// (`pyspiel.CFRSolver`, `pyspiel.CFRPlusSolver`, `pyspiel.nash_conv`;
/// the script is `scripts/cfr_vs_openspiel.py --pin`). Both use
/// alternating updates and form the reach products in the same order, so
/// the strategies are the same to the last bit: the two NashConv
/// computations differ only in their own rounding (1e-16).
const OPENSPIEL_LEDUC: [(Variant, [f64; 9]); 2] = [
    (
        Variant::Vanilla,
        [
            4.747222222222222,
            4.122638888888889,
            3.59761317382768,
            2.9426491193731366,
            1.777157966337538,
            0.3781669319099128,
            0.19143270600919524,
            0.10767664780563926,
            0.023635620519572575,
        ],
    ),
    (
        Variant::Plus,
        [
            4.747222222222222,
            4.115833333333334,
            3.587088164760741,
            2.74246474085599,
            1.2208778031808132,
            0.06824291298909863,
            0.02683198994179567,
            0.009926259100986573,
            0.0005143032323129126,
        ],
    ),
];

const CHECKPOINTS: [u64; 9] = [1, 2, 3, 5, 10, 50, 100, 200, 1000];

#[test]
fn leduc_matches_openspiel_iteration_by_iteration() {
    for (variant, expected) in OPENSPIEL_LEDUC {
        let mut cfr = run(&Leduc, variant, 0);
        let mut got = Vec::new();
        for i in 1..=1000 {
            cfr.iterate();
            if CHECKPOINTS.contains(&i) {
                let p = cfr.average_strategy();
                got.push(cfr.tree().exploitability(&p).nash_conv);
            }
        }
        for (g, e) in got.iter().zip(expected) {
            assert!((g - e).abs() < 1e-12 * e, "{variant:?}: {got:?}");
        }
    }
}

/// Kuhn's first player loses 1/18 a hand at every equilibrium; 10,000
/// iterations of CFR+ come within 1e-3 of it, exploitable by less than
/// 1e-3 (NashConv, the larger measure), and so do linear and discounted
/// CFR. Vanilla CFR converges more slowly; external sampling samples.
#[test]
fn kuhn_converges_to_minus_one_eighteenth() {
    for (variant, iterations, bound) in [
        (Variant::Plus, 10_000, 1e-3),
        (Variant::Linear, 10_000, 1e-3),
        (Variant::Discounted, 10_000, 1e-3),
        (Variant::Vanilla, 10_000, 1e-3),
        (Variant::ExternalSampling, 100_000, 2e-2),
    ] {
        let cfr = run(&Kuhn, variant, iterations);
        let e = cfr.tree().exploitability(&cfr.average_strategy());
        assert!((e.value + 1.0 / 18.0).abs() < bound, "{variant:?}: {e:?}");
        assert!(e.nash_conv < bound, "{variant:?}: {e:?}");
    }
}

/// The average strategy's probability of each move, by set name and move
/// index (0: pass, 1: bet).
fn strategy<G: Game>(cfr: &Cfr<G>) -> HashMap<String, Vec<f64>> {
    let p = cfr.average_strategy();
    cfr.tree()
        .infosets()
        .iter()
        .map(|s| {
            (
                s.name.clone(),
                p[s.offset..s.offset + s.moves.len()].to_vec(),
            )
        })
        .collect()
}

/// The first player's equilibria of Kuhn poker form one family (Kuhn
/// 1950): bet the jack with some α ≤ 1/3, never the queen, the king with
/// 3α; after pass-bet, fold the jack, call with the queen α + 1/3 of the
/// time, always with the king. The second player's is unique: bet the
/// king after a pass and call with it, check the queen and call a bet
/// 1/3 of the time, bet the jack after a pass 1/3 of the time and fold it.
#[test]
fn kuhn_strategy_lies_in_the_equilibrium_family() {
    let cfr = run(&Kuhn, Variant::Plus, 10_000);
    let s = strategy(&cfr);
    let bet = |name: &str| s[name][1];
    let alpha = bet("J:");
    let close = |name: &str, want: f64| {
        assert!(
            (bet(name) - want).abs() < 0.01,
            "{name}: {} against {want} (α {alpha})",
            bet(name)
        );
    };
    assert!(alpha <= 1.0 / 3.0 + 0.01, "α {alpha}");
    close("Q:", 0.0);
    close("K:", 3.0 * alpha);
    close("J:pb", 0.0);
    close("Q:pb", alpha + 1.0 / 3.0);
    close("K:pb", 1.0);
    close("K:p", 1.0);
    close("K:b", 1.0);
    close("Q:p", 0.0);
    close("Q:b", 1.0 / 3.0);
    close("J:p", 1.0 / 3.0);
    close("J:b", 0.0);
}

/// The value to `player` of playing `pure` (a move index per set of
/// theirs) against `other` (move probabilities per set of the other's),
/// by walking the game through its rules: no tree, no CFR code.
fn pure_value<G: Game + Chance>(
    game: &G,
    state: &G::State,
    player: Player,
    pure: &HashMap<String, usize>,
    other: &HashMap<String, Vec<f64>>,
) -> f64 {
    if game.is_terminal(state) {
        return player.view(f64::from(game.utility(state).0));
    }
    if game.is_chance(state) {
        let mut outcomes = Vec::new();
        game.chance_outcomes(state, &mut outcomes);
        return outcomes
            .iter()
            .map(|&(m, p)| p * pure_value(game, &game.play(state, m), player, pure, other))
            .sum();
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let name = game.information_set(state);
    if game.to_move(state) == player {
        let m = moves[pure[&name]];
        return pure_value(game, &game.play(state, m), player, pure, other);
    }
    moves
        .iter()
        .zip(&other[&name])
        .map(|(&m, &p)| p * pure_value(game, &game.play(state, m), player, pure, other))
        .sum()
}

/// The best response is the best of every pure strategy: for each
/// player of Kuhn poker, against CFR's average strategy after a few
/// iterations (far from equilibrium) and against the uniform one, the
/// 2^6 pure strategies are each played through the game's rules and the
/// best one's value is the best response's.
#[test]
fn best_response_is_the_best_pure_strategy() {
    for iterations in [0, 3, 30] {
        let cfr = run(&Kuhn, Variant::Vanilla, iterations);
        let profile = cfr.average_strategy();
        let strategy = strategy(&cfr);
        for player in [Player::Max, Player::Min] {
            let mine: Vec<String> = cfr
                .tree()
                .infosets()
                .iter()
                .filter(|s| s.player == player)
                .map(|s| s.name.clone())
                .collect();
            assert_eq!(mine.len(), 6);
            let best = (0..1u32 << mine.len())
                .map(|bits| {
                    let pure = mine
                        .iter()
                        .enumerate()
                        .map(|(i, n)| (n.clone(), ((bits >> i) & 1) as usize))
                        .collect();
                    pure_value(&Kuhn, &Kuhn.initial_state(), player, &pure, &strategy)
                })
                .fold(f64::NEG_INFINITY, f64::max);
            let (value, response) = cfr.tree().best_response(&profile, player);
            assert!(
                (value - best).abs() < 1e-12,
                "{player:?} after {iterations}: {value} against {best}"
            );
            // The response is a profile: one move on each of the player's sets.
            for set in cfr.tree().infosets().iter().filter(|s| s.player == player) {
                let chosen = &response[set.offset..set.offset + set.moves.len()];
                assert_eq!(chosen.iter().sum::<f64>(), 1.0, "{}", set.name);
            }
        }
    }
}

/// Leduc: CFR+ is exploitable by less than 0.01 after 1,000 iterations
/// (NashConv, OpenSpiel's exploitability is half of it), and falling;
/// its value is Leduc's, about -0.0856 for the first player (the value
/// of OpenSpiel's CFR+ average after 1,000 iterations, within the
/// exploitability of both).
#[test]
fn leduc_cfr_plus_converges() {
    let mut cfr = run(&Leduc, Variant::Plus, 500);
    let half = cfr.tree().exploitability(&cfr.average_strategy());
    for _ in 0..500 {
        cfr.iterate();
    }
    let e = cfr.tree().exploitability(&cfr.average_strategy());
    assert!(e.nash_conv < 0.01, "{e:?}");
    assert!(e.nash_conv < half.nash_conv, "{half:?} then {e:?}");
    assert!((e.value - -0.08560).abs() < e.nash_conv, "{e:?}");
}

/// External sampling converges on Leduc too, seeded: the same seed
/// gives the same strategy, another seed another.
#[test]
fn external_sampling_converges_and_is_seeded() {
    let run_seed = |seed| {
        let mut cfr = Cfr::new(
            &Leduc,
            &CfrOptions {
                variant: Variant::ExternalSampling,
                seed,
                ..CfrOptions::default()
            },
        )
        .unwrap();
        for _ in 0..20_000 {
            cfr.iterate();
        }
        cfr
    };
    let (a, b, c) = (run_seed(1), run_seed(1), run_seed(2));
    assert_eq!(a.average_strategy(), b.average_strategy());
    assert_ne!(a.average_strategy(), c.average_strategy());
    let uniform = a.tree().exploitability(&a.tree().uniform()).nash_conv;
    let e = a.tree().exploitability(&a.average_strategy()).nash_conv;
    assert!(e < uniform / 10.0, "{e} against uniform's {uniform}");
}

/// The searches that read whole positions refuse a game with hidden
/// cards, even from a position where no card is left to deal.
#[test]
fn perfect_information_searches_refuse_poker() {
    let s = Kuhn.initial_state();
    let after_deal = [0, 1].iter().fold(s, |s, &i| {
        let mut moves = Vec::new();
        Kuhn.legal_moves(&s, &mut moves);
        Kuhn.play(&s, moves[i])
    });
    let o = SearchOptions::default();
    let err = ply_core::search::solve(
        &Kuhn,
        &after_deal,
        ply_core::search::Algorithm::AlphaBeta,
        &o,
    )
    .unwrap_err();
    assert_eq!(err, SearchError::Hidden);
    let err = ply_core::search::expectiminimax(
        &Kuhn,
        &after_deal,
        &o,
        false,
        &mut ply_core::observe::NoObserver,
    )
    .unwrap_err();
    assert_eq!(err, SearchError::Hidden);
    assert!(err.to_string().contains("cfr+"));
}

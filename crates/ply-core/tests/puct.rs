//! PUCT checked against independent oracles: the selection formula
//! replayed by hand, an evaluator that knows the exact values (from plain
//! alpha-beta) playing tic-tac-toe perfectly, the rollout evaluator
//! finding the lesson's move as MCTS does, and the seeded noise.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::search::puct::{
    Estimate, Evaluator, Leaf, Noise, Puct, PuctOptions, Rollout, choose, dirichlet,
};
use ply_core::search::{Algorithm, SearchOptions, analyze};
use ply_core::{Game, Notation};
use ply_games::{Connect4, TicTacToe};

/// Priors fixed by move index (`weights[i]` for the i-th legal move,
/// normalised), every value 0: the search is then the formula alone.
struct Fixed(Vec<f32>);

impl<G: Game> Evaluator<G> for Fixed {
    fn evaluate(&mut self, _: &G, leaves: &[Leaf<'_, G>]) -> Vec<Estimate> {
        leaves
            .iter()
            .map(|l| Estimate {
                priors: (0..l.moves.len())
                    .map(|i| self.0[i % self.0.len()])
                    .collect(),
                value: 0.0,
            })
            .collect()
    }
}

/// At the root, with every value 0, the children's visits are those of
/// argmax c·P·√max(N, 1)/(1 + n), replayed here by hand (ties to the
/// first), for Connect Four's seven columns and 40 simulations.
#[test]
fn selection_follows_the_formula() {
    let game = Connect4::standard();
    let weights = vec![1.0, 2.0, 3.0, 7.0, 3.0, 2.0, 1.0];
    let options = PuctOptions {
        simulations: 40,
        c: 1.5,
        ..PuctOptions::default()
    };
    let mut tree = Puct::new(&game, &game.initial_state(), options);
    let r = tree.run(&game, &mut Fixed(weights.clone()));
    let total: f64 = weights.iter().map(|&w| f64::from(w)).sum();
    let p: Vec<f64> = weights.iter().map(|&w| f64::from(w) / total).collect();
    let mut n = [0u32; 7];
    for _ in 0..40 {
        let parent: u32 = n.iter().sum();
        let score =
            |i: usize| 1.5 * p[i] * f64::from(parent.max(1)).sqrt() / (1.0 + f64::from(n[i]));
        let best = (0..7).fold(0, |b, i| if score(i) > score(b) { i } else { b });
        n[best] += 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&game.initial_state(), &mut moves);
    for (i, &mv) in moves.iter().enumerate() {
        let got = r.moves.iter().find(|m| m.mv == mv).unwrap();
        assert_eq!(got.visits, n[i], "column {}: {:?}", i + 1, r.moves);
        assert_eq!(got.q, 0.0);
    }
    assert_eq!(r.simulations, 40);
    // The root and one position per simulation were evaluated.
    assert_eq!(r.evaluations, 41);
}

/// Uniform priors and the exact value of every position (plain alpha-beta
/// to the end, from the mover's view): an oracle.
struct Exact;

impl Evaluator<TicTacToe> for Exact {
    fn evaluate(&mut self, game: &TicTacToe, leaves: &[Leaf<'_, TicTacToe>]) -> Vec<Estimate> {
        leaves
            .iter()
            .map(|l| {
                let out = ply_core::search::solve(
                    game,
                    l.state,
                    Algorithm::AlphaBeta,
                    &SearchOptions::default(),
                )
                .unwrap();
                let v = game
                    .to_move(l.state)
                    .view(f64::from(out.outcome.value.0.signum()));
                Estimate {
                    priors: vec![1.0 / l.moves.len() as f32; l.moves.len()],
                    value: v as f32,
                }
            })
            .collect()
    }
}

/// The positions two plies from the empty board, and the lesson's.
fn positions() -> Vec<<TicTacToe as Game>::State> {
    let game = TicTacToe::classic();
    let mut out = vec![game.parse_position(".OX..X..O").unwrap()];
    let mut moves = Vec::new();
    game.legal_moves(&game.initial_state(), &mut moves);
    for &a in &moves {
        let s = game.play(&game.initial_state(), a);
        let mut replies = Vec::new();
        game.legal_moves(&s, &mut replies);
        out.extend(replies.iter().map(|&b| game.play(&s, b)));
    }
    out
}

/// With the exact values, 100 simulations choose an optimal move (one
/// whose value, by plain alpha-beta, is the position's) in every
/// position; the same in batches of 8 by virtual loss.
#[test]
fn an_exact_evaluator_plays_perfectly() {
    let game = TicTacToe::classic();
    for batch in [1, 8] {
        for s in positions() {
            let a = analyze(&game, &s, Algorithm::AlphaBeta, &SearchOptions::default()).unwrap();
            let options = PuctOptions {
                simulations: 100,
                batch,
                ..PuctOptions::default()
            };
            let r = Puct::new(&game, &s, options).run(&game, &mut Exact);
            let best = r.best_move.unwrap();
            let chosen = a.moves.iter().find(|m| m.mv == best).unwrap();
            // The first of analyze's moves is a best one: its value is the position's.
            assert_eq!(
                chosen.value,
                a.moves[0].value,
                "{} (batch {batch}): {:?}",
                game.format_position(&s),
                r.moves
            );
            assert_eq!(r.simulations, 100);
            assert!(r.evaluations <= 101);
        }
    }
}

/// Uniform priors and random playouts make PUCT a plain MCTS: on the
/// lesson's position it finds the centre, as UCT does.
#[test]
fn the_rollout_evaluator_finds_the_lessons_move() {
    let game = TicTacToe::classic();
    let s = game.parse_position(".OX..X..O").unwrap();
    let options = PuctOptions {
        simulations: 2000,
        ..PuctOptions::default()
    };
    let r = Puct::new(&game, &s, options).run(&game, &mut Rollout::new(1));
    assert_eq!(
        game.format_move(&s, r.best_move.unwrap()),
        "4",
        "{:?}",
        r.moves
    );
    assert!(r.value > 0.5, "{}", r.value);
}

/// No simulation: the prior's favourite and the evaluator's own value.
#[test]
fn no_simulations_answer_with_the_evaluator() {
    struct Leaning;
    impl Evaluator<TicTacToe> for Leaning {
        fn evaluate(&mut self, _: &TicTacToe, leaves: &[Leaf<'_, TicTacToe>]) -> Vec<Estimate> {
            leaves
                .iter()
                .map(|l| Estimate {
                    priors: (0..l.moves.len())
                        .map(|i| if i == 2 { 5.0 } else { 1.0 })
                        .collect(),
                    value: 0.25,
                })
                .collect()
        }
    }
    let game = TicTacToe::classic();
    let s = game.initial_state();
    let options = PuctOptions {
        simulations: 0,
        ..PuctOptions::default()
    };
    let r = Puct::new(&game, &s, options).run(&game, &mut Leaning);
    assert_eq!(game.format_move(&s, r.best_move.unwrap()), "2");
    assert_eq!((r.value, r.simulations, r.evaluations), (0.25, 0, 1));
}

/// Dirichlet noise is a distribution, the same for the same seed; mixed
/// in at the root it moves the priors; a temperature of 0 plays the most
/// visited move.
#[test]
fn noise_and_temperature() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for alpha in [0.03, 0.3, 1.0, 2.5] {
        let d = dirichlet(&mut rng, alpha, 9);
        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12 && d.iter().all(|&x| x >= 0.0));
    }
    let a = dirichlet(&mut Xoshiro256PlusPlus::seed_from_u64(3), 0.3, 7);
    assert_eq!(
        a,
        dirichlet(&mut Xoshiro256PlusPlus::seed_from_u64(3), 0.3, 7)
    );
    let game = TicTacToe::classic();
    let noisy = PuctOptions {
        simulations: 1,
        noise: Some(Noise {
            alpha: 0.3,
            fraction: 0.25,
        }),
        ..PuctOptions::default()
    };
    let r = Puct::new(&game, &game.initial_state(), noisy).run(&game, &mut Fixed(vec![1.0]));
    let priors: Vec<f32> = r.moves.iter().map(|m| m.prior).collect();
    assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    assert!(
        priors.iter().any(|&p| (p - 1.0 / 9.0).abs() > 1e-3),
        "{priors:?}"
    );
    let r = Puct::new(
        &game,
        &game.initial_state(),
        PuctOptions {
            simulations: 200,
            ..PuctOptions::default()
        },
    )
    .run(&game, &mut Rollout::new(2));
    assert_eq!(choose(&r.moves, 0.0, &mut rng), Some(r.moves[0].mv));
    let drawn: Vec<_> = (0..50)
        .filter_map(|_| choose(&r.moves, 1.0, &mut rng))
        .collect();
    assert!(
        drawn.iter().any(|&m| m != r.moves[0].mv),
        "temperature 1 plays other moves too"
    );
}

/// Kept between moves: after the move and the reply, the new root is the
/// old grandchild, with its visits.
#[test]
fn reroot_keeps_the_subtree() {
    let game = TicTacToe::classic();
    let s = game.initial_state();
    let mut tree = Puct::new(
        &game,
        &s,
        PuctOptions {
            simulations: 500,
            ..PuctOptions::default()
        },
    );
    let r = tree.run(&game, &mut Rollout::new(3));
    let first = r.moves[0].clone();
    let after = game.play(&s, first.mv);
    let before = tree.size();
    assert!(tree.reroot(&game, &after));
    assert!(tree.size() < before);
    let again = tree.run(&game, &mut Rollout::new(3));
    let visits: u32 = again.moves.iter().map(|m| m.visits).sum();
    // The kept visits (the child's, less its own expansion) plus 500 more.
    assert_eq!(visits, first.visits - 1 + 500);
    assert!(!tree.reroot(&game, &game.parse_position("XXXOO....").unwrap()));
}

/// Priors fixed by move index, as [`Fixed`], and every position worth
/// `0.5` to its player to move: Q then differs from 0 where visited.
struct Hopeful(Vec<f32>);

impl<G: Game> Evaluator<G> for Hopeful {
    fn evaluate(&mut self, game: &G, leaves: &[Leaf<'_, G>]) -> Vec<Estimate> {
        let mut e = Fixed(self.0.clone()).evaluate(game, leaves);
        for x in &mut e {
            x.value = 0.5;
        }
        e
    }
}

/// The first two traced simulations on Connect Four, worked by hand:
/// with N = 0 the highest prior (column 4) is followed and its leaf gets
/// the evaluator's priors and value (0.5 for Yellow, -0.5 for MAX); then
/// column 4's Q is -0.5 and its U halves, and column 3 (the first of the
/// two next-highest priors) is followed.
#[test]
fn a_traced_simulation_tells_the_formula() {
    let game = Connect4::standard();
    let weights = vec![1.0, 2.0, 3.0, 7.0, 3.0, 2.0, 1.0];
    let p: Vec<f32> = weights.iter().map(|w| w / 19.0).collect();
    let mut tree = Puct::new(&game, &game.initial_state(), PuctOptions::default());
    let mut eval = Hopeful(weights.clone());
    let first = tree.simulate_traced(&game, &mut eval);
    let mut moves = Vec::new();
    game.legal_moves(&game.initial_state(), &mut moves);
    assert_eq!(first.selection.len(), 1);
    let step = &first.selection[0];
    assert_eq!(step.mover, Some(ply_core::Player::Max));
    assert_eq!(step.parent_visits, 0);
    assert_eq!(step.chosen, moves[3]);
    for (i, ch) in step.children.iter().enumerate() {
        assert_eq!((ch.mv, ch.visits, ch.q), (moves[i], 0, 0.0));
        assert!((ch.prior - p[i]).abs() < 1e-6);
        assert!((ch.u - 1.5 * f64::from(p[i])).abs() < 1e-6, "{ch:?}");
    }
    assert!(!first.over);
    assert_eq!((first.value, first.for_max), (0.5, -0.5));
    let priors: Vec<f32> = first.priors.iter().map(|&(_, q)| q).collect();
    assert!(priors.iter().zip(&p).all(|(a, b)| (a - b).abs() < 1e-6));

    let second = tree.simulate_traced(&game, &mut eval);
    let step = &second.selection[0];
    assert_eq!(step.parent_visits, 1);
    let four = &step.children[3];
    assert_eq!((four.visits, four.q), (1, -0.5));
    assert!((four.u - 1.5 * f64::from(p[3]) / 2.0).abs() < 1e-6);
    assert_eq!(step.chosen, moves[2]);

    // The tree: column 4 and column 3 visited once each, 4 first (its
    // prior is higher), both expanded; the others not.
    let view = tree.tree_view(1);
    assert_eq!(view.visits, 2);
    let top: Vec<_> = view.children.iter().map(|c| (c.mv, c.visits)).collect();
    assert_eq!(&top[..2], &[(Some(moves[3]), 1), (Some(moves[2]), 1)]);
    assert_eq!(view.children[0].q, -0.5);
    assert!(view.children[0].expanded && !view.children[2].expanded);
    assert!(
        view.children
            .iter()
            .all(|c| c.mover == Some(ply_core::Player::Max))
    );
}

/// Simulations traced one by one grow the same tree as [`Puct::run`]
/// with a batch of 1, and each step follows the child its own terms
/// rank first: U = c·P·√max(N, 1)/(1 + n) recomputed, N the children's
/// visits.
#[test]
fn traced_simulations_are_the_searchs() {
    let game = TicTacToe::classic();
    for s in positions().into_iter().take(12) {
        let options = PuctOptions {
            simulations: 60,
            ..PuctOptions::default()
        };
        let mut traced = Puct::new(&game, &s, options);
        for _ in 0..60 {
            let t = traced.simulate_traced(&game, &mut Exact);
            for step in &t.selection {
                let n: u32 = step.children.iter().map(|c| c.visits).sum();
                assert_eq!(n, step.parent_visits);
                let root_n = f64::from(n.max(1)).sqrt();
                let mut best = 0;
                for (i, c) in step.children.iter().enumerate() {
                    let u = 1.5 * f64::from(c.prior) * root_n / (1.0 + f64::from(c.visits));
                    assert!((c.u - u).abs() < 1e-9);
                    if c.q + c.u > step.children[best].q + step.children[best].u {
                        best = i;
                    }
                }
                assert_eq!(step.children[best].mv, step.chosen);
            }
            assert_eq!(t.over, t.priors.is_empty());
        }
        traced.set_simulations(0);
        let a = traced.run(&game, &mut Exact);
        let b = Puct::new(&game, &s, options).run(&game, &mut Exact);
        assert_eq!(a.moves, b.moves, "{}", game.format_position(&s));
        assert_eq!(a.value, b.value);
    }
}

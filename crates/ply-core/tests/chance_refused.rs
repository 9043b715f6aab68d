//! Minimax, alpha-beta, iterative deepening and the score search have no
//! rule for nature's moves: on a position that reaches a chance node they
//! return `SearchError::Chance` instead of treating a die as a player.
//! Expectiminimax, made for chance, still searches it.

use ply_core::observe::Stats;
use ply_core::prelude::*;
use ply_core::search::alphabeta::Budget;
use ply_core::search::{SearchError, expectiminimax, score_search};
use ply_games::{Pig, Tree};

/// Pig from 35-20 with a turn total of 12: rolling is a chance node.
fn pig_position() -> (Pig, <Pig as Game>::State) {
    let pig = Pig::new(100).unwrap();
    let s = pig.parse_position("35-20+12").unwrap();
    (pig, s)
}

#[test]
fn every_deterministic_search_refuses_pig() {
    let (pig, s) = pig_position();
    let exact = SearchOptions::exact();
    let engine = SearchOptions {
        depth: Some(4),
        ..SearchOptions::engine()
    };
    assert_eq!(
        minimax(&pig, &s, &exact, &mut Stats::default()),
        Err(SearchError::Chance)
    );
    assert_eq!(
        alphabeta(&pig, &s, &exact, &mut Stats::default()),
        Err(SearchError::Chance)
    );
    assert_eq!(best_move(&pig, &s, &exact), Err(SearchError::Chance));
    assert_eq!(
        iterative_deepening(&pig, &s, &engine, None, &mut Stats::default(), |_| {}),
        Err(SearchError::Chance)
    );
    for algorithm in Algorithm::ALL {
        assert_eq!(
            solve(&pig, &s, algorithm, &exact).map(|r| r.outcome),
            Err(SearchError::Chance),
            "{}",
            algorithm.name()
        );
        assert!(analyze(&pig, &s, algorithm, &exact).is_err());
    }
    let mut e = Engine::new(&pig, &SearchOptions::engine());
    let r = score_search(
        &mut e,
        &pig,
        &s,
        false,
        &Budget::default(),
        &mut Stats::default(),
        &mut |_, _| {},
    );
    assert_eq!(r, Err(SearchError::Chance));
}

/// The check before a search looks only so far; the searches check every
/// node they visit besides. `Engine::search` has no check before it, so
/// this is the node check alone: it stops at the first chance node, and the
/// observer saw the search go no further than the root and one child.
#[test]
fn the_node_check_stops_at_the_first_chance_node() {
    let (pig, s) = pig_position();
    let mut stats = Stats::default();
    let mut e = Engine::new(&pig, &SearchOptions::exact());
    let r = e.search(&pig, &s, None, false, &Budget::default(), &mut stats);
    assert_eq!(r.err(), Some(SearchError::Chance));
    assert_eq!(
        stats.nodes, 2,
        "the root (a decision) and the roll (chance)"
    );
}

/// An explicit tree with a chance node deep inside is refused as a whole,
/// while expectiminimax gives its value: 0.5 * 3 + 0.5 * 2 = 2.5 at the
/// left MIN node's first child, the MAX root takes the better of 2.5 and 1.
#[test]
fn a_tree_with_a_chance_node_is_refused_but_expectiminimax_searches_it() {
    let tree = Tree;
    let s = tree.parse_position("(([0.5 3 0.5 2] 4) (1 6))").unwrap();
    assert_eq!(
        alphabeta(&tree, &s, &SearchOptions::exact(), &mut Stats::default()),
        Err(SearchError::Chance)
    );
    let out = expectiminimax(
        &tree,
        &s,
        &SearchOptions::exact(),
        false,
        &mut Stats::default(),
    )
    .unwrap();
    assert_eq!(out.value, 2.5);
    // Without the chance node, alpha-beta searches the same shape.
    let plain = tree.parse_position("((3 4) (1 6))").unwrap();
    let r = alphabeta(
        &tree,
        &plain,
        &SearchOptions::exact(),
        &mut Stats::default(),
    );
    assert_eq!(r.map(|o| o.value), Ok(MaxScore(3)));
}

/// The error reads as advice.
#[test]
fn the_error_says_what_to_use_instead() {
    let text = SearchError::Chance.to_string();
    assert!(text.contains("expectiminimax"), "{text}");
}

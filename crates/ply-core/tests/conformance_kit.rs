//! The conformance kit catches every kind of broken promise: a game whose
//! rules are right but one capability lies is rejected, with a message
//! naming the promise. `Race<B>` is take-1-or-2 (taking the last counter
//! wins) with hook number `B` broken; `Race<0>` keeps every promise.

use ply_core::conformance::{Config, check};
use ply_core::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pile {
    n: u8,
    max_to_move: bool,
}

const FORCED_LOSES_WINS: u8 = 1;
const FALSE_IMMEDIATE_WIN: u8 = 2;
const WRONG_BOUNDS: u8 = 3;
const BAD_PROBABILITIES: u8 = 4;
const ILLEGAL_NOISY: u8 = 5;
const HISTORY_OUT_OF_RANGE: u8 = 6;
const ORDER_CHANGES_MOVES: u8 = 7;
const FALSE_PREVENT_WINS: u8 = 8;
const WRONG_FORCED_VALUE: u8 = 9;
const NULL_MOVE_KEEPS_TURN: u8 = 10;
const UNDECLARED_CHANCE: u8 = 11;
const MISERE_CALLED_IMPARTIAL: u8 = 12;
const WRONG_COMPONENTS: u8 = 13;
const CONTINUATION_OUT_OF_RANGE: u8 = 14;
const ONE_INFORMATION_SET: u8 = 15;
const SHARED_POLICY_INDEX: u8 = 16;
const SYMMETRY_MOVES_THE_MOVE: u8 = 17;

struct Race<const B: u8>;

impl<const B: u8> Game for Race<B> {
    type State = Pile;
    type Move = u8;
    fn initial_state(&self) -> Pile {
        Pile {
            n: 9,
            max_to_move: true,
        }
    }
    fn to_move(&self, s: &Pile) -> Player {
        if s.max_to_move {
            Player::Max
        } else {
            Player::Min
        }
    }
    fn legal_moves(&self, s: &Pile, moves: &mut Vec<u8>) {
        moves.extend((1..=2).filter(|&k| k <= s.n));
    }
    fn play(&self, s: &Pile, k: u8) -> Pile {
        Pile {
            n: s.n - k,
            max_to_move: !s.max_to_move,
        }
    }
    fn is_terminal(&self, s: &Pile) -> bool {
        s.n == 0
    }
    fn utility(&self, s: &Pile) -> MaxScore {
        // The player to move at 0 did not take the last counter (in the
        // broken version, the one who took it loses: misère play).
        let v = if s.max_to_move { -1 } else { 1 };
        MaxScore(if B == MISERE_CALLED_IMPARTIAL { -v } else { v })
    }
}

impl<const B: u8> Evaluation for Race<B> {
    fn order_moves(&self, _: &Pile, moves: &mut [u8]) {
        if B == ORDER_CHANGES_MOVES && moves.len() == 2 {
            moves[1] = moves[0];
        }
    }
}

impl<const B: u8> Shortcuts for Race<B> {
    const FORCED_MOVES_PREVENT_WINS: bool = B == FALSE_PREVENT_WINS;

    fn immediate_win(&self, s: &Pile) -> Option<(u8, MaxScore)> {
        if B == MISERE_CALLED_IMPARTIAL {
            return None;
        }
        let win = MaxScore(if s.max_to_move { 1 } else { -1 });
        match s.n {
            1 | 2 => Some((s.n, win)),
            3 if B == FALSE_IMMEDIATE_WIN => Some((1, win)),
            _ => None,
        }
    }
    fn forced_moves(&self, s: &Pile, moves: &mut Vec<u8>) -> Option<MaxScore> {
        if B == WRONG_FORCED_VALUE && s.n == 3 {
            // Every move loses at 3, but not for the side this claims.
            return Some(MaxScore(if s.max_to_move { 1 } else { -1 }));
        }
        if B == FORCED_LOSES_WINS && s.n > 2 {
            // Keeps only "take 1", which is the losing move at 4, 7, ...
            moves.push(1);
            return None;
        }
        self.legal_moves(s, moves);
        None
    }
    fn exact_bounds(&self, _: &Pile) -> Option<(MaxScore, MaxScore)> {
        (B == WRONG_BOUNDS).then_some((MaxScore(1), MaxScore(1)))
    }
}

impl<const B: u8> EngineHooks for Race<B> {
    fn history_slots(&self) -> usize {
        2
    }
    fn history_slot(&self, _: &Pile, k: u8) -> Option<usize> {
        Some(if B == HISTORY_OUT_OF_RANGE {
            k as usize + 1
        } else {
            k as usize - 1
        })
    }
    fn continuation_slots(&self) -> usize {
        2
    }
    fn continuation_slot(&self, _: &Pile, k: u8) -> Option<usize> {
        Some(if B == CONTINUATION_OUT_OF_RANGE {
            k as usize * 2
        } else {
            k as usize - 1
        })
    }

    fn noisy_moves(&self, s: &Pile, moves: &mut Vec<u8>) -> bool {
        if B == ILLEGAL_NOISY && s.n == 1 {
            moves.push(2);
        }
        true
    }
    fn null_move(&self, s: &Pile) -> Option<Pile> {
        let keep = B == NULL_MOVE_KEEPS_TURN;
        Some(Pile {
            n: s.n,
            max_to_move: s.max_to_move == keep,
        })
    }
}

impl<const B: u8> Chance for Race<B> {
    const HAS_CHANCE: bool = B == BAD_PROBABILITIES;
    fn is_chance(&self, s: &Pile) -> bool {
        (B == BAD_PROBABILITIES || B == UNDECLARED_CHANCE) && s.n == 5
    }
    fn chance_outcomes(&self, s: &Pile, outcomes: &mut Vec<(u8, f64)>) {
        if self.is_chance(s) {
            outcomes.extend([(1, 0.5), (2, 0.6)]);
        }
    }
    const HIDDEN: bool = B == ONE_INFORMATION_SET;
    fn information_set(&self, _: &Pile) -> String {
        // One set for every state: the players and the moves differ in it.
        "everything".into()
    }
}

impl<const B: u8> Playouts for Race<B> {}

/// One plane with the count marked; a move's index is the counters taken
/// less one. The second symmetry is the identity again (the pile has no
/// other), except where broken: it swaps the two moves' indices.
impl<const B: u8> Learn for Race<B> {
    const LEARNABLE: bool = true;
    fn planes(&self) -> [usize; 3] {
        [1, 1, 10]
    }
    fn encode(&self, s: &Pile, out: &mut [f32]) {
        out[usize::from(s.n)] = 1.0;
    }
    fn policy_size(&self) -> usize {
        2
    }
    fn policy_index(&self, _: &Pile, k: u8) -> usize {
        if B == SHARED_POLICY_INDEX {
            0
        } else {
            usize::from(k - 1)
        }
    }
    fn symmetries(&self) -> usize {
        2
    }
    fn symmetric_index(&self, index: usize, sym: usize) -> usize {
        if B == SYMMETRY_MOVES_THE_MOVE && sym == 1 {
            1 - index
        } else {
            index
        }
    }
}

impl<const B: u8> Impartial for Race<B> {
    const IMPARTIAL: bool = true;
    fn components(&self, s: &Pile, parts: &mut Vec<Pile>) -> bool {
        if B == WRONG_COMPONENTS && s.n >= 2 {
            // Not a sum at all: two piles of one fewer counter each.
            parts.extend([Pile { n: s.n - 1, ..*s }; 2]);
            return true;
        }
        false
    }
}

impl<const B: u8> Notation for Race<B> {
    fn parse_position(&self, text: &str) -> Result<Pile, ParseError> {
        let (n, max_to_move) = match text.strip_suffix("/min") {
            Some(n) => (n, false),
            None => (text, true),
        };
        let n = n.parse().map_err(|_| ParseError::new("not a count"))?;
        Ok(Pile { n, max_to_move })
    }
    fn format_position(&self, s: &Pile) -> String {
        format!("{}{}", s.n, if s.max_to_move { "" } else { "/min" })
    }
    fn parse_move(&self, _: &Pile, text: &str) -> Result<u8, ParseError> {
        text.parse().map_err(|_| ParseError::new("not a count"))
    }
    fn format_move(&self, _: &Pile, k: u8) -> String {
        k.to_string()
    }
}

fn config() -> Config<Pile> {
    Config {
        playouts: 40,
        ..Config::default()
    }
}

/// The error the kit gives `Race<B>`, which must mention `what`.
fn rejects<const B: u8>(what: &str) {
    match check(&Race::<B>, &config()) {
        Ok(s) => panic!("hook {B} is broken but the kit passed it: {s:?}"),
        Err(e) => assert!(e.contains(what), "hook {B}: expected '{what}' in: {e}"),
    }
}

#[test]
fn a_game_that_keeps_every_promise_passes() {
    let s = check(&Race::<0>, &config()).unwrap();
    assert!(
        s.values > 40 && s.immediate_wins > 40 && s.forced > 40,
        "{s:?}"
    );
    assert!(s.symmetries > 40 && s.symmetric_values > 40, "{s:?}");
}

#[test]
fn forced_moves_that_drop_the_winning_move_change_the_value() {
    rejects::<FORCED_LOSES_WINS>("with the shortcuts the value is");
}

#[test]
fn an_immediate_win_that_does_not_win() {
    rejects::<FALSE_IMMEDIATE_WIN>("does not end the game won");
}

#[test]
fn exact_bounds_that_miss_the_value() {
    rejects::<WRONG_BOUNDS>("do not contain the value");
}

#[test]
fn probabilities_that_do_not_sum_to_one() {
    rejects::<BAD_PROBABILITIES>("sum to 1.1");
}

#[test]
fn a_noisy_move_that_is_not_legal() {
    rejects::<ILLEGAL_NOISY>("noisy move 2 is not a legal move");
}

#[test]
fn a_history_slot_out_of_range() {
    rejects::<HISTORY_OUT_OF_RANGE>("history slot");
}

#[test]
fn a_continuation_slot_out_of_range() {
    rejects::<CONTINUATION_OUT_OF_RANGE>(
        "continuation slot 2 of 1 is not below continuation_slots (2)",
    );
}

#[test]
fn an_ordering_that_changes_the_moves() {
    rejects::<ORDER_CHANGES_MOVES>("order_moves changed the moves");
}

#[test]
fn forced_moves_that_leave_a_win_at_once() {
    rejects::<FALSE_PREVENT_WINS>("FORCED_MOVES_PREVENT_WINS");
}

#[test]
fn a_forced_value_that_is_wrong() {
    rejects::<WRONG_FORCED_VALUE>("forced_moves claims the value");
}

#[test]
fn a_null_move_that_keeps_the_turn() {
    rejects::<NULL_MOVE_KEEPS_TURN>("null move does not pass the turn");
}

#[test]
fn an_impartial_game_not_under_normal_play() {
    rejects::<MISERE_CALLED_IMPARTIAL>("normal play");
}

#[test]
fn components_that_are_not_a_sum() {
    rejects::<WRONG_COMPONENTS>("from the components");
}

#[test]
fn a_chance_node_in_a_game_without_chance() {
    rejects::<UNDECLARED_CHANCE>("HAS_CHANCE is false");
}

/// States of one information set offered different moves (or to
/// different players): the player could tell them apart after all.
#[test]
fn an_information_set_whose_states_differ_is_named() {
    rejects::<ONE_INFORMATION_SET>("information set 'everything' has");
}

/// Two legal moves with one policy index: a network could not tell them
/// apart.
#[test]
fn moves_that_share_a_policy_index_are_named() {
    rejects::<SHARED_POLICY_INDEX>("shares policy index 0");
}

/// A symmetry that sends a move somewhere its child does not follow.
#[test]
fn a_symmetry_that_does_not_commute_with_play() {
    rejects::<SYMMETRY_MOVES_THE_MOVE>("is not the child of the image");
}

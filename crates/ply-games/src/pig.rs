//! Pig, the dice game: on your turn roll a die as often as you like, adding
//! the pips to a turn total; a 1 loses the turn total and ends the turn;
//! holding banks the turn total and ends the turn. The first to reach the
//! target (default 100) wins: reaching it ends the game at once, as in
//! Neller and Presser's analysis. A turn starts with a roll (holding a turn
//! total of 0 would only pass, and could go on forever).
//!
//! Position notation: `MAX's score-MIN's score`, then `+turn total` if it is
//! not 0, then `/min` when MIN is to move, then `?` while the die is rolling
//! (a chance node): `35-20+12/min` is MIN to move with 12 in the turn. Moves:
//! `roll` (or `r`), `hold` (or `h`); the die's outcomes are `1` to `6`.

use ply_core::{Chance, Evaluation, Game, MaxScore, Notation, ParseError, Player};

use ply_core::registry::{GameSpec, ParamKind, ParamSpec, ParamValues, Registered, SetupError};

/// Pig with a target score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pig {
    target: u16,
}

/// A pig position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PigState {
    /// Banked scores: MAX's, then MIN's.
    pub scores: [u16; 2],
    /// The points at risk this turn.
    pub turn: u16,
    /// Whose turn it is.
    pub to_move: Player,
    /// The die is in the air: a chance node.
    pub rolling: bool,
}

/// A pig move: a decision, or the die's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PigMove {
    /// Roll the die.
    Roll,
    /// Bank the turn total.
    Hold,
    /// The die shows this many pips (1 to 6).
    Die(u8),
}

/// What a certain win is worth to [`Game::evaluate`]; estimates are strictly inside.
pub const EVAL_WIN: i32 = 100_000;

/// Points a player gains a turn on average with sensible play (holding at
/// about 20 gives a little over 8): the pace of the race model.
const POINTS_PER_TURN: f64 = 8.0;

/// The spread of the race model, in turns per square-root turn. Derived from
/// the same hold-at-20 turn, not fitted to any solution: a turn scores 0
/// (a 1 comes first, probability about 0.6) or about 21.5, so its standard
/// deviation is about sqrt(0.6 * 0.4) * 21.5 = 10.5 points, 1.3 turns of 8.
const RACE_SPREAD: f64 = 1.3;

fn idx(p: Player) -> usize {
    match p {
        Player::Max => 0,
        Player::Min => 1,
    }
}

impl Pig {
    /// Pig to `target` points (at least 2).
    pub fn new(target: u32) -> Result<Self, SetupError> {
        if !(2..=1000).contains(&target) {
            return Err(SetupError(format!(
                "target={target}: the target must be from 2 to 1000"
            )));
        }
        Ok(Pig {
            target: target as u16,
        })
    }


    /// The target score.
    pub fn target(&self) -> u32 {
        u32::from(self.target)
    }

    /// The chance, by a race model, that a player needing `a` more points
    /// and about to start a turn beats one needing `b` more: each turn is
    /// worth about [`POINTS_PER_TURN`], the mover is half a turn ahead, and
    /// the uncertainty grows with the turns left. Knows nothing of the
    /// optimal policy: a rough human estimate, which the search sharpens.
    pub fn race(&self, a: f64, b: f64) -> f64 {
        let (ta, tb) = (a / POINTS_PER_TURN, b / POINTS_PER_TURN);
        let lead = tb - ta + 0.5;
        let spread = RACE_SPREAD * (ta + tb + 1.0).sqrt();
        1.0 / (1.0 + (-1.7 * lead / spread).exp())
    }

    /// The estimated probability that the player to move wins, at a decision.
    fn mover_estimate(&self, s: &PigState) -> f64 {
        let t = f64::from(self.target);
        let me = f64::from(s.scores[idx(s.to_move)]);
        let opp = f64::from(s.scores[idx(s.to_move.opponent())]);
        if s.turn == 0 {
            self.race(t - me, t - opp)
        } else {
            // What holding now would be worth: a floor under the truth.
            1.0 - self.race(t - opp, t - me - f64::from(s.turn))
        }
    }
}

impl Game for Pig {
    type State = PigState;
    type Move = PigMove;

    fn initial_state(&self) -> PigState {
        PigState {
            scores: [0, 0],
            turn: 0,
            to_move: Player::Max,
            rolling: false,
        }
    }

    fn to_move(&self, s: &PigState) -> Player {
        s.to_move
    }

    fn legal_moves(&self, s: &PigState, moves: &mut Vec<PigMove>) {
        if self.is_terminal(s) {
            return;
        }
        if s.rolling {
            moves.extend((1..=6).map(PigMove::Die));
        } else {
            moves.push(PigMove::Roll);
            if s.turn > 0 {
                moves.push(PigMove::Hold);
            }
        }
    }

    fn play(&self, s: &PigState, mv: PigMove) -> PigState {
        let mut n = *s;
        let me = idx(s.to_move);
        match mv {
            PigMove::Roll => n.rolling = true,
            PigMove::Hold => {
                n.scores[me] += n.turn;
                n.turn = 0;
                n.to_move = s.to_move.opponent();
            }
            PigMove::Die(1) => {
                n.rolling = false;
                n.turn = 0;
                n.to_move = s.to_move.opponent();
            }
            PigMove::Die(r) => {
                n.rolling = false;
                n.turn += u16::from(r);
                if n.scores[me] + n.turn >= self.target {
                    // Reaching the target wins at once: bank and stop.
                    n.scores[me] += n.turn;
                    n.turn = 0;
                }
            }
        }
        n
    }

    fn is_terminal(&self, s: &PigState) -> bool {
        s.scores.iter().any(|&x| x >= self.target)
    }

    fn utility(&self, s: &PigState) -> MaxScore {
        MaxScore(if s.scores[0] >= self.target { 1 } else { -1 })
    }
}

impl Evaluation for Pig {
    /// A win-probability estimate (the race model), MAX's view, scaled so
    /// that a certain win is [`EVAL_WIN`].
    fn evaluate(&self, s: &PigState) -> MaxScore {
        if self.is_terminal(s) {
            return MaxScore(self.utility(s).0 * EVAL_WIN);
        }
        let p_mover = if s.rolling {
            // The mean over the die of the positions it leads to.
            (1..=6)
                .map(|r| {
                    let n = self.play(s, PigMove::Die(r));
                    let p = if self.is_terminal(&n) {
                        1.0
                    } else {
                        self.mover_estimate(&n)
                    };
                    if n.to_move == s.to_move { p } else { 1.0 - p }
                })
                .sum::<f64>()
                / 6.0
        } else {
            self.mover_estimate(s)
        };
        let p_max = if s.to_move == Player::Max {
            p_mover
        } else {
            1.0 - p_mover
        };
        let v = ((2.0 * p_max - 1.0) * f64::from(EVAL_WIN)).round() as i32;
        MaxScore(v.clamp(-(EVAL_WIN - 1), EVAL_WIN - 1))
    }
}

ply_core::no_hooks!(Pig: Shortcuts, EngineHooks, Playouts, Impartial, Learn);

impl Chance for Pig {
    const HAS_CHANCE: bool = true;

    fn is_chance(&self, s: &PigState) -> bool {
        s.rolling && !self.is_terminal(s)
    }

    fn chance_outcomes(&self, s: &PigState, outcomes: &mut Vec<(PigMove, f64)>) {
        if self.is_chance(s) {
            outcomes.extend((1..=6).map(|r| (PigMove::Die(r), 1.0 / 6.0)));
        }
    }

    fn value_bounds(&self, _: &PigState, exact: bool) -> Option<(MaxScore, MaxScore)> {
        let w = if exact { 1 } else { EVAL_WIN };
        Some((MaxScore(-w), MaxScore(w)))
    }
}

impl Registered for Pig {
    const SPEC: GameSpec = GameSpec {
        params: &[ParamSpec {
            name: "target",
            kind: ParamKind::Int {
                default: 100,
                min: 2,
                max: 1000,
            },
            meaning: "the score that wins",
        }],
        default_position: "0-0",
        default_depth: Some(6),
        ..GameSpec::new(
            "pig",
            "the dice game: roll as often as you like adding the pips to a turn total; a 1 loses the turn total and ends the turn; hold banks it; the first to reach the target wins",
            "MAX's score-MIN's score, then +turn total if not 0, /min when MIN is to move, ? while the die rolls (a chance node), e.g. 35-20+12/min",
            "roll (r) or hold (h); the die's outcomes are 1 to 6",
        )
    };

    fn from_params(values: &ParamValues) -> Result<Self, SetupError> {
        Pig::new(values.int("target") as u32)
    }
}

impl Notation for Pig {
    fn parse_position(&self, text: &str) -> Result<PigState, ParseError> {
        let t = text.trim();
        let (t, rolling) = match t.strip_suffix('?') {
            Some(rest) => (rest, true),
            None => (t, false),
        };
        let (t, to_move) = match t.split_once('/') {
            Some((rest, side)) => match side.trim().to_ascii_lowercase().as_str() {
                "min" => (rest, Player::Min),
                "max" => (rest, Player::Max),
                other => {
                    return Err(ParseError::at(
                        rest.chars().count() + 2,
                        format!("expected 'max' or 'min' after '/', found '{other}'"),
                    ));
                }
            },
            None => (t, Player::Max),
        };
        let (scores, turn) = match t.split_once('+') {
            Some((s, k)) => (s, Some(k)),
            None => (t, None),
        };
        let Some((a, b)) = scores.split_once('-') else {
            return Err(ParseError::new(format!(
                "'{text}' is not a pig position: write MAX's score-MIN's score, e.g. 35-20 or 35-20+12/min"
            )));
        };
        let num = |s: &str, col: usize, what: &str| {
            s.trim()
                .parse::<u16>()
                .map_err(|_| ParseError::at(col, format!("'{}' is not a valid {what}", s.trim())))
        };
        let max = num(a, 1, "score")?;
        let min = num(b, a.chars().count() + 2, "score")?;
        let turn = match turn {
            Some(k) => num(k, scores.chars().count() + 2, "turn total")?,
            None => 0,
        };
        let s = PigState {
            scores: [max, min],
            turn,
            to_move,
            rolling,
        };
        if max >= self.target && min >= self.target {
            return Err(ParseError::new(
                "both players cannot have reached the target",
            ));
        }
        if self.is_terminal(&s) && (turn > 0 || rolling) {
            return Err(ParseError::new(
                "the game is over: a finished position has no turn total and no rolling die",
            ));
        }
        if !self.is_terminal(&s) && s.scores[idx(to_move)] + turn >= self.target {
            return Err(ParseError::new(format!(
                "a turn total of {turn} would already have reached the target of {}",
                self.target
            )));
        }
        Ok(s)
    }

    fn format_position(&self, s: &PigState) -> String {
        let mut out = format!("{}-{}", s.scores[0], s.scores[1]);
        if s.turn > 0 {
            out.push_str(&format!("+{}", s.turn));
        }
        if s.to_move == Player::Min {
            out.push_str("/min");
        }
        if s.rolling {
            out.push('?');
        }
        out
    }

    fn parse_move(&self, s: &PigState, text: &str) -> Result<PigMove, ParseError> {
        let t = text.trim().to_ascii_lowercase();
        let mv = match t.as_str() {
            "roll" | "r" => PigMove::Roll,
            "hold" | "h" => PigMove::Hold,
            d if d.len() == 1 && ("1"..="6").contains(&d) => PigMove::Die(d.as_bytes()[0] - b'0'),
            _ => {
                return Err(ParseError::new(format!(
                    "'{}' is not a pig move: roll, hold, or a die's outcome 1-6",
                    text.trim()
                )));
            }
        };
        match mv {
            PigMove::Die(_) if !s.rolling => Err(ParseError::new(
                "the die is not rolling: choose roll or hold",
            )),
            PigMove::Roll | PigMove::Hold if s.rolling => Err(ParseError::new(
                "the die is rolling: its outcome (1-6) comes next",
            )),
            PigMove::Hold if s.turn == 0 => Err(ParseError::new(
                "a turn starts with a roll: there is nothing to hold yet",
            )),
            m => Ok(m),
        }
    }

    fn format_move(&self, _: &PigState, mv: PigMove) -> String {
        match mv {
            PigMove::Roll => "roll".into(),
            PigMove::Hold => "hold".into(),
            PigMove::Die(r) => r.to_string(),
        }
    }

    fn draw(&self, s: &PigState) -> String {
        let marker = |p: Player| {
            if s.to_move == p && !self.is_terminal(s) {
                ">"
            } else {
                " "
            }
        };
        format!(
            "{} MAX {:>4}\n{} MIN {:>4}\n  turn total {}{} (target {})",
            marker(Player::Max),
            s.scores[0],
            marker(Player::Min),
            s.scores[1],
            s.turn,
            if s.rolling {
                ", the die is rolling"
            } else {
                ""
            },
            self.target
        )
    }

    fn describe_outcome(&self, s: &PigState, outcome: PigMove) -> String {
        let who = s.to_move.name();
        match outcome {
            PigMove::Die(1) => format!("{who} rolls a 1: the turn total is lost"),
            PigMove::Die(r) => format!("{who} rolls a {r}"),
            m => self.format_move(s, m),
        }
    }

    fn win_probability(&self, value: f64) -> Option<f64> {
        Some(((value / f64::from(EVAL_WIN) + 1.0) / 2.0).clamp(0.0, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::conformance;

    #[test]
    fn conformance_kit() {
        for target in [10, 30, 100] {
            let g = Pig::new(target).unwrap();
            let summary = conformance::check(
                &g,
                &conformance::Config {
                    playouts: 30,
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("target {target}: {e}"));
            // The die's outcomes and probabilities were checked at every roll.
            assert!(summary.chance_nodes > 30, "{summary:?}");
        }
    }

    #[test]
    fn notation() {
        let g = Pig::new(100).unwrap();
        let s = g.parse_position("35-20+12/min").unwrap();
        assert_eq!(
            (s.scores, s.turn, s.to_move, s.rolling),
            ([35, 20], 12, Player::Min, false)
        );
        assert!(g.parse_position("35-20+12/min?").unwrap().rolling);
        assert!(g.parse_position("35").is_err());
        assert_eq!(g.parse_position("3x-20").unwrap_err().column, Some(1));
        assert_eq!(g.parse_position("30-2y").unwrap_err().column, Some(4));
        assert!(g.parse_position("95-20+7").is_err());
        assert!(g.parse_move(&g.initial_state(), "hold").is_err());
        assert_eq!(
            g.parse_move(&g.initial_state(), "r").unwrap(),
            PigMove::Roll
        );
    }

    #[test]
    fn a_one_ends_the_turn_and_reaching_the_target_wins() {
        let g = Pig::new(100).unwrap();
        let s = g.parse_position("90-50+5?").unwrap();
        let one = g.play(&s, PigMove::Die(1));
        assert_eq!(
            (one.scores, one.turn, one.to_move),
            ([90, 50], 0, Player::Min)
        );
        let win = g.play(&s, PigMove::Die(5));
        assert!(g.is_terminal(&win));
        assert_eq!(g.utility(&win), MaxScore(1));
    }
}

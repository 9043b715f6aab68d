//! `show`'s report: a position as a player meets it.

use std::fmt;

use serde::{Deserialize, Serialize};

use ply_core::game::Chance;
use ply_core::notation::Notation;

use super::{Number, Score, to_move_name};

/// The result of `show`: a position as a player meets it — whose turn, the
/// legal moves (or the chance outcomes and their odds) and, once the game
/// is over, who won. The web page's boards are drawn from it, so the rules
/// live in one place: the game's Rust code.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShowReport {
    /// The game's registered name.
    pub game: String,
    /// The position in the game's notation.
    pub position: String,
    /// `"MAX"`, `"MIN"`, `"chance"` (nature moves next), or null when over.
    pub to_move: Option<String>,
    /// Whether the game is over.
    pub terminal: bool,
    /// When over: `"MAX wins"`, `"MIN wins"` or `"draw"`.
    pub result: Option<String>,
    /// When over: the utility, MAX's view.
    pub value: Option<Score>,
    /// Every legal move (or chance outcome), in the game's order.
    pub moves: Vec<ShownMove>,
    /// The board as the game draws it in the terminal.
    pub board: String,
}

/// One legal move of a [`ShowReport`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShownMove {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The move as players write it (chess: SAN, `Nf3`); present only
    /// where it differs from `move`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub display: Option<String>,
    /// The position it leads to.
    pub position: String,
    /// At a chance node: the outcome's probability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability: Option<Number>,
}

impl ShowReport {
    /// The report on `state` of `game`, registered as `name`.
    pub fn new<G: Notation + Chance>(name: &str, game: &G, state: &G::State) -> Self {
        let terminal = game.is_terminal(state);
        let chance = !terminal && game.is_chance(state);
        let mut moves = Vec::new();
        if chance {
            let mut outcomes = Vec::new();
            game.chance_outcomes(state, &mut outcomes);
            moves.extend(outcomes.into_iter().map(|(m, p)| (m, Some(Number(p)))));
        } else if !terminal {
            let mut legal = Vec::new();
            game.legal_moves(state, &mut legal);
            moves.extend(legal.into_iter().map(|m| (m, None)));
        }
        let value = terminal.then(|| game.utility(state));
        ShowReport {
            game: name.to_string(),
            position: game.format_position(state),
            to_move: to_move_name(game, state).map(str::to_string),
            terminal,
            result: value.map(|v| {
                match v.0.signum() {
                    1 => "MAX wins",
                    -1 => "MIN wins",
                    _ => "draw",
                }
                .to_string()
            }),
            value: value.map(Score),
            moves: moves
                .into_iter()
                .map(|(m, probability)| ShownMove {
                    mv: game.format_move(state, m),
                    display: Some(game.display_move(state, m))
                        .filter(|d| *d != game.format_move(state, m)),
                    position: game.format_position(&game.play(state, m)),
                    probability,
                })
                .collect(),
            board: game.draw(state).trim_end().to_string(),
        }
    }
}

impl fmt::Display for ShowReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {}", self.game, self.position)?;
        writeln!(f, "{}", self.board)?;
        match (self.result.as_deref(), self.to_move.as_deref()) {
            (Some(result), _) => writeln!(f, "the game is over: {result}")?,
            (None, Some("chance")) => writeln!(f, "chance moves next")?,
            (None, Some(side)) => writeln!(f, "{side} to move")?,
            (None, None) => {}
        }
        if !self.moves.is_empty() {
            let moves: Vec<String> = self
                .moves
                .iter()
                .map(|m| match m.probability {
                    Some(Number(p)) => format!("{} ({p:.3})", m.mv),
                    None => m.mv.clone(),
                })
                .collect();
            writeln!(f, "moves ({}): {}", moves.len(), moves.join(" "))?;
        }
        Ok(())
    }
}

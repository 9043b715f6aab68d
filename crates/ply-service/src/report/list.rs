//! `list`: every registered game's declaration and every search.

use std::fmt;

use ply_core::registry::{GameSpec, GameVisitor, Registered};
use serde::{Deserialize, Serialize};

use crate::algo::Algo;
use crate::report::Report;

/// What `ply list` reports: every registered game's declaration and the algorithms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ListReport {
    pub games: Vec<GameEntry>,
    pub algorithms: Vec<AlgorithmEntry>,
}

/// A game as listed: its declaration, with parameter defaults as text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    pub name: String,
    pub rules: String,
    pub params: Vec<ParamEntry>,
    pub positions: String,
    pub moves: String,
    pub default_position: String,
    /// Whether chance moves (dice) happen: searches need expectiminimax or MCTS.
    pub chance: bool,
    /// Whether both players have the same moves and who cannot move loses
    /// (the nimber search applies).
    pub impartial: bool,
    /// Whether `solve` without `--algo` runs the exact score search.
    pub exact_solver: bool,
    /// Whether searches without `--algo` run MCTS (Go).
    #[serde(default)]
    pub mcts_default: bool,
    /// Whether players hold cards the other cannot see: the CFR searches
    /// play it, the others refuse it.
    #[serde(default)]
    pub hidden: bool,
    /// Whether this build has a learned network for it: `--algo puct`
    /// plays it without `--net`.
    #[serde(default)]
    pub network: bool,
}

/// A game's capabilities, read off its type.
struct Capabilities;

impl GameVisitor for Capabilities {
    type Output = (bool, bool, bool);
    fn visit<G: Registered>(self, _: G, _: &'static GameSpec) -> (bool, bool, bool) {
        (G::HAS_CHANCE, G::IMPARTIAL, G::HIDDEN)
    }
}

/// A game's parameter as listed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamEntry {
    pub name: String,
    pub default: String,
    /// The values allowed, in words ("1 to 64").
    pub allowed: String,
    pub meaning: String,
}

/// A search as listed: its name and what it does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AlgorithmEntry {
    pub name: String,
    pub description: String,
}

impl From<&GameSpec> for GameEntry {
    fn from(g: &GameSpec) -> Self {
        let (chance, impartial, hidden) =
            ply_games::visit(g.name, &ply_games::Params::default(), Capabilities)
                .expect("every game builds with its defaults");
        GameEntry {
            name: g.name.to_string(),
            rules: g.rules.to_string(),
            params: g
                .params
                .iter()
                .map(|p| ParamEntry {
                    name: p.name.to_string(),
                    default: p.default_text(),
                    allowed: p.allowed_text(),
                    meaning: p.meaning.to_string(),
                })
                .collect(),
            positions: g.positions.to_string(),
            moves: g.moves.to_string(),
            default_position: g.default_position.to_string(),
            chance,
            impartial,
            exact_solver: g.exact_solver,
            mcts_default: g.mcts_default,
            hidden,
            network: crate::learned::has_network(g.name),
        }
    }
}

impl fmt::Display for ListReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "GAMES")?;
        for g in &self.games {
            writeln!(f, "\n  {}: {}", g.name, g.rules)?;
            if g.params.is_empty() {
                writeln!(f, "    parameters: none")?;
            } else {
                writeln!(f, "    parameters (--param key=value):")?;
                for p in &g.params {
                    let setting = format!("{}={}", p.name, p.default);
                    writeln!(f, "      {setting:<14} {} ({})", p.meaning, p.allowed)?;
                }
            }
            writeln!(f, "    positions:  {}", g.positions)?;
            writeln!(f, "    moves:      {}", g.moves)?;
            let start = if g.default_position.is_empty() && g.hidden {
                "(before the deal)"
            } else if g.default_position.is_empty() {
                "(the empty board)"
            } else {
                &g.default_position
            };
            writeln!(f, "    start:      {start}")?;
            if g.mcts_default {
                writeln!(f, "    search:     mcts unless --algo names another")?;
            }
            if g.network {
                writeln!(f, "    network:    built in (--algo puct)")?;
            }
        }
        writeln!(f, "\nALGORITHMS (--algo)")?;
        for a in &self.algorithms {
            writeln!(f, "  {:<15} {}", a.name, a.description)?;
        }
        writeln!(
            f,
            "\n  without --algo: the engine (id with a table, ordering, PVS and fast wins) for"
        )?;
        writeln!(
            f,
            "  deterministic games, expectiminimax for games with chance (pig, trees with [...]),"
        )?;
        writeln!(
            f,
            "  the score search for connect4, cfr+ for the games with hidden cards (kuhn, leduc)."
        )
    }
}

/// The games ply-games registers and the searches of [`Algo::ALL`], as a
/// [`Report`] so that `ply list --json`, `/api/games` and Python's
/// `ply.games()` carry `"kind": "list"` like every other answer.
pub fn list_report() -> Report {
    Report::List(ListReport {
        games: ply_games::GAMES
            .iter()
            .map(|g| GameEntry::from(*g))
            .collect(),
        algorithms: Algo::ALL
            .iter()
            .map(|a| AlgorithmEntry {
                name: a.name().to_string(),
                description: a.description().to_string(),
            })
            .collect(),
    })
}

//! `ply list`: the games and the algorithms.

use std::fmt;

use ply_core::registry::{GameSpec, GameVisitor, Registered};
use ply_core::search::Algorithm;
use ply_games::GAMES;
use serde::Serialize;

use crate::CliResult;
use crate::args::ListArgs;
use crate::output::emit;

/// Every algorithm the CLI offers, with a line on each.
fn algorithms() -> Vec<AlgorithmEntry> {
    let mut v: Vec<(&'static str, &'static str)> = Algorithm::ALL
        .iter()
        .map(|a| (a.name(), a.description()))
        .collect();
    v.push((
        "expectiminimax",
        "MAX takes the max, MIN the min, a chance node the probability-weighted mean; --depth, --star1 prunes chance nodes",
    ));
    v.push((
        "mcts",
        "Monte Carlo tree search (UCT): --iterations, --time-ms, --seed, --c (default sqrt 2), --threads (root parallelism)",
    ));
    v.push((
        "score",
        "the exact solver: null-window alpha-beta probes bisecting the score range (table, ordering, the game's shortcuts); --weak for win/draw/loss; --batch FILE",
    ));
    v.into_iter()
        .map(|(name, description)| AlgorithmEntry { name, description })
        .collect()
}

/// What `ply list` reports: every registered game's declaration and the algorithms.
#[derive(Serialize)]
struct ListReport {
    games: Vec<GameEntry>,
    algorithms: Vec<AlgorithmEntry>,
}

/// A game as listed: its declaration, with parameter defaults as text.
#[derive(Serialize)]
struct GameEntry {
    name: &'static str,
    rules: &'static str,
    params: Vec<ParamEntry>,
    positions: &'static str,
    moves: &'static str,
    default_position: &'static str,
    /// Whether chance moves (dice) happen: searches need expectiminimax or MCTS.
    chance: bool,
    /// Whether both players have the same moves and who cannot move loses
    /// (the nimber search applies).
    impartial: bool,
    /// Whether `solve` without `--algo` runs the exact score search.
    exact_solver: bool,
}

/// A game's capabilities, read off its type.
struct Capabilities;

impl GameVisitor for Capabilities {
    type Output = (bool, bool);
    fn visit<G: Registered>(self, _: G, _: &'static GameSpec) -> (bool, bool) {
        (G::HAS_CHANCE, G::IMPARTIAL)
    }
}

#[derive(Serialize)]
struct ParamEntry {
    name: &'static str,
    default: String,
    /// The values allowed, in words ("1 to 64").
    allowed: String,
    meaning: &'static str,
}

#[derive(Serialize)]
struct AlgorithmEntry {
    name: &'static str,
    description: &'static str,
}

impl From<&GameSpec> for GameEntry {
    fn from(g: &GameSpec) -> Self {
        let (chance, impartial) =
            ply_games::visit(g.name, &ply_games::Params::default(), Capabilities)
                .expect("every game builds with its defaults");
        GameEntry {
            name: g.name,
            rules: g.rules,
            params: g
                .params
                .iter()
                .map(|p| ParamEntry {
                    name: p.name,
                    default: p.default_text(),
                    allowed: p.allowed_text(),
                    meaning: p.meaning,
                })
                .collect(),
            positions: g.positions,
            moves: g.moves,
            default_position: g.default_position,
            chance,
            impartial,
            exact_solver: g.exact_solver,
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
            let start = if g.default_position.is_empty() {
                "(the empty board)"
            } else {
                g.default_position
            };
            writeln!(f, "    start:      {start}")?;
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
        writeln!(f, "  the score search for connect4.")
    }
}

fn report() -> ListReport {
    ListReport {
        games: GAMES.iter().map(|g| GameEntry::from(*g)).collect(),
        algorithms: algorithms(),
    }
}

/// What `ply list --json` prints, as a JSON value (the API's `/api/games`).
pub fn report_value() -> serde_json::Value {
    serde_json::to_value(report()).expect("the list always serialises")
}

pub fn run(args: &ListArgs) -> CliResult {
    emit(&report(), args.json);
    Ok(())
}

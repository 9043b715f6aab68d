//! `trace --algo puct`'s report: one PUCT simulation step by step, and the
//! tree it leaves, each node with the network's prior. The MCTS lab draws
//! it beside MCTS's; the text form prints it.
//!
//! PUCT's phases mirror MCTS's four so that the two can be read side by
//! side: selection (by Q + U, the prior's pull, not UCT), expansion (the
//! leaf gets *all* its moves at once, each with its prior), evaluation
//! (the network's value instead of a random playout), backup.

use std::fmt;

use serde::{Deserialize, Serialize};

use ply_core::game::Chance;
use ply_core::notation::Notation;
use ply_core::search::puct::{PuctNodeView, SimulationTrace};

use super::{Header, MctsMoveReport, round6};

/// The result of `trace --algo puct --simulations N`: simulation N told
/// step by step (after N - 1 untraced, one at a time), the root's moves
/// as `analyze --algo puct` reports them, and the top of the tree.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PuctTraceReport {
    /// What was searched.
    #[serde(flatten)]
    pub header: Header,
    /// Simulations run, the traced one last (0: the root's evaluation
    /// alone, and no simulation).
    pub simulations: u64,
    /// The exploration constant c.
    pub c: f64,
    /// The network, as `analyze` names it.
    pub network: String,
    /// The network's value of the root for the player to move, -1 to 1:
    /// what it says before any simulation.
    pub root_value: f64,
    /// The last simulation; absent with no simulation.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub simulation: Option<SimulationReport>,
    /// Every root move after the simulations, most visited first, each
    /// with its prior.
    pub moves: Vec<MctsMoveReport>,
    /// The tree's root and the levels below it.
    pub tree: PuctNodeReport,
}

/// One simulation: selection, expansion, evaluation, backup.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SimulationReport {
    /// Selection: each node passed from the root, the formula's terms for
    /// each child, and the child followed.
    pub selection: Vec<PuctSelectionReport>,
    /// The leaf, by its path of moves from the root joined by dots: the
    /// last child followed. Backup updates it and every node above it.
    pub node: String,
    /// The leaf's position.
    pub position: String,
    /// The game is over at the leaf: nothing is expanded, and its value
    /// is the result, not the network's.
    pub over: bool,
    /// Expansion: each of the leaf's moves with the network's prior, in
    /// the game's order (empty when the game is over there).
    pub priors: Vec<PriorReport>,
    /// Evaluation: the leaf's value for its player to move, -1 to 1.
    pub value: f64,
    /// The same value for MAX: what backup adds to each node's sum.
    pub value_for_max: f64,
}

/// A move and its prior.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PriorReport {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The network's probability for it.
    pub prior: f64,
}

/// One step of selection.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PuctSelectionReport {
    /// The node, by its path of moves from the root (`""`: the root).
    pub node: String,
    /// Who chooses: `MAX`, `MIN`, or `chance` (an outcome drawn by its
    /// probability; then `children` is empty).
    pub player: String,
    /// N: the visits of its children, under the square root (taken as at
    /// least 1).
    pub visits: u64,
    /// Every child in the tree's order.
    pub children: Vec<PuctChildReport>,
    /// The move followed.
    pub chosen: String,
}

/// A child as selection weighed it: `score = q + u`, the highest followed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PuctChildReport {
    /// The move into it.
    #[serde(rename = "move")]
    pub mv: String,
    /// P: the network's prior.
    pub prior: f64,
    /// n: its visits.
    pub visits: u64,
    /// Q: its mean value for the player choosing, -1 to 1 (0 unvisited).
    pub q: f64,
    /// U = c·P·√N / (1 + n): the prior's pull.
    pub u: f64,
    /// Q + U.
    pub score: f64,
}

/// A node of the tree.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PuctNodeReport {
    /// The move into it; absent at the root.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none", default)]
    pub mv: Option<String>,
    /// Its path of moves from the root joined by dots (`""`: the root).
    pub node: String,
    /// Who made its move: `MAX` or `MIN`; absent at the root and for a
    /// chance outcome.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub player: Option<String>,
    /// The prior of the move into it; absent at the root.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub prior: Option<f64>,
    /// Its visits.
    pub visits: u64,
    /// Q: its mean value for `player`, -1 to 1; absent at the root and
    /// for a node never visited.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub q: Option<f64>,
    /// The network has seen it: its moves are in the tree (with priors)
    /// even when not yet visited.
    pub expanded: bool,
    /// Its children, most visited first, then by prior (none below the
    /// report's depth).
    pub children: Vec<PuctNodeReport>,
}

impl PuctTraceReport {
    /// The report of `trace --algo puct` on `state` of `game`: the
    /// simulations run, c, the network's name and its value of the root;
    /// `last` the last simulation (none when there was none), `moves` the
    /// root's moves, `tree` the top of the tree.
    pub fn new<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        (simulations, c, network, root_value): (u64, f64, String, f64),
        last: Option<&SimulationTrace<G::Move>>,
        moves: Vec<MctsMoveReport>,
        tree: &PuctNodeView<G::Move>,
    ) -> Self {
        PuctTraceReport {
            header,
            simulations,
            c,
            network,
            root_value: round6(root_value),
            simulation: last.map(|t| SimulationReport::new(game, state, t)),
            moves,
            tree: PuctNodeReport::new(game, state, tree, "", None),
        }
    }
}

impl SimulationReport {
    fn new<G: Notation + Chance>(game: &G, root: &G::State, t: &SimulationTrace<G::Move>) -> Self {
        let mut state = root.clone();
        let mut path: Vec<String> = Vec::new();
        let selection = t
            .selection
            .iter()
            .map(|s| {
                let children = s
                    .children
                    .iter()
                    .map(|ch| PuctChildReport {
                        mv: game.format_move(&state, ch.mv),
                        prior: round6(f64::from(ch.prior)),
                        visits: u64::from(ch.visits),
                        q: round6(ch.q),
                        u: round6(ch.u),
                        score: round6(ch.q + ch.u),
                    })
                    .collect();
                let chosen = game.format_move(&state, s.chosen);
                let node = path.join(".");
                path.push(chosen.clone());
                state = game.play(&state, s.chosen);
                PuctSelectionReport {
                    node,
                    player: s.mover.map_or("chance", |p| p.name()).to_string(),
                    visits: u64::from(s.parent_visits),
                    children,
                    chosen,
                }
            })
            .collect();
        let priors = t
            .priors
            .iter()
            .map(|&(mv, p)| PriorReport {
                mv: game.format_move(&state, mv),
                prior: round6(f64::from(p)),
            })
            .collect();
        SimulationReport {
            selection,
            node: path.join("."),
            position: game.format_position(&state),
            over: t.over,
            priors,
            value: round6(f64::from(t.value)),
            value_for_max: round6(f64::from(t.for_max)),
        }
    }
}

impl PuctNodeReport {
    fn new<G: Notation>(
        game: &G,
        state: &G::State,
        n: &PuctNodeView<G::Move>,
        node: &str,
        mv: Option<String>,
    ) -> Self {
        let children = n
            .children
            .iter()
            .map(|ch| {
                let mv = ch.mv.expect("children have moves");
                let name = game.format_move(state, mv);
                let path = if node.is_empty() {
                    name.clone()
                } else {
                    format!("{node}.{name}")
                };
                PuctNodeReport::new(game, &game.play(state, mv), ch, &path, Some(name))
            })
            .collect();
        let at_root = mv.is_none();
        PuctNodeReport {
            mv,
            node: node.to_string(),
            player: n.mover.map(|p| p.name().to_string()),
            prior: (!at_root).then(|| round6(f64::from(n.prior))),
            visits: u64::from(n.visits),
            q: (!at_root && n.visits > 0).then(|| round6(n.q)),
            expanded: n.expanded,
            children,
        }
    }
}

/// A value for the player to move, -1 to 1, in words.
fn value_words(v: f64) -> &'static str {
    if v > 0.5 {
        "winning"
    } else if v < -0.5 {
        "losing"
    } else {
        "about even"
    }
}

impl fmt::Display for PuctTraceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        writeln!(f, "{}", h.board)?;
        writeln!(
            f,
            "{}: the network says the root is worth {:+.3} to the player to move ({})",
            h.algo,
            self.root_value,
            value_words(self.root_value)
        )?;
        match &self.simulation {
            Some(s) => write_simulation(f, self.simulations, s)?,
            None => writeln!(
                f,
                "no simulation: the root's moves have the network's priors"
            )?,
        }
        writeln!(
            f,
            "after {} simulations, most visited first:",
            self.simulations
        )?;
        writeln!(f, "  move         visits     mean    prior")?;
        for m in &self.moves {
            writeln!(
                f,
                "  {:<12} {:>6} {:>8.3} {:>8.3}",
                m.mv,
                m.visits,
                m.mean,
                m.prior.unwrap_or(0.0)
            )?;
        }
        Ok(())
    }
}

fn write_simulation(f: &mut fmt::Formatter<'_>, n: u64, s: &SimulationReport) -> fmt::Result {
    writeln!(f, "simulation {n}:")?;
    writeln!(
        f,
        "1. selection (Q + U, U = c·P·sqrt(N)/(1 + n), the highest followed):"
    )?;
    for step in &s.selection {
        let at = if step.node.is_empty() {
            "root"
        } else {
            &step.node
        };
        if step.children.is_empty() {
            writeln!(f, "   at {at} (chance): outcome {} drawn", step.chosen)?;
            continue;
        }
        writeln!(
            f,
            "   at {at} ({} to choose, N = {}):",
            step.player, step.visits
        )?;
        for ch in &step.children {
            let mark = if ch.mv == step.chosen {
                "  <- followed"
            } else {
                ""
            };
            writeln!(
                f,
                "     {:<6} P {:.3}  n {:>6}  Q {:+.3}  U {:.3}  Q+U {:+.4}{mark}",
                ch.mv, ch.prior, ch.visits, ch.q, ch.u, ch.score
            )?;
        }
    }
    let leaf = if s.node.is_empty() { "root" } else { &s.node };
    if s.over {
        writeln!(f, "2. expansion: none, the game is over at {leaf}")?;
        writeln!(
            f,
            "3. evaluation: the result, {:+.0} for the player to move there",
            s.value
        )?;
    } else {
        let priors: Vec<String> = s
            .priors
            .iter()
            .map(|p| format!("{} {:.3}", p.mv, p.prior))
            .collect();
        writeln!(
            f,
            "2. expansion: {leaf} gets all its moves, with the network's priors: {}",
            priors.join(", ")
        )?;
        writeln!(
            f,
            "3. evaluation: the network's value, {:+.3} for the player to move there (no playout)",
            s.value
        )?;
    }
    writeln!(
        f,
        "4. backup: {leaf} and every node above it, one more visit and {:+.3} for MAX",
        s.value_for_max
    )
}

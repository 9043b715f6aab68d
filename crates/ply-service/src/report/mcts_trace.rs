//! `trace --algo mcts`'s report: one MCTS iteration phase by phase, and
//! the tree it leaves. The MCTS lab draws it; the text form prints it.

use std::fmt;

use serde::{Deserialize, Serialize};

use ply_core::game::Chance;
use ply_core::notation::Notation;
use ply_core::search::{IterationTrace, MctsNodeView, MctsResult};

use super::analyze::visits_on_board;
use super::{Header, MctsMoveReport, mcts_moves, round6};

/// The result of `trace --algo mcts --iterations N`: iteration N told
/// phase by phase, then the search as `analyze --algo mcts` reports it
/// after the same N iterations and seed, and the top of the tree.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MctsTraceReport {
    /// What was searched.
    #[serde(flatten)]
    pub header: Header,
    /// Iterations run, the traced one last.
    pub iterations: u64,
    /// The exploration constant `c`.
    pub c: f64,
    /// The seed.
    pub seed: u64,
    /// The last iteration's four phases.
    pub iteration: IterationReport,
    /// Every root move after the iterations, most visited first: the
    /// same numbers as `analyze`'s for this seed and count.
    pub moves: Vec<MctsMoveReport>,
    /// The tree's root and the levels below it ([`TRACE_TREE_DEPTH`]).
    pub tree: MctsNodeReport,
}

/// The levels of the tree a report carries below the root.
pub const TRACE_TREE_DEPTH: usize = 2;

/// One iteration: selection, expansion, simulation, backpropagation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IterationReport {
    /// Selection: each node passed through from the root, what UCT saw
    /// there and the child it followed.
    pub selection: Vec<SelectionReport>,
    /// Expansion: the move of the node added (`None` when selection ended
    /// at the end of the game).
    pub expanded: Option<String>,
    /// The untried moves the expanded one was drawn from, at random.
    pub untried: Vec<String>,
    /// The node whose playout this was, by its path of moves from the
    /// root joined by dots (`""` for the root): backpropagation updates
    /// it and every node above it.
    pub node: String,
    /// Simulation: the playout's moves, played at random to the end.
    pub playout: Vec<String>,
    /// The position the playout ended in.
    pub end: String,
    /// The result for MAX: 1 a win, 0.5 a draw, 0 a loss. A node gains
    /// it if MAX made its move, 1 minus it if MIN did.
    pub result: f64,
}

/// One step of selection.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SelectionReport {
    /// The node, by its path of moves from the root (`""` for the root).
    pub node: String,
    /// Who chooses here: `MAX`, `MIN` or `chance` (an outcome drawn by
    /// its probability; then `children` is empty).
    pub player: String,
    /// The node's visits before this iteration: the `N` of `ln N`.
    pub visits: u64,
    /// Every child as UCT weighed it, in the tree's order.
    pub children: Vec<ChildReport>,
    /// The move followed.
    pub chosen: String,
}

/// A child as selection weighed it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChildReport {
    /// The move into it.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its visits `n`.
    pub visits: u64,
    /// Its mean result for the player choosing, in [0, 1].
    pub mean: f64,
    /// `mean + c·sqrt(ln N / n)`; null (infinite) for a child never
    /// visited, which is always tried first.
    pub uct: Option<f64>,
}

/// A node of the tree.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MctsNodeReport {
    /// The move into it; absent at the root.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none", default)]
    pub mv: Option<String>,
    /// Its path of moves from the root joined by dots (`""`: the root).
    pub node: String,
    /// Who made its move: `MAX` or `MIN`; absent at the root and for a
    /// chance outcome.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub player: Option<String>,
    /// Its visits.
    pub visits: u64,
    /// Its mean result for `player`, in [0, 1]; absent at the root and
    /// for a node never visited.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mean: Option<f64>,
    /// Moves not yet expanded below it.
    pub untried: usize,
    /// Its children, most visited first (none below the report's depth).
    pub children: Vec<MctsNodeReport>,
}

impl MctsTraceReport {
    /// The report of `trace` on `state` of `game`: `last` the last
    /// iteration's trace, `result` the search's result, `tree` its top.
    pub fn new<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        (c, seed): (f64, u64),
        last: &IterationTrace<G::Move>,
        result: &MctsResult<G::Move>,
        tree: &MctsNodeView<G::Move>,
    ) -> Self {
        MctsTraceReport {
            header: visits_on_board(header, game, state, result),
            iterations: result.iterations,
            c,
            seed,
            iteration: IterationReport::new(game, state, last),
            moves: mcts_moves(game, state, &result.moves),
            tree: MctsNodeReport::new(game, state, tree, "", None),
        }
    }
}

impl IterationReport {
    fn new<G: Notation + Chance>(game: &G, root: &G::State, t: &IterationTrace<G::Move>) -> Self {
        let mut state = root.clone();
        let mut path: Vec<String> = Vec::new();
        let selection = t
            .selection
            .iter()
            .map(|s| {
                let children = s
                    .children
                    .iter()
                    .map(|ch| ChildReport {
                        mv: game.format_move(&state, ch.mv),
                        visits: ch.visits,
                        mean: if ch.visits > 0 {
                            round6(ch.wins / ch.visits as f64)
                        } else {
                            0.0
                        },
                        uct: ch.uct.is_finite().then(|| round6(ch.uct)),
                    })
                    .collect();
                let player = s.mover.map_or("chance", |p| p.name()).to_string();
                let chosen = game.format_move(&state, s.chosen);
                let node = path.join(".");
                path.push(chosen.clone());
                state = game.play(&state, s.chosen);
                SelectionReport {
                    node,
                    player,
                    visits: s.parent_visits,
                    children,
                    chosen,
                }
            })
            .collect();
        let untried = t
            .untried
            .iter()
            .map(|&m| game.format_move(&state, m))
            .collect();
        let expanded = t.expanded.map(|m| {
            let name = game.format_move(&state, m);
            path.push(name.clone());
            state = game.play(&state, m);
            name
        });
        let playout = t
            .playout
            .iter()
            .map(|&m| {
                let name = game.format_move(&state, m);
                state = game.play(&state, m);
                name
            })
            .collect();
        IterationReport {
            selection,
            expanded,
            untried,
            node: path.join("."),
            playout,
            end: game.format_position(&state),
            result: t.result_for_max,
        }
    }
}

impl MctsNodeReport {
    fn new<G: Notation>(
        game: &G,
        state: &G::State,
        n: &MctsNodeView<G::Move>,
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
                MctsNodeReport::new(game, &game.play(state, mv), ch, &path, Some(name))
            })
            .collect();
        MctsNodeReport {
            mv,
            node: node.to_string(),
            player: n.mover.map(|p| p.name().to_string()),
            visits: n.visits,
            mean: (n.mv.is_some() && n.visits > 0).then(|| round6(n.wins / n.visits as f64)),
            untried: n.untried,
            children,
        }
    }
}

/// A result for MAX in words.
fn result_words(r: f64) -> &'static str {
    if r > 0.75 {
        "MAX wins (1 for MAX, 0 for MIN)"
    } else if r < 0.25 {
        "MIN wins (0 for MAX, 1 for MIN)"
    } else {
        "a draw (1/2 each)"
    }
}

impl fmt::Display for MctsTraceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        let it = &self.iteration;
        writeln!(f, "{}", h.board)?;
        writeln!(
            f,
            "{}: iteration {} of {}",
            h.algo, self.iterations, self.iterations
        )?;
        writeln!(
            f,
            "1. selection (UCT: mean + c·sqrt(ln N / n), the highest followed):"
        )?;
        if it.selection.is_empty() {
            writeln!(f, "   the root still has untried moves: nothing to select")?;
        }
        for s in &it.selection {
            let at = if s.node.is_empty() { "root" } else { &s.node };
            if s.children.is_empty() {
                writeln!(f, "   at {at} ({}): outcome {} drawn", s.player, s.chosen)?;
                continue;
            }
            writeln!(f, "   at {at} ({} to choose, N = {}):", s.player, s.visits)?;
            for ch in &s.children {
                let uct = ch.uct.map_or("inf".to_string(), |u| format!("{u:.4}"));
                let mark = if ch.mv == s.chosen {
                    "  <- followed"
                } else {
                    ""
                };
                writeln!(
                    f,
                    "     {:<6} n {:>6}  mean {:.3}  uct {uct:>7}{mark}",
                    ch.mv, ch.visits, ch.mean
                )?;
            }
        }
        match &it.expanded {
            Some(m) => writeln!(
                f,
                "2. expansion: {m}, drawn at random from the untried {}",
                it.untried.join(" ")
            )?,
            None => writeln!(f, "2. expansion: none, the game is over at this node")?,
        }
        if it.playout.is_empty() {
            writeln!(f, "3. playout: none needed, the game is over")?;
        } else {
            writeln!(f, "3. playout: {}", it.playout.join(" "))?;
        }
        writeln!(f, "   result: {}", result_words(it.result))?;
        let node = if it.node.is_empty() { "root" } else { &it.node };
        writeln!(
            f,
            "4. backpropagation: {node} and every node above it, one more visit and the result"
        )?;
        writeln!(
            f,
            "after {} iterations, most visited first:",
            self.iterations
        )?;
        writeln!(f, "  move         visits     mean")?;
        for m in &self.moves {
            writeln!(f, "  {:<12} {:>6} {:>8.3}", m.mv, m.visits, m.mean)?;
        }
        Ok(())
    }
}

//! `trace`'s report: a search step by step.

use std::fmt;

use serde::{Deserialize, Serialize};

use ply_core::notation::Notation;
use ply_core::observe::{StepKind, Trace, path_name, value_text};

use super::{Number, Score};

/// The result of `trace`: a search step by step.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TraceReport {
    /// The game traced.
    pub game: String,
    /// The search (`alphabeta`, `minimax`, `expectiminimax+star1`).
    pub algo: String,
    /// The position traced (for the `tree` game, the tree).
    pub tree: String,
    /// The depth limit, if any.
    pub depth_limit: Option<u32>,
    /// The root's value.
    pub value: TraceValue,
    /// The leaves evaluated, in order, by path.
    pub evaluated: Vec<String>,
    /// The leaves never evaluated (pruned), by path; `None` when the whole
    /// tree has too many leaves to list.
    pub pruned: Option<Vec<String>>,
    /// Every step.
    pub steps: Vec<TraceStep>,
}

/// A trace's root value: an integer score, or an expectiminimax mean.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TraceValue {
    /// Minimax or alpha-beta.
    Score(Score),
    /// Expectiminimax.
    Mean(Number),
}

impl fmt::Display for TraceValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As the JSON writes it: 3, 2.5, "+inf".
        match self {
            TraceValue::Score(s) if s.0.is_infinite() => write!(f, "\"{}\"", s.0),
            TraceValue::Score(s) => write!(f, "{}", s.0.0),
            TraceValue::Mean(n) if n.0.is_infinite() => {
                write!(f, "\"{}\"", if n.0 > 0.0 { "+inf" } else { "-inf" })
            }
            TraceValue::Mean(n) if n.0.fract() == 0.0 && n.0.abs() < 9e15 => {
                write!(f, "{}", n.0 as i64)
            }
            TraceValue::Mean(n) => write!(f, "{}", (n.0 * 1e9).round() / 1e9),
        }
    }
}

/// One row of a trace table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TraceStep {
    /// 1-based.
    pub step: usize,
    /// enter, leaf, update, cutoff or return.
    pub event: String,
    /// The node, by its path of moves from the root in the game's move
    /// notation joined by dots (`""` for the root; `2.3` in a tree).
    pub node: String,
    /// The node's position in the game's notation.
    pub position: String,
    /// MAX, MIN or CHANCE.
    pub player: String,
    /// The node's alpha after the step, MAX's view (alpha-beta only).
    pub alpha: Option<Score>,
    /// The node's beta after the step.
    pub beta: Option<Score>,
    /// The node's value so far.
    pub value: Number,
    /// For an update: the child that returned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child: Option<String>,
    /// For an update: the child's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_value: Option<Number>,
    /// For an update at a chance node: the outcome's probability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability: Option<f64>,
    /// For a cutoff: children left untried.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pruned_children: Option<usize>,
}

/// Names trace nodes: a path of 1-based child indices (`2.3`, in the
/// order the search tried them, the game's for the traced searches) becomes
/// the path of moves in the game's notation and the node's position.
struct NodeNames<'a, G: Notation> {
    game: &'a G,
    root: G::State,
    known: std::collections::HashMap<String, (String, String)>,
}

impl<G: Notation> NodeNames<'_, G> {
    fn name(&mut self, path: &str) -> (String, String) {
        if let Some(n) = self.known.get(path) {
            return n.clone();
        }
        let (game, mut state) = (self.game, self.root.clone());
        let mut names = Vec::new();
        let mut moves = Vec::new();
        for i in path.split('.').filter(|p| !p.is_empty()) {
            moves.clear();
            game.legal_moves(&state, &mut moves);
            let Some(&m) = i
                .parse::<usize>()
                .ok()
                .and_then(|i| moves.get(i.wrapping_sub(1)))
            else {
                break;
            };
            names.push(game.format_move(&state, m));
            state = game.play(&state, m);
        }
        let named = (names.join("."), game.format_position(&state));
        self.known.insert(path.to_string(), named.clone());
        named
    }
}

impl TraceReport {
    /// The report of `trace`: the recorded search `algo` on `state` of
    /// `game` (registered as `name`), to `depth`; `all_leaves` lists every
    /// leaf (the pruned ones are those never evaluated) when known.
    #[allow(clippy::too_many_arguments)]
    pub fn new<G: Notation>(
        name: &str,
        game: &G,
        state: &G::State,
        algo: &str,
        depth: Option<u32>,
        value: TraceValue,
        trace: &Trace,
        all_leaves: Option<&[Vec<usize>]>,
    ) -> Self {
        let mut names = NodeNames {
            game,
            root: state.clone(),
            known: std::collections::HashMap::new(),
        };
        // A set, not a scan of the list: a tree of 200,000 leaves with
        // thousands evaluated took minutes under the fuzzer that way.
        let evaluated: std::collections::HashSet<&str> =
            trace.evaluated.iter().map(String::as_str).collect();
        let pruned = all_leaves.map(|leaves| {
            leaves
                .iter()
                .map(|p| path_name(p))
                .filter(|p| !evaluated.contains(p.as_str()))
                .map(|p| names.name(&p).0)
                .collect()
        });
        let steps = trace
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (node, position) = names.name(&s.path);
                TraceStep {
                    step: i + 1,
                    event: s.kind.name().to_string(),
                    node,
                    position,
                    player: s.node.name().to_string(),
                    alpha: s.window.map(|w| Score(w.alpha)),
                    beta: s.window.map(|w| Score(w.beta)),
                    value: Number(s.value),
                    child: s.child.as_ref().map(|c| names.name(&c.0).0),
                    child_value: s.child.as_ref().map(|c| Number(c.1)),
                    probability: s.child.as_ref().and_then(|c| c.2),
                    pruned_children: (s.kind == StepKind::Cutoff).then_some(s.pruned),
                }
            })
            .collect();
        TraceReport {
            game: name.to_string(),
            algo: algo.to_string(),
            tree: game.format_position(state),
            depth_limit: depth,
            value,
            evaluated: trace.evaluated.iter().map(|p| names.name(p).0).collect(),
            pruned,
            steps,
        }
    }
}

/// A signed value for people: `+3`, `-1`, `2.5`, `+inf`.
fn signed(v: f64) -> String {
    if v > 0.0 && v.is_finite() {
        format!("+{}", value_text(v))
    } else {
        value_text(v)
    }
}

impl TraceStep {
    /// The step's event in words, as the table's last column.
    fn event_text(&self) -> String {
        match self.event.as_str() {
            "update" => {
                let child = self.child.as_deref().unwrap_or("");
                let v = signed(self.child_value.map_or(0.0, |n| n.0));
                match self.probability {
                    Some(p) => format!("outcome {child} (p={}) returned {v}", value_text(p)),
                    None => format!("child {child} returned {v}"),
                }
            }
            "cutoff" => {
                let n = self.pruned_children.unwrap_or(0);
                match (self.alpha, self.beta) {
                    (Some(alpha), Some(beta)) => format!(
                        "CUTOFF (alpha {alpha} >= beta {beta}): {n} child{} pruned",
                        if n == 1 { "" } else { "ren" }
                    ),
                    _ => format!("CUTOFF (Star1: the bounds decide the node): {n} pruned"),
                }
            }
            _ => self.event.to_string(),
        }
    }
}

impl fmt::Display for TraceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let depth = self
            .depth_limit
            .map_or(String::new(), |d| format!(" to depth {d}"));
        if self.game == "tree" {
            writeln!(f, "{} on {}{depth}", self.algo, self.tree)?;
        } else {
            writeln!(f, "{} on {} {}{depth}", self.algo, self.game, self.tree)?;
        }
        // Nodes are named by their moves from the root: as wide as the longest.
        let w = self
            .steps
            .iter()
            .map(|s| s.node.len())
            .max()
            .unwrap_or(0)
            .max(8);
        writeln!(
            f,
            "{:>4}  {:<w$} {:<6} {:>6} {:>6} {:>8}  event",
            "step", "node", "player", "alpha", "beta", "value"
        )?;
        for s in &self.steps {
            let node = if s.node.is_empty() { "root" } else { &s.node };
            let bound = |b: Option<Score>| b.map_or("-".to_string(), |b| b.to_string());
            writeln!(
                f,
                "{:>4}  {:<w$} {:<6} {:>6} {:>6} {:>8}  {}",
                s.step,
                node,
                s.player,
                bound(s.alpha),
                bound(s.beta),
                signed(s.value.0),
                s.event_text()
            )?;
        }
        writeln!(f)?;
        writeln!(f, "value: {}", self.value)?;
        let evaluated = self.evaluated.join(" ");
        writeln!(f, "evaluated ({}): {evaluated}", self.evaluated.len())?;
        match &self.pruned {
            Some(p) if p.is_empty() => writeln!(f, "pruned (0): none"),
            Some(p) => writeln!(f, "pruned ({}): {}", p.len(), p.join(" ")),
            None => writeln!(f, "pruned: not listed (the whole tree has too many leaves)"),
        }
    }
}

/// A traced tree drawn in Graphviz's DOT language (`trace --dot`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DotReport {
    /// The drawing: `digraph { ... }`.
    pub dot: String,
}

impl fmt::Display for DotReport {
    /// The DOT text itself, for `dot -Tsvg`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.dot)
    }
}

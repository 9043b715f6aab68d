//! What a search emits as it runs, and the observers that listen.
//!
//! Every search reports the same small stream of events (enter a node, score
//! a leaf, a child's value comes back, a cutoff, leave a node) to an observer
//! type parameter. Statistics, the step-by-step trace and the tree picture are
//! all observers of that one stream, so there is no second, "teaching" copy of
//! any algorithm. With [`NoObserver`] every call is an empty inlined function
//! and compiles away; the `search` benchmark measures that.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::score::{MaxScore, Player, Window};

/// A value a search reports: an integer score ([`MaxScore`]) from minimax
/// and alpha-beta, or a probability-weighted mean (`f64`) from
/// expectiminimax. One set of events serves both.
pub trait EventValue: Copy {
    /// The value as an `f64`, infinities included.
    fn as_f64(self) -> f64;
}

impl EventValue for MaxScore {
    #[inline(always)]
    fn as_f64(self) -> f64 {
        score_f64(self)
    }
}

impl EventValue for f64 {
    #[inline(always)]
    fn as_f64(self) -> f64 {
        self
    }
}

/// Declares the [`Observer`] trait's events once, and from that one list
/// the trait itself and the two forwarding observers (a pair listens to
/// both halves; `&mut O` forwards to `O`), so adding an event is one line.
macro_rules! observer_events {
    ($(
        $(#[$doc:meta])*
        fn $name:ident $(<$v:ident: EventValue>)? (&mut self $(, $arg:ident: $ty:ty)*);
    )*) => {
        /// Receives a search's events. Every method has an empty default, so an
        /// observer implements only what it needs.
        ///
        /// `ply` is the distance from the root (the root is ply 0). `index` is the
        /// 0-based position of a child in the order the search tried its parent's
        /// moves; following indices from the root names a node. Windows and values
        /// are from MAX's view whatever the search does inside; searches without a
        /// window (minimax, expectiminimax) pass `None`. Values are integer
        /// scores or, from expectiminimax, `f64` means ([`EventValue`]).
        #[allow(unused_variables)]
        pub trait Observer {
            $(
                $(#[$doc])*
                #[inline(always)]
                fn $name $(<$v: EventValue>)? (&mut self $(, $arg: $ty)*) {}
            )*

            /// Whether the search should stop now (its client is gone, a
            /// deadline passed). Every search asks once every
            /// [`crate::search::CHECK_INTERVAL`] nodes (MCTS once an
            /// iteration), and stops with `SearchError::Stopped`; so an
            /// observer may look at the clock each time it is asked, and a
            /// search stops within that many nodes of the answer turning
            /// true. Default: never, which compiles the question away.
            #[inline(always)]
            fn should_stop(&mut self) -> bool {
                false
            }
        }

        /// Two observers listening to one search, e.g. `(Stats, Trace)`.
        impl<A: Observer, B: Observer> Observer for (A, B) {
            $(
                #[inline(always)]
                fn $name $(<$v: EventValue>)? (&mut self $(, $arg: $ty)*) {
                    self.0.$name($($arg),*);
                    self.1.$name($($arg),*);
                }
            )*

            #[inline(always)]
            fn should_stop(&mut self) -> bool {
                self.0.should_stop() || self.1.should_stop()
            }
        }

        impl<O: Observer + ?Sized> Observer for &mut O {
            $(
                #[inline(always)]
                fn $name $(<$v: EventValue>)? (&mut self $(, $arg: $ty)*) {
                    (**self).$name($($arg),*);
                }
            )*

            #[inline(always)]
            fn should_stop(&mut self) -> bool {
                (**self).should_stop()
            }
        }
    };
}

observer_events! {
    /// A node is entered: `index` is its place among its parent's children
    /// (`None` for the root), `node` who chooses there.
    fn enter(&mut self, ply: u32, index: Option<usize>, node: NodeKind, window: Option<Window>);

    /// The node just entered is a leaf, scored `value`: by utility when
    /// `terminal`, else by the evaluation at the depth limit.
    fn leaf<V: EventValue>(&mut self, ply: u32, value: V, terminal: bool);

    /// The child `index` of the node at `ply` returned `child` (with
    /// `probability` at a chance node); the node's value so far is `best`
    /// (at a chance node, the weighted sum so far) and its window is now
    /// `window`.
    fn child_value<V: EventValue>(
        &mut self,
        ply: u32,
        index: usize,
        child: V,
        best: V,
        probability: Option<f64>,
        window: Option<Window>
    );

    /// The node at `ply` stops after child `index`: `remaining` children are
    /// pruned (by alpha-beta's window, or at a chance node by Star1's bounds).
    fn cutoff(&mut self, ply: u32, index: usize, remaining: usize);

    /// The node at `ply` returns `value` to its parent.
    fn exit<V: EventValue>(&mut self, ply: u32, value: V);

    /// The transposition table was asked about the node at `ply`; `hit`
    /// when it held an entry for it.
    fn tt_probe(&mut self, ply: u32, hit: bool);

    /// The node at `ply` returns at once on what the table remembered.
    fn tt_cutoff(&mut self, ply: u32);
}

/// What kind of node an event is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// MAX chooses.
    Max,
    /// MIN chooses.
    Min,
    /// Nature chooses, by probability.
    Chance,
}

impl NodeKind {
    /// "MAX", "MIN" or "CHANCE".
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Max => "MAX",
            NodeKind::Min => "MIN",
            NodeKind::Chance => "CHANCE",
        }
    }
}

impl From<Player> for NodeKind {
    fn from(p: Player) -> NodeKind {
        match p {
            Player::Max => NodeKind::Max,
            Player::Min => NodeKind::Min,
        }
    }
}

/// The observer that observes nothing: the search at full speed.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// Counts of what a search did. A node is a position the search visits, the
/// root and terminal positions included; a leaf is a node scored by utility
/// or evaluation; a cutoff is a node that stopped before trying all its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited, root and terminals included.
    pub nodes: u64,
    /// Positions scored by utility or evaluation.
    pub leaves: u64,
    /// Nodes that returned before trying all their moves.
    pub cutoffs: u64,
    /// The deepest ply visited (the root is 0).
    pub max_ply: u32,
    /// Transposition-table look-ups.
    pub tt_probes: u64,
    /// Look-ups that found an entry for the position.
    pub tt_hits: u64,
    /// Nodes that returned at once on a table entry.
    pub tt_cutoffs: u64,
}

impl Stats {
    /// Adds another search's counts to these (the deepest ply is the larger).
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.cutoffs += other.cutoffs;
        self.max_ply = self.max_ply.max(other.max_ply);
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.tt_cutoffs += other.tt_cutoffs;
    }
}

impl Observer for Stats {
    #[inline(always)]
    fn enter(&mut self, ply: u32, _: Option<usize>, _: NodeKind, _: Option<Window>) {
        self.nodes += 1;
        self.max_ply = self.max_ply.max(ply);
    }
    #[inline(always)]
    fn leaf<V: EventValue>(&mut self, _: u32, _: V, _: bool) {
        self.leaves += 1;
    }
    #[inline(always)]
    fn cutoff(&mut self, _: u32, _: usize, _: usize) {
        self.cutoffs += 1;
    }
    #[inline(always)]
    fn tt_probe(&mut self, _: u32, hit: bool) {
        self.tt_probes += 1;
        self.tt_hits += u64::from(hit);
    }
    #[inline(always)]
    fn tt_cutoff(&mut self, _: u32) {
        self.tt_cutoffs += 1;
    }
}

/// Names a node by the 1-based indices of the children on its path from the
/// root, joined by dots: `"2.3"` is the third child of the second child. The
/// root is `""`.
pub fn path_name(path: &[usize]) -> String {
    let mut s = String::new();
    for (i, p) in path.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        let _ = write!(s, "{}", p + 1);
    }
    s
}

/// What happened at one step of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// A node is entered with its window.
    Enter,
    /// A leaf is scored (by utility, or by evaluation at the depth limit).
    Leaf,
    /// A child's value came back and the node's value so far is updated.
    Update,
    /// The node stops: its remaining children are pruned.
    Cutoff,
    /// The node returns its value.
    Return,
}

impl StepKind {
    /// The word a trace table prints.
    pub fn name(self) -> &'static str {
        match self {
            StepKind::Enter => "enter",
            StepKind::Leaf => "leaf",
            StepKind::Update => "update",
            StepKind::Cutoff => "cutoff",
            StepKind::Return => "return",
        }
    }
}

/// One row of a trace. Values are `f64` so that one trace serves minimax,
/// alpha-beta (integers) and expectiminimax (probability-weighted means);
/// the infinities of an empty node are `f64` infinities.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// What happened.
    pub kind: StepKind,
    /// The node it happened at, as a [`path_name`].
    pub path: String,
    /// Who chooses at that node.
    pub node: NodeKind,
    /// The node's window after the step (MAX's view), if the search has one.
    pub window: Option<Window>,
    /// The node's value so far (its returned value on `Return` and `Leaf`).
    pub value: f64,
    /// For `Update`: the child's path, value, and probability at a chance node.
    pub child: Option<(String, f64, Option<f64>)>,
    /// For `Cutoff`: the number of children left untried.
    pub pruned: usize,
}

/// An `f64` for a MAX-view score, infinities included.
pub fn score_f64(v: MaxScore) -> f64 {
    if v.0 >= crate::score::INF {
        f64::INFINITY
    } else if v.0 <= -crate::score::INF {
        f64::NEG_INFINITY
    } else {
        f64::from(v.0)
    }
}

struct Frame {
    node: NodeKind,
    window: Option<Window>,
    best: f64,
}

/// Records a search step by step: the rows of a trace table, the leaves
/// evaluated in order, and the value every visited node returned (which a
/// tree picture draws). Meant for small trees: it allocates on every event,
/// and every row names its node by its whole path, so a trace costs its
/// rows times their depth ([`Trace::with_max_ply`] bounds the second).
#[derive(Default)]
pub struct Trace {
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// The paths of the leaves scored, in the order they were scored.
    pub evaluated: Vec<String>,
    /// The value each visited node returned, by path.
    pub values: HashMap<String, f64>,
    path: Vec<usize>,
    frames: Vec<Frame>,
    max_ply: Option<usize>,
    too_deep: bool,
}

impl Trace {
    /// An empty trace, as deep as the search goes.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty trace that asks the search to stop (through
    /// [`Observer::should_stop`]) once it enters a node deeper than
    /// `max_ply`: a line thousands of plies long (a pile of coins taken one
    /// at a time) would otherwise make rows of thousands of characters each,
    /// gigabytes within a few thousand nodes.
    pub fn with_max_ply(max_ply: usize) -> Self {
        Trace {
            max_ply: Some(max_ply),
            ..Self::default()
        }
    }

    /// Whether the search went past [`Trace::with_max_ply`]'s limit (and
    /// was asked to stop).
    pub fn too_deep(&self) -> bool {
        self.too_deep
    }

    fn current(&self) -> String {
        path_name(&self.path)
    }

    fn on_enter(&mut self, index: Option<usize>, node: NodeKind, window: Option<Window>) {
        if let Some(i) = index {
            self.path.push(i);
        }
        if self.max_ply.is_some_and(|m| self.path.len() > m) {
            self.too_deep = true;
        }
        let best = match node {
            NodeKind::Max => f64::NEG_INFINITY,
            NodeKind::Min => f64::INFINITY,
            NodeKind::Chance => 0.0,
        };
        self.frames.push(Frame { node, window, best });
        self.steps.push(Step {
            kind: StepKind::Enter,
            path: self.current(),
            node,
            window,
            value: best,
            child: None,
            pruned: 0,
        });
    }

    fn on_leaf(&mut self, value: f64) {
        // A leaf's enter row becomes its leaf row: one line per leaf.
        if let Some(last) = self.steps.last_mut() {
            last.kind = StepKind::Leaf;
            last.value = value;
        }
        if let Some(f) = self.frames.last_mut() {
            f.best = value;
        }
        self.evaluated.push(self.current());
    }

    fn on_child(
        &mut self,
        index: usize,
        child: f64,
        probability: Option<f64>,
        best: f64,
        window: Option<Window>,
    ) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        f.best = best;
        f.window = window;
        let node = f.node;
        let mut child_path = self.path.clone();
        child_path.push(index);
        self.steps.push(Step {
            kind: StepKind::Update,
            path: self.current(),
            node,
            window,
            value: best,
            child: Some((path_name(&child_path), child, probability)),
            pruned: 0,
        });
    }

    fn on_cutoff(&mut self, remaining: usize) {
        let Some(f) = self.frames.last() else {
            return;
        };
        let step = Step {
            kind: StepKind::Cutoff,
            path: self.current(),
            node: f.node,
            window: f.window,
            value: f.best,
            child: None,
            pruned: remaining,
        };
        self.steps.push(step);
    }

    fn on_exit(&mut self, value: f64) {
        let Some(f) = self.frames.pop() else {
            return;
        };
        let path = self.current();
        self.values.insert(path.clone(), value);
        let was_leaf = self
            .steps
            .last()
            .is_some_and(|s| s.kind == StepKind::Leaf && s.path == path);
        if !was_leaf {
            self.steps.push(Step {
                kind: StepKind::Return,
                path,
                node: f.node,
                window: f.window,
                value,
                child: None,
                pruned: 0,
            });
        }
        self.path.pop();
    }
}

impl Observer for Trace {
    fn enter(&mut self, _ply: u32, index: Option<usize>, node: NodeKind, window: Option<Window>) {
        self.on_enter(index, node, window);
    }
    fn leaf<V: EventValue>(&mut self, _ply: u32, value: V, _terminal: bool) {
        self.on_leaf(value.as_f64());
    }
    fn child_value<V: EventValue>(
        &mut self,
        _ply: u32,
        index: usize,
        child: V,
        best: V,
        probability: Option<f64>,
        window: Option<Window>,
    ) {
        self.on_child(index, child.as_f64(), probability, best.as_f64(), window);
    }
    fn cutoff(&mut self, _ply: u32, _index: usize, remaining: usize) {
        self.on_cutoff(remaining);
    }
    fn exit<V: EventValue>(&mut self, _ply: u32, value: V) {
        self.on_exit(value.as_f64());
    }
    fn should_stop(&mut self) -> bool {
        self.too_deep
    }
}

/// A value for people: integers without decimals, others to 4 places,
/// infinities as `+inf`/`-inf`.
pub fn value_text(v: f64) -> String {
    if v == f64::INFINITY {
        "+inf".into()
    } else if v == f64::NEG_INFINITY {
        "-inf".into()
    } else if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// How [`tree_dot`] draws a tree.
pub struct DotStyle<'a, S> {
    /// A picture of each node's position under its value (a game's board);
    /// `None`: values only, as for explicit trees.
    pub board: Option<&'a dyn Fn(&S) -> String>,
    /// Draw the whole tree below pruned nodes too (small trees); off, a
    /// pruned node is drawn once, dashed, without what lies below it.
    pub expand_pruned: bool,
}

/// Draws the tree below `state` as Graphviz DOT, with the values a traced
/// search returned at the nodes it visited. Nodes and edges it never visited
/// (pruned) are drawn dashed and grey, leaves with their utility in grey.
/// MAX nodes are triangles pointing up, MIN nodes pointing down, chance
/// nodes circles (edges labelled with probabilities), leaves boxes; with a
/// board, every node is a box with its picture.
pub fn tree_dot<G: crate::game::Chance>(
    game: &G,
    state: &G::State,
    trace: &Trace,
    style: &DotStyle<'_, G::State>,
) -> String {
    let mut out = String::from(
        "digraph search {\n  node [fontname=\"Helvetica\"];\n  edge [arrowhead=none];\n",
    );
    dot_node(game, state, trace, style, &mut Vec::new(), &mut out);
    out.push_str("}\n");
    out
}

fn dot_id(path: &[usize]) -> String {
    if path.is_empty() {
        "root".to_string()
    } else {
        format!("n{}", path_name(path).replace('.', "_"))
    }
}

/// One node of [`tree_dot`] and, unless pruned and not expanded, its children.
fn dot_node<G: crate::game::Chance>(
    game: &G,
    state: &G::State,
    trace: &Trace,
    style: &DotStyle<'_, G::State>,
    path: &mut Vec<usize>,
    out: &mut String,
) {
    let name = path_name(path);
    let visited = trace.values.get(&name).copied();
    let terminal = game.is_terminal(state);
    let shape = if style.board.is_some() || terminal {
        "box"
    } else if game.is_chance(state) {
        "circle"
    } else {
        match game.to_move(state) {
            Player::Max => "triangle",
            Player::Min => "invtriangle",
        }
    };
    let mut label = match (visited, terminal) {
        (Some(v), _) => value_text(v),
        (None, true) => game.utility(state).to_string(),
        (None, false) => String::new(),
    };
    if let Some(board) = style.board {
        let picture = board(state).replace('\\', "\\\\").replace('"', "\\\"");
        label = format!("{label}\\n{}\\l", picture.trim_end().replace('\n', "\\l"));
    }
    let dashed = ", style=dashed, color=grey, fontcolor=grey";
    let tip = if name.is_empty() { "root" } else { &name };
    let _ = writeln!(
        out,
        "  {} [shape={shape}, label=\"{label}\", tooltip=\"{tip}\"{}];",
        dot_id(path),
        if visited.is_some() { "" } else { dashed }
    );
    if terminal || (visited.is_none() && !style.expand_pruned && !path.is_empty()) {
        return;
    }
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    game.legal_moves(state, &mut moves);
    game.chance_outcomes(state, &mut outcomes);
    for (i, &m) in moves.iter().enumerate() {
        path.push(i);
        let mut attrs = Vec::new();
        if let Some((_, p)) = outcomes.get(i) {
            attrs.push(format!("label=\"{}\"", value_text(*p)));
        }
        if !trace.values.contains_key(&path_name(path)) {
            attrs.push("style=dashed, color=grey".to_string());
        }
        let edge = if attrs.is_empty() {
            String::new()
        } else {
            format!(" [{}]", attrs.join(", "))
        };
        let _ = writeln!(
            out,
            "  {} -> {}{edge};",
            dot_id(&path[..path.len() - 1]),
            dot_id(path)
        );
        dot_node(game, &game.play(state, m), trace, style, path, out);
        path.pop();
    }
}

//! Explicit game trees, as the textbooks draw them: nested parentheses with
//! integer leaves, e.g. `((3 12 8) (2 4 6) (14 5 2))`.
//!
//! The root is MAX and levels alternate (a position may end in `/min` to
//! give the move to MIN at its root). A move is a 1-based child index, and a
//! node is named by the path of child indices from the root, like `2.3`.
//!
//! Chance nodes: `[p1 child1 p2 child2 ...]` is a node where nature picks
//! child i with probability pi (decimal numbers summing to 1). Chance nodes
//! do not count as a level: decision levels alternate MAX, MIN, MAX ... from
//! the first decision level, so in `[0.5 (3 12) 0.5 (2 4)]` both decision
//! nodes are MAX's. An outcome is addressed by its 1-based index, like a child.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use ply_core::score::MAX_GAME_SCORE;
use ply_core::registry::{GameSpec, ParamValues, Registered, SetupError};
use ply_core::{Chance, Game, MaxScore, Notation, ParseError, Player};

/// The tree game. It has no parameters: the tree is the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tree;

/// The default position: the two-ply tree of Russell & Norvig's Figure 5.2.
pub const DEFAULT_TREE: &str = "((3 12 8) (2 4 6) (14 5 2))";

#[derive(Clone, Debug)]
enum Node {
    Leaf(i32),
    Inner(Vec<u32>),
    Chance(Vec<(f64, u32)>),
}

/// How far the probabilities of a chance node may sum from 1.
pub const PROBABILITY_TOLERANCE: f64 = 1e-9;

#[derive(Debug)]
struct Arena {
    nodes: Vec<Node>,
    /// A structural hash of each subtree, so equal subtrees hash equally.
    hashes: Vec<u64>,
}

/// A position in an explicit tree: a node, and who moves there.
///
/// Equality is structural (the same subtree, the same player to move), so
/// a position read back from its notation equals the original.
#[derive(Clone, Debug)]
pub struct TreeState {
    arena: Arc<Arena>,
    node: u32,
    to_move: Player,
}

impl TreeState {
    fn node(&self) -> &Node {
        &self.arena.nodes[self.node as usize]
    }

    /// The leaf value, if this is a leaf.
    pub fn leaf_value(&self) -> Option<i32> {
        match self.node() {
            Node::Leaf(v) => Some(*v),
            _ => None,
        }
    }

    /// The number of children (0 for a leaf).
    pub fn children(&self) -> usize {
        match self.node() {
            Node::Leaf(_) => 0,
            Node::Inner(c) => c.len(),
            Node::Chance(c) => c.len(),
        }
    }

    fn child(&self, i: usize) -> u32 {
        match self.node() {
            Node::Leaf(_) => panic!("a leaf has no children"),
            Node::Inner(c) => c[i],
            Node::Chance(c) => c[i].1,
        }
    }
}

fn same_subtree(a: &Arena, x: u32, b: &Arena, y: u32) -> bool {
    if a.hashes[x as usize] != b.hashes[y as usize] {
        return false;
    }
    match (&a.nodes[x as usize], &b.nodes[y as usize]) {
        (Node::Leaf(p), Node::Leaf(q)) => p == q,
        (Node::Inner(p), Node::Inner(q)) => {
            p.len() == q.len() && p.iter().zip(q).all(|(&i, &j)| same_subtree(a, i, b, j))
        }
        (Node::Chance(p), Node::Chance(q)) => {
            p.len() == q.len()
                && p.iter()
                    .zip(q)
                    .all(|(&(pi, i), &(pj, j))| pi == pj && same_subtree(a, i, b, j))
        }
        _ => false,
    }
}

impl PartialEq for TreeState {
    fn eq(&self, other: &Self) -> bool {
        self.to_move == other.to_move
            && (Arc::ptr_eq(&self.arena, &other.arena) && self.node == other.node
                || same_subtree(&self.arena, self.node, &other.arena, other.node))
    }
}

impl Eq for TreeState {}

impl Hash for TreeState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.arena.hashes[self.node as usize].hash(state);
        self.to_move.hash(state);
    }
}

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    nodes: Vec<Node>,
    _text: &'a str,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.chars.len() && self.chars[self.pos].is_whitespace() {
            self.pos += 1;
        }
    }

    fn col(&self) -> usize {
        self.pos + 1
    }

    fn node(&mut self) -> Result<u32, ParseError> {
        self.skip_ws();
        match self.chars.get(self.pos) {
            None => Err(ParseError::at(
                self.col(),
                "unexpected end of tree: expected a number or '('",
            )),
            Some('(') => {
                let open = self.col();
                self.pos += 1;
                let mut children = Vec::new();
                loop {
                    self.skip_ws();
                    match self.chars.get(self.pos) {
                        None => {
                            return Err(ParseError::at(
                                self.col(),
                                format!(
                                    "unexpected end of tree: the '(' at column {open} is never closed"
                                ),
                            ));
                        }
                        Some(')') => {
                            self.pos += 1;
                            break;
                        }
                        Some(_) => children.push(self.node()?),
                    }
                }
                if children.is_empty() {
                    return Err(ParseError::at(
                        open,
                        "empty node '()': a node needs at least one child",
                    ));
                }
                self.nodes.push(Node::Inner(children));
                Ok(self.nodes.len() as u32 - 1)
            }
            Some('[') => self.chance(),
            Some(']') => Err(ParseError::at(
                self.col(),
                "unexpected ']': there is no open '[' here",
            )),
            Some(&c) if c == '-' || c == '+' || c.is_ascii_digit() => {
                let start = self.pos;
                self.pos += 1;
                while self
                    .chars
                    .get(self.pos)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '.')
                {
                    self.pos += 1;
                }
                let word: String = self.chars[start..self.pos].iter().collect();
                let v: i64 = word.parse().map_err(|_| {
                    ParseError::at(start + 1, format!("'{word}' is not an integer leaf value"))
                })?;
                if v.abs() >= i64::from(MAX_GAME_SCORE) {
                    return Err(ParseError::at(
                        start + 1,
                        format!(
                            "leaf value {v} is too large (at most {} in size)",
                            MAX_GAME_SCORE - 1
                        ),
                    ));
                }
                self.nodes.push(Node::Leaf(v as i32));
                Ok(self.nodes.len() as u32 - 1)
            }
            Some(')') => Err(ParseError::at(
                self.col(),
                "unexpected ')': there is no open '(' here",
            )),
            Some(&c) => Err(ParseError::at(
                self.col(),
                format!("expected a number or '(', found '{c}'"),
            )),
        }
    }
}

impl Parser<'_> {
    /// A word of number characters at the current position, with its column.
    fn word(&mut self) -> (String, usize) {
        let start = self.pos;
        while self
            .chars
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
        {
            self.pos += 1;
        }
        (self.chars[start..self.pos].iter().collect(), start + 1)
    }

    /// `[p1 child1 p2 child2 ...]`, at the '['.
    fn chance(&mut self) -> Result<u32, ParseError> {
        let open = self.col();
        self.pos += 1;
        let mut outcomes = Vec::new();
        let mut total = 0.0;
        loop {
            self.skip_ws();
            match self.chars.get(self.pos) {
                None => {
                    return Err(ParseError::at(
                        self.col(),
                        format!("unexpected end of tree: the '[' at column {open} is never closed"),
                    ));
                }
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                Some(&c) if c.is_ascii_digit() || c == '.' || c == '-' || c == '+' => {
                    let (word, col) = self.word();
                    let p: f64 = word.parse().map_err(|_| {
                        ParseError::at(col, format!("'{word}' is not a probability"))
                    })?;
                    if !p.is_finite() || p < 0.0 {
                        return Err(ParseError::at(
                            col,
                            format!(
                                "probability {word} is negative; probabilities are from 0 to 1"
                            ),
                        ));
                    }
                    if p > 1.0 {
                        return Err(ParseError::at(
                            col,
                            format!("probability {word} is above 1"),
                        ));
                    }
                    self.skip_ws();
                    match self.chars.get(self.pos) {
                        None | Some(']') => {
                            return Err(ParseError::at(
                                self.col(),
                                format!(
                                    "the probability {word} at column {col} has no child after it: write [p1 child1 p2 child2 ...]"
                                ),
                            ));
                        }
                        _ => {}
                    }
                    let child = self.node()?;
                    total += p;
                    outcomes.push((p, child));
                }
                Some(&c) => {
                    return Err(ParseError::at(
                        self.col(),
                        format!(
                            "expected a probability before each child of a chance node, found '{c}'"
                        ),
                    ));
                }
            }
        }
        if outcomes.is_empty() {
            return Err(ParseError::at(
                open,
                "empty chance node '[]': it needs at least one outcome",
            ));
        }
        if (total - 1.0).abs() > PROBABILITY_TOLERANCE {
            return Err(ParseError::at(
                open,
                format!("the probabilities of this chance node sum to {total}, not 1"),
            ));
        }
        self.nodes.push(Node::Chance(outcomes));
        Ok(self.nodes.len() as u32 - 1)
    }
}

fn subtree_hashes(nodes: &[Node]) -> Vec<u64> {
    // Children are pushed before their parents, so one forward pass works.
    let mut hashes = vec![0u64; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        let mut h = ply_core::game::FixedHasher::default();
        match n {
            Node::Leaf(v) => (0u8, v).hash(&mut h),
            Node::Inner(c) => {
                1u8.hash(&mut h);
                for &ch in c {
                    hashes[ch as usize].hash(&mut h);
                }
            }
            Node::Chance(c) => {
                2u8.hash(&mut h);
                for &(p, ch) in c {
                    p.to_bits().hash(&mut h);
                    hashes[ch as usize].hash(&mut h);
                }
            }
        }
        hashes[i] = h.finish();
    }
    hashes
}

impl Tree {
    fn write(&self, s: &TreeState, node: u32, out: &mut String) {
        match &s.arena.nodes[node as usize] {
            Node::Leaf(v) => out.push_str(&v.to_string()),
            Node::Inner(c) => {
                out.push('(');
                for (i, &ch) in c.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    self.write(s, ch, out);
                }
                out.push(')');
            }
            Node::Chance(c) => {
                out.push('[');
                for (i, &(p, ch)) in c.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push_str(&format!("{p} "));
                    self.write(s, ch, out);
                }
                out.push(']');
            }
        }
    }

    /// The smallest and largest leaf below `node`.
    fn leaf_range(arena: &Arena, node: u32) -> (i32, i32) {
        match &arena.nodes[node as usize] {
            Node::Leaf(v) => (*v, *v),
            Node::Inner(c) => c.iter().fold((i32::MAX, i32::MIN), |(lo, hi), &ch| {
                let (l, h) = Self::leaf_range(arena, ch);
                (lo.min(l), hi.max(h))
            }),
            Node::Chance(c) => c.iter().fold((i32::MAX, i32::MIN), |(lo, hi), &(_, ch)| {
                let (l, h) = Self::leaf_range(arena, ch);
                (lo.min(l), hi.max(h))
            }),
        }
    }
}

impl Game for Tree {
    type State = TreeState;
    type Move = u32;

    fn initial_state(&self) -> TreeState {
        self.parse_position(DEFAULT_TREE)
            .expect("the default tree parses")
    }

    fn to_move(&self, s: &TreeState) -> Player {
        s.to_move
    }

    fn legal_moves(&self, s: &TreeState, moves: &mut Vec<u32>) {
        moves.extend(0..s.children() as u32);
    }

    fn play(&self, s: &TreeState, mv: u32) -> TreeState {
        // Chance nodes are not a level: the same player moves after them.
        let to_move = if self.is_chance(s) {
            s.to_move
        } else {
            s.to_move.opponent()
        };
        TreeState {
            arena: Arc::clone(&s.arena),
            node: s.child(mv as usize),
            to_move,
        }
    }

    fn is_terminal(&self, s: &TreeState) -> bool {
        matches!(s.node(), Node::Leaf(_))
    }

    fn utility(&self, s: &TreeState) -> MaxScore {
        MaxScore(s.leaf_value().unwrap_or(0))
    }
}

impl Chance for Tree {
    const HAS_CHANCE: bool = true;

    fn is_chance(&self, s: &TreeState) -> bool {
        matches!(s.node(), Node::Chance(_))
    }

    fn chance_outcomes(&self, s: &TreeState, outcomes: &mut Vec<(u32, f64)>) {
        if let Node::Chance(c) = s.node() {
            outcomes.extend(c.iter().enumerate().map(|(i, &(p, _))| (i as u32, p)));
        }
    }

    /// The range of the leaves (and 0, the evaluation of an inner node at
    /// a depth limit).
    fn value_bounds(&self, s: &TreeState, exact: bool) -> Option<(MaxScore, MaxScore)> {
        let (lo, hi) = Tree::leaf_range(&s.arena, s.node);
        let (lo, hi) = if exact {
            (lo, hi)
        } else {
            (lo.min(0), hi.max(0))
        };
        Some((MaxScore(lo), MaxScore(hi)))
    }
}

ply_core::no_hooks!(Tree: Evaluation, Shortcuts, EngineHooks, Playouts, Impartial, Learn);

impl Registered for Tree {
    const SPEC: GameSpec = GameSpec {
        default_position: DEFAULT_TREE,
        ..GameSpec::new(
            "tree",
            "an explicit game tree with integer leaves; the root is MAX and levels alternate",
            "nested parentheses with integer leaves, e.g. ((3 5 7) (2 9 1)); [p1 child1 p2 child2 ...] is a chance node whose outcomes have probabilities p1, p2, ... (decimals summing to 1; not a level: decision levels alternate MAX, MIN from the first); append /min to give the root to MIN",
            "a 1-based child (or outcome) index; a node is named by its path from the root, e.g. 2.3",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(Tree)
    }
}

impl Notation for Tree {
    fn parse_position(&self, text: &str) -> Result<TreeState, ParseError> {
        let (tree, to_move) = match text.rfind('/') {
            Some(i) => {
                let side = text[i + 1..].trim().to_ascii_lowercase();
                let col = text[..i].chars().count() + 2;
                let p = match side.as_str() {
                    "max" => Player::Max,
                    "min" => Player::Min,
                    _ => {
                        return Err(ParseError::at(
                            col,
                            format!("expected 'max' or 'min' after '/', found '{side}'"),
                        ));
                    }
                };
                (&text[..i], p)
            }
            None => (text, Player::Max),
        };
        let mut p = Parser {
            chars: tree.chars().collect(),
            pos: 0,
            nodes: Vec::new(),
            _text: tree,
        };
        p.skip_ws();
        if p.pos == p.chars.len() {
            return Err(ParseError::new(
                "the tree is empty: write a leaf like 5 or a node like ((3 5) (2 9))",
            ));
        }
        let root = p.node()?;
        p.skip_ws();
        if let Some(&c) = p.chars.get(p.pos) {
            let what = if c == ')' {
                "unexpected ')': it closes nothing".to_string()
            } else {
                format!("unexpected '{c}' after the end of the tree")
            };
            return Err(ParseError::at(p.col(), what));
        }
        let hashes = subtree_hashes(&p.nodes);
        Ok(TreeState {
            arena: Arc::new(Arena {
                nodes: p.nodes,
                hashes,
            }),
            node: root,
            to_move,
        })
    }

    fn format_position(&self, s: &TreeState) -> String {
        let mut out = String::new();
        self.write(s, s.node, &mut out);
        if s.to_move == Player::Min {
            out.push_str("/min");
        }
        out
    }

    fn parse_move(&self, s: &TreeState, text: &str) -> Result<u32, ParseError> {
        let t = text.trim();
        let n = s.children();
        if n == 0 {
            return Err(ParseError::new("a leaf has no moves"));
        }
        let what = if self.is_chance(s) {
            "outcome"
        } else {
            "child"
        };
        match t.parse::<usize>() {
            Ok(i) if (1..=n).contains(&i) => Ok(i as u32 - 1),
            _ => Err(ParseError::new(format!(
                "'{t}' is not a{}: this node has {what}s 1 to {n}",
                if what == "outcome" {
                    "n outcome"
                } else {
                    " child"
                }
            ))),
        }
    }

    fn format_move(&self, _: &TreeState, mv: u32) -> String {
        (mv + 1).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::conformance;

    #[test]
    fn conformance_kit() {
        let starts = [
            "((3 12 8) (2 4 6) (14 5 2))",
            "5",
            "(((1 2) 3) (4 (5 6 7)))/min",
            "((-3 (2 -9)) 0)",
        ]
        .iter()
        .map(|t| Tree.parse_position(t).unwrap())
        .collect();
        let cfg = conformance::Config {
            starts,
            playouts: 20,
            perft: vec![(1, 3), (2, 9)],
            ..Default::default()
        };
        let summary = conformance::check(&Tree, &cfg).unwrap();
        // Every position of these small trees can be solved.
        assert!(summary.values > 20, "{summary:?}");
    }

    #[test]
    fn parse_errors_have_columns() {
        let e = Tree.parse_position("((1 2) (3").unwrap_err();
        assert_eq!(e.column, Some(10));
        assert!(e.message.contains("column 8"), "{e}");
        let e = Tree.parse_position("((1 x) (3 4))").unwrap_err();
        assert_eq!(e.column, Some(5));
        assert!(
            Tree.parse_position("")
                .unwrap_err()
                .message
                .contains("empty")
        );
        assert!(
            Tree.parse_position("  ")
                .unwrap_err()
                .message
                .contains("empty")
        );
        assert_eq!(Tree.parse_position("(1 ())").unwrap_err().column, Some(4));
        assert_eq!(Tree.parse_position("(1 2))").unwrap_err().column, Some(6));
        assert_eq!(Tree.parse_position("(1 2.5)").unwrap_err().column, Some(4));
    }

    #[test]
    fn chance_nodes() {
        let s = Tree.parse_position("[0.5 (3 12) 0.5 (2 4)]").unwrap();
        assert!(Tree.is_chance(&s));
        assert_eq!(Tree.to_move(&Tree.play(&s, 0)), Player::Max);
        assert_eq!(Tree.format_position(&s), "[0.5 (3 12) 0.5 (2 4)]");
        let e = |t: &str| Tree.parse_position(t).unwrap_err();
        assert!(e("[0.5 1 0.4 2]").message.contains("sum to"));
        assert_eq!(e("[0.5 1 0.4 2]").column, Some(1));
        assert_eq!(e("(1 [-0.5 1 1.5 2])").column, Some(5));
        assert!(e("[]").message.contains("empty chance node"));
        let missing = e("[0.5 (1 2) 0.5]");
        assert_eq!(missing.column, Some(15));
        assert!(missing.message.contains("no child"), "{missing}");
        assert!(
            e("[0.5 (1 2) x]")
                .message
                .contains("expected a probability")
        );
        let starts = vec![
            Tree.parse_position("[0.25 (1 [0.5 2 0.5 -3]) 0.75 ((4 5) 6)]")
                .unwrap(),
        ];
        let cfg = conformance::Config {
            starts,
            playouts: 20,
            ..Default::default()
        };
        let summary = conformance::check(&Tree, &cfg).unwrap();
        assert!(summary.chance_nodes >= 20, "{summary:?}");
    }

    #[test]
    fn structural_equality() {
        let a = Tree.parse_position("((1 2) (1 2))").unwrap();
        let c0 = Tree.play(&a, 0);
        let c1 = Tree.play(&a, 1);
        assert_eq!(c0, c1);
        assert_eq!(Tree.format_position(&c0), "(1 2)/min");
        assert_ne!(c0, Tree.parse_position("(1 2)").unwrap());
    }
}

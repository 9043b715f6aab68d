//! Explicit game trees, as the textbooks draw them: nested parentheses with
//! integer leaves, e.g. `((3 12 8) (2 4 6) (14 5 2))`.
//!
//! The root is MAX and levels alternate (a position may end in `/min` to
//! give the move to MIN at its root). A move is a 1-based child index, and a
//! node is named by the path of child indices from the root, like `2.3`.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use ply_core::score::MAX_GAME_SCORE;
use ply_core::{Game, MaxScore, Notation, ParseError, Player};

/// The tree game. It has no parameters: the tree is the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tree;

/// The default position: the two-ply tree of Russell & Norvig's Figure 5.2.
pub const DEFAULT_TREE: &str = "((3 12 8) (2 4 6) (14 5 2))";

#[derive(Clone, Debug)]
enum Node {
    Leaf(i32),
    Inner(Vec<u32>),
}

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
            Node::Inner(_) => None,
        }
    }

    /// The number of children (0 for a leaf).
    pub fn children(&self) -> usize {
        match self.node() {
            Node::Leaf(_) => 0,
            Node::Inner(c) => c.len(),
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
        let Node::Inner(c) = s.node() else {
            panic!("play on a leaf: {mv} is not a legal move");
        };
        TreeState {
            arena: Arc::clone(&s.arena),
            node: c[mv as usize],
            to_move: s.to_move.opponent(),
        }
    }

    fn is_terminal(&self, s: &TreeState) -> bool {
        matches!(s.node(), Node::Leaf(_))
    }

    fn utility(&self, s: &TreeState) -> MaxScore {
        MaxScore(s.leaf_value().unwrap_or(0))
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
        match t.parse::<usize>() {
            Ok(i) if (1..=n).contains(&i) => Ok(i as u32 - 1),
            _ => Err(ParseError::new(format!(
                "'{t}' is not a child: this node has children 1 to {n}"
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
        conformance::check(&Tree, &cfg).unwrap();
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
    fn structural_equality() {
        let a = Tree.parse_position("((1 2) (1 2))").unwrap();
        let c0 = Tree.play(&a, 0);
        let c1 = Tree.play(&a, 1);
        assert_eq!(c0, c1);
        assert_eq!(Tree.format_position(&c0), "(1 2)/min");
        assert_ne!(c0, Tree.parse_position("(1 2)").unwrap());
    }
}

//! Green Hackenbush on rooted trees (the lesson's `ab-tree-game`): trees
//! standing on the ground; a move deletes one edge, and whatever is no
//! longer connected to the ground falls away; the player who cannot move
//! (only bare roots are left) loses.
//!
//! Theory, the colon principle: a leaf is worth 0, and a node the XOR over
//! its children c of (value(c) + 1); a forest is worth the XOR of its
//! trees. The nimber search splits a forest into single branches on the
//! ground ([`Impartial::components`]).
//!
//! Position notation: each tree as nested parentheses, a node being `(` its
//! children `)`, the root on the ground: `()` is a bare root, `(())` one
//! edge, `(((())))` a stalk of three, `(()())` two edges on the root; trees
//! separated by spaces; `/min` when MIN is to move. A move `t.k` deletes
//! the edge above node k of tree t, nodes numbered 1, 2, ... in the order
//! their `(` appear after the root's (a lone tree's `k` alone reads too).

use ply_core::registry::{GameSpec, ParamValues, Registered, SetupError};
use ply_core::{Game, Impartial, MaxScore, Notation, ParseError, Player};

use crate::common::{normal_play, split_side, with_side};

/// The most edges a forest may have.
pub const MAX_EDGES: usize = 500;

/// Green Hackenbush on trees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hackenbush;

/// The trees, each as its parentheses (the root's first), and who moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Forest {
    /// Each tree's parentheses, `b'('` and `b')'`.
    pub trees: Vec<Vec<u8>>,
    /// Who is to move.
    pub to_move: Player,
}

/// Cut the edge above node `node` (from 1, in order of its `(`) of tree
/// `tree` (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The tree, from 0.
    pub tree: u16,
    /// The node below the edge, from 1 (0 is the root).
    pub node: u16,
}

/// The byte range of node `k`'s subtree (its `(` to its matching `)`).
fn subtree(tree: &[u8], k: usize) -> (usize, usize) {
    let start = tree
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'(')
        .nth(k)
        .map_or(0, |(i, _)| i);
    let mut depth = 0;
    for (i, &b) in tree.iter().enumerate().skip(start) {
        depth += if b == b'(' { 1 } else { -1 };
        if depth == 0 {
            return (start, i);
        }
    }
    (start, tree.len() - 1)
}

/// The root's children's subtrees, each as its own parentheses.
fn branches(tree: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, &b) in tree.iter().enumerate().take(tree.len().saturating_sub(1)).skip(1) {
        if b == b'(' {
            if depth == 0 {
                start = i;
            }
            depth += 1;
        } else {
            depth -= 1;
            if depth == 0 {
                out.push(&tree[start..=i]);
            }
        }
    }
    out
}

impl Game for Hackenbush {
    type State = Forest;
    type Move = Cut;

    fn initial_state(&self) -> Forest {
        self.parse_position("(()(()))").expect("the default forest parses")
    }

    fn to_move(&self, s: &Forest) -> Player {
        s.to_move
    }

    fn legal_moves(&self, s: &Forest, moves: &mut Vec<Cut>) {
        for (t, tree) in s.trees.iter().enumerate() {
            let nodes = tree.len() / 2;
            moves.extend((1..nodes).map(|k| Cut {
                tree: t as u16,
                node: k as u16,
            }));
        }
    }

    fn play(&self, s: &Forest, mv: Cut) -> Forest {
        let mut trees = s.trees.clone();
        let tree = &mut trees[usize::from(mv.tree)];
        let (a, b) = subtree(tree, usize::from(mv.node));
        tree.drain(a..=b);
        Forest {
            trees,
            to_move: s.to_move.opponent(),
        }
    }

    fn is_terminal(&self, s: &Forest) -> bool {
        s.trees.iter().all(|t| t.len() == 2)
    }

    fn utility(&self, s: &Forest) -> MaxScore {
        normal_play(s.to_move)
    }
}

ply_core::no_hooks!(Hackenbush: Evaluation, Shortcuts, EngineHooks, Chance, Playouts, Learn);

/// Impartial, and a sum of the branches standing on the ground.
impl Impartial for Hackenbush {
    const IMPARTIAL: bool = true;

    fn components(&self, s: &Forest, parts: &mut Vec<Forest>) -> bool {
        let mut split: Vec<Vec<u8>> = Vec::new();
        for tree in &s.trees {
            for b in branches(tree) {
                let mut t = Vec::with_capacity(b.len() + 2);
                t.push(b'(');
                t.extend_from_slice(b);
                t.push(b')');
                split.push(t);
            }
        }
        if split.len() == 1 && s.trees.len() == 1 {
            return false;
        }
        parts.extend(split.into_iter().map(|t| Forest {
            trees: vec![t],
            to_move: s.to_move,
        }));
        true
    }
}

impl Registered for Hackenbush {
    const SPEC: GameSpec = GameSpec {
        default_position: "(()(()))",
        ..GameSpec::new(
            "hackenbush",
            "Green Hackenbush on trees: a move deletes an edge, and what no longer reaches the ground falls away; who cannot move loses",
            "each tree as nested parentheses, a node being ( its children ), the root on the ground: () a bare root, (()) one edge, (()()) two; trees separated by spaces; optionally /min",
            "t.k deletes the edge above node k of tree t, nodes numbered from 1 in the order of their '(' after the root's; k alone for one tree",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(Hackenbush)
    }
}

impl Notation for Hackenbush {
    fn parse_position(&self, text: &str) -> Result<Forest, ParseError> {
        let (body, to_move) = split_side(text.trim())?;
        let mut trees = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        let mut current = Vec::new();
        for (i, c) in body.chars().enumerate() {
            let column = i + 1;
            match c {
                '(' => {
                    open.push(column);
                    current.push(b'(');
                }
                ')' => {
                    if open.pop().is_none() {
                        return Err(ParseError::at(column, "a ')' with no '(' before it"));
                    }
                    current.push(b')');
                    if open.is_empty() {
                        trees.push(std::mem::take(&mut current));
                    }
                }
                c if c.is_whitespace() => {}
                c => {
                    return Err(ParseError::at(
                        column,
                        format!("'{c}' is not '(' or ')': a tree is nested parentheses, e.g. (()())"),
                    ));
                }
            }
        }
        if let Some(&column) = open.first() {
            return Err(ParseError::at(
                column,
                format!("the '(' at column {column} is never closed"),
            ));
        }
        if trees.is_empty() {
            return Err(ParseError::new("no trees: write one as nested parentheses, e.g. (()())"));
        }
        let edges: usize = trees.iter().map(|t| t.len() / 2 - 1).sum();
        if edges > MAX_EDGES {
            return Err(ParseError::new(format!("{edges} edges: at most {MAX_EDGES}")));
        }
        Ok(Forest { trees, to_move })
    }

    fn format_position(&self, s: &Forest) -> String {
        let trees: Vec<String> = s
            .trees
            .iter()
            .map(|t| String::from_utf8_lossy(t).into_owned())
            .collect();
        with_side(trees.join(" "), s.to_move)
    }

    fn parse_move(&self, s: &Forest, text: &str) -> Result<Cut, ParseError> {
        let bad = || {
            ParseError::new(format!(
                "'{text}' is not a move: t.k (tree t, node k, both from 1), e.g. 1.2"
            ))
        };
        let t = text.trim();
        let (tree, node) = match t.split_once('.') {
            Some((a, b)) => (a.parse::<u16>().map_err(|_| bad())?, b),
            None if s.trees.len() == 1 => (1, t),
            None => return Err(bad()),
        };
        let node: u16 = node.parse().map_err(|_| bad())?;
        if tree == 0 || node == 0 {
            return Err(bad());
        }
        Ok(Cut {
            tree: tree - 1,
            node,
        })
    }

    fn format_move(&self, _: &Forest, mv: Cut) -> String {
        format!("{}.{}", mv.tree + 1, mv.node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::observe::NoObserver;
    use ply_core::search::{SearchOptions, alphabeta, nimber};

    /// The colon principle on one tree's parentheses.
    fn colon(tree: &[u8]) -> u32 {
        branches(tree).iter().fold(0, |x, b| x ^ (colon(b) + 1))
    }

    fn forest(text: &str) -> Forest {
        Hackenbush.parse_position(text).unwrap()
    }

    /// A random tree of `edges` edges, as parentheses.
    fn random_tree(edges: usize, next: &mut impl FnMut(u64) -> u64) -> Vec<u8> {
        // Parent of node i (from 1) is a random earlier node.
        let parents: Vec<usize> = (1..=edges).map(|i| next(i as u64) as usize).collect();
        fn write(node: usize, parents: &[usize], out: &mut Vec<u8>) {
            out.push(b'(');
            for (i, &p) in parents.iter().enumerate() {
                if p == node {
                    write(i + 1, parents, out);
                }
            }
            out.push(b')');
        }
        let mut out = Vec::new();
        write(0, &parents, &mut out);
        out
    }

    #[test]
    fn the_colon_principle() {
        for (text, g) in [
            ("()", 0),
            ("(())", 1),
            ("(((())))", 3),
            ("(()())", 0),
            ("(()(()))", 3),
            ("(()) (())", 0),
            ("((()) ())", 3),
        ] {
            let s = forest(text);
            assert_eq!(nimber(&Hackenbush, &s).unwrap().nimber, g, "{text}");
            let by_colon = s.trees.iter().fold(0, |x, t| x ^ colon(t));
            assert_eq!(by_colon, g, "colon principle on {text}");
        }
    }

    /// Random forests: the nimber is the colon principle's, and alpha-beta
    /// finds the mover winning exactly when it is not 0.
    #[test]
    fn random_forests() {
        let mut next = crate::common::xorshift(0x0ddb1a5e5bad5eed);
        let table = SearchOptions {
            tt_mb: 4,
            ..SearchOptions::default()
        };
        for round in 0..60 {
            let trees: Vec<Vec<u8>> = (0..1 + next(3))
                .map(|_| random_tree(next(5) as usize, &mut next))
                .collect();
            let s = Forest {
                trees,
                to_move: Player::Max,
            };
            let g = s.trees.iter().fold(0, |x, t| x ^ colon(t));
            assert_eq!(nimber(&Hackenbush, &s).unwrap().nimber, g, "round {round}: {s:?}");
            let v = alphabeta(&Hackenbush, &s, &table, &mut NoObserver).unwrap();
            assert_eq!(v.value.0 == 1, g != 0, "alpha-beta, round {round}");
        }
    }

    #[test]
    fn conformance_kit() {
        let starts = ["(()(()))", "(((()))) (()())", "((()()) ())"];
        let summary = crate::common::conformance_from(&Hackenbush, &starts, 30);
        assert!(summary.nimbers > 50, "{summary:?}");
    }

    #[test]
    fn cutting_and_bad_input() {
        let s = forest("(()(()))");
        // Node 2 is the second child of the root; cutting it drops its leaf too.
        let after = Hackenbush.play(&s, Hackenbush.parse_move(&s, "1.2").unwrap());
        assert_eq!(Hackenbush.format_position(&after), "(())/min");
        assert_eq!(Hackenbush.parse_move(&s, "2").unwrap(), Cut { tree: 0, node: 2 });
        let e = Hackenbush.parse_position("(()").unwrap_err();
        assert_eq!(e.column, Some(1), "{e}");
        assert!(e.message.contains("never closed"));
        assert_eq!(Hackenbush.parse_position("())").unwrap_err().column, Some(3));
        assert_eq!(Hackenbush.parse_position("(x)").unwrap_err().column, Some(2));
        assert!(Hackenbush.parse_position("").is_err());
    }
}

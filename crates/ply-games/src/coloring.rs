//! The graph colouring game of Bodlaender (the lesson's `ab-coloring`): a
//! graph and k colours; the players alternately colour an uncoloured
//! vertex with a colour none of its neighbours has. MAX (who moves first)
//! wins if every vertex ends up coloured; MIN wins as soon as some
//! uncoloured vertex has all k colours among its neighbours (it can never be
//! coloured).
//!
//! Theory: the least k for which MAX wins is the graph's game chromatic
//! number: 3 for paths of at least 4 vertices and for cycles, n for the
//! complete graph K_n, 2 for stars.
//!
//! Position notation: `N:edges`, vertices 1..N, edges `a-b` separated by
//! commas (`4:1-2,2-3,3-4` a path; `5:` five isolated vertices); then
//! optionally `;` and the colours placed so far as `vertex=colour`
//! (`4:1-2,2-3,3-4;1=1,3=2`), and `/min` when MIN is to move. A move is
//! `vertex=colour` (`2=3`). The number of colours is the parameter `k`.

use std::sync::Arc;

use ply_core::registry::{GameSpec, ParamKind, ParamSpec, ParamValues, Registered, SetupError};
use ply_core::{Game, MaxScore, Notation, ParseError, Player};

use crate::common::{split_side, with_side};

/// The most vertices a graph may have.
pub const MAX_VERTICES: usize = 20;

/// The colouring game with `k` colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coloring {
    k: u8,
}

/// A graph: its vertex count, each vertex's neighbours as bits, and its
/// edges in the order written (for printing them back).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    /// Vertices 0..n (written 1..=n).
    pub n: u8,
    /// `adj[v]`: bit u set when u and v are adjacent.
    pub adj: Vec<u32>,
    /// The edges as written, 0-based.
    pub edges: Vec<(u8, u8)>,
}

/// A graph with colours placed (0 for none), and who moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Colored {
    /// The graph, shared by every position of a game.
    pub graph: Arc<Graph>,
    /// Each vertex's colour, 1..=k, or 0 while uncoloured.
    pub colors: Vec<u8>,
    /// Who is to move.
    pub to_move: Player,
}

/// Colour `vertex` (0-based) with `color` (1..=k).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    /// The vertex, 0-based.
    pub vertex: u8,
    /// The colour, from 1.
    pub color: u8,
}

impl Coloring {
    /// The game with `k` colours (at least 1).
    pub fn new(k: u8) -> Result<Self, SetupError> {
        if k == 0 {
            return Err(SetupError("k=0: there must be at least one colour".into()));
        }
        Ok(Coloring { k })
    }

    /// The colours used by `v`'s neighbours, as bits (bit c for colour c).
    fn neighbour_colors(&self, s: &Colored, v: usize) -> u32 {
        let mut used = 0;
        let mut adj = s.graph.adj[v];
        while adj != 0 {
            let u = adj.trailing_zeros() as usize;
            adj &= adj - 1;
            used |= 1 << s.colors[u];
        }
        used & !1
    }

    /// Whether some uncoloured vertex has every colour among its neighbours.
    fn blocked(&self, s: &Colored) -> bool {
        let all = ((1u32 << self.k) - 1) << 1;
        (0..s.colors.len())
            .any(|v| s.colors[v] == 0 && self.neighbour_colors(s, v) & all == all)
    }
}

impl Game for Coloring {
    type State = Colored;
    type Move = Paint;

    fn initial_state(&self) -> Colored {
        self.parse_position("4:1-2,2-3,3-4").expect("the default graph parses")
    }

    fn to_move(&self, s: &Colored) -> Player {
        s.to_move
    }

    fn legal_moves(&self, s: &Colored, moves: &mut Vec<Paint>) {
        if self.is_terminal(s) {
            return;
        }
        for v in 0..s.colors.len() {
            if s.colors[v] == 0 {
                let used = self.neighbour_colors(s, v);
                for c in 1..=self.k {
                    if used & (1 << c) == 0 {
                        moves.push(Paint {
                            vertex: v as u8,
                            color: c,
                        });
                    }
                }
            }
        }
    }

    fn play(&self, s: &Colored, mv: Paint) -> Colored {
        let mut colors = s.colors.clone();
        colors[usize::from(mv.vertex)] = mv.color;
        Colored {
            graph: Arc::clone(&s.graph),
            colors,
            to_move: s.to_move.opponent(),
        }
    }

    fn is_terminal(&self, s: &Colored) -> bool {
        s.colors.iter().all(|&c| c != 0) || self.blocked(s)
    }

    /// MAX wins when the graph is coloured, MIN when it cannot be.
    fn utility(&self, s: &Colored) -> MaxScore {
        MaxScore(if s.colors.iter().all(|&c| c != 0) { 1 } else { -1 })
    }
}

ply_core::no_hooks!(Coloring: Evaluation, Shortcuts, EngineHooks, Chance, Playouts, Impartial, Learn);

impl Registered for Coloring {
    const SPEC: GameSpec = GameSpec {
        params: &[ParamSpec {
            name: "k",
            kind: ParamKind::Int {
                default: 3,
                min: 1,
                max: 9,
            },
            meaning: "colours",
        }],
        default_position: "4:1-2,2-3,3-4",
        ..GameSpec::new(
            "coloring",
            "Bodlaender's graph colouring game: players alternately colour a vertex unlike its neighbours with one of k colours; MAX wins if the whole graph gets coloured, MIN once a vertex cannot be",
            "N:edges with vertices 1..N and edges a-b separated by commas (4:1-2,2-3,3-4; 5: has no edges), then optionally ;vertex=colour,... for the colours placed and /min",
            "vertex=colour, e.g. 2=3",
        )
    };

    fn from_params(values: &ParamValues) -> Result<Self, SetupError> {
        Coloring::new(values.int("k") as u8)
    }
}

/// Reads `a-b` edges (1-based) of a graph of `n` vertices; `offset` is the
/// column where the list starts.
fn parse_edges(text: &str, n: usize, offset: usize) -> Result<Graph, ParseError> {
    let mut g = Graph {
        n: n as u8,
        adj: vec![0; n],
        edges: Vec::new(),
    };
    let mut column = offset;
    for item in text.split(',') {
        let at = |m: String| ParseError::at(column, m);
        let t = item.trim();
        if !t.is_empty() {
            let (a, b) = t
                .split_once('-')
                .ok_or_else(|| at(format!("'{t}' is not an edge: write a-b, e.g. 1-2")))?;
            let vertex = |x: &str| match x.trim().parse::<usize>() {
                Ok(v) if (1..=n).contains(&v) => Ok(v - 1),
                _ => Err(at(format!("'{}' in edge '{t}' is not a vertex from 1 to {n}", x.trim()))),
            };
            let (a, b) = (vertex(a)?, vertex(b)?);
            if a == b {
                return Err(at(format!("'{t}' is a loop: an edge joins two vertices")));
            }
            if g.adj[a] & (1 << b) != 0 {
                return Err(at(format!("the edge '{t}' is listed twice")));
            }
            g.adj[a] |= 1 << b;
            g.adj[b] |= 1 << a;
            g.edges.push((a as u8, b as u8));
        }
        column += item.chars().count() + 1;
    }
    Ok(g)
}

impl Coloring {
    /// Reads `vertex=colour` items against the graph, checking the colours.
    fn parse_colors(&self, text: &str, g: &Graph, offset: usize) -> Result<Vec<u8>, ParseError> {
        let mut colors = vec![0u8; usize::from(g.n)];
        let mut column = offset;
        for item in text.split(',') {
            let t = item.trim();
            if !t.is_empty() {
                let p = self
                    .parse_paint(t, usize::from(g.n))
                    .map_err(|e| ParseError::at(column, e.message))?;
                let v = usize::from(p.vertex);
                if colors[v] != 0 {
                    return Err(ParseError::at(column, format!("vertex {} is coloured twice", v + 1)));
                }
                let mut adj = g.adj[v];
                while adj != 0 {
                    let u = adj.trailing_zeros() as usize;
                    adj &= adj - 1;
                    if colors[u] == p.color {
                        return Err(ParseError::at(
                            column,
                            format!("vertices {} and {} are adjacent and both colour {}", u + 1, v + 1, p.color),
                        ));
                    }
                }
                colors[v] = p.color;
            }
            column += item.chars().count() + 1;
        }
        Ok(colors)
    }

    fn parse_paint(&self, text: &str, n: usize) -> Result<Paint, ParseError> {
        let (v, c) = text.split_once('=').ok_or_else(|| {
            ParseError::new(format!("'{text}' is not vertex=colour, e.g. 2=3"))
        })?;
        let v: usize = v.trim().parse().ok().filter(|v| (1..=n).contains(v)).ok_or_else(|| {
            ParseError::new(format!("'{}' is not a vertex from 1 to {n}", v.trim()))
        })?;
        let c: u8 = c.trim().parse().ok().filter(|c| (1..=self.k).contains(c)).ok_or_else(|| {
            ParseError::new(format!("'{}' is not a colour from 1 to {}", c.trim(), self.k))
        })?;
        Ok(Paint {
            vertex: (v - 1) as u8,
            color: c,
        })
    }
}

impl Notation for Coloring {
    fn parse_position(&self, text: &str) -> Result<Colored, ParseError> {
        let (body, to_move) = split_side(text.trim())?;
        let (n, rest) = body.split_once(':').ok_or_else(|| {
            ParseError::new("write N:edges, e.g. 4:1-2,2-3,3-4 (a path of 4 vertices)")
        })?;
        let n: usize = n.trim().parse().ok().filter(|n| (1..=MAX_VERTICES).contains(n)).ok_or_else(|| {
            ParseError::at(1, format!("'{}' is not a vertex count from 1 to {MAX_VERTICES}", n.trim()))
        })?;
        let start = body.len() - rest.len() + 1;
        let (edges, colors) = rest.split_once(';').unwrap_or((rest, ""));
        let graph = parse_edges(edges, n, start)?;
        let colors = self.parse_colors(colors, &graph, start + edges.chars().count() + 1)?;
        Ok(Colored {
            graph: Arc::new(graph),
            colors,
            to_move,
        })
    }

    fn format_position(&self, s: &Colored) -> String {
        let edges: Vec<String> = s
            .graph
            .edges
            .iter()
            .map(|&(a, b)| format!("{}-{}", a + 1, b + 1))
            .collect();
        let mut text = format!("{}:{}", s.graph.n, edges.join(","));
        let placed: Vec<String> = (0..s.colors.len())
            .filter(|&v| s.colors[v] != 0)
            .map(|v| format!("{}={}", v + 1, s.colors[v]))
            .collect();
        if !placed.is_empty() {
            text = format!("{text};{}", placed.join(","));
        }
        with_side(text, s.to_move)
    }

    fn parse_move(&self, s: &Colored, text: &str) -> Result<Paint, ParseError> {
        self.parse_paint(text.trim(), s.colors.len())
    }

    fn format_move(&self, _: &Colored, mv: Paint) -> String {
        format!("{}={}", mv.vertex + 1, mv.color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::observe::NoObserver;
    use ply_core::search::{SearchOptions, alphabeta};

    /// Whether MAX wins `graph` with `k` colours, by ply's alpha-beta.
    fn max_wins(graph: &str, k: u8) -> bool {
        let g = Coloring::new(k).unwrap();
        let s = g.parse_position(graph).unwrap();
        let options = SearchOptions {
            tt_mb: 8,
            ..SearchOptions::default()
        };
        alphabeta(&g, &s, &options, &mut NoObserver).unwrap().value.0 == 1
    }

    /// The least k for which MAX wins: the game chromatic number.
    fn game_chromatic(graph: &str) -> u8 {
        (1..=9).find(|&k| max_wins(graph, k)).unwrap()
    }

    fn path(n: usize) -> String {
        let e: Vec<String> = (1..n).map(|i| format!("{i}-{}", i + 1)).collect();
        format!("{n}:{}", e.join(","))
    }

    #[test]
    fn published_game_chromatic_numbers() {
        for n in 4..=7 {
            assert_eq!(game_chromatic(&path(n)), 3, "path of {n}");
            let cycle = format!("{},{n}-1", path(n));
            assert_eq!(game_chromatic(&cycle), 3, "cycle of {n}");
        }
        for n in 1..=5 {
            let mut e = Vec::new();
            for a in 1..=n {
                for b in a + 1..=n {
                    e.push(format!("{a}-{b}"));
                }
            }
            assert_eq!(game_chromatic(&format!("{n}:{}", e.join(","))), n as u8, "K{n}");
        }
        for leaves in 2..=6 {
            let e: Vec<String> = (2..=leaves + 1).map(|v| format!("1-{v}")).collect();
            assert_eq!(game_chromatic(&format!("{}:{}", leaves + 1, e.join(","))), 2, "star");
        }
    }

    /// An independent brute force (plain recursion over colour arrays,
    /// nothing of ply's) agrees on random small graphs.
    #[test]
    fn brute_force_on_random_graphs() {
        fn brute(adj: &[u32], colors: &mut Vec<u8>, k: u8, max: bool) -> bool {
            let n = adj.len();
            let used = |colors: &Vec<u8>, v: usize| {
                (0..n).filter(|&u| adj[v] & (1 << u) != 0).fold(0u32, |m, u| m | 1 << colors[u])
            };
            if colors.iter().all(|&c| c != 0) {
                return true;
            }
            let full = ((1u32 << k) - 1) << 1;
            if (0..n).any(|v| colors[v] == 0 && used(colors, v) & full == full) {
                return false;
            }
            let mut outcomes = Vec::new();
            for v in 0..n {
                if colors[v] == 0 {
                    for c in 1..=k {
                        if used(colors, v) & (1 << c) == 0 {
                            colors[v] = c;
                            outcomes.push(brute(adj, colors, k, !max));
                            colors[v] = 0;
                        }
                    }
                }
            }
            if max { outcomes.contains(&true) } else { outcomes.iter().all(|&w| w) }
        }
        let mut next = crate::common::xorshift(0x5eed1234abcd0001);
        for _ in 0..40 {
            let n = 2 + next(4) as usize;
            let mut adj = vec![0u32; n];
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if next(2) == 0 {
                        adj[a] |= 1 << b;
                        adj[b] |= 1 << a;
                        edges.push(format!("{}-{}", a + 1, b + 1));
                    }
                }
            }
            let k = 1 + next(3) as u8;
            let text = format!("{n}:{}", edges.join(","));
            let expect = brute(&adj, &mut vec![0; n], k, true);
            assert_eq!(max_wins(&text, k), expect, "{text} with k = {k}");
        }
    }

    #[test]
    fn conformance_kit() {
        let g = Coloring::new(3).unwrap();
        let starts = ["4:1-2,2-3,3-4", "5:1-2,2-3,3-4,4-5,5-1", "4:1-2,1-3,1-4,2-3"];
        let summary = crate::common::conformance_from(&g, &starts, 30);
        assert!(summary.values > 50, "{summary:?}");
    }

    #[test]
    fn notation_and_bad_input() {
        let g = Coloring::new(3).unwrap();
        let s = g.parse_position("4:1-2,2-3,3-4;1=1,3=2/min").unwrap();
        assert_eq!(g.format_position(&s), "4:1-2,2-3,3-4;1=1,3=2/min");
        assert_eq!(g.parse_position("5:").unwrap().graph.edges.len(), 0);
        for (bad, what) in [
            ("4:1-5", "not a vertex from 1 to 4"),
            ("4:2-2", "loop"),
            ("4:1-2,2-1", "twice"),
            ("4:1-2;1=1,2=1", "adjacent"),
            ("4:1-2;1=4", "not a colour"),
            ("0:", "vertex count"),
            ("4", "N:edges"),
        ] {
            let e = g.parse_position(bad).unwrap_err();
            assert!(e.message.contains(what), "{bad}: {e}");
        }
        assert_eq!(g.parse_position("4:1-2,2-9").unwrap_err().column, Some(7));
        assert!(Coloring::new(0).is_err());
    }
}

//! Adding a game to ply: Nim with several heaps, in one file, against the
//! public API only.
//!
//! Rules: heaps of counters; a move takes one or more counters from one heap;
//! whoever takes the last counter wins. Bouton's theorem says the player to
//! move loses exactly when the XOR of the heap sizes is 0, which gives an
//! independent check of what the searches find.
//!
//! Run: `cargo run --release -p ply-core --example nim`

use ply_core::explore::{count_positions, perft};
use ply_core::observe::Trace;
use ply_core::prelude::*;

/// The rules need no parameters: the heaps are in the state.
struct Nim;

/// Heap sizes (at most 8 heaps), and whether MAX is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Heaps {
    sizes: [u8; 8],
    len: u8,
    max_to_move: bool,
}

/// A move: take `count` counters from heap `heap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Take {
    heap: u8,
    count: u8,
}

impl Game for Nim {
    type State = Heaps;
    type Move = Take;

    fn initial_state(&self) -> Heaps {
        Notation::parse_position(self, "3 4 5").expect("a valid position")
    }

    fn to_move(&self, s: &Heaps) -> Player {
        if s.max_to_move {
            Player::Max
        } else {
            Player::Min
        }
    }

    fn legal_moves(&self, s: &Heaps, moves: &mut Vec<Take>) {
        for heap in 0..s.len {
            for count in 1..=s.sizes[heap as usize] {
                moves.push(Take { heap, count });
            }
        }
    }

    fn play(&self, s: &Heaps, mv: Take) -> Heaps {
        let mut next = *s;
        next.sizes[mv.heap as usize] -= mv.count;
        next.max_to_move = !s.max_to_move;
        next
    }

    fn is_terminal(&self, s: &Heaps) -> bool {
        s.sizes.iter().all(|&h| h == 0)
    }

    /// The player to move at the end has nothing to take: the other one won.
    fn utility(&self, s: &Heaps) -> MaxScore {
        MaxScore(if s.max_to_move { -1 } else { 1 })
    }
}

// Nim needs no evaluation, shortcuts, engine hooks, chance or playout
// policy: every search works from the rules alone.
no_hooks!(Nim);

/// Positions are heap sizes separated by spaces, `/min` when MIN moves
/// (`3 4 5`); a move is `heap:count` with heaps numbered from 1 (`2:3`).
impl Notation for Nim {
    fn parse_position(&self, text: &str) -> Result<Heaps, ParseError> {
        let (heaps, max_to_move) = match text.strip_suffix("/min") {
            Some(h) => (h, false),
            None => (text, true),
        };
        let mut s = Heaps {
            sizes: [0; 8],
            len: 0,
            max_to_move,
        };
        let mut column = 1;
        for word in heaps.split(' ') {
            if !word.is_empty() {
                if s.len == 8 {
                    return Err(ParseError::at(column, "at most 8 heaps"));
                }
                s.sizes[s.len as usize] = word.parse().map_err(|_| {
                    ParseError::at(column, format!("'{word}' is not a heap size (0 to 255)"))
                })?;
                s.len += 1;
            }
            column += word.len() + 1;
        }
        if s.len == 0 {
            return Err(ParseError::new("no heaps: write sizes like '3 4 5'"));
        }
        Ok(s)
    }

    fn format_position(&self, s: &Heaps) -> String {
        let sizes: Vec<String> = s.sizes[..s.len as usize]
            .iter()
            .map(|h| h.to_string())
            .collect();
        let side = if s.max_to_move { "" } else { "/min" };
        format!("{}{side}", sizes.join(" "))
    }

    fn parse_move(&self, s: &Heaps, text: &str) -> Result<Take, ParseError> {
        let bad = || {
            ParseError::new(format!(
                "'{text}' is not a move: write heap:count, e.g. 2:3"
            ))
        };
        let (h, c) = text.split_once(':').ok_or_else(bad)?;
        let heap: u8 = h.trim().parse().map_err(|_| bad())?;
        let count: u8 = c.trim().parse().map_err(|_| bad())?;
        if heap == 0 || heap > s.len || count == 0 {
            return Err(bad());
        }
        Ok(Take {
            heap: heap - 1,
            count,
        })
    }

    fn format_move(&self, _: &Heaps, mv: Take) -> String {
        format!("{}:{}", mv.heap + 1, mv.count)
    }
}

/// The declaration every front end reads (`ply list`, parameter checking,
/// finding the game by name): its name, rules and notations, once.
impl Registered for Nim {
    const SPEC: GameSpec = GameSpec {
        default_position: "3 4 5",
        ..GameSpec::new(
            "nim",
            "heaps of counters; a move takes one or more from one heap; whoever takes the last counter wins",
            "heap sizes separated by spaces, /min when MIN moves (3 4 5)",
            "heap:count, heaps numbered from 1 (2:3)",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(Nim)
    }
}

// One line registers it: `GAMES`, `spec(name)` and `visit(name, params,
// visitor)`, as ply-games's list does for the built-in games (there,
// `register_games!(nim::Nim, ...)` with the game in its own module file).
ply_core::register_games!(types: Nim);

/// Generic code run on a game found by name, as every CLI command is.
struct Describe;

impl GameVisitor for Describe {
    type Output = String;
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) -> String {
        let start = game.parse_position(spec.default_position).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&start, &mut moves);
        format!(
            "{}: {}; from {} there are {} moves",
            spec.name,
            spec.rules,
            game.format_position(&start),
            moves.len()
        )
    }
}

fn main() {
    let game = Nim;

    // 0. Found by name through its declaration, as the command line finds games.
    let found = visit("nim", &Params::new(), Describe).expect("nim is registered");
    println!("{found}");
    assert_eq!(GAMES.len(), 1);

    // 1. The conformance kit checks the rules and the notation.
    let cfg = ply_core::conformance::Config {
        playouts: 50,
        ..Default::default()
    };
    let summary = ply_core::conformance::check(&game, &cfg).expect("Nim follows the Game contract");
    println!(
        "conformance: {} positions and {} moves checked",
        summary.positions, summary.moves
    );

    // 2. Solve a few positions and compare with Bouton's theorem.
    for text in ["3 4 5", "1 2 3", "2 2", "1 4 5/min", "7"] {
        let s = game.parse_position(text).unwrap();
        let r = solve(&game, &s, Algorithm::AlphaBeta, &SearchOptions::exact()).unwrap();
        let mover_wins = s.sizes.iter().fold(0, |x, &h| x ^ h) != 0;
        let value_for_mover = r.outcome.value.for_player(game.to_move(&s)).0;
        assert_eq!(
            value_for_mover == 1,
            mover_wins,
            "alpha-beta disagrees with Bouton on {text}"
        );
        let best = r
            .outcome
            .best_move
            .map(|m| game.format_move(&s, m))
            .unwrap_or_default();
        println!(
            "{text:>10}: value {:+} (MAX's view), best move {best:>4}, {} nodes",
            r.outcome.value.0, r.stats.nodes
        );
    }

    // 3. Minimax, the reference, agrees and visits more.
    let s = game.parse_position("2 3").unwrap();
    let m = solve(&game, &s, Algorithm::Minimax, &SearchOptions::exact()).unwrap();
    let a = solve(&game, &s, Algorithm::AlphaBeta, &SearchOptions::exact()).unwrap();
    assert_eq!(m.outcome.value, a.outcome.value);
    println!(
        "'2 3': minimax {} nodes, alpha-beta {} nodes",
        m.stats.nodes, a.stats.nodes
    );
    println!(
        "'2 3': {} distinct positions, perft(3) = {}",
        count_positions(&game, &s).positions,
        perft(&game, &s, 3)
    );

    // 4. A trace of alpha-beta on a tiny position, step by step.
    let s = game.parse_position("1 2").unwrap();
    let mut trace = Trace::new();
    let out = alphabeta(&game, &s, &SearchOptions::exact(), &mut trace).unwrap();
    println!("trace of alpha-beta on '1 2' (value {}):", out.value);
    for step in &trace.steps {
        let node = if step.path.is_empty() {
            "root"
        } else {
            &step.path
        };
        let window = step
            .window
            .map(|w| format!("[{}, {}]", w.alpha, w.beta))
            .unwrap_or_default();
        println!(
            "  {:<7} {:<8} {} {:<12} value {}",
            step.kind.name(),
            node,
            step.node.name(),
            window,
            ply_core::observe::value_text(step.value)
        );
    }
}

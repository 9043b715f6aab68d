use super::*;
use crate::common::xorshift;
use ply_core::search::SearchOptions;
use ply_core::search::id::iterative_deepening;

/// An independent referee: the board as a plain grid, five found by
/// walking the lines through the last stone (the way a person checks).
struct Referee {
    size: usize,
    exact: bool,
    grid: Vec<Option<usize>>,
}

impl Referee {
    fn new(size: usize, exact: bool) -> Self {
        Referee {
            size,
            exact,
            grid: vec![None; size * size],
        }
    }

    /// The run of `colour` through (x, y) along (dx, dy), the point counted
    /// as if it held `colour`.
    fn run(&self, x: i32, y: i32, dx: i32, dy: i32, colour: usize) -> usize {
        let n = self.size as i32;
        let mut len = 1;
        for sign in [1, -1] {
            let (mut i, mut j) = (x + sign * dx, y + sign * dy);
            while (0..n).contains(&i) && (0..n).contains(&j) && self.grid[(j * n + i) as usize] == Some(colour)
            {
                len += 1;
                i += sign * dx;
                j += sign * dy;
            }
        }
        len
    }

    /// Whether a stone of `colour` on point `p` makes a winning row.
    fn wins(&self, p: usize, colour: usize) -> bool {
        let (x, y) = ((p % self.size) as i32, (p / self.size) as i32);
        DIRECTIONS.iter().any(|&(dx, dy)| {
            let len = self.run(x, y, dx, dy, colour);
            if self.exact { len == 5 } else { len >= 5 }
        })
    }

    /// The empty points where `colour` would win at once.
    fn five_points(&self, colour: usize) -> Vec<usize> {
        (0..self.grid.len())
            .filter(|&p| self.grid[p].is_none() && self.wins(p, colour))
            .collect()
    }
}

fn game(text: &str) -> (Gomoku, Position) {
    let g = Gomoku::new(15, false).unwrap();
    let s = g.parse_position(text).unwrap();
    (g, s)
}

/// Random games on boards of several sizes and both rules, checked move
/// by move against the referee, and the incremental patterns against a
/// full recount.
#[test]
fn random_games_agree_with_the_referee_and_a_recount() {
    let mut next = xorshift(7);
    for (size, exact) in [(15, false), (15, true), (5, false), (7, true), (20, false)] {
        let g = Gomoku::new(size, exact).unwrap();
        for _ in 0..30 {
            let mut s = g.initial_state();
            let mut referee = Referee::new(size, exact);
            let mut moves = Vec::new();
            loop {
                let mut fresh = s.clone();
                g.recount(&mut fresh);
                assert!(g.same_patterns(&s, &fresh), "patterns after {}", g.format_position(&s));
                if g.is_terminal(&s) {
                    break;
                }
                g.legal_moves(&s, &mut moves);
                assert_eq!(moves.len(), size * size - s.stones());
                // Mostly near the stones, so that rows form.
                let near: Vec<Point> = moves.iter().copied().filter(|&p| s.near[p as usize] > 0).collect();
                let pool = if near.is_empty() || next(5) == 0 { &moves } else { &near };
                let p = pool[next(pool.len() as u64) as usize];
                moves.clear();
                let colour = s.mover();
                let wins = referee.wins(p as usize, colour);
                referee.grid[p as usize] = Some(colour);
                s = g.play(&s, p);
                assert_eq!(s.winner != 0, wins, "{}", g.format_position(&s));
                if !wins && s.stones() == size * size {
                    assert!(g.is_terminal(&s));
                    assert_eq!(g.utility(&s), MaxScore(0), "a full board is a draw");
                }
                for c in [BLACK, WHITE] {
                    if !g.is_terminal(&s) {
                        let mut ours = Vec::new();
                        g.five_points(&s, c, &mut ours);
                        let want: Vec<Point> = referee.five_points(c).iter().map(|&p| p as Point).collect();
                        assert_eq!(ours, want);
                    }
                }
            }
            // Printing gives moves that rebuild the same position.
            let text = g.format_position(&s);
            assert_eq!(g.parse_position(&text).unwrap(), s, "{text}");
        }
    }
}

#[test]
fn five_wins_and_six_only_under_freestyle() {
    // Black: a8 b8 c8 d8 then e8 makes five; white elsewhere.
    let (g, s) = game("a8 a1 b8 b1 c8 c1 d8 d1 e8");
    assert!(g.is_terminal(&s));
    assert_eq!(g.utility(&s), MaxScore(1));
    // White makes five: the result is -1 (MAX is black).
    let (g, s) = game("a8 a1 b8 b1 c8 c1 d8 d1 o15 e1");
    assert_eq!(g.utility(&s), MaxScore(-1));
    // The gap filled between two and three black stones makes six.
    let six = "a8 a1 b8 b1 d8 c1 e8 o1 f8 o2 c8";
    let (g, s) = game(six);
    assert!(g.is_terminal(&s), "six wins under freestyle");
    let standard = Gomoku::new(15, true).unwrap();
    let s = standard.parse_position(six).unwrap();
    assert!(!standard.is_terminal(&s), "six is no win under the standard rule");
    // ... and exactly five still is.
    let s = standard.parse_position("a8 a1 b8 b1 c8 c1 d8 d1 e8").unwrap();
    assert_eq!(standard.utility(&s), MaxScore(1));
}

#[test]
fn full_board_draws() {
    // 5x5 filled in a pattern with no row of five: rows of XXOOX, OOXXO.
    let g = Gomoku::new(5, false).unwrap();
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let p = (y * 5 + x) as Point;
            if c == 'X' { black.push(p) } else { white.push(p) }
        }
    }
    assert_eq!((black.len(), white.len()), (13, 12));
    let mut moves = Vec::new();
    for i in 0..13 {
        moves.push(black[i]);
        if i < 12 {
            moves.push(white[i]);
        }
    }
    let s = g.from_moves(&moves).unwrap();
    assert!(g.is_terminal(&s));
    assert_eq!(g.utility(&s), MaxScore(0));
    let mut legal = Vec::new();
    g.legal_moves(&s, &mut legal);
    assert!(legal.is_empty());
}

#[test]
fn notation_reads_letters_numbers_and_gomocup_points() {
    let g = Gomoku::new(15, false).unwrap();
    let s = g.initial_state();
    let centre = g.parse_move(&s, "h8").unwrap();
    assert_eq!(g.xy(centre), (7, 7));
    assert_eq!(g.parse_move(&s, "7,7").unwrap(), centre);
    assert_eq!(g.parse_move(&s, "H8").unwrap(), centre);
    // a1 is the bottom left: Gomocup's x 0, y 14.
    assert_eq!(g.xy(g.parse_move(&s, "a1").unwrap()), (0, 14));
    assert_eq!(g.parse_move(&s, "0,0").unwrap(), g.parse_move(&s, "a15").unwrap());
    assert_eq!(g.format_move(&s, g.point_at(14, 0).unwrap()), "o15");
    let s = g.parse_position("h8 7,8 i9").unwrap();
    assert_eq!(g.format_position(&s), "h8 h7 i9");
    let err = |text: &str| g.parse_position(text).unwrap_err().to_string();
    assert_eq!(err("h8 h8"), "column 4: move 2: h8 is taken by black");
    assert!(err("h8 p1").starts_with("column 4: move 2: 'p1' is off the board: columns a to o"));
    assert!(err("h8 15,2").contains("x and y go from 0 to 14"));
    assert!(err("h8 zz").contains("'zz' is not a point"));
    assert!(err("h0").contains("off the board"));
    let over = "a8 a1 b8 b1 c8 c1 d8 d1 e8 o15";
    assert!(err(over).contains("move 10: the game is over"));
    // 20x20 (Gomocup's freestyle board): t20 is the top right.
    let big = Gomoku::new(20, false).unwrap();
    let t20 = big.parse_move(&big.initial_state(), "t20").unwrap();
    assert_eq!(big.xy(t20), (19, 0));
    assert!(Gomoku::new(27, false).is_err());
    assert!(Gomoku::new(4, false).is_err());
}

#[test]
fn draws_the_board_with_the_last_stone_marked() {
    let g = Gomoku::new(5, false).unwrap();
    let s = g.parse_position("c3 d4").unwrap();
    let want = "   a b c d e
 5 . . . . . 5
 4 . . .(O). 4
 3 . . X . . 3
 2 . . . . . 2
 1 . . . . . 1
   a b c d e";
    assert_eq!(g.draw(&s), want);
}

/// Perft against a brute-force count by the referee's rules, from
/// positions where fives are near on a 6x6 board.
#[test]
fn perft_agrees_with_a_brute_force_count() {
    fn brute(r: &mut Referee, colour: usize, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for p in 0..r.grid.len() {
            if r.grid[p].is_some() {
                continue;
            }
            // Sequences that end the game early do not count.
            if depth == 1 {
                total += 1;
                continue;
            }
            if r.wins(p, colour) {
                continue;
            }
            r.grid[p] = Some(colour);
            total += brute(r, 1 - colour, depth - 1);
            r.grid[p] = None;
        }
        total
    }
    for (exact, text) in [
        (false, "a1 f6 b1 e6 c1 d6 a2 a6 b2"),
        (true, "a1 f6 b1 e6 d1 c6 e1 a6 a3 b6"),
    ] {
        let g = Gomoku::new(6, exact).unwrap();
        let s = g.parse_position(text).unwrap();
        let mut r = Referee::new(6, exact);
        for p in g.moves_of(&s) {
            r.grid[p as usize] = s.colour(p as usize);
        }
        for depth in 1..=4 {
            let ours = ply_core::explore::perft(&g, &s, depth);
            assert_eq!(ours, brute(&mut r, s.mover(), depth), "{text} depth {depth}");
        }
    }
    // From the empty 5x5 board no five is possible within eight plies:
    // 25 x 24 x 23 x 22.
    let g = Gomoku::new(5, false).unwrap();
    assert_eq!(ply_core::explore::perft(&g, &g.initial_state(), 4), 303_600);
}

#[test]
fn conformance_on_small_boards() {
    for exact in [false, true] {
        let g = Gomoku::new(5, exact).unwrap();
        let summary = crate::common::conformance_from(
            &g,
            &[
                "a1 e5 b1 d5 c1 c5 a3 a5 b3",
                "c3 c4 d3 b3 d4 b2 b4 d2 e5 a1 a5",
                "a1 a2 a3 a4 b1 b2 b3 b4 c1 c2 c3 c4 d1",
            ],
            40,
        );
        assert!(summary.immediate_wins > 10, "{summary:?}");
        assert!(summary.forced > 10, "{summary:?}");
        assert!(summary.values > 20, "{summary:?}");
    }
}

fn engine_move(g: &Gomoku, s: &Position, depth: u32) -> String {
    let opts = SearchOptions {
        depth: Some(depth),
        tt_mb: 4,
        ..SearchOptions::engine()
    };
    let out = iterative_deepening(g, s, &opts, None, &mut ply_core::observe::NoObserver, |_| {}).unwrap();
    g.format_move(s, out.best_move.unwrap())
}

#[test]
fn the_engine_completes_its_four_and_blocks_theirs() {
    // Black to move has four in a row (e8 to h8, open at d8 and i8).
    let (g, s) = game("e8 e1 f8 f1 g8 g1 h8 a1");
    let mv = engine_move(&g, &s, 3);
    assert!(mv == "d8" || mv == "i8", "{mv}");
    // White to move: black threatens five at i8 (d8 is white's).
    let (g, s) = game("e8 d8 f8 a1 g8 b1 h8");
    assert_eq!(engine_move(&g, &s, 3), "i8");
    // Black to move: white's four (b2 to e2, a2 black's, so f2 only) comes
    // before black's own open three.
    let (g, s) = game("h8 b2 h9 c2 h10 d2 a2 e2");
    assert_eq!(engine_move(&g, &s, 3), "f2");
}

#[test]
fn the_engine_stops_an_open_three_when_it_has_no_four() {
    // White to move; black's open three f8 g8 h8 threatens an open four.
    let (g, s) = game("f8 a1 g8 o15 h8");
    let mv = engine_move(&g, &s, 4);
    assert!(["e8", "i8", "d8", "j8"].contains(&mv.as_str()), "{mv}");
}

/// Checks a VCF line with the referee: every attacking move makes a four
/// (a point where the attacker then makes five), each defence takes the
/// attacker's only five point, or the attacker has two and the defence is
/// hopeless; the last move makes five.
fn check_vcf(g: &Gomoku, s: &Position, line: &[Point]) {
    let mut r = Referee::new(g.size, g.exact);
    for p in g.moves_of(s) {
        r.grid[p as usize] = s.colour(p as usize);
    }
    let attacker = s.mover();
    let (last, moves) = line.split_last().unwrap();
    for pair in moves.chunks(2) {
        let (a, d) = (pair[0] as usize, pair[1] as usize);
        assert!(r.grid[a].is_none() && !r.wins(a, attacker));
        r.grid[a] = Some(attacker);
        let fives = r.five_points(attacker);
        assert!(!fives.is_empty(), "{} makes no four", g.point_name(a as Point));
        assert!(fives.contains(&d), "the defence must take a five point");
        assert!(r.five_points(1 - attacker).is_empty(), "the defender cannot win first");
        r.grid[d] = Some(1 - attacker);
    }
    assert!(r.wins(*last as usize, attacker), "the line ends in five");
}

#[test]
fn vcf_finds_constructed_wins_and_proves_their_absence() {
    let cases = [
        // Closed threes across (e8 f8 g8, white on d8) and down (h5 h6
        // h7, white on h4) meet at h8: a double four at once.
        "e8 d8 f8 h4 g8 a1 h5 c1 h6 e1 h7 o15",
        // h8 alone is a four and a closed three; first h7 (a four across
        // with i7 j7 k7, white on l7), answered at g7, then h8 is a double
        // four.
        "e8 d8 f8 h4 g8 l7 h5 a1 h6 e1 i7 a15 j7 o15 k7 o1",
    ];
    for text in cases {
        let (g, s) = game(text);
        let found = g.threat_win(&s, 1_000_000);
        let line = found.win.unwrap_or_else(|| panic!("no VCF found in {text}"));
        check_vcf(&g, &s, &line);
        assert!(found.complete);
    }
    // The second case needs the first four: without i7 j7 k7 there is none.
    let (g, s) = game("e8 d8 f8 h4 g8 l7 h5 a1 h6 e1");
    assert_eq!(g.threat_win(&s, 1_000_000).win, None);
    // One closed three and nothing else: a single four, blocked, no win.
    let (g, s) = game("e8 d8 f8 a1 g8 a2");
    let found = g.threat_win(&s, 1_000_000);
    assert_eq!(found.win, None);
    assert!(found.complete);
    // The empty board: no threat at all.
    let g = Gomoku::new(15, false).unwrap();
    assert_eq!(g.threat_win(&g.initial_state(), 100).win, None);
}

/// On random middle-game positions, every VCF found passes the referee,
/// and a win claimed is a win: the full-width engine, told the line's
/// length, agrees the position is won.
#[test]
fn vcf_lines_on_random_positions_pass_the_referee() {
    let mut next = xorshift(99);
    let g = Gomoku::new(15, false).unwrap();
    let mut found = 0;
    for _ in 0..300 {
        let mut s = g.initial_state();
        let stones = 10 + next(20);
        let mut moves = Vec::new();
        while (s.stones() as u64) < stones && !g.is_terminal(&s) {
            moves.clear();
            g.legal_moves(&s, &mut moves);
            moves.retain(|&p| {
                let (x, y) = g.xy(p);
                (4..11).contains(&x) && (4..11).contains(&y)
            });
            if moves.is_empty() {
                break;
            }
            let p = moves[next(moves.len() as u64) as usize];
            s = g.play(&s, p);
        }
        if g.is_terminal(&s) {
            continue;
        }
        if let Some(line) = g.threat_win(&s, 200_000).win {
            check_vcf(&g, &s, &line);
            found += 1;
        }
    }
    assert!(found > 20, "only {found} random positions had a VCF");
}

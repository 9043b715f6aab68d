use std::collections::HashSet;

use super::*;
use crate::common::xorshift;

/// Runs `f` on a thread with a stack for searches hundreds of plies
/// deep (a game of Go on a small board can last that long under superko).
fn deep<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn go(size: usize) -> Go {
    Go::new(size, 0).unwrap()
}

fn at(g: &Go, text: &str) -> GoState {
    g.parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn legal(g: &Go, s: &GoState) -> Vec<String> {
    let mut moves = Vec::new();
    g.legal_moves(s, &mut moves);
    moves.iter().map(|&m| g.format_move(s, m)).collect()
}

fn is_legal(g: &Go, s: &GoState, mv: &str) -> bool {
    legal(g, s).iter().any(|m| m == mv)
}

/// Go written the slow, obvious way: a board of colours, groups found by
/// flood fill after every play, every earlier board kept in a set. The
/// oracle the incremental board is checked against.
#[derive(Clone)]
struct Naive {
    n: usize,
    board: Vec<u8>,
    to_move: u8,
    passes: u8,
    seen: HashSet<Vec<u8>>,
}

impl Naive {
    fn new(n: usize) -> Self {
        let board = vec![EMPTY; n * n];
        Naive {
            n,
            seen: HashSet::from([board.clone()]),
            board,
            to_move: BLACK,
            passes: 0,
        }
    }

    fn neighbours(&self, p: usize) -> Vec<usize> {
        let (x, y, n) = (p % self.n, p / self.n, self.n);
        let mut out = Vec::new();
        if x > 0 {
            out.push(p - 1);
        }
        if x + 1 < n {
            out.push(p + 1);
        }
        if y > 0 {
            out.push(p - n);
        }
        if y + 1 < n {
            out.push(p + n);
        }
        out
    }

    /// The group at `p` and whether it has a liberty.
    fn group(board: &[u8], this: &Naive, p: usize) -> (Vec<usize>, bool) {
        let mut group = vec![p];
        let mut free = false;
        let mut i = 0;
        while i < group.len() {
            for q in this.neighbours(group[i]) {
                if board[q] == EMPTY {
                    free = true;
                } else if board[q] == board[p] && !group.contains(&q) {
                    group.push(q);
                }
            }
            i += 1;
        }
        (group, free)
    }

    /// The board after `colour` plays at `p`, or `None` if suicide.
    fn after(&self, p: usize) -> Option<Vec<u8>> {
        let mut b = self.board.clone();
        b[p] = self.to_move;
        for q in self.neighbours(p) {
            if b[q] == 3 - self.to_move {
                let (group, free) = Self::group(&b, self, q);
                if !free {
                    for s in group {
                        b[s] = EMPTY;
                    }
                }
            }
        }
        Self::group(&b, self, p).1.then_some(b)
    }

    /// The legal plays (indices) and whether passing is allowed.
    fn legal(&self) -> Vec<usize> {
        if self.passes >= 2 {
            return Vec::new();
        }
        (0..self.n * self.n)
            .filter(|&p| self.board[p] == EMPTY)
            .filter(|&p| self.after(p).is_some_and(|b| !self.seen.contains(&b)))
            .collect()
    }

    fn play(&mut self, p: Option<usize>) {
        match p {
            None => self.passes += 1,
            Some(p) => {
                self.board = self.after(p).unwrap();
                self.seen.insert(self.board.clone());
                self.passes = 0;
            }
        }
        self.to_move = 3 - self.to_move;
    }

    /// Black's area minus White's.
    fn margin(&self) -> i32 {
        let mut score = 0;
        for p in 0..self.n * self.n {
            score += match self.board[p] {
                BLACK => 1,
                WHITE => -1,
                _ => {
                    let mut region = vec![p];
                    let mut touches = 0;
                    let mut i = 0;
                    while i < region.len() {
                        for q in self.neighbours(region[i]) {
                            if self.board[q] == EMPTY {
                                if !region.contains(&q) {
                                    region.push(q);
                                }
                            } else {
                                touches |= self.board[q];
                            }
                        }
                        i += 1;
                    }
                    match touches {
                        BLACK => 1,
                        WHITE => -1,
                        _ => 0,
                    }
                }
            };
        }
        score
    }
}

/// The padded point of the naive board's index.
fn padded(g: &Go, p: usize) -> GoMove {
    g.point(p % g.size(), p / g.size())
}

/// Random games on boards of 2×2 to 7×7, compared move by move with the
/// naive Go: the legal moves (suicide and superko included), the stones,
/// the groups' bookkeeping, the end and the score.
#[test]
fn agrees_with_naive_go_over_random_games() {
    let mut next = xorshift(0x600d_5eed);
    let (mut plies, mut superko, mut captures) = (0, 0, 0);
    for size in 2..=7 {
        let g = go(size);
        for _ in 0..60 {
            let mut s = g.initial_state();
            let mut naive = Naive::new(size);
            while !g.is_terminal(&s) {
                let mut moves = Vec::new();
                g.legal_moves(&s, &mut moves);
                let expected: Vec<GoMove> = naive
                    .legal()
                    .into_iter()
                    .map(|p| padded(&g, p))
                    .chain([GoMove::PASS])
                    .collect();
                assert_eq!(moves, expected, "legal moves in {}", g.format_position(&s));
                superko += (0..size * size)
                    .filter(|&p| {
                        naive.board[p] == EMPTY
                            && naive.after(p).is_some_and(|b| naive.seen.contains(&b))
                    })
                    .count();
                // Pass rarely, so that games fill the board and capture.
                let pick = if next(20) == 0 || moves.len() == 1 {
                    moves.len() - 1
                } else {
                    next(moves.len() as u64 - 1) as usize
                };
                let mv = moves[pick];
                let before = s.board().stone_count();
                s = g.play(&s, mv);
                captures += usize::from(s.board().stone_count() < before);
                naive.play((!mv.is_pass()).then(|| {
                    let (c, r) = g.coordinates(mv);
                    r * size + c
                }));
                s.board().check().unwrap();
                for p in 0..size * size {
                    assert_eq!(s.board().colour(usize::from(padded(&g, p).0)), naive.board[p]);
                }
                plies += 1;
            }
            assert!(naive.passes >= 2);
            assert_eq!(g.utility(&s).0, naive.margin());
        }
    }
    // The games met every rule the comparison is about.
    assert!(plies > 10_000, "{plies} plies");
    assert!(superko > 100, "{superko} plays refused by the repetition rule");
    assert!(captures > 1_000, "{captures} captures");
}

#[test]
fn a_stone_and_a_group_are_captured() {
    let g = go(5);
    // White's A1 in the corner: two black stones take its liberties.
    let s = at(&g, "A2 A1 B1");
    assert_eq!(s.board().colour(usize::from(g.point(0, 0).0)), EMPTY);
    assert_eq!(s.prisoners(), (1, 0));
    // Three white stones along the edge, captured by one play.
    let s = at(&g, "B1 A1 C1 A2 D1 A3 E1 B2 pass C2 pass D2 pass E2");
    let stones: usize = g
        .points()
        .iter()
        .filter(|&&p| s.board().colour(usize::from(p)) == BLACK)
        .count();
    assert_eq!(stones, 0, "{}", g.draw(&s));
    assert_eq!(s.prisoners(), (0, 4));
    assert_eq!(g.area(&s), (0, 25));
}

#[test]
fn suicide_is_illegal_unless_it_captures() {
    let g = go(5);
    // A1 is surrounded by white: black may not play there.
    let s = at(&g, "pass A2 pass B1");
    assert!(!is_legal(&g, &s, "A1"));
    assert_eq!(
        g.parse_position("pass A2 pass B1 A1").unwrap_err().message,
        "move 5: A1 is suicide: the stone would have no liberty"
    );
    // A two-stone suicide: A2 would fill the last liberty of black's A1.
    let s = at(&g, "A1 B1 pass B2 pass A3");
    assert!(!is_legal(&g, &s, "A2"), "{}", g.draw(&s));
    // The same point is legal when it captures: white's A2 and B1 are in
    // atari, and taking them gives the stone its liberties.
    let s = at(&g, "B2 A2 A3 B1 C1 pass");
    assert!(is_legal(&g, &s, "A1"), "{}", g.draw(&s));
    let after = g.play(&s, g.parse_move(&s, "A1").unwrap());
    assert_eq!(after.prisoners(), (2, 0));
}

/// The simple ko: a single-stone capture may not be answered at once by
/// the capture back; after a move elsewhere it may.
#[test]
fn ko_is_refused_until_a_move_elsewhere() {
    let g = go(5);
    // White's B3 has one liberty, C3, where a black stone would have none
    // but B3: black C3 takes B3, and white B3 would take C3 back.
    let s = at(&g, "...../.XO../XO.O./.XO../..... b C3");
    assert_eq!(s.prisoners(), (1, 0), "{}", g.draw(&s));
    assert!(!is_legal(&g, &s, "B3"), "{}", g.draw(&s));
    assert_eq!(
        g.why_illegal(&s, g.parse_move(&s, "B3").unwrap()),
        "B3 would repeat an earlier position (superko; a simple ko is the same rule): play elsewhere first"
    );
    let s = at(&g, "...../.XO../XO.O./.XO../..... b C3 E5 E1");
    assert!(is_legal(&g, &s, "B3"), "{}", g.draw(&s));
    let s = g.play(&s, g.parse_move(&s, "B3").unwrap());
    assert_eq!(s.prisoners(), (1, 1));
}

/// A cycle longer than a ko: on 2×2, black A1, white A2, black B1, white
/// B2 (taking two), black A1, white B1 (taking one); black A1 again would
/// take three and bring back the board after the first move. Simple ko
/// (no retaking at once) would allow it; positional superko does not.
#[test]
fn superko_refuses_a_cycle_longer_than_a_ko() {
    let g = go(2);
    let s = at(&g, "A1 A2 B1 B2 A1 B1");
    assert_eq!(s.prisoners(), (0, 3));
    let a1 = g.parse_move(&s, "A1").unwrap();
    let o = s.board().outcome(usize::from(a1.0), BLACK, &g.zobrist).unwrap();
    assert!(o.captures && o.stones == 1, "A1 would take three");
    let first = at(&g, "A1");
    assert_eq!(o.hash, first.board().hash(), "the board after move 1");
    let two_back = at(&g, "A1 A2 B1 B2");
    assert_ne!(o.hash, two_back.board().hash(), "not a simple ko");
    assert_eq!(legal(&g, &s), ["pass"]);
    assert!(g.why_illegal(&s, a1).contains("superko"));
}

/// A seki on 3×3: black's four stones and white's three share the two
/// empty points and have no other liberty, so a stone in either puts its
/// own group in atari and the other side takes it. Both pass, and area
/// scoring gives the shared points to no one: 4 to 3.
#[test]
fn seki_is_scored_with_its_shared_points_neutral() {
    let g = go(3);
    for (side, taken) in [("b", 5), ("w", 4)] {
        for (first, answer) in [("B1", "B3"), ("B3", "B1")] {
            let s = at(&g, &format!("X.O/XXO/X.O {side} {first} {answer}"));
            let (b, w) = s.prisoners();
            assert_eq!(b + w, taken, "{side} {first}: {}", g.draw(&s));
        }
    }
    let end = at(&g, "X.O/XXO/X.O b pass pass");
    assert!(g.is_terminal(&end));
    assert_eq!(g.area(&end), (4, 3));
    assert_eq!(g.utility(&end), MaxScore(1));
    assert_eq!(g.owners(&end)[1], EMPTY, "B1 is no one's");
}

#[test]
fn positions_round_trip_and_bad_ones_are_named() {
    let g = Go::new(9, 7).unwrap();
    for text in ["", "E5 D4 pass", "........./........./........./........./....X..../........./........./........./......... w C3"] {
        let s = at(&g, text);
        assert_eq!(g.format_position(&s), text);
        assert_eq!(at(&g, &g.format_position(&s)), s);
    }
    assert_eq!(g.format_position(&at(&g, "-")), "");
    assert_eq!(at(&g, "e5 D4 PASS"), at(&g, "E5 D4 pass"));
    let err = |text: &str| g.parse_position(text).unwrap_err().to_string();
    assert_eq!(err("E5 I3"), "column 4: move 2: 'I3': Go's columns skip the letter I (H is followed by J)");
    assert_eq!(err("E5 E5"), "column 4: move 2: E5 is not empty");
    assert_eq!(
        err("K1"),
        "column 1: move 1: 'K1' is off the 9x9 board: a move is a point, a column letter A to J (no I) and a row 1 to 9, or 'pass'"
    );
    assert_eq!(err("E5 pass pass D4"), "column 14: move 4: the game is over: two passes in a row ended it");
    let g3 = go(3);
    assert_eq!(
        g3.parse_position("XO./...").unwrap_err().to_string(),
        "a diagram of a 3x3 board has 3 rows separated by '/'; this one has 2"
    );
    assert!(g3.parse_position("XO/.../...").unwrap_err().to_string().contains("row 3 of the diagram has 2 points"));
    assert!(g3.parse_position("XZ./.../...").unwrap_err().to_string().contains("'Z' is not a point"));
    assert!(g3.parse_position("XO./O../... b").unwrap_err().to_string().contains("without a liberty"));
}

#[test]
fn states_are_equal_when_their_futures_are() {
    let g = go(5);
    // The same stones by two move orders: the boards on the way differ,
    // so do the states and their keys (a table must not merge them).
    let a = at(&g, "B2 C3 D4 B4");
    let b = at(&g, "D4 B4 B2 C3");
    assert!(a.board().same_stones(b.board()));
    assert_ne!(a, b);
    assert_ne!(g.hash_key(&a), g.hash_key(&b));
    // Two passes in between change nothing but the passes count and the
    // line: the same board set, mover and passes.
    let c = at(&g, "B2 C3 pass pass");
    assert!(g.is_terminal(&c));
    let e = at(&g, "B2 C3 pass D4 pass B4");
    let f = at(&g, "B2 C3 pass D4 pass B4");
    assert_eq!(e, f);
    assert_eq!(g.hash_key(&e), g.hash_key(&f));
    // Whose turn it is and a pending pass are part of the key.
    assert_ne!(g.hash_key(&at(&g, "B2")), g.hash_key(&at(&g, "B2 pass pass")));
    assert_ne!(
        g.hash_key(&at(&g, "....X/...../...../...../..... b")),
        g.hash_key(&at(&g, "....X/...../...../...../..... w"))
    );
}

#[test]
fn draws_the_board_with_the_last_move() {
    let g = go(5);
    let s = at(&g, "A2 A1 B1");
    assert_eq!(
        g.draw(&s),
        "    A B C D E\n 5  . . . . . 5\n 4  . . . . . 4\n 3  . . . . . 3\n 2  X . . . . 2\n 1  .(X). . . 1\n    A B C D E\ncaptured: 1 by X, 0 by O"
    );
    assert!(g.draw(&at(&g, "A2 pass")).ends_with("; O passed"));
}

#[test]
fn conformance_on_small_boards() {
    deep(conformance)
}

fn conformance() {
    for size in [2, 3, 4] {
        let g = go(size);
        let summary = crate::common::conformance_from(&g, &[""], 40);
        assert!(summary.terminals == 40 && summary.values > 0, "{summary:?}");
    }
    let g = Go::new(5, 7).unwrap();
    let summary =
        crate::common::conformance_from(&g, &["C3 pass", "...../.XO../XO.O./.XO../..... b"], 5);
    assert!(summary.terminals == 10, "{summary:?}");
}

/// 2×2 Go with area scoring and positional superko, no komi, is a win
/// for Black by 1 point (Bill Taylor's proof; John Tromp's solver). With
/// the pass tried first alpha-beta proves it in a couple of thousand
/// nodes (Tromp's program: 1,446 to depth 22); without ordering it
/// takes millions. The whole line ends in two passes.
#[test]
fn two_by_two_is_a_black_win_by_one() {
    let (value, line, nodes) = deep(|| {
        let g = go(2);
        let options = ply_core::search::SearchOptions {
            ordering: true,
            ..ply_core::search::SearchOptions::exact()
        };
        let r = ply_core::search::solve(
            &g,
            &g.initial_state(),
            ply_core::search::Algorithm::AlphaBeta,
            &options,
        )
        .unwrap();
        let mut s = g.initial_state();
        for &m in &r.outcome.pv {
            s = g.play(&s, m);
        }
        (r.outcome.value, (g.is_terminal(&s), g.utility(&s)), r.stats.nodes)
    });
    assert_eq!(value, MaxScore(1));
    assert_eq!(line, (true, MaxScore(1)), "the line ends the game at +1");
    assert!(nodes < 10_000, "{nodes} nodes");
}

/// A generator for the playout hook in tests (the `RngCore` the engine
/// passes is its own).
struct Counter(u64);

impl RngCore for Counter {
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for b in dest {
            *b = self.next_u64() as u8;
        }
    }
}

/// A playout in place, replayed through the rules: every move legal (the
/// first by the whole repetition rule, later ones at least by the stones
/// and the simple ko, superko refusals counted), none filling the mover's
/// own eye, the final board the same, and its result the sign of the
/// rules' score when it ended by two passes.
fn check_playouts(policy: Policy, size: usize, starts: usize) -> (usize, usize) {
    let g = Go::new(size, 7).unwrap().with_playouts(Some(policy));
    let mut next = xorshift(size as u64 * 7 + u64::from(policy.answers));
    let mut rng = Counter(size as u64);
    let (mut plies, mut refused) = (0, 0);
    for _ in 0..starts {
        // A start some random moves into a game.
        let mut s = g.initial_state();
        for _ in 0..next(size as u64 * size as u64) {
            let mut moves = Vec::new();
            g.legal_moves(&s, &mut moves);
            // Passing rarely (the pass is last).
            let plays = moves.len() as u64 - 1;
            let pick = if plays == 0 { 0 } else { next(plays) };
            s = g.play(&s, moves[pick as usize]);
        }
        let mut played = Vec::new();
        let result = g.playout(&s, &mut rng, &mut played).unwrap();
        for (i, &(player, mv)) in played.iter().enumerate() {
            assert_eq!(player, g.to_move(&s));
            if !mv.is_pass() {
                let p = usize::from(mv.0);
                assert!(!s.board().is_eye(p, s.colour()), "filled its own eye");
                if !is_legal(&g, &s, &g.format_move(&s, mv)) {
                    assert!(i > 0, "the first move {} is illegal", g.format_move(&s, mv));
                    let why = g.why_illegal(&s, mv);
                    assert!(why.contains("repeat"), "{why}");
                    refused += 1;
                    break;
                }
            }
            s = g.play(&s, mv);
            plies += 1;
        }
        if g.is_terminal(&s) {
            let expected = match g.utility(&s).0.signum() {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            };
            assert_eq!(result, expected, "{}", g.format_position(&s));
        }
    }
    (plies, refused)
}

#[test]
fn playouts_in_place_follow_the_rules() {
    for policy in [Policy::FULL, Policy::SHAPES, Policy::LIGHT] {
        for size in [3, 5, 9] {
            let (plies, refused) = check_playouts(policy, size, 60);
            assert!(plies > 60 * size, "{plies} plies on {size}x{size}");
            // A longer cycle than a ko is rare in a random game.
            assert!(refused * 20 <= 60, "{refused} superko refusals on {size}x{size}");
        }
    }
}

/// The full policy's first step, in positions where it is forced:
/// White's last stone is in atari and Black takes it; White's last move
/// put two black stones in atari and Black runs, whatever the seed.
#[test]
fn the_full_policy_captures_and_runs() {
    let g = Go::new(5, 0).unwrap();
    let first = |s: &GoState, seed: u64| {
        let mut played = Vec::new();
        g.playout(s, &mut Counter(seed), &mut played).unwrap();
        g.format_move(s, played[0].1)
    };
    // White's D3 stands in atari among black stones: Black takes at E3.
    let white = at(&g, "...../...X./..X../...X./..... w");
    let white = g.play(&white, g.parse_move(&white, "D3").unwrap());
    for seed in 0..20 {
        assert_eq!(first(&white, seed), "E3");
    }
    // White's C3 puts B2-C2 in atari (D2 their last liberty): they run.
    let run = at(&g, "...../...../.O.../OXX../.OO.. w");
    let run = g.play(&run, g.parse_move(&run, "C3").unwrap());
    for seed in 0..20 {
        assert_eq!(first(&run, seed), "D2");
    }
    // The light policy knows neither.
    let light = g.clone().with_playouts(Some(Policy::LIGHT));
    let mut seen = HashSet::new();
    for seed in 0..40 {
        let mut played = Vec::new();
        light.playout(&white, &mut Counter(seed), &mut played).unwrap();
        seen.insert(played[0].1);
    }
    assert!(seen.len() > 5);
}

/// A playout that counts owners plays the same game as one that does
/// not (the same moves for the same random numbers), and its owners are
/// the area's count: their sum is Black's area less White's, and the
/// result is that margin's after komi.
#[test]
fn owned_playouts_count_the_area() {
    for size in [5, 9] {
        let g = Go::new(size, 3).unwrap();
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15 + size as u64);
        for n in 0..40 {
            let mut s = g.initial_state();
            for _ in 0..(n % 25) {
                let moves = legal(&g, &s);
                if g.is_terminal(&s) {
                    break;
                }
                let i = next(moves.len() as u64) as usize;
                s = g.play(&s, g.parse_move(&s, &moves[i]).unwrap());
            }
            if g.is_terminal(&s) {
                continue;
            }
            let (mut plain, mut counted) = (Vec::new(), Vec::new());
            let result = g.playout(&s, &mut Counter(n), &mut plain).unwrap();
            let mut owners = vec![0i64; g.move_slots()];
            let owned = g.playout_owned(&s, &mut Counter(n), &mut counted, &mut owners);
            assert_eq!(owned, Some(result));
            assert_eq!(plain, counted);
            // The final board, replayed through the rules, scored by them.
            let mut end = s.clone();
            for &(_, mv) in &counted {
                if g.is_terminal(&end) {
                    break;
                }
                end = g.play(&end, mv);
            }
            let (black, white) = end.board.area();
            assert_eq!(owners.iter().sum::<i64>(), i64::from(black - white));
            assert!(owners.iter().all(|&o| (-1..=1).contains(&o)));
            let points: HashSet<usize> = g.points().iter().map(|&p| usize::from(p)).collect();
            for (slot, &o) in owners.iter().enumerate() {
                assert!(o == 0 || points.contains(&slot), "slot {slot} is not a point");
                assert_eq!(g.slot_move(slot).is_some(), points.contains(&slot));
            }
        }
    }
}

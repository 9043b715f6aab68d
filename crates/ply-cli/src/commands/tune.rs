//! `ply tune`: Texel tuning of chess's evaluation, in two steps.
//!
//! `ply tune data` plays the engine against itself at a fixed node count
//! (so a run is repeatable whatever the machine's load) from the openings,
//! after a few random moves, and keeps the quiet positions of each game
//! (not in check, the engine's move not a capture or a promotion, the
//! score not decided) with the game's result. `ply tune fit` reads them
//! and fits the weights ([`ply_games::chess::tune`]), writing the source
//! of `weights.rs`.

use std::io::{IsTerminal, Write as _};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ply_core::observe::NoObserver;
use ply_core::search::id::iterate;
use ply_core::search::{Engine, SearchOptions};
use ply_core::{EngineHooks, Game, Notation};
use ply_games::Chess;
use ply_games::chess::tune::{self, DataSet, FitOptions, Weights};
use ply_games::chess::{ChessState, eval};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::args::{TuneCommand, TuneDataArgs, TuneFitArgs};
use crate::{CliError, CliResult};

pub fn run(command: &TuneCommand) -> CliResult {
    match command {
        TuneCommand::Data(a) => run_data(a),
        TuneCommand::Fit(a) => run_fit(a),
    }
}

/// A score this far from zero, for this many plies in a row, ends a game
/// as won: engines agree it is decided long before the mate.
const ADJUDICATE_CP: i32 = 1000;
const ADJUDICATE_PLIES: usize = 8;
/// A game this long is scored a draw.
const MAX_PLIES: usize = 400;
/// The table each game's engine uses, in MiB (the searches are small).
const TABLE_MB: usize = 16;

/// One game's kept positions (FEN) and result from White's side.
struct GameRecord {
    positions: Vec<String>,
    result: f64,
}

fn read_openings(game: &Chess, path: Option<&Path>) -> Result<Vec<ChessState>, CliError> {
    let Some(path) = path else {
        return Ok(vec![game.initial_state()]);
    };
    let text = super::read_input(path)?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // An EPD line is a FEN's first four fields and operations: the
        // clocks default.
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..fields.len().min(4)].join(" "))
        };
        let state = game
            .parse_position(&fen)
            .map_err(|e| CliError::input(format!("{}: line {}: {}", path.display(), n + 1, e)))?;
        openings.push(state);
    }
    if openings.is_empty() {
        return Err(CliError::input(format!("{}: no openings", path.display())));
    }
    Ok(openings)
}

/// Plays game `index`: the opening, random moves, then the engine.
fn play_game(
    game: &Chess,
    engine: &mut Engine<cozy_chess::Move>,
    opening: &ChessState,
    args: &TuneDataArgs,
    index: usize,
) -> GameRecord {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
        args.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    );
    let mut state = opening.clone();
    let mut moves = Vec::new();
    for _ in 0..args.random_plies {
        moves.clear();
        game.legal_moves(&state, &mut moves);
        if moves.is_empty() {
            break;
        }
        state = game.play(&state, moves[rng.random_range(0..moves.len())]);
    }
    engine.clear();
    let mut positions = Vec::new();
    let mut decided = (0usize, 0i32);
    let mut result = 0.5;
    for _ in 0..MAX_PLIES {
        if game.is_terminal(&state) {
            result = match game.utility(&state).0.signum() {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            };
            break;
        }
        let outcome = iterate(engine, game, &state, None, &mut NoObserver, &mut |_| {});
        let Ok(outcome) = outcome else { break };
        let Some(mv) = outcome.best_move else { break };
        let value = outcome.value.0;
        if value.abs() >= ADJUDICATE_CP {
            let sign = value.signum();
            decided = if decided.1 == sign {
                (decided.0 + 1, sign)
            } else {
                (1, sign)
            };
            if decided.0 >= ADJUDICATE_PLIES {
                result = if sign > 0 { 1.0 } else { 0.0 };
                break;
            }
        } else {
            decided = (0, 0);
            if !game.in_check(&state) && game.is_quiet(&state, mv) {
                positions.push(state.board().to_string());
            }
        }
        state = game.play(&state, mv);
    }
    GameRecord { positions, result }
}

fn run_data(args: &TuneDataArgs) -> CliResult {
    let game = Chess::new();
    let openings = read_openings(&game, args.openings.as_deref())?;
    if args.games == 0 || args.nodes == 0 {
        return Err(CliError::input("--games and --nodes must be at least 1"));
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    let lines = !args.quiet && !std::io::stderr().is_terminal();
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(args.games as u64), ProgressDrawTarget::stderr())
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg} (eta {eta})",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let next = AtomicUsize::new(0);
    let records: Mutex<Vec<Option<GameRecord>>> =
        Mutex::new((0..args.games).map(|_| None).collect());
    let tally = Mutex::new((0usize, [0usize; 3]));
    let options = SearchOptions {
        tt_mb: TABLE_MB,
        node_limit: Some(args.nodes),
        ..SearchOptions::engine()
    };
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut engine = Engine::new(&game, &options);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let record =
                        play_game(&game, &mut engine, &openings[i % openings.len()], args, i);
                    {
                        let mut t = tally.lock().expect("tally");
                        t.0 += record.positions.len();
                        t.1[(record.result * 2.0) as usize] += 1;
                        let message = format!(
                            "{} positions, White +{} ={} -{}",
                            t.0, t.1[2], t.1[1], t.1[0]
                        );
                        // Without a terminal the bar is not drawn: a line
                        // every twentieth of the run instead.
                        let done = t.1.iter().sum::<usize>();
                        if lines && done % args.games.div_ceil(20) == 0 {
                            eprintln!(
                                "{done}/{} games, {message} ({:.0} s)",
                                args.games,
                                start.elapsed().as_secs_f64()
                            );
                        }
                        bar.set_message(message);
                    }
                    records.lock().expect("records")[i] = Some(record);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let records = records.into_inner().expect("records");
    let mut out = String::new();
    out.push_str(&format!(
        "# ply tune data --games {} --nodes {} --random-plies {} --seed {}{}\n",
        args.games,
        args.nodes,
        args.random_plies,
        args.seed,
        args.openings
            .as_ref()
            .map_or(String::new(), |p| format!(" --openings {}", p.display()))
    ));
    let mut kept = 0;
    for r in records.into_iter().flatten() {
        for fen in &r.positions {
            out.push_str(&format!("{fen};{}\n", r.result));
            kept += 1;
        }
    }
    std::fs::write(&args.out, out)
        .map_err(|e| CliError::input(format!("{}: {e}", args.out.display())))?;
    let (_, wdl) = tally.into_inner().expect("tally");
    eprintln!(
        "{} games (White +{} ={} -{}), {kept} positions -> {} in {:.1} s",
        args.games,
        wdl[2],
        wdl[1],
        wdl[0],
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_fit(args: &TuneFitArgs) -> CliResult {
    let text = super::read_input(&args.data)?;
    let masks = eval::Masks::new();
    let all = DataSet::parse(&masks, &text)
        .map_err(|e| CliError::input(format!("{}: {e}", args.data.display())))?;
    if all.is_empty() {
        return Err(CliError::input(format!(
            "{}: no positions",
            args.data.display()
        )));
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        return Err(CliError::input("--rate must be a positive number"));
    }
    // Every tenth position is held out: the fit never sees it, and its
    // error says whether the weights predict games or only remember these.
    let (data, held) = all.split_every(10);
    let start = Weights::from_table(&ply_games::chess::weights::WEIGHTS);
    let k = tune::fit_k(&data, &start);
    let before = tune::error(&data, &start, k);
    let held_before = tune::error(&held, &start, k);
    if !args.quiet {
        eprintln!(
            "{} positions ({} held out); K = {k:.4}; error {before:.6} (held out {held_before:.6}) with the current weights",
            data.len(),
            held.len()
        );
    }
    let t = Instant::now();
    let free = match &args.terms {
        Some(names) => tune::term_mask(names).map_err(CliError::input)?,
        None => Vec::new(),
    };
    let options = FitOptions {
        epochs: args.epochs,
        rate: args.rate,
        free,
    };
    let fitted = tune::fit(&data, &start, k, options, |epoch, e| {
        if !args.quiet && (epoch % 50 == 0 || epoch == args.epochs) {
            eprintln!(
                "epoch {epoch}: error {e:.6} ({:.1} s)",
                t.elapsed().as_secs_f64()
            );
        }
    });
    let table = fitted.to_table();
    let rounded = Weights::from_table(&table);
    let after = tune::error(&data, &rounded, k);
    let held_after = tune::error(&held, &rounded, k);
    let header = format!(
        "//! The evaluation's weights, one pair (middlegame, endgame) per term of\n\
         //! [`super::eval`], in its order. Written by `ply tune fit` (see the\n\
         //! README's \"Tuning the evaluation\"); edit the tuner, not this file.\n\
         //!\n\
         //! Fitted by `ply tune fit --epochs {} --rate {}{}` to nine tenths of the\n\
         //! {} positions of\n\
         //! `{}`:\n\
         //! K = {k:.4}, mean squared error {before:.6} -> {after:.6}; on the tenth\n\
         //! held out, {held_before:.6} -> {held_after:.6}. The start was\n\
         //! the weights before: PeSTO's piece-square tables (Ronald Friederich's\n\
         //! Texel-tuned values, Chess Programming Wiki) with material folded in,\n\
         //! and ply's hand-set weights for the other terms.\n\n",
        args.epochs,
        args.rate,
        args.terms
            .as_ref()
            .map_or(String::new(), |t| format!(" --terms {t}")),
        all.len(),
        text.lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("# ")
            .trim(),
    );
    let source = header + &tune::format_weights(&table);
    match &args.out {
        Some(path) => std::fs::write(path, source)
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?,
        None => {
            let _ = std::io::stdout().write_all(source.as_bytes());
        }
    }
    if !args.quiet {
        eprintln!(
            "error {before:.6} -> {after:.6}, held out {held_before:.6} -> {held_after:.6} (rounded weights)"
        );
    }
    Ok(())
}

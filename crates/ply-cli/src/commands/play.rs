//! `ply play`: a game in the terminal, a human against the engine or engine
//! against engine. Reads moves from standard input, so it can be scripted.
//! In games with chance the dice are rolled here, seeded (`--seed`), and shown.

use std::io::{BufRead, Write};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::Searchable;
use ply_core::play::SearchAgent;
use ply_core::search::alphabeta::Budget;
use ply_core::search::{Algorithm, SearchOptions};
use ply_core::search::{MctsAgent, expectiminimax};
use ply_core::{Game, Notation, Player, play_moves};
use ply_games::{GameInfo, GameVisitor};
use serde_json::json;

use crate::args::{HumanArg, PlayArgs};
use crate::commands::solve::{expect_text, report_iteration, verdict};
use crate::commands::{Plan, configure};
use crate::output::{line_text, params, print_json, score_text, setup};
use crate::{CliError, CliResult};

/// The default thinking time a move, in ms.
pub const PLAY_TIME_MS: u64 = 1_000;

const HELP: &str = "commands: a move in the game's notation, 'undo' (take back your last move), \
'hint' (ask the engine), 'moves' (list legal moves), 'quit'";

fn result_text<G: Game>(game: &G, state: &G::State) -> String {
    match game.utility(state).0.signum() {
        1 => "MAX (the first player) wins".into(),
        -1 => "MIN (the second player) wins".into(),
        _ => "a draw".into(),
    }
}

/// The exact solver with its fallback: the engine, weak mode, the time for
/// the solve, and the depth-limited search used when it does not finish.
struct ScoreEngine<G: Searchable> {
    engine: ply_core::search::Engine<G::Move>,
    weak: bool,
    time: Option<std::time::Duration>,
    fallback: SearchAgent<G::Move>,
}

/// The engine of a game, whatever the plan: a move and what it thinks.
enum Engine<G: Searchable> {
    /// The exact solver, with a fallback for when it runs out of time.
    Score(Box<ScoreEngine<G>>),
    Search(Box<SearchAgent<G::Move>>),
    Expecti(SearchOptions, bool),
    Mcts(MctsAgent<G>),
}

impl<G: Notation + Searchable> Engine<G> {
    fn new(game: &G, plan: Plan, time: std::time::Duration) -> Self {
        match plan {
            Plan::Search(a, o) => Engine::Search(Box::new(SearchAgent::new(a, o))),
            Plan::Expecti { options, star1 } => Engine::Expecti(options, star1),
            Plan::Mcts(o) => Engine::Mcts(MctsAgent::new(o)),
            Plan::Score { options, weak } => {
                let fallback = SearchOptions {
                    fast_win: true,
                    pvs: true,
                    time_limit: Some(time / 2),
                    ..options
                };
                Engine::Score(Box::new(ScoreEngine {
                    engine: ply_core::search::Engine::new(game, &options),
                    weak,
                    time: Some(time / 2),
                    fallback: SearchAgent::new(Algorithm::Id, fallback),
                }))
            }
        }
    }

    /// The move it would play, and a sentence on why.
    fn think(&mut self, game: &G, state: &G::State, quiet: bool) -> (Option<G::Move>, String) {
        match self {
            Engine::Score(se) => {
                let ScoreEngine {
                    engine,
                    weak,
                    time,
                    fallback,
                } = &mut **se;
                // The exact solve first, with half the time; if it does not
                // finish, a depth-limited search with the evaluation.
                let budget = Budget {
                    deadline: time.map(|t| std::time::Instant::now() + t),
                    ..Budget::default()
                };
                let solved = crate::commands::solve::solve_exact(
                    engine,
                    game,
                    state,
                    *weak,
                    &budget,
                    &mut ply_core::observe::NoObserver,
                    &mut |_, _| {},
                );
                if let Ok(solved) = solved {
                    let (r, best, pv) = (solved.result, solved.best_move, solved.pv);
                    let score = r.value.for_player(game.to_move(state)).0;
                    let note = game
                        .score_note(state, score)
                        .unwrap_or_else(|| "proven".into());
                    let said = format!(
                        "proven {note} (score {score} for the mover), line {}",
                        line_text(game, state, &pv)
                    );
                    return (best, said);
                }
                let out = fallback.think(game, state, &mut |it| {
                    if !quiet {
                        report_iteration(game, state, it);
                    }
                });
                let out = match out {
                    Ok(out) => out,
                    Err(e) => return (None, e.to_string()),
                };
                let said = format!(
                    "estimate {} (the exact solve did not finish in time), line {}",
                    score_text(out.value),
                    line_text(game, state, &out.pv)
                );
                (out.best_move, said)
            }
            Engine::Search(agent) => {
                let out = agent.think(game, state, &mut |it| {
                    if !quiet {
                        report_iteration(game, state, it);
                    }
                });
                let out = match out {
                    Ok(out) => out,
                    Err(e) => return (None, e.to_string()),
                };
                let said = format!(
                    "value {} ({}), line {}",
                    score_text(out.value),
                    verdict(out.proven, out.value, out.distance),
                    line_text(game, state, &out.pv)
                );
                (out.best_move, said)
            }
            Engine::Expecti(options, star1) => {
                let out = expectiminimax(
                    game,
                    state,
                    options,
                    *star1,
                    &mut ply_core::observe::NoObserver,
                );
                let said = format!("value {}", expect_text(game, out.value));
                (out.best_move, said)
            }
            Engine::Mcts(agent) => {
                let r = agent.think(game, state);
                let said = match r.moves.first() {
                    Some(m) => format!(
                        "{} visits of {}, mean result {:.3} for the mover",
                        m.visits, r.iterations, m.mean
                    ),
                    None => "no move".into(),
                };
                (r.best_move, said)
            }
        }
    }
}

struct Play<'a>(&'a PlayArgs);

impl GameVisitor for Play<'_> {
    type Output = CliResult;
    fn visit<G: Notation + Searchable>(self, game: G, info: &'static GameInfo) -> CliResult {
        let a = self.0;
        let start = setup(&game, &a.game)?;
        let plan = configure(&a.search, &game, &start, info, PLAY_TIME_MS)?;
        let time = std::time::Duration::from_millis(a.search.time_ms.unwrap_or(PLAY_TIME_MS));
        let mut engine = Engine::<G>::new(&game, plan, time);
        let quiet = a.search.quiet || a.game.json;
        let say = |text: String| {
            if !a.game.json {
                println!("{text}");
            }
        };
        let human_side = match a.human {
            HumanArg::First => Some(Player::Max),
            HumanArg::Second => Some(Player::Min),
            HumanArg::None => None,
        };
        let dice_seed = a.search.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        let mut dice = Xoshiro256PlusPlus::seed_from_u64(dice_seed);
        say(format!(
            "{}: you are {}; the engine is {}. {HELP}",
            info.name,
            human_side.map_or("watching".to_string(), |p| p.name().to_string()),
            plan.name()
        ));

        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut history: Vec<G::State> = Vec::new();
        let mut played: Vec<String> = Vec::new();
        let mut record: Vec<G::Move> = Vec::new();
        let mut state = start.clone();
        let mut redraw = true;
        let mut plies = 0usize;
        loop {
            if redraw {
                say(String::new());
                say(game.draw(&state).trim_end().to_string());
            }
            redraw = true;
            if game.is_terminal(&state) {
                say(format!("game over: {}", result_text(&game, &state)));
                break;
            }
            plies += 1;
            if plies > 100_000 {
                return Err(CliError::failure(
                    "the game did not end within 100,000 plies",
                ));
            }
            if game.is_chance(&state) {
                let mut outcomes = Vec::new();
                game.chance_outcomes(&state, &mut outcomes);
                let r: f64 = dice.random();
                let mut acc = 0.0;
                let mut pick = outcomes.last().expect("a chance node has outcomes").0;
                for &(m, p) in &outcomes {
                    acc += p;
                    if r < acc {
                        pick = m;
                        break;
                    }
                }
                let text = game.format_move(&state, pick);
                say(game.describe_outcome(&state, pick));
                history.push(state.clone());
                played.push(text);
                record.push(pick);
                state = game.play(&state, pick);
                continue;
            }
            let mover = game.to_move(&state);
            if human_side != Some(mover) {
                let (best, said) = engine.think(&game, &state, quiet);
                let Some(m) = best else {
                    return Err(CliError::failure("the engine found no move"));
                };
                let text = game.format_move(&state, m);
                say(format!("engine ({}) plays {text}: {said}", mover.name()));
                history.push(state.clone());
                played.push(text);
                record.push(m);
                state = game.play(&state, m);
                continue;
            }
            if !a.game.json {
                print!("your move ({}): ", mover.name());
                let _ = std::io::stdout().flush();
            }
            let mut line = String::new();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    say("\n(end of input: game abandoned)".to_string());
                    break;
                }
                Ok(_) => {}
            }
            let cmd = line.trim();
            redraw = false;
            plies -= 1;
            match cmd {
                "" => {}
                "quit" | "exit" => break,
                "help" | "?" => say(HELP.to_string()),
                "moves" => {
                    let mut legal = Vec::new();
                    game.legal_moves(&state, &mut legal);
                    let names: Vec<String> =
                        legal.iter().map(|&m| game.format_move(&state, m)).collect();
                    say(format!("legal moves: {}", names.join(", ")));
                }
                "hint" => {
                    let (best, said) = engine.think(&game, &state, true);
                    let best = best.map_or("none".into(), |m| game.format_move(&state, m));
                    say(format!("hint: {best} ({said})"));
                }
                "undo" => {
                    // Take back to the human's previous turn: the engine's
                    // reply, any dice, and the human's move.
                    let mut undone = false;
                    while let Some(prev) = history.pop() {
                        played.pop();
                        record.pop();
                        state = prev;
                        undone = true;
                        if !game.is_chance(&state) && Some(game.to_move(&state)) == human_side {
                            break;
                        }
                    }
                    if undone {
                        say("taken back".to_string());
                        redraw = true;
                    } else {
                        say("nothing to undo".to_string());
                    }
                }
                text => match play_moves(&game, &state, &[text]) {
                    Ok(next) => {
                        history.push(state.clone());
                        played.push(text.to_string());
                        if let Ok(m) = game.parse_move(&state, text) {
                            record.push(m);
                        }
                        state = next;
                        redraw = true;
                    }
                    Err(e) => say(format!("{}; try again ('moves' lists them)", e.reason)),
                },
            }
        }
        let name = |p: Player| {
            if human_side == Some(p) {
                "human".to_string()
            } else {
                format!("ply ({})", plan.name())
            }
        };
        let mut saved = None;
        if let Some(text) =
            game.game_record(&start, &record, &name(Player::Max), &name(Player::Min))
        {
            let path = a
                .save
                .clone()
                .unwrap_or_else(|| std::path::PathBuf::from("ply-game.pgn"));
            std::fs::write(&path, text).map_err(|e| {
                CliError::failure(format!("cannot save the game to {}: {e}", path.display()))
            })?;
            say(format!("game saved to {}", path.display()));
            saved = Some(path.display().to_string());
        } else if a.save.is_some() {
            return Err(CliError::input(format!(
                "{} has no game-record format to save",
                info.name
            )));
        }
        if a.game.json {
            let over = game.is_terminal(&state);
            print_json(&json!({
                "game": info.name,
                "start": game.format_position(&start),
                "moves": played,
                "final_position": game.format_position(&state),
                "over": over,
                "value": over.then(|| game.utility(&state).0),
                "saved": saved,
            }));
        }
        Ok(())
    }
}

pub fn run(args: &PlayArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Play(args))?
}

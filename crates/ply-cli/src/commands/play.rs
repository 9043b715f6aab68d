//! `ply play`: a game in the terminal, a human against the engine or engine
//! against engine. Reads moves from standard input, so it can be scripted.

use std::io::{BufRead, Write};

use ply_core::play::SearchAgent;
use ply_core::search::Outcome;
use ply_core::{Game, Notation, Player, play_moves};
use ply_games::{GameInfo, GameVisitor};
use serde_json::json;

use crate::args::{HumanArg, PlayArgs};
use crate::commands::solve::{report_iteration, verdict};
use crate::commands::{configure, describe};
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

fn engine_says<G: Notation>(game: &G, state: &G::State, out: &Outcome<G::Move>) -> String {
    format!(
        "value {} ({}), line {}",
        score_text(out.value),
        verdict(out.proven, out.value, out.distance),
        line_text(game, state, &out.pv)
    )
}

struct Play<'a>(&'a PlayArgs);

impl GameVisitor for Play<'_> {
    type Output = CliResult;
    fn visit<G: Notation>(self, game: G, info: &'static GameInfo) -> CliResult {
        let a = self.0;
        let start = setup(&game, &a.game)?;
        let (algo, opts) = configure(&a.search, PLAY_TIME_MS)?;
        let mut engine = SearchAgent::new(algo, opts);
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
        say(format!(
            "{}: you are {}; the engine is {}. {HELP}",
            info.name,
            human_side.map_or("watching".to_string(), |p| p.name().to_string()),
            describe(algo, &opts)
        ));

        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut history: Vec<G::State> = Vec::new();
        let mut played: Vec<String> = Vec::new();
        let mut state = start.clone();
        let mut redraw = true;
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
            let mover = game.to_move(&state);
            if human_side != Some(mover) {
                let out = engine.think(&game, &state, &mut |it| {
                    if !quiet {
                        report_iteration(&game, &state, it);
                    }
                });
                let Some(m) = out.best_move else {
                    return Err(CliError::failure("the engine found no move"));
                };
                let text = game.format_move(&state, m);
                say(format!(
                    "engine ({}) plays {text}: {}",
                    mover.name(),
                    engine_says(&game, &state, &out)
                ));
                history.push(state.clone());
                played.push(text);
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
                    let out = engine.think(&game, &state, &mut |_| {});
                    let best = out
                        .best_move
                        .map_or("none".into(), |m| game.format_move(&state, m));
                    say(format!(
                        "hint: {best} ({})",
                        engine_says(&game, &state, &out)
                    ));
                }
                "undo" => {
                    // Take back to the human's previous turn: the engine's
                    // reply and the human's move.
                    let mut undone = false;
                    while let Some(prev) = history.pop() {
                        played.pop();
                        state = prev;
                        undone = true;
                        if Some(game.to_move(&state)) == human_side {
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
                        state = next;
                        redraw = true;
                    }
                    Err(e) => say(format!("{}; try again ('moves' lists them)", e.reason)),
                },
            }
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
            }));
        }
        Ok(())
    }
}

pub fn run(args: &PlayArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Play(args))?
}

//! `ply play`: a game in the terminal, a human against the engine or engine
//! against engine. Reads moves from standard input, so it can be scripted.
//! In games with chance the dice are rolled here, seeded (`--seed`), and shown.

use std::io::{BufRead, Write};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::Searchable;
use ply_core::play::SearchAgent;
use ply_core::registry::{GameSpec, GameVisitor, Registered};
use ply_core::search::alphabeta::Budget;
use ply_core::search::cfr::Cfr;
use ply_core::search::{Algorithm, SearchOptions};
use ply_core::search::{MctsAgent, expectiminimax};
use ply_core::{Game, Notation, Player, play_moves};
use ply_service::report::{Score, expectiminimax_text, verdict};
use serde::Serialize;

use crate::args::{HumanArg, PlayArgs};
use crate::output::{line_text, print_json};
use crate::{CliError, CliResult};
use ply_core::search::cfr::Variant;
use ply_service::{Algo, Plan, Request, Thinking, configure};

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

/// PUCT's move over its network, and a sentence on why.
fn puct_move<G: Notation + Searchable>(
    game: &G,
    state: &G::State,
    options: &ply_core::search::puct::PuctOptions,
    net: &ply_service::learned::Net,
) -> (Option<G::Move>, String) {
    let s = ply_service::learned::search(
        game,
        state,
        options,
        net,
        &mut ply_core::observe::NoObserver,
    );
    let (r, prior) = (&s.result, s.priors.first().copied().unwrap_or(0.0));
    let said = match r.moves.first() {
        Some(_) if r.iterations == 0 => format!(
            "the network's favourite (prior {prior:.3}), value {:+.3} for the mover",
            s.root_value
        ),
        Some(m) => format!(
            "{} visits of {}, mean result {:.3} for the mover, prior {prior:.3}",
            m.visits, r.iterations, m.mean
        ),
        None => "no move".into(),
    };
    (r.best_move, said)
}

/// The exact solver with its fallback: the engine, weak mode, the time for
/// the solve, and the depth-limited search used when it does not finish.
struct ScoreOpponent<G: Searchable> {
    engine: ply_core::search::Engine<G::Move>,
    weak: bool,
    time: Option<std::time::Duration>,
    fallback: SearchAgent<G::Move>,
}

/// The side the engine plays, whatever the plan: a move and what it thinks
/// (not to be confused with ply-core's `Engine`, the alpha-beta searcher
/// with its table, which some of these hold).
enum Opponent<G: Searchable> {
    /// The exact solver, with a fallback for when it runs out of time.
    Score(Box<ScoreOpponent<G>>),
    Search(Box<SearchAgent<G::Move>>),
    Expectiminimax(SearchOptions, bool),
    Mcts(MctsAgent<G>),
    /// PUCT over a learned network: a fresh search each move.
    Puct(
        ply_core::search::puct::PuctOptions,
        ply_service::learned::Net,
    ),
    Nimber,
    /// An equilibrium strategy of the whole game, solved once, and the
    /// dice that draw its moves from it.
    Cfr(Box<(Cfr<G>, Vec<f64>, Xoshiro256PlusPlus)>),
}

impl<G: Notation + Searchable> Opponent<G> {
    fn new(
        game: &G,
        plan: Plan,
        time: std::time::Duration,
        seed: Option<u64>,
    ) -> Result<Self, CliError> {
        Ok(match plan {
            Plan::Search(a, o) => Opponent::Search(Box::new(SearchAgent::new(a, o))),
            Plan::Expectiminimax { options, star1 } => Opponent::Expectiminimax(options, star1),
            Plan::Mcts(o) => Opponent::Mcts(MctsAgent::new(o)),
            Plan::Puct { options, net } => Opponent::Puct(options, net),
            Plan::Nimber => Opponent::Nimber,
            Plan::Score { options, weak } => {
                let fallback = SearchOptions {
                    fast_win: true,
                    pvs: true,
                    time_limit: Some(time / 2),
                    ..options
                };
                Opponent::Score(Box::new(ScoreOpponent {
                    engine: ply_core::search::Engine::new(game, &options),
                    weak,
                    time: Some(time / 2),
                    fallback: SearchAgent::new(Algorithm::Id, fallback),
                }))
            }
            Plan::Cfr(o) => {
                let mut cfr = Cfr::new(game, &o).map_err(ply_service::Error::from)?;
                for _ in 0..o.iterations {
                    cfr.iterate();
                }
                let average = cfr.average_strategy();
                Opponent::Cfr(Box::new((cfr, average, dice(seed))))
            }
        })
    }

    /// The move it would play, and a sentence on why.
    fn think(&mut self, game: &G, state: &G::State, quiet: bool) -> (Option<G::Move>, String) {
        match self {
            Opponent::Score(se) => {
                let ScoreOpponent {
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
                let solved = ply_core::search::score_search::solve_exact(
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
                        eprintln!("{}", Thinking::iteration(game, state, it));
                    }
                });
                let out = match out {
                    Ok(out) => out,
                    Err(e) => return (None, e.to_string()),
                };
                let said = format!(
                    "estimate {} (the exact solve did not finish in time), line {}",
                    Score(out.value),
                    line_text(game, state, &out.pv)
                );
                (out.best_move, said)
            }
            Opponent::Search(agent) => {
                let out = agent.think(game, state, &mut |it| {
                    if !quiet {
                        eprintln!("{}", Thinking::iteration(game, state, it));
                    }
                });
                let out = match out {
                    Ok(out) => out,
                    Err(e) => return (None, e.to_string()),
                };
                let said = format!(
                    "value {} ({}), line {}",
                    Score(out.value),
                    verdict(out.proven, out.value, out.distance),
                    line_text(game, state, &out.pv)
                );
                (out.best_move, said)
            }
            Opponent::Expectiminimax(options, star1) => {
                let out = expectiminimax(
                    game,
                    state,
                    options,
                    *star1,
                    &mut ply_core::observe::NoObserver,
                );
                let out = match out {
                    Ok(out) => out,
                    Err(e) => return (None, e.to_string()),
                };
                let p = game.win_probability(out.value);
                let said = format!("value {}", expectiminimax_text(out.value, p));
                (out.best_move, said)
            }
            Opponent::Mcts(agent) => {
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
            Opponent::Puct(options, net) => puct_move(game, state, options, net),
            Opponent::Cfr(solved) => cfr_move(game, state, solved),
            Opponent::Nimber => match ply_core::search::nimber(game, state) {
                Ok(r) if r.nimber == 0 => (r.best_move, "nimber 0: every move loses".into()),
                Ok(r) => (r.best_move, format!("nimber {}: to nimber 0", r.nimber)),
                Err(e) => (None, e.to_string()),
            },
        }
    }
}

impl<G: Notation + Searchable> Opponent<G> {
    /// For a hint in a game with hidden cards: the equilibrium's
    /// probabilities at what the player to move sees (their own
    /// information set, so nothing hidden is given away). `None` for the
    /// other engines, whose hint is their move.
    fn mixture(&self, game: &G, state: &G::State) -> Option<String> {
        let Opponent::Cfr(solved) = self else {
            return None;
        };
        let (cfr, average, _) = &**solved;
        let name = game.information_set(state);
        let set = &cfr.tree().infosets()[cfr.tree().find(&name)?];
        let moves: Vec<String> = set
            .moves
            .iter()
            .enumerate()
            .map(|(a, &m)| {
                let p = average[set.offset + a];
                format!("{} {:.0}%", game.format_move(state, m), 100.0 * p)
            })
            .collect();
        Some(format!(
            "at what you see ({name}) the equilibrium plays {}",
            moves.join(", ")
        ))
    }
}

/// A move drawn from the equilibrium strategy at what the mover sees in
/// `state`, and a sentence that does not give its card away.
fn cfr_move<G: Notation + Searchable>(
    game: &G,
    state: &G::State,
    solved: &mut (Cfr<G>, Vec<f64>, Xoshiro256PlusPlus),
) -> (Option<G::Move>, String) {
    let (cfr, average, dice) = solved;
    let tree = cfr.tree();
    let Some(i) = tree.find(&game.information_set(state)) else {
        return (None, "no information set here".into());
    };
    let set = &tree.infosets()[i];
    let p = &average[set.offset..set.offset + set.moves.len()];
    let mut r: f64 = dice.random();
    let a = p
        .iter()
        .position(|&x| {
            r -= x;
            r < 0.0
        })
        .unwrap_or(p.len() - 1);
    // Not its probabilities: they would give its card away.
    let said = "drawn from its equilibrium strategy for what it sees".to_string();
    (Some(set.moves[a]), said)
}

/// The picture the human may see: in a game with hidden cards, their own
/// side's (the other's face down); else the whole board.
fn board_for<G: Notation + Searchable>(
    game: &G,
    state: &G::State,
    human: Option<Player>,
) -> String {
    match human {
        Some(p) if G::HIDDEN => game.draw_for(state, p),
        _ => game.draw(state),
    }
}

/// Nature's move in words, unless it is a card dealt face down to a
/// human's opponent (the human's own shows in the picture).
fn deal_words<G: Notation + Searchable>(
    game: &G,
    state: &G::State,
    pick: G::Move,
    human: Option<Player>,
) -> String {
    if G::HIDDEN && human.is_some() {
        "a card is dealt".to_string()
    } else {
        game.describe_outcome(state, pick)
    }
}

/// The request the engine's search is planned from. In play `--seed`
/// seeds the deal and the engine's draws; a CFR search other than the
/// sampled one takes no seed of its own, so it is left out of its plan.
fn search_request<G: Searchable>(request: &Request) -> Request {
    let sampled = request.algo == Some(Algo::Cfr(Variant::ExternalSampling));
    if G::HIDDEN && !sampled {
        Request {
            seed: None,
            ..request.clone()
        }
    } else {
        request.clone()
    }
}

struct Play<'a>(&'a PlayArgs);

/// The game so far: the positions before each move (for undo), the moves
/// as written and as moves (for the record).
struct Line<G: Notation> {
    history: Vec<G::State>,
    played: Vec<String>,
    record: Vec<G::Move>,
    state: G::State,
}

impl<G: Notation + Searchable> Line<G> {
    /// `mv` (written `text`) is played.
    fn push(&mut self, game: &G, text: String, mv: G::Move) {
        let next = game.play(&self.state, mv);
        self.history.push(std::mem::replace(&mut self.state, next));
        self.played.push(text);
        self.record.push(mv);
    }

    /// Takes back to the human's previous turn: the engine's reply, any
    /// dice, and the human's move. Whether anything was taken back.
    fn undo(&mut self, game: &G, human: Option<Player>) -> bool {
        let mut undone = false;
        while let Some(prev) = self.history.pop() {
            self.played.pop();
            self.record.pop();
            self.state = prev;
            undone = true;
            if !game.is_chance(&self.state) && Some(game.to_move(&self.state)) == human {
                break;
            }
        }
        undone
    }
}

/// The dice of chance nodes: seeded by `--seed` for a game that can be
/// replayed, else by the clock.
fn dice(seed: Option<u64>) -> Xoshiro256PlusPlus {
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Nature's move at a chance node, drawn by its probability.
fn roll<G: Searchable>(game: &G, state: &G::State, dice: &mut Xoshiro256PlusPlus) -> G::Move {
    let mut outcomes = Vec::new();
    game.chance_outcomes(state, &mut outcomes);
    let r: f64 = dice.random();
    let mut acc = 0.0;
    for &(m, p) in &outcomes {
        acc += p;
        if r < acc {
            return m;
        }
    }
    outcomes.last().expect("a chance node has outcomes").0
}

/// What the human's line asked for.
enum Turn {
    /// Nothing changed on the board.
    Stay,
    /// The board changed: draw it again.
    Redraw,
    /// The game is left.
    Quit,
}

/// Reads and carries out one line from the human: a move, or one of the
/// commands (moves, hint, undo, help, quit).
fn human_turn<G: Notation + Searchable>(
    game: &G,
    line: &mut Line<G>,
    engine: &mut Opponent<G>,
    human: Option<Player>,
    cmd: &str,
    say: &dyn Fn(String),
) -> Turn {
    let state = line.state.clone();
    match cmd {
        "" => {}
        "quit" | "exit" => return Turn::Quit,
        "help" | "?" => say(HELP.to_string()),
        "moves" => {
            let mut legal = Vec::new();
            game.legal_moves(&state, &mut legal);
            let names: Vec<String> = legal.iter().map(|&m| game.format_move(&state, m)).collect();
            say(format!("legal moves: {}", names.join(", ")));
        }
        "hint" => {
            if let Some(mix) = engine.mixture(game, &state) {
                say(format!("hint: {mix}"));
                return Turn::Stay;
            }
            let (best, said) = engine.think(game, &state, true);
            let best = best.map_or("none".into(), |m| game.format_move(&state, m));
            say(format!("hint: {best} ({said})"));
        }
        "undo" => {
            if line.undo(game, human) {
                say("taken back".to_string());
                return Turn::Redraw;
            }
            say("nothing to undo".to_string());
        }
        text => match play_moves(game, &state, &[text]) {
            Ok(_) => {
                let mv = game
                    .parse_move(&state, text)
                    .expect("a move that played parses");
                line.push(game, text.to_string(), mv);
                return Turn::Redraw;
            }
            Err(e) => say(format!("{}; try again ('moves' lists them)", e.reason)),
        },
    }
    Turn::Stay
}

/// Saves the game in its record format (PGN for chess) where it has one:
/// to `--save`, or `ply-game.pgn`. The path written, if any.
fn save_record<G: Notation>(
    game: &G,
    start: &G::State,
    record: &[G::Move],
    names: [String; 2],
    save: Option<&std::path::Path>,
    name: &str,
) -> Result<Option<String>, CliError> {
    let Some(text) = game.game_record(start, record, &names[0], &names[1]) else {
        if save.is_some() {
            return Err(CliError::input(format!(
                "{name} has no game-record format to save"
            )));
        }
        return Ok(None);
    };
    let path = save.map_or_else(
        || std::path::PathBuf::from("ply-game.pgn"),
        |p| p.to_path_buf(),
    );
    std::fs::write(&path, text).map_err(|e| {
        CliError::failure(format!("cannot save the game to {}: {e}", path.display()))
    })?;
    Ok(Some(path.display().to_string()))
}

impl GameVisitor for Play<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, info: &'static GameSpec) -> CliResult {
        let a = self.0;
        let request = a.search.request(a.game.request()?);
        let start = ply_service::position(&game, info.name, &request)?;
        let searched = search_request::<G>(&request);
        let plan = configure(&searched, &game, &start, info, PLAY_TIME_MS)?;
        let time = std::time::Duration::from_millis(a.search.time_ms.unwrap_or(PLAY_TIME_MS));
        let mut engine = Opponent::<G>::new(&game, plan, time, a.search.seed)?;
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
        let mut dice = dice(a.search.seed);
        say(format!(
            "{}: you are {}; the engine is {}. {HELP}",
            info.name,
            human_side.map_or("watching".to_string(), |p| p.name().to_string()),
            plan.name()
        ));

        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut line: Line<G> = Line {
            history: Vec::new(),
            played: Vec::new(),
            record: Vec::new(),
            state: start.clone(),
        };
        let mut redraw = true;
        let mut plies = 0usize;
        loop {
            let state = line.state.clone();
            if redraw {
                say(String::new());
                say(board_for(&game, &state, human_side).trim_end().to_string());
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
                let pick = roll(&game, &state, &mut dice);
                say(deal_words(&game, &state, pick, human_side));
                line.push(&game, game.format_move(&state, pick), pick);
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
                line.push(&game, text, m);
                continue;
            }
            if !a.game.json {
                print!("your move ({}): ", mover.name());
                let _ = std::io::stdout().flush();
            }
            let mut text = String::new();
            if matches!(input.read_line(&mut text), Ok(0) | Err(_)) {
                say("\n(end of input: game abandoned)".to_string());
                break;
            }
            plies -= 1;
            match human_turn(&game, &mut line, &mut engine, human_side, text.trim(), &say) {
                Turn::Quit => break,
                Turn::Stay => redraw = false,
                Turn::Redraw => {}
            }
        }
        let name = |p: Player| {
            if human_side == Some(p) {
                "human".to_string()
            } else {
                format!("ply ({})", plan.name())
            }
        };
        let names = [name(Player::Max), name(Player::Min)];
        let saved = save_record(
            &game,
            &start,
            &line.record,
            names,
            a.save.as_deref(),
            info.name,
        )?;
        if let Some(path) = &saved {
            say(format!("game saved to {path}"));
        }
        if a.game.json {
            let over = game.is_terminal(&line.state);
            print_json(&PlayReport {
                game: info.name,
                start: game.format_position(&start),
                moves: line.played,
                final_position: game.format_position(&line.state),
                over,
                value: over.then(|| game.utility(&line.state).0),
                saved,
            });
        }
        Ok(())
    }
}

/// A game played, as `play --json` reports it.
#[derive(Serialize)]
struct PlayReport {
    game: &'static str,
    start: String,
    moves: Vec<String>,
    final_position: String,
    over: bool,
    /// The utility at the end, MAX's view, when the game is over.
    value: Option<i32>,
    /// Where the game record was saved.
    saved: Option<String>,
}

pub fn run(args: &PlayArgs) -> CliResult {
    let params = args.game.request()?.params()?;
    ply_games::visit(&args.game.game, &params, Play(args))?
}

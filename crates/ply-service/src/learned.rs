//! PUCT over a learned network: the network a request names (or the
//! game's built-in one), loaded once and kept, and the search run in
//! rounds so that it can be watched and stopped like MCTS. Its answers
//! are MCTS's reports (visits and means), each move with its prior.
//!
//! The networks live in ply-learn (and so burn), which only builds with
//! the `learn` feature; without it `puct` is refused with a message that
//! says so, and [`Net`] has no values.

use ply_core::registry::GameSpec;
use ply_core::search::MctsResult;
use ply_core::search::puct::PuctOptions;
use ply_core::{Chance, Learn, Notation};

use crate::control::Control;
use crate::error::Error;
#[cfg(feature = "learn")]
use crate::error::field;

/// PUCT's simulations when a request names none.
pub const PUCT_SIMULATIONS: u64 = 800;

/// PUCT's exploration constant when a request names none (AlphaZero's
/// c_puct, the one the networks were trained with).
pub const PUCT_C: f64 = 1.5;

/// Simulations between looks at the control (to stop, and to tell).
#[cfg(feature = "learn")]
const ROUND: u64 = 64;

/// A loaded network, kept for the life of the process (a front end asks
/// for the same few again and again; see [`network`]).
#[cfg(feature = "learn")]
pub type Net = &'static ply_learn::Network;

/// Without the `learn` feature there is no network to name.
#[cfg(not(feature = "learn"))]
#[derive(Clone, Copy, Debug)]
pub enum Net {}

/// The network for `game`: the file `path` names, or the game's built-in
/// one; an error in the request's terms when there is none, the file
/// cannot be read, or it was trained for another game or board.
#[cfg(feature = "learn")]
pub fn network<G: Learn>(game: &G, spec: &GameSpec, path: Option<&str>) -> Result<Net, Error> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    /// Networks by file (path, length, modification time) or built-in
    /// name: each is loaded once and leaked, so a plan can hold it.
    static LOADED: Mutex<Option<HashMap<String, Net>>> = Mutex::new(None);
    let key = match path {
        Some(p) => {
            let meta = std::fs::metadata(p)
                .map_err(|e| Error::input(format!("{}: cannot read {p}: {e}", field("net"))))?;
            format!("file {p} {} {:?}", meta.len(), meta.modified().ok())
        }
        None => format!("built-in {}", spec.name),
    };
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let cache = loaded.get_or_insert_with(HashMap::new);
    let net = match cache.get(&key) {
        Some(&net) => net,
        None => {
            let net: Net = Box::leak(Box::new(read(spec, path)?));
            cache.insert(key, net);
            net
        }
    };
    ply_learn::check_fits(game, net).map_err(|e| {
        Error::input(format!(
            "{}: {e}",
            path.map_or_else(|| field("net"), str::to_string)
        ))
    })?;
    Ok(net)
}

#[cfg(feature = "learn")]
fn read(spec: &GameSpec, path: Option<&str>) -> Result<ply_learn::Network, Error> {
    let (bytes, name) = match path {
        Some(p) => (
            std::fs::read(p)
                .map_err(|e| Error::input(format!("{}: cannot read {p}: {e}", field("net"))))?,
            p.to_string(),
        ),
        None => match ply_learn::builtin(spec.name) {
            Some(b) => (b.to_vec(), format!("the built-in {} network", spec.name)),
            None if spec.name == crate::plan::PYTHON => {
                return Err(Error::input(format!(
                    "a game written in Python has no built-in network: give {}, a file ply.learn(game, out) saved",
                    field("net")
                )));
            }
            None => {
                return Err(Error::input(format!(
                    "{} has no built-in network: give {} (a file `ply learn {}` saves)",
                    spec.name,
                    field("net"),
                    spec.name
                )));
            }
        },
    };
    let network = ply_learn::Network::from_bytes(&bytes)
        .map_err(|e| Error::input(format!("{}: {name}: {e}", field("net"))))?;
    // A game written in Python has no name of its own to check: any
    // network its shape fits will do (one of a built-in game it copies).
    match network.about.get("ply.game") {
        Some(g) if g != spec.name && spec.name != crate::plan::PYTHON => {
            Err(Error::input(format!(
                "{}: {name} is a network for {g}, not {}",
                field("net"),
                spec.name
            )))
        }
        _ => Ok(network),
    }
}

#[cfg(not(feature = "learn"))]
pub fn network<G: Learn>(_: &G, _: &GameSpec, _: Option<&str>) -> Result<Net, Error> {
    Err(Error::input(
        "puct needs learned networks, which this build of ply leaves out (the command line has them: ply solve GAME --algo puct)",
    ))
}

/// Whether this build has a network for the game `name` (`--algo puct`
/// without `--net`).
pub fn has_network(name: &str) -> bool {
    #[cfg(feature = "learn")]
    return ply_learn::builtin(name).is_some();
    #[cfg(not(feature = "learn"))]
    {
        let _ = name;
        false
    }
}

/// What the network is, for the plan's name: its game and how it was
/// made ("tictactoe, self-play generation 50").
pub fn describe(net: &Net) -> String {
    #[cfg(feature = "learn")]
    {
        let about = &net.about;
        let game = about.get("ply.game").map_or("?", String::as_str);
        match (about.get("ply.generation"), about.get("ply.epoch")) {
            (Some(g), _) => format!("{game}, self-play generation {g}"),
            (None, Some(e)) => format!("{game}, supervised epoch {e}"),
            (None, None) => game.to_string(),
        }
    }
    #[cfg(not(feature = "learn"))]
    match *net {}
}

/// What a PUCT search found, as MCTS reports it, with each root move's
/// prior (in the order of the moves) and the network's own value of the
/// root (MAX's view) for an answer without simulations.
pub struct Searched<M> {
    /// Visits as MCTS's: a move's mean is its value for the mover mapped
    /// to [0, 1].
    pub result: MctsResult<M>,
    /// Each move's prior.
    pub priors: Vec<f32>,
    /// The root's value by the network, for the player to move.
    pub root_value: f64,
}

/// Runs PUCT over `net` from `state` in rounds of [`ROUND`] simulations,
/// telling `control` after each (as MCTS does) and stopping when it says.
pub fn search<G: Learn + Chance + Notation, X: Control>(
    game: &G,
    state: &G::State,
    options: &PuctOptions,
    net: &Net,
    control: &mut X,
) -> Searched<G::Move> {
    #[cfg(feature = "learn")]
    {
        use crate::control::Thinking;
        use ply_core::search::puct::Puct;
        use std::time::Instant;
        let start = Instant::now();
        let tell = control.tell();
        let mut evaluator = ply_learn::NetEvaluator::new(net);
        // No simulation first: the root expanded, the network's answer.
        let round = PuctOptions {
            simulations: 0,
            ..*options
        };
        let mut tree = Puct::new(game, state, round);
        let mut r = tree.run(game, &mut evaluator);
        let root_value = r.value;
        let mut done = 0;
        while done < options.simulations && !control.should_stop() {
            let n = ROUND.min(options.simulations - done);
            tree.set_simulations(n);
            r = tree.run(game, &mut evaluator);
            done += r.simulations;
            if let Some(tell) = &tell {
                tell(Thinking::Mcts {
                    iterations: done,
                    time_ms: start.elapsed().as_secs_f64() * 1e3,
                    moves: reported(game, state, &r),
                });
            }
        }
        Searched {
            priors: r.moves.iter().map(|m| m.prior).collect(),
            result: as_result(&r, done, tree.size(), start.elapsed()),
            root_value,
        }
    }
    #[cfg(not(feature = "learn"))]
    {
        let _ = (game, state, options, control);
        match *net {}
    }
}

/// `trace --algo puct`'s search, its options checked: the root expanded
/// (the network's value of it), `options.simulations - 1` simulations in
/// rounds (each round a look at `stop`), the last traced, and the report.
pub fn trace<G: Learn + Chance + Notation, O: ply_core::observe::Observer>(
    name: &str,
    game: &G,
    state: &G::State,
    options: &PuctOptions,
    net: &Net,
    stop: &mut O,
) -> Result<crate::report::PuctTraceReport, Error> {
    #[cfg(feature = "learn")]
    {
        use crate::report::{Header, PuctTraceReport, TRACE_TREE_DEPTH, visits_on_board};
        use ply_core::search::SearchError;
        use ply_core::search::puct::Puct;
        let start = std::time::Instant::now();
        let mut evaluator = ply_learn::NetEvaluator::new(net);
        let n = options.simulations;
        let mut tree = Puct::new(
            game,
            state,
            PuctOptions {
                simulations: 0,
                ..*options
            },
        );
        let root_value = tree.run(game, &mut evaluator).value;
        let mut done = 0;
        while done + 1 < n {
            if stop.should_stop() {
                return Err(SearchError::Stopped.into());
            }
            tree.set_simulations(ROUND.min(n - 1 - done));
            done += tree.run(game, &mut evaluator).simulations;
        }
        let last = (n > 0).then(|| tree.simulate_traced(game, &mut evaluator));
        tree.set_simulations(0);
        let r = tree.run(game, &mut evaluator);
        let result = as_result(&r, n, tree.size(), start.elapsed());
        let moves = reported(game, state, &r);
        let network = describe(net);
        let algo = format!(
            "puct ({n} simulations, c={:.3}, one at a time; network: {network})",
            options.c
        );
        let header = visits_on_board(Header::new(name, game, state, algo), game, state, &result);
        Ok(PuctTraceReport::new(
            header,
            game,
            state,
            (n, options.c, network, root_value),
            last.as_ref(),
            moves,
            &tree.tree_view(TRACE_TREE_DEPTH),
        ))
    }
    #[cfg(not(feature = "learn"))]
    {
        let _ = (name, game, state, options, stop);
        match *net {}
    }
}

/// A generation of `ply learn` (or `ply.learn`) as its JSON line, the
/// Connect Four grading's `accuracy` among its figures when there is one:
/// one shape for the command line's `--json` and Python's answer.
#[cfg(feature = "learn")]
pub fn generation_json(
    g: &ply_learn::learn::Generation,
    accuracy: Option<serde_json::Value>,
) -> serde_json::Value {
    let mut line = serde_json::json!({
        "generation": g.number,
        "games": g.games,
        "positions": g.positions,
        "window": g.window,
        "policy_loss": g.losses.policy,
        "value_loss": g.losses.value,
        "vs_previous": g.vs_previous,
        "vs_mcts": g.vs_mcts,
    });
    let fields = line.as_object_mut().expect("an object");
    if let Some(a) = accuracy {
        fields.insert("accuracy".into(), a);
    }
    fields.insert("positions_per_second".into(), g.positions_per_second.into());
    fields.insert("samples_per_second".into(), g.samples_per_second.into());
    fields.insert("seconds".into(), g.seconds.into());
    line
}

/// PUCT's answer as MCTS's result, after `iterations` simulations on a
/// tree of `tree_nodes` nodes.
#[cfg(feature = "learn")]
fn as_result<M: Copy>(
    r: &ply_core::search::puct::PuctResult<M>,
    iterations: u64,
    tree_nodes: usize,
    elapsed: std::time::Duration,
) -> MctsResult<M> {
    MctsResult {
        best_move: r.best_move,
        moves: as_mcts(&r.moves),
        iterations,
        tree_nodes: tree_nodes as u64,
        elapsed,
        endless: false,
        ownership: Vec::new(),
    }
}

/// PUCT's root moves as MCTS's reports, each with its prior.
#[cfg(feature = "learn")]
fn reported<G: Notation>(
    game: &G,
    state: &G::State,
    r: &ply_core::search::puct::PuctResult<G::Move>,
) -> Vec<crate::report::MctsMoveReport> {
    let mut moves = crate::report::mcts_moves(game, state, &as_mcts(&r.moves));
    let priors: Vec<f32> = r.moves.iter().map(|m| m.prior).collect();
    crate::report::set_priors(&mut moves, &priors);
    moves
}

#[cfg(feature = "learn")]
/// PUCT's root moves as MCTS's: the mean value for the mover, -1 to 1,
/// mapped to MCTS's [0, 1].
fn as_mcts<M: Copy>(
    moves: &[ply_core::search::puct::PuctMove<M>],
) -> Vec<ply_core::search::MctsMove<M>> {
    moves
        .iter()
        .map(|m| ply_core::search::MctsMove {
            mv: m.mv,
            visits: u64::from(m.visits),
            mean: (m.q + 1.0) / 2.0,
        })
        .collect()
}

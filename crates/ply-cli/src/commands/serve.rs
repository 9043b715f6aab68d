//! `ply serve`: the searches over HTTP, answering exactly the JSON of the
//! command line's `--json` (the same report types build both).
//!
//! A request is turned into the command line it stands for and read by the
//! same argument parser and the same checks, so a bad field gets the CLI's
//! message. Every request is bounded: the body (64 KiB), a trace's tree
//! (10,000 nodes), a search's time (`--max-time-ms`, at most 10 s), the
//! searches at once (`--max-searches`; a request waits a second for a turn,
//! then gets 503). A search runs on its own thread with a stop flag that
//! its deadline and its client's going away both set; every search looks
//! at it (through `Observer::should_stop`) and stops.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use clap::Parser;
use ply_core::Window;
use ply_core::explore::tree_size;
use ply_core::observe::{NodeKind, Observer};
use ply_core::registry::{GameSpec, GameVisitor, Registered};
use ply_core::report::ShowReport;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower_http::limit::RequestBodyLimitLayer;

use crate::CliError;
use crate::args::{Cli, Command, ServeArgs};
use crate::commands::compare::{compare_report, disagreement};
use crate::commands::solve::{SOLVE_TIME_MS, analyze_report, solve_report};
use crate::commands::trace::{trace_report, trace_state};
use crate::commands::{Plan, configure, list};
use crate::output::{params, setup};
use crate::progress::{Listen, Tell, Thinking};

/// The tree lab: one page, its script and style inside, embedded in the
/// binary so the server needs nothing from the network.
const TREE_PAGE: &str = include_str!("../../web/tree.html");
/// Every game against the engine, at `/play/GAME`: the board drawn from
/// `/api/show`, the engine's thoughts streamed from `/api/solve/stream`.
const PLAY_PAGE: &str = include_str!("../../web/play.html");
/// The compare table for any position.
const COMPARE_PAGE: &str = include_str!("../../web/compare.html");

/// The largest request body.
const MAX_BODY: usize = 64 * 1024;
/// The largest tree a trace request may send.
const MAX_TREE_NODES: u64 = 10_000;
/// The longest a search may run, whatever the request asks.
pub const MAX_TIME_MS: u64 = 10_000;
/// How long a request waits for a free search slot before a 503.
const QUEUE_WAIT: Duration = Duration::from_secs(1);
/// The stack of a search thread: searches recurse once per ply.
const SEARCH_STACK: usize = 256 << 20;

/// What the server keeps between requests.
struct Server {
    slots: Arc<Semaphore>,
    max_time: Duration,
}

/// An error answer: a status and `{"error": "..."}`.
struct ApiError(StatusCode, String);

#[derive(Serialize)]
struct ErrorBody {
    error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, axum::Json(ErrorBody { error: self.1 })).into_response()
    }
}

impl From<CliError> for ApiError {
    fn from(e: CliError) -> Self {
        let status = if e.code == 2 {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::INTERNAL_SERVER_ERROR
        };
        ApiError(status, e.message)
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

/// A search or trace request; fields as the command line's flags.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    game: Option<String>,
    position: Option<String>,
    moves: Option<Vec<String>>,
    params: Option<BTreeMap<String, Value>>,
    algo: Option<String>,
    depth: Option<u32>,
    time_ms: Option<u64>,
    tt_mb: Option<usize>,
    order: Option<bool>,
    pvs: Option<bool>,
    fast_win: Option<bool>,
    seed: Option<u64>,
    iterations: Option<u64>,
    star1: Option<bool>,
    weak: Option<bool>,
    /// For a trace: a tree written out (instead of a game and position).
    tree: Option<String>,
}

impl SearchRequest {
    /// The command line this request stands for.
    fn argv(&self, command: &str, max_time_ms: u64) -> Result<Vec<String>, ApiError> {
        let mut v = vec!["ply".to_string(), command.to_string()];
        match (&self.tree, &self.game) {
            (Some(tree), None) if command == "trace" => v.push(tree.clone()),
            (Some(_), _) => return Err(bad("give a tree (for a trace) or a game, not both")),
            (None, Some(game)) => v.push(game.clone()),
            (None, None) => return Err(bad("missing field 'game'")),
        }
        let mut flag = |name: &str, value: Option<String>| {
            if let Some(value) = value {
                v.push(format!("--{name}={value}"));
            }
        };
        flag("position", self.position.clone());
        flag("moves", self.moves.as_ref().map(|m| m.join(",")));
        flag("algo", self.algo.clone());
        flag("depth", self.depth.map(|d| d.to_string()));
        flag("tt-mb", self.tt_mb.map(|t| t.to_string()));
        flag("seed", self.seed.map(|s| s.to_string()));
        flag("iterations", self.iterations.map(|i| i.to_string()));
        // The server's cap on time, whatever is asked (searches under a
        // clock are clamped to it again once planned; the others stop at it).
        flag(
            "time-ms",
            self.time_ms.map(|t| t.min(max_time_ms).to_string()),
        );
        for (k, value) in self.params.iter().flatten() {
            let text = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            v.push(format!("--param={k}={text}"));
        }
        for (name, on) in [
            ("order", self.order),
            ("pvs", self.pvs),
            ("fast-win", self.fast_win),
            ("star1", self.star1),
            ("weak", self.weak),
        ] {
            if on == Some(true) {
                v.push(format!("--{name}"));
            }
        }
        if command != "trace" {
            v.push("--json".into());
        }
        if command == "solve" || command == "analyze" {
            v.push("--quiet".into());
        }
        Ok(v)
    }
}

/// Stops a search at its deadline or when its request is dropped (the
/// client went away): the search thread and the handler share the flag.
/// For a streamed search it also tells the node count now and then.
struct Cancel {
    flag: Arc<AtomicBool>,
    deadline: Instant,
    calls: u32,
    tell: Option<Tell>,
    start: Instant,
    last: Instant,
    nodes: u64,
}

/// How often a streamed search tells its node count.
const NODES_EVERY: Duration = Duration::from_millis(200);

impl Cancel {
    fn new(flag: Arc<AtomicBool>, max_time: Duration, tell: Option<Tell>) -> Self {
        let now = Instant::now();
        Cancel {
            flag,
            deadline: now + max_time,
            calls: 0,
            tell,
            start: now,
            last: now,
            nodes: 0,
        }
    }
}

impl Listen for Cancel {
    fn tell(&self) -> Option<Tell> {
        self.tell.clone()
    }
}

impl Observer for Cancel {
    fn enter(&mut self, _: u32, _: Option<usize>, _: NodeKind, _: Option<Window>) {
        let Some(tell) = &self.tell else { return };
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            let now = Instant::now();
            if now - self.last >= NODES_EVERY {
                self.last = now;
                tell(Thinking::Nodes {
                    nodes: self.nodes,
                    time_ms: (now - self.start).as_secs_f64() * 1e3,
                });
            }
        }
    }

    fn should_stop(&mut self) -> bool {
        // The clock costs something: look at it every 256 questions.
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(256) && Instant::now() >= self.deadline {
            self.flag.store(true, Ordering::Relaxed);
        }
        self.flag.load(Ordering::Relaxed)
    }
}

/// Sets the flag when dropped: the handler's future is dropped when its
/// client disconnects, and the search then stops.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs one API command on a game found by name, returning its JSON.
struct Run {
    command: Command,
    cancel: Cancel,
    max_time: Duration,
}

/// A plan whose clock (the engine's, iterative deepening's, MCTS's) is
/// within `max`: it then finishes with its best so far, not an error.
fn within(plan: Plan, max: Duration) -> Plan {
    match plan {
        Plan::Search(a, mut o) => {
            o.time_limit = o.time_limit.map(|t| t.min(max));
            Plan::Search(a, o)
        }
        Plan::Mcts(mut o) => {
            o.time_limit = o.time_limit.map(|t| t.min(max));
            Plan::Mcts(o)
        }
        plan => plan,
    }
}

impl GameVisitor for Run {
    type Output = Result<Value, CliError>;
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) -> Result<Value, CliError> {
        let Run {
            command,
            mut cancel,
            max_time,
        } = self;
        let json = |r: &dyn erased::Json| r.value();
        match &command {
            Command::Solve(a) | Command::Analyze(a) => {
                let state = setup(&game, &a.game)?;
                let plan = configure(&a.search, &game, &state, spec, SOLVE_TIME_MS)?;
                let plan = within(plan, max_time);
                if matches!(command, Command::Solve(_)) {
                    let r = solve_report(spec.name, &game, &state, &plan, true, &mut cancel);
                    Ok(json(&stopped(r, &cancel)?))
                } else {
                    let r = analyze_report(spec.name, &game, &state, &plan, &mut cancel);
                    Ok(json(&stopped(r, &cancel)?))
                }
            }
            Command::Compare(a) => {
                let state = setup(&game, &a.game)?;
                let r = compare_report(spec.name, &game, &state, a.depth, a.tt_mb, &mut cancel);
                let r = stopped(r, &cancel)?;
                if !r.agree {
                    return Err(disagreement(&r));
                }
                Ok(json(&r))
            }
            Command::Trace(a) => {
                let state = trace_state(&game, spec, a.position.as_deref(), false)?;
                if spec.name == "tree" && tree_size(&game, &state, None, MAX_TREE_NODES).is_none() {
                    return Err(CliError::input(format!(
                        "the tree has more than {MAX_TREE_NODES} nodes"
                    )));
                }
                Ok(json(&trace_report(&game, spec, &state, a)?))
            }
            Command::Show(a) => {
                let state = setup(&game, &a.game)?;
                Ok(json(&ShowReport::new(spec.name, &game, &state)))
            }
            _ => Err(CliError::input("not an API command")),
        }
    }
}

/// Checks a game's position and moves (a bad one is a 400 before a stream starts).
struct Valid<'a>(&'a crate::args::GameArgs);

impl GameVisitor for Valid<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: Registered>(self, game: G, _: &'static GameSpec) -> Result<(), CliError> {
        setup(&game, self.0).map(drop)
    }
}

/// A search result, or the server's limit named when the search stopped.
fn stopped<T>(r: Result<T, CliError>, cancel: &Cancel) -> Result<T, CliError> {
    r.map_err(|e| {
        if cancel.flag.load(Ordering::Relaxed) {
            CliError {
                message: "the search was stopped at the server's time limit: give a --depth, or a smaller position".into(),
                code: 3,
            }
        } else {
            e
        }
    })
}

/// Serialising any report to a JSON value, without naming its type.
mod erased {
    pub trait Json {
        fn value(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Json for T {
        fn value(&self) -> serde_json::Value {
            serde_json::to_value(self).expect("reports always serialise")
        }
    }
}

/// A request read and checked: the game (by name), its parameters and
/// the command it stands for.
struct Prepared {
    name: String,
    params: ply_games::Params,
    command: Command,
}

/// Reads a request into the command line it stands for, with the CLI's checks.
fn prepare(server: &Server, command: &str, body: &[u8]) -> Result<Prepared, ApiError> {
    let request: SearchRequest = serde_json::from_slice(body)
        .map_err(|e| bad(format!("the request body is not the JSON expected: {e}")))?;
    let max_ms = server.max_time.as_millis() as u64;
    let argv = request.argv(command, max_ms)?;
    let cli = Cli::try_parse_from(&argv).map_err(|e| {
        let text = e.to_string();
        bad(text
            .lines()
            .next()
            .unwrap_or("bad request")
            .trim_start_matches("error: ")
            .to_string())
    })?;
    let game_args = match &cli.command {
        Command::Solve(a) | Command::Analyze(a) => Some(&a.game),
        Command::Compare(a) => Some(&a.game),
        Command::Show(a) => Some(&a.game),
        _ => None,
    };
    let (name, params) = match (&cli.command, game_args) {
        (_, Some(g)) => (g.game.clone(), params(g)?),
        (Command::Trace(t), None) => (
            t.target.clone(),
            ply_games::Params::parse(&t.params).map_err(CliError::from)?,
        ),
        _ => return Err(bad("not an API command")),
    };
    // A tree written out is a position of the tree game.
    let (name, command) = match cli.command {
        Command::Trace(mut t) if ply_games::spec(&name).is_err() => {
            t.position = Some(std::mem::replace(&mut t.target, "tree".into()));
            ("tree".to_string(), Command::Trace(t))
        }
        c => (name, c),
    };
    Ok(Prepared {
        name,
        params,
        command,
    })
}

/// A turn to search: waits up to [`QUEUE_WAIT`], then 503.
async fn slot(server: &Server) -> Result<OwnedSemaphorePermit, ApiError> {
    let busy = |what: &str| ApiError(StatusCode::SERVICE_UNAVAILABLE, what.into());
    tokio::time::timeout(QUEUE_WAIT, Arc::clone(&server.slots).acquire_owned())
        .await
        .map_err(|_| busy("the server is busy: try again"))?
        .map_err(|_| busy("the server is stopping"))
}

/// What a search thread hands back.
type Answer = Result<Result<Value, CliError>, ply_games::SetupError>;

/// Runs `request` on its own thread (searches recurse once per ply and need
/// a big stack), holding `permit` until it ends; `done` gets the answer.
fn spawn_search(
    request: Prepared,
    cancel: Cancel,
    max_time: Duration,
    permit: OwnedSemaphorePermit,
    done: impl FnOnce(Answer) + Send + 'static,
) -> Result<(), ApiError> {
    std::thread::Builder::new()
        .name("ply-api".into())
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            let run = Run {
                command: request.command,
                cancel,
                max_time,
            };
            let result = ply_games::visit(&request.name, &request.params, run);
            drop(permit);
            done(result);
        })
        .map(|_| ())
        .map_err(|e| {
            ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("cannot start a search: {e}"),
            )
        })
}

/// The answer as an HTTP response, or the error it is.
fn answer(result: Answer) -> Result<Value, ApiError> {
    match result {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) if e.code == 3 => Err(ApiError(StatusCode::SERVICE_UNAVAILABLE, e.message)),
        Ok(Err(e)) => Err(e.into()),
        Err(e) => Err(bad(e.0)),
    }
}

/// Reads a request, runs it on a search thread within the limits, answers.
async fn run_api(server: Arc<Server>, command: &str, body: Bytes) -> Result<Response, ApiError> {
    let request = prepare(&server, command, &body)?;
    if command == "show" {
        // The rules alone: no search, no slot.
        let run = Run {
            command: request.command,
            cancel: Cancel::new(Arc::default(), server.max_time, None),
            max_time: server.max_time,
        };
        let value = answer(ply_games::visit(&request.name, &request.params, run))?;
        return Ok(axum::Json(value).into_response());
    }
    let permit = slot(&server).await?;
    let flag = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(Arc::clone(&flag));
    let cancel = Cancel::new(flag, server.max_time, None);
    let (tx, rx) = tokio::sync::oneshot::channel();
    spawn_search(request, cancel, server.max_time, permit, move |r| {
        let _ = tx.send(r);
    })?;
    let result = rx.await.map_err(|_| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the search failed".into(),
        )
    })?;
    Ok(axum::Json(answer(result)?).into_response())
}

/// `POST /api/solve/stream`: the solve, its progress streamed as
/// server-sent events while it runs: `progress` events ([`Thinking`] as
/// JSON), then one `result` (the `/api/solve` JSON) or `error` event. A bad
/// request is refused before the stream starts, as `/api/solve` refuses it.
async fn stream_api(server: Arc<Server>, body: Bytes) -> Result<Response, ApiError> {
    let request = prepare(&server, "solve", &body)?;
    if let Command::Solve(a) = &request.command {
        answer(
            ply_games::visit(&request.name, &request.params, Valid(&a.game))
                .map(|r| r.map(|()| Value::Null)),
        )?;
    }
    let permit = slot(&server).await?;
    let flag = Arc::new(AtomicBool::new(false));
    let stop_on_drop = StopOnDrop(Arc::clone(&flag));
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let progress = tx.clone();
    let tell: Tell = Arc::new(move |t: Thinking| {
        let event = Event::default().event("progress").json_data(&t);
        if let Ok(event) = event {
            let _ = progress.send(event);
        }
    });
    let cancel = Cancel::new(flag, server.max_time, Some(tell));
    spawn_search(request, cancel, server.max_time, permit, move |r| {
        let event = match answer(r) {
            Ok(value) => Event::default().event("result").json_data(&value),
            Err(ApiError(_, error)) => Event::default()
                .event("error")
                .json_data(&ErrorBody { error }),
        };
        if let Ok(event) = event {
            let _ = tx.send(event);
        }
    })?;
    // The stream owns the stop flag's guard: when the client goes away the
    // body is dropped, and the search stops.
    let events = futures_util::stream::unfold((rx, stop_on_drop), |(mut rx, guard)| async move {
        let event = rx.recv().await?;
        Some((Ok::<_, Infallible>(event), (rx, guard)))
    });
    Ok(Sse::new(events).into_response())
}

fn api_route(command: &'static str) -> axum::routing::MethodRouter<Arc<Server>> {
    post(
        move |State(server): State<Arc<Server>>, body: Result<Bytes, BytesRejection>| async move {
            let Ok(body) = body else {
                let limit = format!("the request body is larger than {} KiB", MAX_BODY / 1024);
                return ApiError(StatusCode::PAYLOAD_TOO_LARGE, limit).into_response();
            };
            let answer = if command == "stream" {
                stream_api(server, body).await
            } else {
                run_api(server, command, body).await
            };
            answer.unwrap_or_else(IntoResponse::into_response)
        },
    )
}

/// Answers the body limit's refusal (plain text from the layer) as JSON too.
async fn json_errors(response: Response) -> Response {
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE
        && !response
            .headers()
            .get("content-type")
            .is_some_and(|c| c.as_bytes().starts_with(b"application/json"))
    {
        let limit = format!("the request body is larger than {} KiB", MAX_BODY / 1024);
        return ApiError(StatusCode::PAYLOAD_TOO_LARGE, limit).into_response();
    }
    response
}

/// The API's routes, with every limit.
fn app(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(|| async { axum::response::Redirect::to("/tree") }))
        .route("/tree", get(|| async { axum::response::Html(TREE_PAGE) }))
        .route(
            "/play",
            get(|| async { axum::response::Redirect::to("/play/tictactoe") }),
        )
        .route(
            "/play/{game}",
            get(|| async { axum::response::Html(PLAY_PAGE) }),
        )
        .route(
            "/compare",
            get(|| async { axum::response::Html(COMPARE_PAGE) }),
        )
        .route(
            "/api/games",
            get(|| async { axum::Json(list::report_value()) }),
        )
        .route("/api/show", api_route("show"))
        .route("/api/solve", api_route("solve"))
        .route("/api/solve/stream", api_route("stream"))
        .route("/api/analyze", api_route("analyze"))
        .route("/api/compare", api_route("compare"))
        .route("/api/trace", api_route("trace"))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such path".into()) })
        .method_not_allowed_fallback(|| async {
            ApiError(
                StatusCode::METHOD_NOT_ALLOWED,
                "method not allowed on this path".into(),
            )
        })
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        .layer(axum::middleware::map_response(json_errors))
        .with_state(server)
}

/// Runs the server until the process is stopped.
pub fn run(args: &ServeArgs) -> crate::CliResult {
    if args.max_searches == 0 {
        return Err(CliError::input("--max-searches must be at least 1"));
    }
    if !(1..=MAX_TIME_MS).contains(&args.max_time_ms) {
        return Err(CliError::input(format!(
            "--max-time-ms must be from 1 to {MAX_TIME_MS}"
        )));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the server: {e}")))?;
    runtime.block_on(async {
        let addr = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| CliError::failure(format!("cannot listen on {addr}: {e}")))?;
        let bound = listener
            .local_addr()
            .map_err(|e| CliError::failure(e.to_string()))?;
        println!("ply serve: listening on http://{bound}");
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
        let server = Arc::new(Server {
            slots: Arc::new(Semaphore::new(args.max_searches)),
            max_time: Duration::from_millis(args.max_time_ms),
        });
        axum::serve(listener, app(server))
            .await
            .map_err(|e| CliError::failure(format!("the server stopped: {e}")))
    })
}

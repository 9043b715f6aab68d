//! `ply serve`: the searches over HTTP, answering exactly the JSON of the
//! command line's `--json` (the same report types build both).
//!
//! A request body is read straight into ply-service's `Request` and run
//! by the same dispatch as the command line, within the server's
//! `Limits`: a trace's tree (10,000 nodes), a search's time
//! (`--max-time-ms`, at most 10 s), a table (256 MiB), a thread a search.
//! The server adds its own: the body (64 KiB), the searches at once
//! (`--max-searches`; a request waits a second for a turn, then gets 503).
//! A search runs on its own thread with a stop flag that its client's
//! going away sets, and the dispatch's deadline stops it at the time
//! limit; every search looks at both (through `Observer::should_stop`).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower_http::limit::RequestBodyLimitLayer;

use ply_service::error::Words;
use ply_service::{Cancel, Command, Error, ErrorKind, Limits, Report, Request, Tell, Thinking};

use crate::CliError;
use crate::args::ServeArgs;

/// Shared by every page: the large-text (projector) toggle, remembered.
const COMMON_JS: &str = include_str!("../../web/common.js");
/// Shared by every page: the header, focus rings, projector mode.
const COMMON_CSS: &str = include_str!("../../web/common.css");
/// The home page: the labs and every game, a line each.
const HOME_PAGE: &str = include_str!("../../web/home.html");
/// The MCTS lab: one iteration's phases at a time, from `/api/trace`.
const MCTS_PAGE: &str = include_str!("../../web/mcts.html");
/// The CFR lab: regrets and average strategies of poker's information
/// sets converging, from `/api/analyze`.
const CFR_PAGE: &str = include_str!("../../web/cfr.html");
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
/// The longest a search may run, whatever the request asks.
pub const MAX_TIME_MS: u64 = 10_000;
/// How long a request waits for a free search slot before a 503.
const QUEUE_WAIT: Duration = Duration::from_secs(1);
/// What the server keeps between requests.
struct Server {
    slots: Arc<Semaphore>,
    limits: Limits,
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

impl From<Error> for ApiError {
    /// Bad input and a cap passed are the client's (400); a search
    /// stopped at the time limit is the server's refusal to go on (503);
    /// disagreeing searches and a refused thread are the server's fault
    /// (500).
    fn from(e: Error) -> Self {
        let status = match e.kind {
            ErrorKind::Input | ErrorKind::Limit => StatusCode::BAD_REQUEST,
            ErrorKind::Stopped => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::Disagreement | ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError(status, e.message(Words::Fields))
    }
}

/// What a search hands back.
type Answer = Result<Report, Error>;

/// Sets the flag when dropped: the handler's future is dropped when its
/// client disconnects, and the search then stops.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A turn to search: waits up to [`QUEUE_WAIT`], then 503.
async fn slot(server: &Server) -> Result<OwnedSemaphorePermit, ApiError> {
    let busy = |what: &str| ApiError(StatusCode::SERVICE_UNAVAILABLE, what.into());
    tokio::time::timeout(QUEUE_WAIT, Arc::clone(&server.slots).acquire_owned())
        .await
        .map_err(|_| busy("the server is busy: try again"))?
        .map_err(|_| busy("the server is stopping"))
}

/// Runs `request` on a search thread within the server's limits,
/// holding `permit` until it ends; `done` gets the answer.
fn spawn_search(
    server: &Server,
    command: Command,
    request: Request,
    mut cancel: Cancel,
    permit: OwnedSemaphorePermit,
    done: impl FnOnce(Answer) + Send + 'static,
) -> Result<(), ApiError> {
    let limits = server.limits;
    ply_service::spawn("ply-api", move || {
        let result = ply_service::run(command, &request, &limits, &mut cancel);
        drop(permit);
        done(result);
    })
    .map(drop)
    .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e.message(Words::Fields)))
}

/// Reads a request, runs it on a search thread within the limits, answers.
async fn run_api(server: Arc<Server>, command: Command, body: Bytes) -> Result<Response, ApiError> {
    let request = Request::from_json(&body)?;
    if !command.searches() {
        // The rules alone: no search, no slot.
        let mut cancel = Cancel::new(Arc::default(), None);
        let report = ply_service::run(command, &request, &server.limits, &mut cancel)?;
        return Ok(axum::Json(report).into_response());
    }
    let permit = slot(&server).await?;
    let flag = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(Arc::clone(&flag));
    let cancel = Cancel::new(flag, None);
    let (tx, rx) = tokio::sync::oneshot::channel();
    spawn_search(&server, command, request, cancel, permit, move |r| {
        let _ = tx.send(r);
    })?;
    let result = rx.await.map_err(|_| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the search failed".into(),
        )
    })?;
    Ok(axum::Json(result?).into_response())
}

/// `POST /api/solve/stream`: the solve, its progress streamed as
/// server-sent events while it runs: `progress` events ([`Thinking`] as
/// JSON), then one `result` (the `/api/solve` JSON) or `error` event. A bad
/// request is refused before the stream starts, as `/api/solve` refuses it.
async fn stream_api(server: Arc<Server>, body: Bytes) -> Result<Response, ApiError> {
    let request = Request::from_json(&body)?;
    ply_service::check(Command::Solve, &request, &server.limits)?;
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
    let cancel = Cancel::new(flag, Some(tell));
    spawn_search(&server, Command::Solve, request, cancel, permit, move |r| {
        let event = match r {
            Ok(report) => Event::default().event("result").json_data(&report),
            Err(e) => Event::default().event("error").json_data(&ErrorBody {
                error: e.message(Words::Fields),
            }),
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

/// What a route answers: a service command, or the stream of a solve.
#[derive(Clone, Copy)]
enum Route {
    Command(Command),
    Stream,
}

fn api_route(route: Route) -> axum::routing::MethodRouter<Arc<Server>> {
    post(
        move |State(server): State<Arc<Server>>, body: Result<Bytes, BytesRejection>| async move {
            let Ok(body) = body else {
                let limit = format!("the request body is larger than {} KiB", MAX_BODY / 1024);
                return ApiError(StatusCode::PAYLOAD_TOO_LARGE, limit).into_response();
            };
            let answer = match route {
                Route::Stream => stream_api(server, body).await,
                Route::Command(command) => run_api(server, command, body).await,
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
        .route("/", get(|| async { axum::response::Html(HOME_PAGE) }))
        .route("/tree", get(|| async { axum::response::Html(TREE_PAGE) }))
        .route("/mcts", get(|| async { axum::response::Html(MCTS_PAGE) }))
        .route("/cfr", get(|| async { axum::response::Html(CFR_PAGE) }))
        .route(
            "/common.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], COMMON_JS) }),
        )
        .route(
            "/common.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css")], COMMON_CSS) }),
        )
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
            get(|| async { axum::Json(ply_service::report::list_report()) }),
        )
        .route("/api/show", api_route(Route::Command(Command::Show)))
        .route("/api/solve", api_route(Route::Command(Command::Solve)))
        .route("/api/solve/stream", api_route(Route::Stream))
        .route("/api/analyze", api_route(Route::Command(Command::Analyze)))
        .route("/api/compare", api_route(Route::Command(Command::Compare)))
        .route("/api/trace", api_route(Route::Command(Command::Trace)))
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
            limits: Limits::server(Duration::from_millis(args.max_time_ms)),
        });
        axum::serve(listener, app(server))
            .await
            .map_err(|e| CliError::failure(format!("the server stopped: {e}")))
    })
}

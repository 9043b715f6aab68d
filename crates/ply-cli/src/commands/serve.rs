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

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower_http::limit::RequestBodyLimitLayer;

use crate::CliError;
use crate::api::{self, Answer, Cancel, Prepared, Valid};
use crate::args::{Command, ServeArgs};
use crate::commands::list;
use crate::progress::{Tell, Thinking};

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
            let result = api::run(request, cancel, Some(max_time));
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
        Ok(value) => Ok(value),
        Err(e) if e.code == 3 => Err(ApiError(StatusCode::SERVICE_UNAVAILABLE, e.message)),
        Err(e) => Err(e.into()),
    }
}

/// Reads a request, runs it on a search thread within the limits, answers.
async fn run_api(server: Arc<Server>, command: &str, body: Bytes) -> Result<Response, ApiError> {
    let request = api::prepare(command, &body, Some(server.max_time))?;
    if command == "show" {
        // The rules alone: no search, no slot.
        let cancel = Cancel::new(Arc::default(), None, None);
        let value = answer(api::run(request, cancel, None))?;
        return Ok(axum::Json(value).into_response());
    }
    let permit = slot(&server).await?;
    let flag = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(Arc::clone(&flag));
    let cancel = Cancel::new(flag, Some(server.max_time), None);
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
    let request = api::prepare("solve", &body, Some(server.max_time))?;
    if let Command::Solve(a) = &request.command {
        ply_games::visit(&request.name, &request.params, Valid(&a.game))
            .map_err(CliError::from)??;
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
    let cancel = Cancel::new(flag, Some(server.max_time), Some(tell));
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

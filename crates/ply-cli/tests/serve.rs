//! `ply serve` as a client sees it: the API answers the CLI's JSON, bad
//! requests get a 4xx with `{"error": ...}`, the limits hold, and nothing a
//! client sends stops the server from answering the next one.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::json;
use serde_json::Value;

/// A server on a free port, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("ply"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .rsplit("http://")
            .next()
            .expect("the server prints its address")
            .to_string();
        Server { child, addr }
    }

    fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        request(&self.addr, method, path, body)
    }

    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        post(&self.addr, path, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `method path` with `body` to `addr`; the status and the body.
fn request(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        let _ = s.write_all(body);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).to_string();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, body.to_string())
    }
}

/// POSTs `body` to `path`; the status and the JSON answer.
fn post(addr: &str, path: &str, body: &str) -> (u16, Value) {
    let (status, text) = request(addr, "POST", path, body.as_bytes());
    // Chunked or not, the JSON is the part between the outer braces.
    let json = match (text.find('{'), text.rfind('}')) {
        (Some(a), Some(b)) => &text[a..=b],
        _ => "",
    };
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

/// A report without its timings, which differ from run to run.
fn untimed(mut v: Value) -> Value {
    if let Some(stats) = v.get_mut("stats").and_then(Value::as_object_mut) {
        stats.remove("time_ms");
        stats.remove("nodes_per_second");
    }
    v
}

#[test]
fn the_api_answers_the_clis_json() {
    let server = Server::start(&[]);
    let (status, _) = server.post("/api/games", "");
    assert_eq!(status, 405, "games is a GET");
    let (status, text) = server.request("GET", "/api/games", b"");
    assert_eq!(status, 200);
    let games: Value =
        serde_json::from_str(&text[text.find('{').unwrap()..=text.rfind('}').unwrap()]).unwrap();
    assert_eq!(games, json(&["list", "--json"]));

    let body = r#"{"game": "tictactoe", "position": "XO.X..O..", "algo": "alphabeta"}"#;
    let (status, v) = server.post("/api/solve", body);
    assert_eq!(status, 200);
    let cli = json(&[
        "solve",
        "tictactoe",
        "--position",
        "XO.X..O..",
        "--algo",
        "alphabeta",
        "--json",
        "-q",
    ]);
    assert_eq!(untimed(v), untimed(cli));

    let body = r#"{"game": "tictactoe", "position": "XO.X..O..", "algo": "minimax"}"#;
    let (status, v) = server.post("/api/analyze", body);
    assert_eq!(status, 200);
    let values: Vec<(&str, i64)> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap(), m["value"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        values,
        [("4", 1), ("7", 0), ("2", -1), ("5", -1), ("8", -1)]
    );

    let body = r#"{"game": "coins", "position": "12", "params": {"take": "1,3,4"}}"#;
    let (status, v) = server.post("/api/compare", body);
    assert_eq!((status, &v["agree"]), (200, &Value::Bool(true)));

    // The learned engine searches with the built-in network; a request
    // naming a file on the server is refused before anything is read.
    let body = r#"{"game": "tictactoe", "algo": "puct", "simulations": 50}"#;
    let (status, v) = server.post("/api/solve", body);
    assert_eq!((status, v["method"].as_str()), (200, Some("mcts")), "{v}");
    let body = r#"{"game": "tictactoe", "algo": "puct", "net": "/etc/passwd"}"#;
    let (status, v) = server.post("/api/solve", body);
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("'net' names a file"),
        "{v}"
    );
}

/// The tree lab is served from the binary, with the hooks browser tests use.
#[test]
fn the_tree_lab_page() {
    let server = Server::start(&[]);
    let (status, page) = server.request("GET", "/tree", b"");
    assert_eq!(status, 200);
    for hook in [
        "data-testid=\"tree-input\"",
        "data-testid=\"algo\"",
        "data-testid=\"step\"",
        "data-testid=\"run\"",
        "data-testid=\"root-value\"",
        "\"data-node\"",
        "/api/trace",
    ] {
        assert!(page.contains(hook), "the page lacks {hook}");
    }
    let (status, home) = server.request("GET", "/", b"");
    assert_eq!(status, 200, "/ is the home page");
    for link in [
        "href=\"/tree\"",
        "href=\"/mcts\"",
        "href=\"/compare\"",
        "/api/games",
    ] {
        assert!(home.contains(link), "the home page lacks {link}");
    }
    let (status, page) = server.request("GET", "/mcts", b"");
    assert_eq!(status, 200);
    // The lab traces both searches, each under its own count.
    assert!(page.contains("/api/trace") && page.contains("<option value=\"puct\">"));
    assert!(page.contains("field: \"iterations\"") && page.contains("field: \"simulations\""));
    let (status, page) = server.request("GET", "/play/tictactoe", b"");
    assert_eq!(status, 200);
    for hook in [
        "square-${i}",
        "column-${c}",
        "data-testid=\"status\"",
        "/api/show",
        "/api/solve/stream",
        "/api/analyze",
    ] {
        assert!(page.contains(hook), "the play page lacks {hook}");
    }
    let (status, other) = server.request("GET", "/play/chess", b"");
    assert_eq!((status, &other), (200, &page), "one page plays every game");
    let (status, page) = server.request("GET", "/compare", b"");
    assert_eq!(status, 200);
    assert!(page.contains("/api/compare"));
}

/// `/api/show` is `ply show --json`: the rules as the page needs them.
#[test]
fn show_gives_the_position_its_moves_and_the_result() {
    let server = Server::start(&[]);
    for (body, argv) in [
        (
            r#"{"game": "tictactoe", "position": "XO.X..O.."}"#,
            vec!["show", "tictactoe", "-p", "XO.X..O..", "--json"],
        ),
        (
            r#"{"game": "connect4", "moves": ["4", "4", "3"], "params": {"width": 6}}"#,
            vec![
                "show", "connect4", "-m", "4,4,3", "--param", "width=6", "--json",
            ],
        ),
        (
            r#"{"game": "chess", "position": "startpos moves f2f3 e7e5 g2g4", "moves": ["d8h4"]}"#,
            vec![
                "show",
                "chess",
                "-p",
                "startpos moves f2f3 e7e5 g2g4",
                "-m",
                "d8h4",
                "--json",
            ],
        ),
    ] {
        let (status, v) = server.post("/api/show", body);
        assert_eq!(status, 200, "{body}");
        assert_eq!(v, json(&argv), "{body}");
    }
    // The lesson's position: X to move, the five empty squares.
    let (_, v) = server.post(
        "/api/show",
        r#"{"game": "tictactoe", "position": "XO.X..O.."}"#,
    );
    assert_eq!(v["to_move"], "MAX");
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["2", "4", "5", "7", "8"]);
    // Fool's mate: over, Black (MIN) won, no moves.
    let (_, v) = server.post(
        "/api/show",
        r#"{"game": "chess", "position": "startpos moves f2f3 e7e5 g2g4 d8h4"}"#,
    );
    assert_eq!(
        (v["terminal"].as_bool(), v["result"].as_str()),
        (Some(true), Some("MIN wins"))
    );
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(0));
    // Pig's die: six outcomes, each 1/6.
    let (_, v) = server.post("/api/show", r#"{"game": "pig", "position": "3-4+5?"}"#);
    assert_eq!(v["to_move"], "chance");
    let p: Vec<f64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["probability"].as_f64().unwrap())
        .collect();
    assert_eq!(p.len(), 6);
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-6);
    // An illegal move is a 400 naming it.
    let (status, v) = server.post("/api/show", r#"{"game": "connect4", "moves": ["8"]}"#);
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains('8'), "{v}");
}

/// A chunked HTTP body, its chunks joined.
fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

/// Server-sent events: (event, data as JSON) in order.
fn events(addr: &str, body: &str) -> Vec<(String, Value)> {
    let (status, text) = request(addr, "POST", "/api/solve/stream", body.as_bytes());
    assert_eq!(status, 200, "{text}");
    dechunk(&text)
        .split("\n\n")
        .filter(|frame| !frame.trim().is_empty())
        .map(|frame| {
            let field = |name: &str| {
                frame
                    .lines()
                    .filter_map(|l| l.strip_prefix(name))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let data = serde_json::from_str(&field("data: ")).expect("every event's data is JSON");
            (field("event: "), data)
        })
        .collect()
}

/// The streamed solve tells each finished depth, then gives the result that
/// `ply solve --json` gives; MCTS tells its root visits as they grow.
#[test]
fn a_streamed_solve_tells_its_progress_then_the_result() {
    let server = Server::start(&[]);
    let got = events(
        &server.addr,
        r#"{"game": "chess", "algo": "id", "depth": 6}"#,
    );
    let (last, rest) = got.split_last().unwrap();
    assert_eq!(last.0, "result");
    let cli = json(&[
        "solve", "chess", "--algo", "id", "--depth", "6", "--json", "-q",
    ]);
    assert_eq!(untimed(last.1.clone()), untimed(cli));
    let depths: Vec<u64> = rest
        .iter()
        .filter(|(e, d)| e == "progress" && d["kind"] == "iteration")
        .map(|(_, d)| d["depth"].as_u64().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5, 6]);
    assert!(rest.iter().all(|(e, _)| e == "progress"));
    // Each depth's line is also written as players write it (SAN): as long
    // as the line, its first move the start position's SAN of the first.
    let (_, start) = server.post("/api/show", r#"{"game": "chess"}"#);
    let san = |uci: &Value| {
        start["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| &m["move"] == uci)
            .map(|m| m["display"].clone())
            .unwrap()
    };
    for (_, d) in rest.iter().filter(|(_, d)| d["kind"] == "iteration") {
        let (pv, shown) = (d["pv"].as_array().unwrap(), d["pv_display"].as_array());
        let shown = shown.expect("chess lines have a SAN form");
        assert_eq!(shown.len(), pv.len());
        assert_eq!(shown[0], san(&pv[0]), "{d}");
    }

    let body = r#"{"game": "tictactoe", "algo": "mcts", "iterations": 1000000, "seed": 3}"#;
    let got = events(&server.addr, body);
    let (last, rest) = got.split_last().unwrap();
    assert_eq!(last.0, "result");
    let cli = json(&[
        "solve",
        "tictactoe",
        "--algo",
        "mcts",
        "--iterations",
        "1000000",
        "--seed",
        "3",
        "--json",
    ]);
    let timeless = |mut v: Value| {
        v["stats"]
            .as_object_mut()
            .unwrap()
            .retain(|k, _| k == "iterations" || k == "tree_nodes");
        v
    };
    assert_eq!(
        timeless(last.1.clone()),
        timeless(cli),
        "watching does not change MCTS"
    );
    let seen: Vec<u64> = rest
        .iter()
        .map(|(_, d)| d["iterations"].as_u64().unwrap())
        .collect();
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    assert!(seen.iter().all(|&n| n < 1_000_000));
    // A million playouts take several tenths of a second: the watcher,
    // shown the tree every 100 ms, has seen it at least once.
    assert!(!rest.is_empty(), "no MCTS progress was told");
    if let Some((_, d)) = rest.last() {
        let visits: u64 = d["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["visits"].as_u64().unwrap())
            .sum();
        assert!(visits > 0 && visits <= d["iterations"].as_u64().unwrap());
    }

    // A bad request is refused before any stream starts.
    let (status, v) = server.post(
        "/api/solve/stream",
        r#"{"game": "tictactoe", "position": "XXX"}"#,
    );
    assert_eq!(status, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("invalid tictactoe position")
    );
}

/// The lesson's trees, as `ply trace` gives them: values and pruned leaves.
#[test]
fn traces_of_the_lessons_trees() {
    let server = Server::start(&[]);
    for tree in [
        "((3 5 7) (2 9 1))",
        "((4 6) (3 9) (5 1))",
        "((3 12 8) (2 4 6) (14 5 2))",
        "((4 6 9) (2 7 8) (5 3 9))",
        "[0.5 (3 12) 0.5 (2 4)]",
    ] {
        let body = serde_json::json!({ "tree": tree }).to_string();
        let (status, v) = server.post("/api/trace", &body);
        assert_eq!(status, 200, "{tree}: {v}");
        assert_eq!(v, json(&["trace", tree, "--json"]), "{tree}");
    }
    let (status, v) = server.post("/api/trace", r#"{"tree": "((3 5 7) (2 9 1))"}"#);
    assert_eq!(status, 200);
    assert_eq!(v["value"], 3);
    assert_eq!(v["pruned"], serde_json::json!(["2.2", "2.3"]));
}

#[test]
fn bad_requests_get_a_4xx_and_the_server_goes_on() {
    let server = Server::start(&[]);
    let big_tree = format!("({})", "1 ".repeat(12_000));
    let big_body = "x".repeat(70 * 1024);
    let cases: Vec<(&str, String, u16, &str)> = vec![
        ("/api/solve", "{bad".into(), 400, "not the JSON"),
        (
            "/api/solve",
            r#"{"game": "nosuchgame"}"#.into(),
            400,
            "unknown game",
        ),
        (
            "/api/solve",
            r#"{"game": "tictactoe", "position": "XXX"}"#.into(),
            400,
            "9 squares",
        ),
        (
            "/api/solve",
            r#"{"game": "tree", "position": "((1 x))"}"#.into(),
            400,
            "column",
        ),
        (
            "/api/solve",
            r#"{"game": "tictactoe", "moves": ["4", "4"]}"#.into(),
            400,
            "move 2",
        ),
        (
            "/api/solve",
            r#"{"game": "tictactoe", "colour": 1}"#.into(),
            400,
            "unknown field",
        ),
        (
            "/api/solve",
            r#"{"game": "tictactoe", "algo": "magic"}"#.into(),
            400,
            "magic",
        ),
        (
            "/api/solve",
            r#"{"game": "pig", "algo": "alphabeta"}"#.into(),
            400,
            "chance",
        ),
        (
            "/api/trace",
            format!(r#"{{"tree": "{big_tree}"}}"#),
            400,
            "10000 nodes",
        ),
        (
            "/api/trace",
            r#"{"game": "coins", "position": "20000", "params": {"take": "1"}}"#.into(),
            400,
            "deeper than 100 plies",
        ),
        ("/api/solve", big_body, 413, "64 KiB"),
        ("/api/nothing", "{}".into(), 404, "no such path"),
    ];
    for (path, body, status, what) in cases {
        let (got, v) = server.post(path, &body);
        assert_eq!(got, status, "{path} {}: {v}", &body[..body.len().min(60)]);
        let error = v["error"].as_str().unwrap_or_default();
        assert!(error.contains(what), "{path}: {error}");
    }
    let (status, _) = server.request("DELETE", "/api/solve", b"");
    assert_eq!(status, 405);
    // Still answering.
    let (status, v) = server.post("/api/solve", r#"{"game": "coins", "position": "7"}"#);
    assert_eq!((status, v["value"].as_i64()), (200, Some(1)));
    // A table past what one request may take is cut to the server's cap
    // (found by the api fuzz target, where it panicked).
    let (status, v) = server.post(
        "/api/solve",
        r#"{"game": "coins", "position": "7", "algo": "id", "tt_mb": 444444444444444}"#,
    );
    assert_eq!((status, v["value"].as_i64()), (200, Some(1)), "{v}");
}

/// A search past the server's time limit stops with a 503; while one runs
/// in the only slot, another request waits a second and gets a 503 too.
#[test]
fn time_and_concurrency_limits() {
    let server = Server::start(&["--max-time-ms", "1500", "--max-searches", "1"]);
    let addr = server.addr.clone();
    let long = std::thread::spawn(move || {
        let start = Instant::now();
        let r = post(
            &addr,
            "/api/solve",
            r#"{"game": "chess", "algo": "minimax"}"#,
        );
        (r, start.elapsed())
    });
    std::thread::sleep(Duration::from_millis(300));
    let (status, v) = server.post("/api/solve", r#"{"game": "coins", "position": "4"}"#);
    assert_eq!(status, 503, "{v}");
    assert!(v["error"].as_str().unwrap().contains("busy"), "{v}");
    let ((status, v), took) = long.join().unwrap();
    assert_eq!(status, 503, "{v}");
    assert!(v["error"].as_str().unwrap().contains("time limit"), "{v}");
    assert!(took < Duration::from_secs(20), "stopped after {took:?}");
    // The slot is free again.
    let (status, _) = server.post("/api/solve", r#"{"game": "coins", "position": "4"}"#);
    assert_eq!(status, 200);
}

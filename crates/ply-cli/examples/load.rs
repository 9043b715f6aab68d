//! A bounded load test of `ply serve`: N clients on keep-alive connections,
//! each asking in turn for a tic-tac-toe move and a Connect Four move (the
//! play page's requests) for S seconds; then requests per second, the
//! latency percentiles and every failure.
//!
//! ```sh
//! cargo build --release -p ply-cli --examples
//! target/release/examples/load --clients 50 --seconds 10
//! ```
//!
//! Without `--addr` it starts `ply serve` itself (the binary beside it in
//! `target/release`) on a free loopback port and stops it at the end.
//! It exits non-zero if any request failed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The most clients and seconds it will run: a load test, not a flood.
const MAX_CLIENTS: usize = 500;
const MAX_SECONDS: u64 = 300;

struct Options {
    addr: Option<String>,
    clients: usize,
    seconds: u64,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        addr: None,
        clients: 50,
        seconds: 10,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--addr" => o.addr = Some(value()?),
            "--clients" => o.clients = value()?.parse().map_err(|e| format!("--clients: {e}"))?,
            "--seconds" => o.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            _ => {
                return Err(format!(
                    "unknown argument '{flag}' (--addr, --clients, --seconds)"
                ));
            }
        }
    }
    if !(1..=MAX_CLIENTS).contains(&o.clients) || !(1..=MAX_SECONDS).contains(&o.seconds) {
        return Err(format!(
            "--clients 1 to {MAX_CLIENTS}, --seconds 1 to {MAX_SECONDS}"
        ));
    }
    Ok(o)
}

/// `ply serve` on a free port, from the same target directory.
fn start_server() -> Result<(Child, String), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let ply = exe
        .parent()
        .and_then(|examples| examples.parent())
        .map(|dir| dir.join("ply"))
        .ok_or("cannot find the ply binary")?;
    let mut child = Command::new(&ply)
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "cannot start {}: {e} (cargo build --release first)",
                ply.display()
            )
        })?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().ok_or("no stdout")?)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let addr = line
        .trim()
        .rsplit("http://")
        .next()
        .ok_or("the server did not print its address")?
        .to_string();
    Ok((child, addr))
}

/// The play page's two kinds of request: a tic-tac-toe engine move from
/// one of the nine first moves, and a Connect Four move at depth 8 after
/// two stones.
fn body(client: usize, i: usize) -> (String, String) {
    let k = client * 7919 + i;
    if i.is_multiple_of(2) {
        let body = format!(
            r#"{{"game":"tictactoe","moves":["{}"],"time_ms":100}}"#,
            k % 9
        );
        ("/api/solve".into(), body)
    } else {
        let (a, b) = (k % 7 + 1, (k / 7) % 7 + 1);
        let body = format!(r#"{{"game":"connect4","moves":["{a}","{b}"],"algo":"id","depth":8}}"#);
        ("/api/solve".into(), body)
    }
}

/// One request on a kept-alive connection: the status.
fn exchange(
    stream: &mut BufReader<TcpStream>,
    addr: &str,
    path: &str,
    body: &str,
) -> std::io::Result<u16> {
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.get_mut().write_all(head.as_bytes())?;
    let mut status = 0;
    let mut length = 0usize;
    let mut line = String::new();
    loop {
        line.clear();
        if stream.read_line(&mut line)? == 0 {
            return Err(std::io::Error::other("the server closed the connection"));
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if status == 0 {
            status = l
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
        } else if let Some((k, v)) = l.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut rest = vec![0; length];
    stream.read_exact(&mut rest)?;
    Ok(status)
}

/// What one client saw: each request's latency, and the failures.
fn client(addr: &str, id: usize, until: Instant) -> (Vec<Duration>, Vec<String>) {
    let (mut times, mut failures) = (Vec::new(), Vec::new());
    let mut stream = None;
    let mut i = 0;
    while Instant::now() < until {
        if stream.is_none() {
            match TcpStream::connect(addr) {
                Ok(s) => stream = Some(BufReader::new(s)),
                Err(e) => {
                    failures.push(format!("connect: {e}"));
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
            }
        }
        let (path, body) = body(id, i);
        let start = Instant::now();
        let result = exchange(stream.as_mut().expect("connected"), addr, &path, &body);
        match result {
            Ok(200) => times.push(start.elapsed()),
            Ok(status) => failures.push(format!("{body}: HTTP {status}")),
            Err(e) => {
                failures.push(format!("{body}: {e}"));
                stream = None;
            }
        }
        i += 1;
    }
    (times, failures)
}

fn main() {
    let o = options().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    let (mut server, addr) = match &o.addr {
        Some(a) => (None, a.clone()),
        None => match start_server() {
            Ok((child, addr)) => (Some(child), addr),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        },
    };
    eprintln!(
        "load: {} clients for {} s against http://{addr}",
        o.clients, o.seconds
    );
    let start = Instant::now();
    let until = start + Duration::from_secs(o.seconds);
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..o.clients)
            .map(|id| {
                let addr = &addr;
                s.spawn(move || client(addr, id, until))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a client panicked"))
            .collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    if let Some(child) = server.as_mut() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let mut times: Vec<Duration> = results.iter().flat_map(|r| r.0.iter().copied()).collect();
    let failures: Vec<&String> = results.iter().flat_map(|r| r.1.iter()).collect();
    times.sort();
    let pct = |p: f64| {
        times
            .get(((times.len() as f64 * p) as usize).min(times.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    println!(
        "requests {}  failed {}  {:.0} req/s  latency ms: p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}",
        times.len(),
        failures.len(),
        times.len() as f64 / elapsed,
        pct(0.5),
        pct(0.9),
        pct(0.99),
        times.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
    );
    for f in failures.iter().take(10) {
        eprintln!("failed: {f}");
    }
    if !failures.is_empty() {
        std::process::exit(1);
    }
}

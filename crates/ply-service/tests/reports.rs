//! Reports both ways: every kind of report, and every kind of search
//! within solve and analyze, written as JSON and read back into
//! [`Report`] is the same report (its JSON again is the same JSON), and
//! says which command made it (`kind`) and which search (`method`).

use std::sync::Arc;

use ply_service::{Cancel, Command, Limits, Report, Request};
use serde_json::{Value, json};

/// (command, request): every command, and each search's own result type.
fn requests() -> Vec<(Command, Value)> {
    #[allow(unused_mut)]
    let mut all = vec![
        (
            Command::Solve,
            json!({"game": "tictactoe", "position": "XO.X..O.."}),
        ),
        (
            Command::Solve,
            json!({"game": "pig", "position": "35-20+3", "params": {"target": 40}, "depth": 4}),
        ),
        (
            Command::Solve,
            json!({"game": "connect4", "position": "4455"}),
        ),
        (
            Command::Solve,
            json!({"game": "tictactoe", "moves": ["4"], "algo": "mcts", "iterations": 300, "seed": 7}),
        ),
        (
            Command::Solve,
            json!({"game": "grundy", "position": "9", "algo": "nimber"}),
        ),
        (
            Command::Solve,
            json!({"game": "gomoku", "position": "e8 d8 f8 h4 g8 a1 h5 c1 h6 e1 h7 o15", "vcf": true}),
        ),
        (
            Command::Analyze,
            json!({"game": "connect4", "position": "4455", "algo": "id", "depth": 4, "fast_win": true}),
        ),
        (
            Command::Analyze,
            json!({"game": "pig", "position": "35-20+3", "params": {"target": 40}, "depth": 3}),
        ),
        (
            Command::Analyze,
            json!({"game": "connect4", "position": "44455554221", "algo": "score"}),
        ),
        (
            Command::Analyze,
            json!({"game": "grundy", "position": "9", "algo": "nimber"}),
        ),
        (
            Command::Analyze,
            json!({"game": "tictactoe", "algo": "mcts", "iterations": 300, "seed": 3}),
        ),
        (
            Command::Solve,
            json!({"game": "kuhn", "position": "KQ:p", "algo": "cfr+", "iterations": 200}),
        ),
        (
            Command::Analyze,
            json!({"game": "leduc", "algo": "mccfr", "iterations": 2000, "seed": 5, "infoset": "Ks:"}),
        ),
        (Command::Compare, json!({"game": "coins", "position": "9"})),
        (
            Command::Trace,
            json!({"tree": "((3 12 8) (2 4 6) (14 5 2))"}),
        ),
        (
            Command::Trace,
            json!({"tree": "[0.5 (3 12) 0.5 (2 4)]", "star1": true}),
        ),
        (
            Command::Trace,
            json!({"tree": "((3 12) (2 4))", "dot": true}),
        ),
        (Command::Show, json!({"game": "pig", "position": "35-20+3"})),
        (
            Command::Show,
            json!({"game": "tictactoe", "position": "XXXOO...."}),
        ),
        (
            Command::Show,
            json!({"game": "chess", "moves": ["e2e4", "e7e5"]}),
        ),
        (
            Command::Trace,
            json!({"game": "tictactoe", "position": ".OX..X..O", "algo": "mcts", "iterations": 50}),
        ),
        (Command::Count, json!({"game": "tictactoe"})),
        (
            Command::Perft,
            json!({"game": "chess", "depth": 2, "divide": true}),
        ),
    ];
    // PUCT needs the networks, which the `learn` feature brings.
    #[cfg(feature = "learn")]
    all.push((
        Command::Trace,
        json!({"game": "connect4", "moves": ["4"], "algo": "puct", "simulations": 30}),
    ));
    all
}

fn run(command: Command, request: &Value) -> Report {
    let request = Request::from_json(request.to_string().as_bytes()).expect("a valid request");
    ply_service::spawn("test", move || {
        let mut cancel = Cancel::new(Arc::default(), None);
        ply_service::run(command, &request, &Limits::NONE, &mut cancel)
    })
    .unwrap()
    .join()
    .unwrap()
    .unwrap_or_else(|e| panic!("{command}: {}", e))
}

#[test]
fn every_report_reads_back_as_itself() {
    let mut methods = std::collections::BTreeSet::new();
    for (command, request) in requests() {
        let report = run(command, &request);
        let written = serde_json::to_value(&report).unwrap();
        let read: Report = serde_json::from_value(written.clone())
            .unwrap_or_else(|e| panic!("{request}: {e}\n{written:#}"));
        assert_eq!(serde_json::to_value(&read).unwrap(), written, "{request}");
        assert_eq!(
            std::mem::discriminant(&read),
            std::mem::discriminant(&report),
            "{request}"
        );
        let kind = written["kind"].as_str().unwrap();
        let expected = match (&report, command) {
            (Report::Dot(_), _) => "dot",
            (Report::Threat(_), _) => "threat",
            (Report::MctsTrace(_), _) => "mcts_trace",
            (Report::PuctTrace(_), _) => "puct_trace",
            (_, c) => c.name(),
        };
        assert_eq!(kind, expected, "{request}");
        if let Some(m) = written["method"].as_str() {
            methods.insert(format!("{kind} {m}"));
        }
    }
    // Each search's result type was read back, not only the first that fits.
    let expected = [
        "analyze cfr",
        "analyze expectiminimax",
        "analyze mcts",
        "analyze nimber",
        "analyze score",
        "analyze search",
        "solve cfr",
        "solve expectiminimax",
        "solve mcts",
        "solve nimber",
        "solve score",
        "solve search",
    ];
    assert_eq!(methods.into_iter().collect::<Vec<_>>(), expected);
}

#[test]
fn a_report_read_back_prints_the_same_text_but_the_board() {
    // The JSON carries everything the text says but the board's picture.
    for (command, request) in [
        (
            Command::Solve,
            json!({"game": "tictactoe", "position": "XO.X..O.."}),
        ),
        (
            Command::Solve,
            json!({"game": "connect4", "position": "4455"}),
        ),
        (
            Command::Analyze,
            json!({"game": "tictactoe", "position": "XO.X..O.."}),
        ),
        (
            Command::Analyze,
            json!({"game": "pig", "position": "35-20+3", "params": {"target": 40}, "depth": 3}),
        ),
    ] {
        let report = run(command, &request);
        let board = match &report {
            Report::Solve(r) => r.header.board.clone(),
            Report::Analyze(r) => r.header.board.clone(),
            _ => unreachable!(),
        };
        assert!(!board.is_empty());
        let read: Report = serde_json::from_value(serde_json::to_value(&report).unwrap()).unwrap();
        let text = report.to_string();
        assert!(text.starts_with(&board), "{text}");
        assert_eq!(read.to_string(), text.replacen(&board, "", 1), "{request}");
    }
}

/// Chess moves are shown in SAN for a reader (`display`), and each one,
/// played by its SAN, leads where its UCI move does: the position the
/// report gives for it. Games whose notation is already the reader's
/// carry no `display`.
#[test]
fn shown_moves_read_as_players_write_them() {
    let moves = |r: &Report| match r {
        Report::Show(s) => s.moves.clone(),
        other => panic!("not a show report: {other:?}"),
    };
    let start = run(
        Command::Show,
        &json!({"game": "chess", "moves": ["e2e4", "e7e5"]}),
    );
    let shown = moves(&start);
    assert_eq!(shown.len(), 29);
    let san = |uci: &str| shown.iter().find(|m| m.mv == uci).unwrap().display.clone();
    assert_eq!(san("g1f3").as_deref(), Some("Nf3"));
    assert_eq!(san("e1e2").as_deref(), Some("Ke2"));
    assert_eq!(san("d2d4").as_deref(), Some("d4"));
    for m in &shown {
        let display = m.display.clone().expect("every chess move has its SAN");
        let after = run(
            Command::Show,
            &json!({"game": "chess", "moves": ["e2e4", "e7e5", display]}),
        );
        match after {
            Report::Show(s) => assert_eq!(s.position, m.position, "{display}"),
            other => panic!("{other:?}"),
        }
    }
    let ttt = run(Command::Show, &json!({"game": "tictactoe"}));
    assert!(moves(&ttt).iter().all(|m| m.display.is_none()));
}

#![cfg(feature = "learn")]
//! `ply learn`: a short run's JSON lines and saved network, `--resume`
//! going on from it, and the errors on bad flags and files.

mod common;

use common::{fails, ply};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-learn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const SHORT: [&str; 12] = [
    "--games",
    "6",
    "--simulations",
    "8",
    "--steps",
    "3",
    "--minibatch",
    "16",
    "--match-games",
    "2",
    "--channels",
    "4",
];

fn learn(extra: &[&str], out: &std::path::Path) -> Vec<serde_json::Value> {
    json_lines(
        ply()
            .args(["learn", "tictactoe", "--json", "--out"])
            .arg(out)
            .args(SHORT)
            .args(extra),
    )
}

/// A command's stdout, every line of which must be JSON.
fn json_lines(command: &mut assert_cmd::Command) -> Vec<serde_json::Value> {
    let o = command.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line of --json is JSON"))
        .collect()
}

/// Two generations print two JSON lines (nothing else on stdout), with
/// the figures of each; the file is a network whose metadata names the
/// game and the generation; --resume goes on at generation 3, and the
/// same seed gives the same first generation again.
#[test]
fn a_short_run_saves_and_resumes() {
    let out = temp("ttt.safetensors");
    let lines = learn(&["--generations", "2"], &out);
    assert_eq!(lines.len(), 2);
    for (i, g) in lines.iter().enumerate() {
        assert_eq!(g["generation"], i + 1);
        assert_eq!(g["games"], 6);
        assert!(g["positions"].as_u64().unwrap() >= 6 * 5, "{g}");
        let score = g["vs_mcts"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score), "{g}");
        // Tic-tac-toe is small enough to grade by the exact solver.
        let acc = g["accuracy"]["moves"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&acc), "{g}");
        assert_eq!(g["accuracy"]["sets"]["all"]["moves"], acc, "{g}");
    }
    let bytes = std::fs::read(&out).unwrap();
    let net = ply_learn::Network::from_bytes(&bytes).unwrap();
    assert_eq!(net.about["ply.game"], "tictactoe");
    assert_eq!(net.about["ply.generation"], "2");
    assert!(net.about["ply.command"].starts_with("ply learn tictactoe"));
    // --generations is the run's total; the resumed generation trains on
    // the replay window saved beside the network (all three generations'
    // positions, as an unbroken run would), and a run that has them all
    // says so.
    let more = learn(&["--generations", "3", "--resume"], &out);
    assert_eq!(more.len(), 1);
    assert_eq!(more[0]["generation"], 3);
    let positions = |g: &serde_json::Value| g["positions"].as_u64().unwrap();
    assert_eq!(
        more[0]["window"].as_u64().unwrap(),
        positions(&lines[0]) + positions(&lines[1]) + positions(&more[0])
    );
    let err = fails(&[
        "learn",
        "tictactoe",
        "--generations",
        "3",
        "--resume",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        err.contains("all 3 generations") && err.contains("--generations"),
        "{err}"
    );
    let again = learn(&["--generations", "1"], &temp("again.safetensors"));
    let played = |g: &serde_json::Value| {
        let mut g = g.clone();
        for timing in ["positions_per_second", "samples_per_second", "seconds"] {
            g.as_object_mut().unwrap().remove(timing);
        }
        g
    };
    assert_eq!(
        played(&again[0]),
        played(&lines[0]),
        "same seed, same generation"
    );
}

/// `--supervised`: every open tic-tac-toe position labelled (a JSON line
/// saying how many), written to --labels, an epoch per line, the network
/// saved with its epoch; a second run reads the labels back instead of
/// labelling and, resumed, goes on at the next epoch.
#[test]
fn supervised_labels_saves_and_resumes() {
    let (out, labels) = (temp("sup.safetensors"), temp("ttt.labels"));
    let run = |extra: &[&str]| {
        json_lines(
            ply()
                .args([
                    "learn",
                    "tictactoe",
                    "--supervised",
                    "--json",
                    "--channels",
                    "4",
                ])
                .arg("--out")
                .arg(&out)
                .arg("--labels")
                .arg(&labels)
                .args(extra),
        )
    };
    let lines = run(&["--epochs", "2"]);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0]["labelled"], 4_520);
    assert_eq!(lines[0]["left_out"], 0);
    for (i, e) in lines[1..].iter().enumerate() {
        assert_eq!(e["epoch"], i + 1);
        assert_eq!(e["positions"], 4_520);
        let acc = e["accuracy"]["moves"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&acc), "{e}");
    }
    assert_eq!(
        std::fs::read_to_string(&labels).unwrap().lines().count(),
        4_520
    );
    let net = ply_learn::Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(net.about["ply.supervised"], "true");
    assert_eq!(net.about["ply.epoch"], "2");
    // --epochs is the fit's total: resumed, it goes on at epoch 3.
    let more = run(&["--epochs", "3", "--resume"]);
    assert_eq!(more.len(), 2, "{more:?}");
    assert_eq!(more[0]["labelled"], 4_520);
    assert!(more[0]["read"].is_string(), "{:?}", more[0]);
    assert_eq!(more[1]["epoch"], 3);
    // A label file that is not one is named with its line.
    std::fs::write(&labels, "X........\t0\t4\nnonsense\n").unwrap();
    let err = fails(&[
        "learn",
        "tictactoe",
        "--supervised",
        "--labels",
        labels.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("line 2"), "{err}");
}

/// Bad flags and files are named in the command line's terms.
#[test]
fn bad_input_is_named() {
    let err = fails(&["learn", "chess"]);
    assert!(err.contains("chess cannot be learned"), "{err}");
    let err = fails(&["learn", "tictactoe", "--games", "0"]);
    assert!(err.contains("--games must be at least 1"), "{err}");
    let err = fails(&["learn", "tictactoe", "--learning-rate", "2"]);
    assert!(err.contains("--learning-rate"), "{err}");
    let err = fails(&["learn", "tictactoe", "--simulations", "0"]);
    assert!(err.contains("--simulations"), "{err}");
    // Self-play's flags are not --supervised's, and the other way round.
    let err = fails(&["learn", "tictactoe", "--supervised", "--games", "5"]);
    assert!(err.contains("--games is for self-play"), "{err}");
    let err = fails(&["learn", "tictactoe", "--epochs", "5"]);
    assert!(err.contains("--supervised"), "{err}");
    let missing = temp("missing.safetensors");
    let err = fails(&[
        "learn",
        "tictactoe",
        "--resume",
        "--out",
        missing.to_str().unwrap(),
    ]);
    assert!(err.contains("--resume: cannot read"), "{err}");
    let junk = temp("junk.safetensors");
    std::fs::write(&junk, "not a network").unwrap();
    let err = fails(&[
        "learn",
        "tictactoe",
        "--resume",
        "--out",
        junk.to_str().unwrap(),
    ]);
    assert!(err.contains("not a safetensors file"), "{err}");
    // A tic-tac-toe network is not a 4x4 board's.
    let ttt = temp("for-3x3.safetensors");
    learn(&["--generations", "1"], &ttt);
    let err = fails(&[
        "learn",
        "tictactoe",
        "--param",
        "m=4",
        "--param",
        "n=4",
        "--resume",
        "--out",
        ttt.to_str().unwrap(),
    ]);
    assert!(err.contains("2x3x3 planes"), "{err}");
}

/// A report's JSON.
fn report(args: &[&str]) -> serde_json::Value {
    let o = ply().args(args).arg("--json").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("--json prints one JSON report")
}

/// `--algo puct` over the built-in tic-tac-toe network: the win in one
/// found and every simulation through a root move; the priors are the
/// network's own (evaluated here through ply-learn, the path PUCT does
/// not take), over every legal move; with `--simulations 0` the answer is
/// the prior's favourite and the network's value.
#[test]
fn puct_searches_with_the_built_in_network() {
    // X to move wins at 2 (the top row); O threatens the middle row.
    let position = "XX.OO....";
    let r = report(&[
        "solve",
        "tictactoe",
        "--position",
        position,
        "--algo",
        "puct",
    ]);
    assert_eq!(r["best_move"], "2", "{r}");
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    let visits: u64 = moves.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert_eq!(visits, 800);
    assert_eq!(r["stats"]["iterations"], 800);

    use ply_core::search::puct::{Evaluator, Leaf};
    use ply_core::{Game, Notation};
    let g = ply_games::tictactoe::TicTacToe::classic();
    let state = g.parse_position(position).unwrap();
    let mut legal = Vec::new();
    g.legal_moves(&state, &mut legal);
    let net = ply_learn::Network::from_bytes(ply_learn::builtin("tictactoe").unwrap()).unwrap();
    let leaf = Leaf {
        state: &state,
        moves: &legal,
    };
    let estimate = ply_learn::NetEvaluator::new(&net)
        .evaluate(&g, &[leaf])
        .remove(0);
    let raw = report(&[
        "analyze",
        "tictactoe",
        "--position",
        position,
        "--algo",
        "puct",
        "--simulations",
        "0",
    ]);
    for m in raw["moves"].as_array().unwrap() {
        let mv = g.parse_move(&state, m["move"].as_str().unwrap()).unwrap();
        let i = legal.iter().position(|&l| l == mv).unwrap();
        let prior = m["prior"].as_f64().unwrap();
        assert!((prior - f64::from(estimate.priors[i])).abs() < 1e-5, "{m}");
        assert_eq!(m["visits"], 0);
    }
    let best = (0..legal.len())
        .max_by(|&a, &b| estimate.priors[a].total_cmp(&estimate.priors[b]))
        .unwrap();
    let raw = report(&[
        "solve",
        "tictactoe",
        "--position",
        position,
        "--algo",
        "puct",
        "--simulations",
        "0",
    ]);
    assert_eq!(raw["best_move"], g.format_move(&state, legal[best]));
    let value = raw["value"].as_f64().unwrap();
    assert!((value - f64::from(estimate.value)).abs() < 1e-5, "{raw}");
}

/// PUCT's errors, in the command line's words.
#[test]
fn puct_refuses_what_it_cannot_do() {
    let err = fails(&["solve", "chess", "--algo", "puct"]);
    assert!(err.contains("chess has no network"), "{err}");
    let err = fails(&["solve", "tictactoe", "--algo", "puct", "--depth", "3"]);
    assert!(err.contains("--depth does not apply to PUCT"), "{err}");
    let err = fails(&["solve", "tictactoe", "--algo", "mcts", "--simulations", "5"]);
    assert!(
        err.contains("--simulations does not apply to MCTS"),
        "{err}"
    );
    let err = fails(&["solve", "tictactoe", "--simulations", "5"]);
    assert!(err.contains("--simulations belongs to PUCT"), "{err}");
    // The built-in network reads a 3x3 board, not a 4x4 one.
    let err = fails(&[
        "solve",
        "tictactoe",
        "--param",
        "m=4",
        "--param",
        "n=4",
        "--algo",
        "puct",
    ]);
    assert!(err.contains("2x3x3 planes"), "{err}");
    let err = fails(&[
        "solve",
        "tictactoe",
        "--algo",
        "puct",
        "--net",
        "/no/such/file",
    ]);
    assert!(err.contains("--net: cannot read /no/such/file"), "{err}");
    // A network of another game (a small board, which is not graded).
    let c4 = temp("c4.safetensors");
    let o = ply()
        .args([
            "learn", "connect4", "--param", "width=4", "--param", "height=4",
        ])
        .args(["--games", "1", "--generations", "1"])
        .args(["--simulations", "2", "--steps", "1", "--match-games", "0"])
        .args(["--channels", "2", "--blocks", "0", "--quiet", "--out"])
        .arg(&c4)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = fails(&[
        "solve",
        "tictactoe",
        "--algo",
        "puct",
        "--net",
        c4.to_str().unwrap(),
    ]);
    assert!(
        err.contains("a network for connect4, not tictactoe"),
        "{err}"
    );
}

/// `trace --algo puct` over the built-in tic-tac-toe network, checked
/// against the network read here through ply-learn and against ply-core's
/// search run directly: with no simulation the root's priors are the
/// network's; the first simulation follows the highest prior (N = 0, so
/// U = c·P) to a leaf whose priors and value are the network's there; and
/// after 20 the root's visits are those of the search one at a time.
#[test]
fn trace_tells_a_puct_simulation() {
    use ply_core::search::puct::{Evaluator, Leaf, Puct, PuctOptions};
    use ply_core::{Game, Notation};
    let position = ".OX..X..O";
    let g = ply_games::tictactoe::TicTacToe::classic();
    let state = g.parse_position(position).unwrap();
    let net = ply_learn::Network::from_bytes(ply_learn::builtin("tictactoe").unwrap()).unwrap();
    let estimate = |s: &<ply_games::tictactoe::TicTacToe as Game>::State| {
        let mut legal = Vec::new();
        g.legal_moves(s, &mut legal);
        let leaf = Leaf {
            state: s,
            moves: &legal,
        };
        let e = ply_learn::NetEvaluator::new(&net)
            .evaluate(&g, &[leaf])
            .remove(0);
        let names: Vec<String> = legal.iter().map(|&m| g.format_move(s, m)).collect();
        (names, e)
    };
    let trace = |n: &str| {
        report(&[
            "trace",
            "tictactoe",
            "--position",
            position,
            "--algo",
            "puct",
            "--simulations",
            n,
        ])
    };
    let close = |a: &serde_json::Value, b: f32| (a.as_f64().unwrap() - f64::from(b)).abs() < 1e-5;

    let (names, root) = estimate(&state);
    let r0 = trace("0");
    assert_eq!(r0["kind"], "puct_trace");
    assert!(r0.get("simulation").is_none());
    assert!(close(&r0["root_value"], root.value), "{r0}");
    for child in r0["tree"]["children"].as_array().unwrap() {
        let i = names.iter().position(|n| *n == child["move"]).unwrap();
        assert!(close(&child["prior"], root.priors[i]), "{child}");
        assert_eq!(child["visits"], 0);
    }

    let r1 = trace("1");
    let sim = &r1["simulation"];
    let step = &sim["selection"][0];
    assert_eq!(step["visits"], 0);
    let best = (0..names.len())
        .max_by(|&a, &b| root.priors[a].total_cmp(&root.priors[b]))
        .unwrap();
    assert_eq!(step["chosen"], names[best].as_str());
    for ch in step["children"].as_array().unwrap() {
        assert!((ch["u"].as_f64().unwrap() - 1.5 * ch["prior"].as_f64().unwrap()).abs() < 2e-6);
    }
    let leaf = g.play(&state, g.parse_move(&state, &names[best]).unwrap());
    assert_eq!(sim["position"], g.format_position(&leaf));
    let (leaf_names, there) = estimate(&leaf);
    for (p, name) in sim["priors"].as_array().unwrap().iter().zip(&leaf_names) {
        assert_eq!(p["move"], name.as_str());
        assert!(close(
            &p["prior"],
            there.priors[leaf_names.iter().position(|n| n == name).unwrap()]
        ));
    }
    assert!(close(&sim["value"], there.value), "{sim}");
    // X moved into the leaf, so O is to move there: MAX's value is the
    // opposite.
    assert!(close(&sim["value_for_max"], -there.value), "{sim}");

    let r20 = trace("20");
    let options = PuctOptions {
        simulations: 20,
        ..PuctOptions::default()
    };
    let direct = Puct::new(&g, &state, options).run(&g, &mut ply_learn::NetEvaluator::new(&net));
    for m in &direct.moves {
        let name = g.format_move(&state, m.mv);
        let got = r20["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["move"] == name.as_str())
            .unwrap();
        assert_eq!(got["visits"], m.visits, "{name}: {r20}");
    }
    assert_eq!(r20["tree"]["visits"], 20);
}

/// A PUCT trace's errors, in the command line's words.
#[test]
fn a_puct_trace_refuses_what_it_cannot_do() {
    let err = fails(&["trace", "tictactoe", "--algo", "mcts", "--simulations", "5"]);
    assert!(
        err.contains("--simulations applies to a PUCT trace (--algo puct)"),
        "{err}"
    );
    let err = fails(&["trace", "tictactoe", "--algo", "puct", "--iterations", "5"]);
    assert!(
        err.contains("--iterations does not apply to a PUCT trace"),
        "{err}"
    );
    let err = fails(&["trace", "tictactoe", "--net", "x.safetensors"]);
    assert!(err.contains("--net applies to a PUCT trace"), "{err}");
    let err = fails(&["trace", "chess", "--algo", "puct"]);
    assert!(err.contains("chess has no network"), "{err}");
    let err = fails(&[
        "trace",
        "tictactoe",
        "--algo",
        "puct",
        "--simulations",
        "20001",
    ]);
    assert!(
        err.contains("--simulations 20001 must be from 0 to 20000"),
        "{err}"
    );
}

"""The built-in games through Python: exactly what `ply ... --json` prints."""

import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import plysearch as ply

ROOT = Path(__file__).resolve().parents[3]
PLY = Path(os.environ.get("PLY_BIN", ROOT / "target" / "release" / "ply"))


def cli(*args):
    assert PLY.exists(), f"{PLY} is missing: cargo build --release -p ply-cli (or set PLY_BIN)"
    out = subprocess.run([str(PLY), *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def untimed(report):
    stats = report.get("stats")
    if isinstance(stats, dict):
        for k in ("time_ms", "nodes_per_second", "simulations_per_second"):
            stats.pop(k, None)
    return report


CASES = [
    (("tictactoe",), dict(position="XO.X..O..", algo="alphabeta")),
    (("tictactoe",), dict(algo="minimax", params={"m": 3, "n": 3, "k": 3})),
    (("coins",), dict(position="12", params={"take": "1,3,4"}, algo="alphabeta")),
    (("connect4",), dict(position="4453", algo="id", depth=6)),
    (("chess",), dict(algo="id", depth=4)),
    (("pig",), dict(position="35-20+3", params={"target": 40}, depth=4)),
    (("grundy",), dict(position="9", algo="nimber")),
    (("coinrow",), dict(algo="minimax")),
    (("coinrow",), dict(position="5 8 +25/min", algo="alphabeta")),
    (("primes",), dict(position="12 18", algo="alphabeta")),
    (("hackenbush",), dict(position="(()(()))", algo="nimber")),
    (("coloring",), dict(position="4:1-2,2-3,3-4", algo="alphabeta")),
    (("divisor",), dict(position="12/min", algo="minimax")),
    (("tree",), dict(position="((3 12 8) (2 4 6) (14 5 2))", algo="alphabeta")),
    (("tictactoe",), dict(position="X../.O./...", params={"m": 3, "n": 3, "k": 3}, algo="id", depth=3)),
    (("chess",), dict(position="startpos moves e2e4 e7e5", algo="alphabeta", depth=3)),
    (("gomoku",), dict(position="h8 i9 h9", algo="id", depth=3)),
    (("gomoku",), dict(position="h8 i9", params={"size": 9, "rule": "standard"}, algo="id", depth=2)),
    (("connect4",), dict(position="4453", algo="puct", simulations=200, seed=3)),
]


def test_gomoku_vcf_is_the_clis_json():
    position = "e8 d8 f8 h4 g8 a1 h5 c1 h6 e1 h7 o15"
    got = ply.solve("gomoku", position, vcf=True)
    want = cli("solve", "gomoku", "-p", position, "--vcf")
    for report in (got, want):
        report.pop("time_ms")
    assert got == want
    assert got["complete"] and got["vcf"][0] == "h8" and len(got["vcf"]) == 3


def flags(kw):
    out = []
    for k, v in kw.items():
        if k == "params":
            for pk, pv in v.items():
                out += ["--param", f"{pk}={pv}"]
        else:
            out += [f"--{k.replace('_', '-')}", str(v)]
    return out


@pytest.mark.parametrize("args,kw", CASES, ids=[f"{a[0]}-{i}" for i, (a, _) in enumerate(CASES)])
def test_solve_is_the_clis_json(args, kw):
    assert untimed(ply.solve(*args, **kw)) == untimed(cli("solve", *args, *flags(kw), "-q"))


def test_the_other_commands_are_the_clis_json():
    assert ply.games() == cli("list")
    assert {g["name"] for g in ply.games()["games"] if g["network"]} == {"tictactoe", "connect4"}
    assert untimed(ply.analyze("tictactoe", "XO.X..O..", algo="minimax")) == untimed(cli("analyze", "tictactoe", "-p", "XO.X..O..", "--algo", "minimax"))
    assert ply.count("tictactoe") == cli("count", "tictactoe")
    assert ply.count("tictactoe")["positions"] == 5478
    assert ply.perft("chess", depth=3)["nodes"] == 8902
    assert ply.perft("tictactoe", depth=2, divide=True)["divide"] == cli("perft", "tictactoe", "--depth", "2", "--divide")["divide"]
    assert ply.show("connect4", moves=[4, 4]) == cli("show", "connect4", "-m", "4,4")
    # The same trace, the JSON's "-inf"/"+inf" (JSON has no infinity) as Python's floats.
    numbers = {"-inf": -math.inf, "+inf": math.inf}
    expected = cli("trace", "((3 5 7) (2 9 1))")
    for step in expected["steps"]:
        step.update({k: numbers[v] for k, v in step.items() if isinstance(v, str) and v in numbers})
    assert ply.trace("((3 5 7) (2 9 1))") == expected
    compared = ply.compare("tictactoe", "XO.X..O..")
    assert compared["agree"] and {r["value"] for r in compared["searches"]} == {1}


@pytest.mark.parametrize("call,message", [
    (lambda: ply.solve("nope"), "unknown game 'nope'"),
    (lambda: ply.solve("tictactoe", "XXXX"), "invalid tictactoe position 'XXXX': expected 9 squares, found 4"),
    (lambda: ply.solve("tictactoe", moves=[4, 4]), "4"),
    (lambda: ply.solve("tictactoe", algo="magic"), "magic"),
    (lambda: ply.solve("tictactoe", params={"k": 99}), "k"),
    (lambda: ply.solve("pig", algo="alphabeta"), "chance"),
    (lambda: ply.solve("chess", algo="puct"), "chess has no network"),
    (lambda: ply.solve("tictactoe", algo="puct", depth=3), "depth= does not apply to PUCT (it takes simulations=, net=, c= and seed=)"),
    (lambda: ply.solve("tictactoe", algo="mcts", simulations=5), "simulations"),
    (lambda: ply.solve("tictactoe", algo="puct", net="no-such.safetensors"), "no-such.safetensors"),
    (lambda: ply.trace("((3 5 7) (2 9"), "column 14: unexpected end of tree"),
])
def test_errors_are_value_errors_with_the_clis_message(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_ctrl_c_stops_a_long_builtin_search():
    # Solving Connect Four from the empty board takes minutes.
    timer = interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        ply.solve("connect4", algo="score")
    timer.join()
    # The search stopped; the next one runs at once.
    assert ply.solve("tictactoe", "XO.X..O..")["value"] == 1
    assert time.monotonic() - start < 60


def test_ctrl_c_stops_a_long_python_game_search():
    from lesson_games import TicTacToe

    class Big(TicTacToe):
        """Tic-tac-toe without wins: minimax walks all 986,410 move sequences, slowly."""
        def terminal(self, state):
            return all(cell is not None for row in state for cell in row)

        def utility(self, state):
            return 0

    timer = interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        for _ in range(20):
            ply.solve(Big(), algo="minimax")
    timer.join()


@pytest.mark.parametrize("call,message", [
    (lambda: ply.solve("tictactoe", algo="minimax", time_ms=100), "time_ms= applies to id, mcts and the engine"),
    (lambda: ply.solve("tictactoe", algo="mcts", depth=3), "MCTS plays every line to the end: depth= does not apply"),
    (lambda: ply.solve("tictactoe", algo="mcts", order=True), "order= does not apply to MCTS"),
    (lambda: ply.solve("tictactoe", algo="minimax", iterations=3), "iterations= belongs to MCTS (algo=mcts): minimax"),
    (lambda: ply.solve("tictactoe", c=1.0), "c= belongs to MCTS"),
    (lambda: ply.solve("tictactoe", tt_mb=10**9), "tt_mb=1000000000: a table of 1000000000 MiB is more than"),
    (lambda: ply.solve("pig", algo="alphabeta"), "pig has chance nodes here: use algo=expectiminimax"),
    (lambda: ply.solve("connect4", algo="score", depth=3), "the score search solves exactly: depth= does not apply"),
    (lambda: ply.solve("tictactoe", moves=["4", "4"]), "in moves=, move 2 ('4'): "),
    (lambda: ply.solve("tictactoe", depth=200_000), "depth=200000 is deeper than any search goes"),
    (lambda: ply.solve("tictactoe", weak=True, algo="alphabeta"), "weak= applies to the score search (algo=score)"),
    (lambda: ply.count("tictactoe", max_positions=10), "the count stops at its cap (max_positions="),
    (lambda: ply.trace("[0.5 3 0.5 4]", algo="alphabeta"), "trace it with algo=expectiminimax"),
    (lambda: ply.perft("chess", depth=-1), "depth=-1 is out of range: 0 to 4,294,967,295"),
])
def test_errors_name_pythons_keywords(call, message):
    # The service's messages name request fields; Python shows them as its
    # keywords (the command line as --flags, the server as 'fields').
    with pytest.raises(ValueError) as raised:
        call()
    assert message in str(raised.value)
    assert "--" not in str(raised.value)


@pytest.mark.parametrize("call,message", [
    (lambda: ply.analyze("tictactoe", algorithm="minimax"), "unexpected keyword argument 'algorithm'"),
    (lambda: ply.solve("tictactoe", depth="3"), "depth= must be a whole number (an int), not str"),
    (lambda: ply.solve("tictactoe", order=1), "order= is True or False, not 1"),
    (lambda: ply.solve("connect4", moves="44"), "moves= must be a list of moves"),
    (lambda: ply.show("coins", params=["n", 3]), "params= must be a dict"),
    (lambda: ply.solve(42), "a game needs initial_state(...)"),
])
def test_a_wrong_type_is_a_type_error_naming_the_keyword(call, message):
    with pytest.raises(TypeError) as raised:
        call()
    assert message in str(raised.value)


def test_mcts_with_a_time_limit_alone_runs_until_the_time_is_up():
    # Without iterations=, time_ms= is the budget (the 10,000-iteration
    # default would end this in about 10 ms: 300 ms is 30 times that).
    r = ply.solve("tictactoe", algo="mcts", time_ms=300)
    assert r["stats"]["iterations"] > 10_000
    assert "300 ms" in r["algo"]
    assert ply.solve("tictactoe", algo="mcts", iterations=500, time_ms=10_000)["stats"]["iterations"] == 500


def test_mcts_values_share_the_reports_scale():
    # value is MAX's, -1..1; each move's mean is the mover's win rate,
    # 0..1, and its value the same on the report's scale.
    for position in (".........", "X........"):
        r = ply.solve("tictactoe", position, algo="mcts", iterations=2_000)
        best = r["moves"][0]
        assert best["move"] == r["best_move"]
        assert best["value"] == pytest.approx(r["value"], abs=1e-6)
        sign = 1 if r["to_move"] == "MAX" else -1
        for m in r["moves"]:
            assert 0 <= m["mean"] <= 1
            assert m["value"] == pytest.approx(sign * (2 * m["mean"] - 1), abs=1e-5)


def test_trace_bounds_are_numbers():
    t = ply.trace("((3 12 8) (2 4 6) (14 5 2))")
    first = t["steps"][0]
    assert (first["alpha"], first["beta"]) == (-math.inf, math.inf)
    assert all(isinstance(s[k], (int, float)) for s in t["steps"] for k in ("alpha", "beta", "value"))
    assert t["value"] == 3 and t["pruned"] == ["2.2", "2.3"]


def test_the_algo_type_lists_every_search():
    from typing import get_args
    from plysearch.types import Algo
    assert sorted(get_args(Algo)) == sorted(a["name"] for a in ply.games()["algorithms"])


INTERRUPTED = """
import plysearch as ply, sys
print("started", flush=True)
{call}
print("finished", flush=True)
"""


@pytest.mark.parametrize("call", [
    'ply.count("chess")',              # tens of millions of positions: minutes and gigabytes
    'ply.perft("chess", depth=8)',     # 84,998,978,956 sequences: hours
    'ply.perft("chess", depth=8, divide=True)',
])
def test_ctrl_c_stops_count_and_perft(call):
    # A real SIGINT to a real interpreter, as Ctrl-C in a terminal sends.
    child = subprocess.Popen([sys.executable, "-c", INTERRUPTED.format(call=call)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "started"
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        raise AssertionError(f"{call} went on after Ctrl-C")
    assert "finished" not in out
    assert "KeyboardInterrupt" in err, err


def test_puct_searches_with_the_built_in_network(tmp_path):
    """algo="puct" over tictactoe's built-in network: the analysis has each
    move's prior (a distribution over the legal moves), simulations=0 is
    the network alone (its favourite move is the highest prior), and the
    same network named by net= (a Path) gives the same search."""
    report = ply.analyze("tictactoe", "X...O....", algo="puct", simulations=100)
    priors = [m["prior"] for m in report["moves"]]
    assert len(priors) == 7 and abs(sum(priors) - 1) < 1e-4
    assert sum(m["visits"] for m in report["moves"]) == 100
    raw = ply.solve("tictactoe", "X...O....", algo="puct", simulations=0)
    favourite = max(report["moves"], key=lambda m: m["prior"])["move"]
    assert raw["best_move"] == favourite
    net = ROOT / "nets" / "tictactoe.safetensors"
    again = ply.analyze("tictactoe", "X...O....", algo="puct", simulations=100, net=net)
    assert [(m["move"], m["visits"]) for m in again["moves"]] == [(m["move"], m["visits"]) for m in report["moves"]]
    with pytest.raises(TypeError, match="net= must be a network file's path"):
        ply.solve("tictactoe", algo="puct", net=3)
    with pytest.raises(ValueError, match="simulations=-1 is out of range"):
        ply.solve("tictactoe", algo="puct", simulations=-1)


def test_trace_puct_tells_one_simulation():
    """trace_puct: the network's priors at the root with no simulation; the
    first simulation follows the highest prior (N = 0, so U = c·P, here
    1.5·P) and expands a leaf with priors summing to 1; each step's
    score is Q + U; after 30 simulations the root has 30 visits."""
    none = ply.trace_puct("tictactoe", ".OX..X..O", simulations=0)
    assert "simulation" not in none and none["kind"] == "puct_trace"
    priors = {c["move"]: c["prior"] for c in none["tree"]["children"]}
    first = ply.trace_puct("tictactoe", ".OX..X..O")["simulation"]
    step = first["selection"][0]
    assert step["chosen"] == max(priors, key=priors.get)
    for child in step["children"]:
        assert child["u"] == pytest.approx(1.5 * priors[child["move"]], abs=1e-5)
        assert child["score"] == pytest.approx(child["q"] + child["u"], abs=1e-5)
    assert abs(sum(p["prior"] for p in first["priors"]) - 1) < 1e-4
    assert ply.trace_puct("connect4", moves=["4"], simulations=30)["tree"]["visits"] == 30
    with pytest.raises(ValueError, match="chess has no network"):
        ply.trace_puct("chess")

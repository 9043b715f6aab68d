"""The built-in games through Python: exactly what `ply ... --json` prints."""

import json
import os
import signal
import subprocess
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
    assert untimed(ply.analyze("tictactoe", "XO.X..O..", algo="minimax")) == untimed(cli("analyze", "tictactoe", "-p", "XO.X..O..", "--algo", "minimax"))
    assert ply.count("tictactoe") == cli("count", "tictactoe")
    assert ply.count("tictactoe")["positions"] == 5478
    assert ply.perft("chess", depth=3)["nodes"] == 8902
    assert ply.perft("tictactoe", depth=2, divide=True)["divide"] == cli("perft", "tictactoe", "--depth", "2", "--divide")["divide"]
    assert ply.show("connect4", moves=[4, 4]) == cli("show", "connect4", "-m", "4,4")
    assert ply.trace("((3 5 7) (2 9 1))") == cli("trace", "((3 5 7) (2 9 1))")
    compared = ply.compare("tictactoe", "XO.X..O..")
    assert compared["agree"] and {r["value"] for r in compared["searches"]} == {1}


@pytest.mark.parametrize("call,message", [
    (lambda: ply.solve("nope"), "unknown game 'nope'"),
    (lambda: ply.solve("tictactoe", "XXXX"), "invalid tictactoe position 'XXXX': expected 9 squares, found 4"),
    (lambda: ply.solve("tictactoe", moves=[4, 4]), "4"),
    (lambda: ply.solve("tictactoe", algo="magic"), "magic"),
    (lambda: ply.solve("tictactoe", params={"k": 99}), "k"),
    (lambda: ply.solve("pig", algo="alphabeta"), "chance"),
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

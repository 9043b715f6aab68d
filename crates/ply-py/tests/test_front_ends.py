"""Every request kind through the three front ends (the command line, the
web server and Python) gives the same report: they share one request type,
one dispatch and one set of reports (ply-service). Times are left out, as
they differ from run to run."""

import json
import os
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import plysearch as ply

ROOT = Path(__file__).resolve().parents[3]
PLY = Path(os.environ.get("PLY_BIN", ROOT / "target" / "release" / "ply"))

TIMED = {"time_ms", "nodes_per_second", "simulations_per_second", "micros", "elapsed_ms"}

# (command, request): every command, several searches, a game with
# parameters, moves, a tree written out; the server answers the first five
# commands (count and perft are not served).
REQUESTS = [
    ("solve", {"game": "tictactoe", "algo": "alphabeta"}),
    ("solve", {"game": "coins", "position": "12", "params": {"take": "1,3,4"}, "algo": "nimber"}),
    ("solve", {"game": "pig", "position": "35-20+3", "params": {"target": 40}, "depth": 4}),
    ("solve", {"game": "connect4", "position": "4453", "algo": "id", "depth": 6, "order": True}),
    ("solve", {"game": "tictactoe", "moves": ["4"], "algo": "mcts", "iterations": 500, "seed": 7}),
    ("solve", {"game": "gomoku", "position": "e8 d8 f8 h4 g8 a1 h5 c1 h6 e1 h7 o15", "vcf": True}),
    ("analyze", {"game": "tictactoe", "position": "XO.X..O..", "algo": "minimax"}),
    ("analyze", {"game": "grundy", "position": "9", "algo": "nimber"}),
    ("compare", {"game": "coins", "position": "9"}),
    ("compare", {"game": "tictactoe", "position": "XO.X..O..", "depth": 3, "tt_mb": 1}),
    ("trace", {"tree": "((3 12 8) (2 4 6) (14 5 2))"}),
    ("trace", {"tree": "[0.5 (3 12) 0.5 (2 4)]", "star1": True}),
    ("trace", {"game": "tictactoe", "position": "XOXOXO...", "algo": "minimax"}),
    ("show", {"game": "connect4", "moves": ["4", "4"]}),
    ("show", {"game": "pig", "position": "35-20+3", "params": {"target": 40}}),
    ("count", {"game": "tictactoe"}),
    ("perft", {"game": "chess", "depth": 2, "divide": True}),
]

SERVED = {"solve", "analyze", "compare", "trace", "show"}


def untimed(value):
    """The report without its timings, a trace's "-inf"/"+inf" (JSON has no
    infinity) read as Python reads them, as floats."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in TIMED}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    if value in ("-inf", "+inf"):
        return float(value)
    return value


def argv(command, request):
    """The command line a request stands for."""
    args = [str(PLY), command]
    if "tree" in request:
        args.append(request["tree"])
    else:
        args.append(request["game"])
    for key, value in request.items():
        flag = "--" + key.replace("_", "-")
        if key in ("game", "tree"):
            continue
        if key == "moves":
            args += [flag, ",".join(value)]
        elif key == "params":
            for k, v in value.items():
                args += ["--param", f"{k}={v}"]
        elif value is True:
            args.append(flag)
        else:
            args += [flag, str(value)]
    if command in ("solve", "analyze"):
        args.append("--quiet")
    return args + ["--json"]


def python_call(command, request):
    request = dict(request)
    if command == "trace":
        tree = request.pop("tree", None)
        if tree is not None:
            return ply.trace(tree, **request)
        game = request.pop("game")
        return ply._loads(ply._ply.call("trace", json.dumps({"game": game, **request})))
    game = request.pop("game")
    position = request.pop("position", None)
    return getattr(ply, command)(game, position, **request)


@pytest.fixture(scope="module")
def server():
    assert PLY.exists(), f"{PLY} is missing: cargo build --release -p ply-cli (or set PLY_BIN)"
    proc = subprocess.Popen([str(PLY), "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    address = line.strip().rsplit(" ", 1)[-1]
    yield address
    proc.terminate()
    proc.wait(timeout=10)


def post(address, command, request):
    req = urllib.request.Request(
        f"{address}/api/{command}", data=json.dumps(request).encode(),
        headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=60) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize("command,request_", REQUESTS, ids=[f"{c}-{i}" for i, (c, _) in enumerate(REQUESTS)])
def test_the_same_report_from_every_front_end(server, command, request_):
    out = subprocess.run(argv(command, request_), capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    from_cli = untimed(json.loads(out.stdout))
    from_python = untimed(python_call(command, request_))
    assert from_python == from_cli
    if command in SERVED:
        assert untimed(post(server, command, request_)) == from_cli


def test_the_same_error_from_every_front_end(server):
    request = {"game": "tictactoe", "moves": ["4", "4"]}
    out = subprocess.run(argv("solve", request), capture_output=True, text=True)
    assert out.returncode == 2
    message = out.stderr.strip().removeprefix("error: ")
    assert message.startswith("in --moves, move 2 ('4'): "), message
    # The same message, each front end naming the field in its own words.
    with pytest.raises(ValueError) as raised:
        ply.solve("tictactoe", moves=[4, 4])
    assert str(raised.value) == message.replace("--moves", "moves=")
    with pytest.raises(urllib.error.HTTPError) as refused:
        post(server, "solve", request)
    assert refused.value.code == 400
    assert json.loads(refused.value.read())["error"] == message.replace("--moves", "'moves'")

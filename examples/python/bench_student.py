"""The student's own minimax and alpha-beta (recursive, the CS50 way)
against ply's on the same module, in one run: nodes, CPU seconds (the
process's, so ply's search thread counts) and the ratio.

Beside them, the floor: the module's own function calls that the
textbook search makes (each recorded with its arguments in an untimed
run, then replayed alone in a loop). No caller that makes those calls can
take less; what ply spends above the floor is its own overhead.

    python examples/python/bench_student.py [REPEAT]   (each time the least of REPEAT runs, 3)
"""
import gc
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "crates" / "ply-py" / "tests"))
import cs50_tictactoe as t  # noqa: E402
import plysearch as ply  # noqa: E402

calls = 0
def minimax_value(board):
    global calls
    calls += 1
    if t.terminal(board):
        return t.utility(board)
    values = [minimax_value(t.result(board, a)) for a in t.actions(board)]
    return max(values) if t.player(board) == t.X else min(values)

def alphabeta_value(board, alpha=-math.inf, beta=math.inf):
    global calls
    calls += 1
    if t.terminal(board):
        return t.utility(board)
    if t.player(board) == t.X:
        v = -math.inf
        for a in sorted(t.actions(board)):
            v = max(v, alphabeta_value(t.result(board, a), alpha, beta))
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return v
    v = math.inf
    for a in sorted(t.actions(board)):
        v = min(v, alphabeta_value(t.result(board, a), alpha, beta))
        beta = min(beta, v)
        if alpha >= beta:
            break
    return v

def replay_floor(search):
    """CPU seconds of the module's calls that `search` makes, alone."""
    log = []
    names = ("player", "actions", "result", "terminal", "utility")
    real = {n: getattr(t, n) for n in names}
    inside = [False]  # a call the module makes itself (result asks player) is part of its caller's
    def recorder(f):
        def g(*args):
            if inside[0]:
                return f(*args)
            log.append((f, args))
            inside[0] = True
            try:
                return f(*args)
            finally:
                inside[0] = False
        return g
    for n in names:
        setattr(t, n, recorder(real[n]))
    try:
        search(t.initial_state())
    finally:
        for n in names:
            setattr(t, n, real[n])
    # The log's million objects are frozen out of the collector's sight,
    # so that it scans no more than during a search.
    gc.collect()
    gc.freeze()
    try:
        return best(lambda: replay(log))[1]
    finally:
        gc.unfreeze()

def replay(log):
    for f, args in log:
        f(*args)

def best(f):
    """The result of f() and its least CPU time over REPEAT runs (the
    machine's noise only ever adds time)."""
    times = []
    for _ in range(REPEAT):
        s = time.process_time()
        r = f()
        times.append(time.process_time() - s)
    return r, min(times)

REPEAT = int(sys.argv[1]) if len(sys.argv) > 1 else 3

for name, own, algo in (("minimax", minimax_value, "minimax"), ("alphabeta", alphabeta_value, "alphabeta")):
    calls = 0
    v, mine = best(lambda: own(t.initial_state()))
    n = calls // REPEAT
    r, theirs = best(lambda: ply.solve(t, algo=algo))
    floor = replay_floor(own)
    print(f"{name}: student {v} {n} nodes {mine:.2f} s; ply {r['value']} {r['stats']['nodes']} nodes {theirs:.2f} s; student/ply {mine/theirs:.2f}; the module's calls alone {floor:.2f} s (student/floor {mine/floor:.2f}, ply/floor {theirs/floor:.2f})")
r, s = best(lambda: ply.solve(t, algo="alphabeta", tt_mb=16, order=True))
print(f"alphabeta + table + order: {r['stats']['nodes']} nodes {s:.2f} s")

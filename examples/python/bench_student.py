"""The student's own minimax and alpha-beta (recursive, the CS50 way)
against ply's on the same module, in one run: nodes, CPU seconds (the
process's, so ply's search thread counts) and the ratio.

    python examples/python/bench_student.py
"""
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

def cpu(f):
    s = time.process_time(); r = f(); return r, time.process_time() - s

for name, own, algo in (("minimax", minimax_value, "minimax"), ("alphabeta", alphabeta_value, "alphabeta")):
    calls = 0
    v, mine = cpu(lambda: own(t.initial_state()))
    n = calls
    r, theirs = cpu(lambda: ply.solve(t, algo=algo))
    print(f"{name}: student {v} {n} nodes {mine:.2f} s; ply {r['value']} {r['stats']['nodes']} nodes {theirs:.2f} s; student/ply {mine/theirs:.2f}")
r, s = cpu(lambda: ply.solve(t, algo="alphabeta", tt_mb=16, order=True))
print(f"alphabeta + table + order: {r['stats']['nodes']} nodes {s:.2f} s")

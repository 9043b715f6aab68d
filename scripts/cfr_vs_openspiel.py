#!/usr/bin/env python3
"""ply's CFR beside OpenSpiel's, on Kuhn and Leduc poker, in one run.

For each game and each of CFR and CFR+, both run the same iterations on
this machine: OpenSpiel's C++ solvers through pyspiel
(``pyspiel.CFRSolver``, ``pyspiel.CFRPlusSolver``), ply's through the
``plysearch`` package. At each checkpoint the table gives the NashConv of
each average strategy, both measured by OpenSpiel's ``nash_conv`` (ply's
strategy is handed to OpenSpiel as a tabular policy, information set by
information set), and the seconds each took to get there (OpenSpiel's
timed around its iterations alone, one run; ply's as its report says:
building the tree and the iterations, the least of three runs).

    pip install open_spiel ./crates/ply-py   # or scripts/test.sh's venv
    python scripts/cfr_vs_openspiel.py            # the README's table
    python scripts/cfr_vs_openspiel.py --pin      # the test's constants

Nothing of OpenSpiel is linked into ply: it is the reference measured
against.
"""

import argparse
import time

import plysearch as ply
import pyspiel

KUHN_CARDS = ["J", "Q", "K"]
LEDUC_CARDS = ["Js", "Jh", "Qs", "Qh", "Ks", "Kh"]


def ply_infoset(game_name, history):
    """ply's name for the information set after OpenSpiel's `history` (its
    action numbers): the mover's card, ``:``, the actions as letters, and
    in Leduc ``/``, the public card, ``:`` and the second round's."""
    if game_name == "kuhn":
        cards, actions = history[:2], history[2:]
        mover = len(actions) % 2
        return KUHN_CARDS[cards[mover]] + ":" + "".join("pb"[a] for a in actions)
    cards, rounds, public = history[:2], [[]], None
    rest = history[2:]
    i = 0
    while i < len(rest):
        a = rest[i]
        done = len(rounds[-1]) >= 2 and rounds[-1][-1] == 1
        if done and public is None:
            public = a
            rounds.append([])
        else:
            rounds[-1].append(a)
        i += 1
    mover = len(rounds[-1]) % 2
    text = LEDUC_CARDS[cards[mover]] + ":" + "".join("fcr"[a] for a in rounds[0])
    if public is not None:
        text += "/" + LEDUC_CARDS[public] + ":" + "".join("fcr"[a] for a in rounds[1])
    return text


def openspiel_policy(game_name, game, strategy):
    """ply's strategy (``{set: {move: probability}}``) as the policy
    ``pyspiel.nash_conv`` takes: OpenSpiel's information state string to
    ``[(action, probability), ...]``, state by state."""
    letters = "pb" if game_name == "kuhn" else "fcr"
    policy = {}

    def walk(state):
        if state.is_terminal():
            return
        if not state.is_chance_node():
            moves = strategy[ply_infoset(game_name, state.history())]
            policy[state.information_state_string()] = [(a, moves[letters[a]]) for a in state.legal_actions()]
        for a in state.legal_actions():
            walk(state.child(a))

    walk(game.new_initial_state())
    return policy


OPENSPIEL_NAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}
SOLVERS = {"cfr": pyspiel.CFRSolver, "cfr+": pyspiel.CFRPlusSolver}


def openspiel_run(game, algo, checkpoints):
    """NashConv and seconds at each checkpoint of OpenSpiel's solver."""
    solver = SOLVERS[algo](game)
    seconds, out, done = 0.0, [], 0
    for n in checkpoints:
        start = time.perf_counter()
        for _ in range(n - done):
            solver.evaluate_and_update_policy()
        seconds += time.perf_counter() - start
        done = n
        out.append((pyspiel.nash_conv(game, solver.average_policy()), seconds))
    return out


def ply_run(game_name, game, algo, checkpoints):
    """NashConv (by OpenSpiel, and by ply) and seconds at each checkpoint."""
    out = []
    for n in checkpoints:
        # The least of three runs: a sub-millisecond run is otherwise the
        # machine's noise (the first call pays for cold caches).
        runs = [ply.solve(game_name, algo=algo, iterations=n) for _ in range(3)]
        r = runs[0]
        theirs = pyspiel.nash_conv(game, openspiel_policy(game_name, game, r["strategy"]))
        out.append((theirs, r["nash_conv"], min(x["time_ms"] for x in runs) / 1e3))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pin", action="store_true", help="print OpenSpiel's Leduc NashConv at the test's checkpoints")
    args = parser.parse_args()
    if args.pin:
        game = pyspiel.load_game("leduc_poker")
        points = [1, 2, 3, 5, 10, 50, 100, 200, 1000]
        for algo in SOLVERS:
            print(algo, [repr(v) for v, _ in openspiel_run(game, algo, points)])
        return
    print(f"open_spiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}".strip())
    print("| game | algo | iterations | NashConv, OpenSpiel | NashConv, ply | OpenSpiel s | ply s | ply faster |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    plan = {"kuhn": [10, 100, 1000, 10000], "leduc": [10, 100, 1000]}
    for game_name, points in plan.items():
        game = pyspiel.load_game(OPENSPIEL_NAMES[game_name])
        for algo in SOLVERS:
            theirs = openspiel_run(game, algo, points)
            ours = ply_run(game_name, game, algo, points)
            for n, (tv, ts), (ov, own, os_) in zip(points, theirs, ours):
                # ply reports its strategy to nine decimals: NashConv agrees to 1e-7.
                assert abs(ov - own) <= 1e-7, (game_name, algo, n, ov, own)
                print(f"| {game_name} | {algo} | {n:,} | {tv:.3e} | {ov:.3e} | {ts:.4f} | {os_:.4f} | {ts / max(os_, 1e-9):.1f}× |")


if __name__ == "__main__":
    main()

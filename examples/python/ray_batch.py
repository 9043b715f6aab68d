"""Solve a batch file of positions over Ray: the lines `ply solve GAME --batch FILE` prints.

    python examples/python/ray_batch.py testdata/connect4/Test_L2_R1 --game connect4
    python examples/python/ray_batch.py FILE --game connect4 --address ray://head:10001

The file is split into chunks, each solved by a Ray task calling
`ply.solve(game, moves, algo="score")` (the exact score search, in Rust,
without the GIL); the driver writes, in the file's order, one line a
position, `moves score nodes microseconds` (the score from the side to
move's view), then the summary, as the batch command does. Without
`--address` it starts a local Ray on this machine (`--workers` CPUs); with
one it joins that cluster, whose workers need ply installed. Bad lines and
mismatches with the expected scores go to stderr and make the exit status
non-zero, as with the batch command. Progress (chunks done) goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import List, Optional, Tuple

import plysearch as ply

# (line number, moves, expected score or None)
Position = Tuple[int, str, Optional[int]]
# (moves, score, nodes, microseconds)
Solved = Tuple[str, int, int, float]


def read_batch(text: str, path: str = "FILE") -> Tuple[List[Position], List[str]]:
    """The positions of a batch file, and its bad lines' messages (as the batch command reads it)."""
    positions, bad = [], []
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) > 2:
            bad.append(f"error: {path}: line {number}: unexpected '{parts[2]}' after the score")
            continue
        expected = None
        if len(parts) == 2:
            try:
                expected = int(parts[1])
            except ValueError:
                bad.append(f"error: {path}: line {number}: expected score '{parts[1]}' is not an integer")
                continue
        positions.append((number, parts[0], expected))
    return positions, bad


def solve_chunk(game: str, chunk: List[Position]) -> List[Tuple[int, object]]:
    """Each position's (moves, score, nodes, microseconds), or the message of why it is a bad line."""
    out = []
    for number, moves, _ in chunk:
        try:
            if ply.show(game, moves)["terminal"]:
                out.append((number, f"the game is already over in '{moves}'"))
                continue
            r = ply.solve(game, moves, algo="score")
        except ValueError as e:
            out.append((number, str(e)))
            continue
        out.append((number, (moves, r["score"], r["stats"]["nodes"], r["stats"]["time_ms"] * 1e3)))
    return out


def chunks(positions: List[Position], size: int) -> List[List[Position]]:
    return [positions[i:i + size] for i in range(0, len(positions), size)]


def solve_with_ray(game: str, positions: List[Position], size: int, address: Optional[str], workers: Optional[int]):
    """Every chunk as a Ray task; results in the file's order."""
    import ray

    start = time.monotonic()
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    print(f"ray ready in {time.monotonic() - start:.2f} s", file=sys.stderr)
    # Ship this module's functions by value: the workers need only ply.
    ray.cloudpickle.register_pickle_by_value(sys.modules[solve_chunk.__module__])
    task = ray.remote(solve_chunk)
    parts = chunks(positions, size)
    pending = [task.remote(game, c) for c in parts]
    results, done = {}, 0
    remaining = list(pending)
    while remaining:
        ready, remaining = ray.wait(remaining, num_returns=1)
        done += 1
        print(f"\rchunks solved: {done}/{len(parts)}", end="", file=sys.stderr, flush=True)
        for number, answer in ray.get(ready[0]):
            results[number] = answer
    print(file=sys.stderr)
    return [results[n] for n, _, _ in positions]


def report(path: str, positions: List[Position], answers, bad: List[str], out=sys.stdout) -> int:
    """Writes the batch command's lines; returns its exit status."""
    for message in bad:
        print(message, file=sys.stderr)
    solved = mismatches = 0
    total_nodes = total_us = 0.0
    bad_lines = len(bad)
    for (number, moves, expected), answer in zip(positions, answers):
        if isinstance(answer, str):
            print(f"error: {path}: line {number}: {answer}", file=sys.stderr)
            bad_lines += 1
            continue
        moves, score, nodes, micros = answer
        print(f"{moves} {score} {nodes} {micros:.0f}", file=out)
        solved += 1
        total_nodes += nodes
        total_us += micros
        if expected is not None and expected != score:
            mismatches += 1
            print(f"mismatch: line {number}: {moves}: expected {expected}, got {score}", file=sys.stderr)
    n = max(solved, 1)
    print(f"positions {solved}, mean time {total_us / n:.1f} us, mean nodes {total_nodes / n:.1f}, "
          f"mismatches {mismatches}, bad lines {bad_lines}", file=out)
    return 1 if mismatches or bad_lines else 0


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("file", help="a batch file: 'moves [expected]' a line")
    p.add_argument("--game", default="connect4")
    p.add_argument("--address", help="a Ray cluster to join (default: start one here)")
    p.add_argument("--workers", type=int, help="CPUs of the local Ray (default: all)")
    p.add_argument("--chunk", type=int, default=10, help="positions a task (default 10)")
    p.add_argument("--limit", type=int, help="only the first N positions")
    a = p.parse_args(argv)
    if a.chunk < 1 or (a.workers is not None and a.workers < 1):
        p.error("--chunk and --workers must be at least 1")
    try:
        text = open(a.file).read()
    except OSError as e:
        print(f"error: cannot read {a.file}: {e}", file=sys.stderr)
        return 2
    positions, bad = read_batch(text, a.file)
    positions = positions[:a.limit] if a.limit else positions
    start = time.monotonic()
    answers = solve_with_ray(a.game, positions, a.chunk, a.address, a.workers)
    print(f"wall time {time.monotonic() - start:.2f} s (Ray's start included)", file=sys.stderr)
    return report(a.file, positions, answers, bad)


if __name__ == "__main__":
    sys.exit(main())

"""Solve a batch of Connect Four positions, sharded over Ray.

Each shard is a Ray task that solves its positions with ply's exact score
search (the search itself runs in Rust, without the GIL); the driver
gathers the scores, reports each shard as it finishes (on stderr), and
checks them against the expected scores in the file.

    python examples/ray_batch.py ../../testdata/connect4/Test_L3_R1 --shards 4 --limit 200
    python examples/ray_batch.py FILE --local      # the same work without Ray, for comparison

A line of the batch file is `moves [expected score]`, the score from the
side to move's view (as `ply solve connect4 --batch` reads it).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import List, Optional, Tuple

import ply

Line = Tuple[str, Optional[int]]


def read_batch(path: str, limit: Optional[int] = None) -> List[Line]:
    """The positions of a batch file, with their expected scores."""
    out: List[Line] = []
    with open(path) as f:
        for number, text in enumerate(f, 1):
            parts = text.split()
            if not parts or parts[0].startswith("#"):
                continue
            if len(parts) > 2:
                raise ValueError(f"{path}: line {number}: expected 'moves [score]', got {text.strip()!r}")
            expected = int(parts[1]) if len(parts) == 2 else None
            out.append((parts[0], expected))
            if limit is not None and len(out) >= limit:
                break
    return out


def solve_shard(lines: List[Line]) -> List[Tuple[str, int, int]]:
    """Each position's exact score (side to move's view) and the nodes it took."""
    results = []
    for moves, _ in lines:
        r = ply.solve("connect4", moves, algo="score")
        results.append((moves, r["score"], r["stats"]["nodes"]))
    return results


def shards(lines: List[Line], n: int) -> List[List[Line]]:
    """`n` shards of nearly equal size, in order."""
    size, extra = divmod(len(lines), n)
    out, start = [], 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        out.append(lines[start:end])
        start = end
    return [s for s in out if s]


def solve_with_ray(lines: List[Line], n: int, num_cpus: Optional[int] = None) -> List[Tuple[str, int, int]]:
    """The batch solved by `n` Ray tasks; results in the batch's order."""
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    # Ship this module's functions by value: the workers need not find
    # this file on their path, only ply installed.
    ray.cloudpickle.register_pickle_by_value(sys.modules[solve_shard.__module__])
    task = ray.remote(solve_shard)
    pending = {task.remote(shard): i for i, shard in enumerate(shards(lines, n))}
    done_by_shard = {}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        i = pending.pop(ready[0])
        done_by_shard[i] = ray.get(ready[0])
        print(f"shard {i + 1} done ({len(done_by_shard)} of {len(done_by_shard) + len(pending)})", file=sys.stderr)
    return [r for i in sorted(done_by_shard) for r in done_by_shard[i]]


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("batch", help="a batch file: 'moves [expected]' a line")
    p.add_argument("--shards", type=int, default=4, help="Ray tasks (default 4)")
    p.add_argument("--limit", type=int, help="only the first N positions")
    p.add_argument("--local", action="store_true", help="solve in this process, without Ray")
    a = p.parse_args(argv)
    if a.shards < 1:
        p.error("--shards must be at least 1")
    lines = read_batch(a.batch, a.limit)
    start = time.monotonic()
    results = solve_shard(lines) if a.local else solve_with_ray(lines, a.shards)
    elapsed = time.monotonic() - start
    mismatches = [(m, e, s) for (m, e), (_, s, _) in zip(lines, results) if e is not None and e != s]
    for moves, expected, got in mismatches[:10]:
        print(f"mismatch: {moves}: expected {expected}, got {got}", file=sys.stderr)
    nodes = sum(n for _, _, n in results)
    print(f"positions {len(results)}  mismatches {len(mismatches)}  nodes {nodes:,}  {elapsed:.2f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())

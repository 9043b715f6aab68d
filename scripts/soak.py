#!/usr/bin/env python3
"""Soak `ply uci`: long series of fast games through ../shared/tools/match.py,
one `ply uci` process per side for the whole series (match.py keeps its
engines and sends ucinewgame between games), and per series one line:

SOAK series=NAME games=N illegal=N crashes=N time_losses=N overrun_max_ms=X overrun_p99_ms=X rss_first_mib=X rss_last_mib=X rss_peak_mib=X

The move times are measured next to the engine (scripts/uci_timer.py, a
proxy timing go -> bestmove); the memory is read from /proc every half
second: the resident size shortly after the series starts, at its end, and
the peak (VmHWM), which must stay within the table (Hash) plus a margin.

usage: scripts/soak.py [--games 500] [--movetime 20] [--hash 16] [--elo 1350]
                       [--series self,stockfish] [--stockfish /usr/games/stockfish]
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def rss(pid):
    """(VmRSS, VmHWM) of a process in MiB, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    kb = {k: int(v) for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", text, re.M)}
    return kb.get("VmRSS", 0) / 1024, kb.get("VmHWM", 0) / 1024


class Memory(threading.Thread):
    """Samples the memory of the engines whose timer logs name their pids."""

    def __init__(self, logs):
        super().__init__(daemon=True)
        self.logs, self.samples, self.peak, self.done = logs, [], 0.0, False

    def pids(self):
        out = []
        for log in self.logs:
            if log.exists():
                out += [int(m) for m in re.findall(r"^# pid (\d+)", log.read_text(), re.M)]
        return out

    def run(self):
        while not self.done:
            total = 0.0
            for pid in self.pids():
                got = rss(pid)
                if got:
                    total = max(total, got[0])
                    self.peak = max(self.peak, got[1])
            if total:
                self.samples.append(total)
            time.sleep(0.5)


def overruns(logs):
    values = []
    for log in logs:
        if log.exists():
            for line in log.read_text().splitlines():
                if line and not line.startswith("#"):
                    values.append(float(line.split()[2]))
    values.sort()
    if not values:
        return 0.0, 0.0, 0
    return values[-1], values[min(len(values) - 1, int(len(values) * 0.99))], len(values)


def series(name, engine_b, b_opts, a, out):
    logs = [out / f"{name}-a.times"] + ([out / f"{name}-b.times"] if engine_b is None else [])
    for log in logs:
        log.unlink(missing_ok=True)
    ply = [str(ROOT / "target/release/ply"), "uci"]
    timer = [sys.executable, str(ROOT / "scripts/uci_timer.py")]
    cmd_a = shlex.join(timer + [str(logs[0])] + ply)
    cmd_b = shlex.join(timer + [str(logs[1])] + ply) if engine_b is None else engine_b
    args = [sys.executable, str(SHARED / "tools/match.py"), "--a", cmd_a, "--a-name", "ply",
            "--a-opt", f"Hash={a.hash}", "--b", cmd_b, "--b-name", name, "--games", str(a.games),
            "--movetime", str(a.movetime), "--openings", str(SHARED / "data/chess/openings.epd")]
    args += ["--b-opt", f"Hash={a.hash}"] if engine_b is None else sum((["--b-opt", o] for o in b_opts), [])
    memory = Memory(logs)
    memory.start()
    result = subprocess.run(args, capture_output=True, text=True)
    memory.done = True
    memory.join()
    (out / f"{name}.match.log").write_text(result.stdout + result.stderr)
    line = next((l for l in reversed(result.stdout.splitlines()) if l.startswith("RESULT")), None)
    if line is None:
        print(f"error: match.py gave no RESULT line; see {out / (name + '.match.log')}", file=sys.stderr)
        return 1
    field = lambda k: re.search(rf"\b{k}=(\S+)", line).group(1)
    worst, p99, moves = overruns(logs)
    first = memory.samples[min(len(memory.samples) - 1, 10)] if memory.samples else 0.0
    last = memory.samples[-1] if memory.samples else 0.0
    print(f"SOAK series={name} games={field('games')} illegal={field('illegal')} crashes={field('crashes')} "
          f"time_losses={field('time_losses')} moves_timed={moves} overrun_max_ms={worst:.1f} overrun_p99_ms={p99:.1f} "
          f"rss_first_mib={first:.1f} rss_last_mib={last:.1f} rss_peak_mib={memory.peak:.1f}")
    print(f"  {line}")
    bad = int(field("illegal")) + int(field("crashes")) + int(field("time_losses"))
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--movetime", type=int, default=20)
    p.add_argument("--hash", type=int, default=16, help="ply's table, MiB")
    p.add_argument("--elo", type=int, default=1350, help="Stockfish's UCI_Elo (1350 is the lowest of Debian's Stockfish 15.1)")
    p.add_argument("--series", default="self,stockfish")
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    a = p.parse_args()
    out = ROOT / "target/soak"
    out.mkdir(parents=True, exist_ok=True)
    if not (ROOT / "target/release/ply").exists():
        sys.exit("error: build ply first: cargo build --release -p ply-cli")
    failed = 0
    for name in a.series.split(","):
        if name == "self":
            failed |= series("self", None, [], a, out)
        elif name == "stockfish":
            if not os.access(a.stockfish, os.X_OK):
                sys.exit(f"error: no Stockfish at {a.stockfish} (apt-get install stockfish, or --stockfish PATH)")
            opts = ["UCI_LimitStrength=true", f"UCI_Elo={a.elo}"]
            failed |= series("stockfish", a.stockfish, opts, a, out)
        else:
            sys.exit(f"error: unknown series '{name}' (self, stockfish)")
    return failed


if __name__ == "__main__":
    sys.exit(main())

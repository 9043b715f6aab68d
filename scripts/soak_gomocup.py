#!/usr/bin/env python3
"""Soak `ply gomocup`: long series of fast games through
../shared/tools/gomoku_match.py, and per series one line:

SOAK series=NAME games=N illegal=N crashes=N overruns=N max_ms=X rss_peak_mib=X

gomoku_match.py starts each brain afresh for every game (as Gomocup
managers do), so memory is the largest resident size any `ply gomocup`
process reached, sampled from /proc every 0.2 s; it must stay within the
table (the 64 MiB default, or half of INFO max_memory) plus a margin.
Overruns are replies slower than the turn's limit plus 100 ms, counted by
gomoku_match.py; an illegal move or a crash loses the game there.

usage: scripts/soak_gomocup.py [--games 200] [--turn-ms 50]
                               [--series self,greedy,figrid]
"""

import argparse
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT.parent / "shared" / "tools"
PLY = ROOT / "target" / "release" / "ply"


class Memory(threading.Thread):
    """The peak resident size (VmHWM) of every `ply gomocup` process seen."""

    def __init__(self):
        super().__init__(daemon=True)
        self.peak, self.done = 0.0, False

    def run(self):
        while not self.done:
            for status in Path("/proc").glob("[0-9]*/status"):
                try:
                    cmd = (status.parent / "cmdline").read_bytes()
                    if not cmd.startswith(str(PLY).encode()) or b"gomocup" not in cmd:
                        continue
                    m = re.search(r"^VmHWM:\s+(\d+) kB", status.read_text(), re.M)
                except OSError:
                    continue
                if m:
                    self.peak = max(self.peak, int(m.group(1)) / 1024)
            time.sleep(0.2)


def series(name, opponent, games, turn_ms):
    memory = Memory()
    memory.start()
    cmd = [sys.executable, str(TOOLS / "gomoku_match.py"), "--a", f"{PLY} gomocup",
           "--b", opponent, "--games", str(games), "--turn-ms", str(turn_ms),
           "--opening-stones", "2", "--seed", "3"]
    started = time.time()
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    memory.done = True
    result = next((l for l in out.splitlines() if l.startswith("RESULT")), "")
    fields = dict(re.findall(r"(\w+)=([\d.]+)", result))
    print(f"SOAK series={name} games={fields.get('games', 0)} W={fields.get('W')} D={fields.get('D')} "
          f"L={fields.get('L')} illegal={fields.get('illegal')} crashes={fields.get('crashes')} "
          f"overruns={fields.get('overruns')} max_ms={fields.get('max_ms')} "
          f"rss_peak_mib={memory.peak:.1f} wall_s={time.time() - started:.0f}", flush=True)
    return result != "" and fields.get("illegal") == "0" and fields.get("crashes") == "0"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--turn-ms", type=int, default=50)
    ap.add_argument("--series", default="self,greedy,figrid")
    a = ap.parse_args()
    if not PLY.exists():
        sys.exit(f"{PLY} is missing: run cargo build --release first")
    opponents = {
        "self": f"{PLY} gomocup",
        "greedy": f"{sys.executable} {TOOLS / 'gomoku_greedy_brain.py'}",
        "figrid": str(TOOLS / "bin" / "pbrain-figrid"),
    }
    ok = True
    for name in a.series.split(","):
        ok &= series(name, opponents[name], a.games, a.turn_ms)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

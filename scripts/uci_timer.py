#!/usr/bin/env python3
"""A UCI proxy that times an engine: it passes every line between a match
manager and the engine unchanged, and for each `go movetime T` records how
long the `bestmove` took past T (one line per move appended to LOG: the
movetime, the elapsed ms, the overrun ms). The engine's own process is
measured, not the manager's view of it.

usage: uci_timer.py LOG ENGINE [ARGS...]
"""

import subprocess
import sys
import threading
import time


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    log = open(sys.argv[1], "a", buffering=1)
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    log.write(f"# pid {engine.pid}\n")
    pending = {}

    def from_engine():
        for line in engine.stdout:
            if line.startswith("bestmove") and "start" in pending:
                elapsed = (time.monotonic() - pending.pop("start")) * 1e3
                movetime = pending.pop("movetime", None)
                if movetime is not None:
                    log.write(f"{movetime:.0f} {elapsed:.1f} {elapsed - movetime:.1f}\n")
            sys.stdout.write(line)
            sys.stdout.flush()

    reader = threading.Thread(target=from_engine, daemon=True)
    reader.start()
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["go"]:
            pending.clear()
            if "movetime" in words:
                try:
                    pending["movetime"] = float(words[words.index("movetime") + 1])
                except (IndexError, ValueError):
                    pass
            pending["start"] = time.monotonic()
        try:
            engine.stdin.write(line)
            engine.stdin.flush()
        except BrokenPipeError:
            break
        if words[:1] == ["quit"]:
            break
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    engine.wait()
    reader.join(timeout=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Lists the functions in crates/*/src longer than a limit (default 120 lines).

The style rule is that a function reads as a short sequence of named steps;
this finds the ones that do not. Exit status 1 when any is found. Counts the
lines from `fn` to its closing brace, as rustfmt lays them out.
"""
import pathlib
import re
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 120
root = pathlib.Path(__file__).resolve().parent.parent
fn = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")
long = []
for path in sorted(root.glob("crates/*/src/**/*.rs")):
    lines = path.read_text().split("\n")
    for i, line in enumerate(lines):
        m = fn.match(line)
        if not m or line.rstrip().endswith(";"):
            continue
        indent = m.group(1)
        for j in range(i + 1, len(lines)):
            if lines[j] == indent + "}":
                if j - i + 1 > LIMIT:
                    long.append((j - i + 1, f"{path.relative_to(root)}:{i + 1}", m.group(7)))
                break
for n, where, name in sorted(long, reverse=True):
    print(f"{n:5} lines  {where}  {name}")
if long:
    print(f"{len(long)} function(s) longer than {LIMIT} lines")
    sys.exit(1)
print(f"no function in crates/*/src is longer than {LIMIT} lines")

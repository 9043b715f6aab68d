#!/usr/bin/env bash
# Both libraries on the same network sizes, one after the other on an
# otherwise idle machine: positions/s at inference, samples/s in training.
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --quiet
for size in "64 4" "32 2"; do
  target/release/candle $size
  target/release/burn $size
done

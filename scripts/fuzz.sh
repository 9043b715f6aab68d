#!/usr/bin/env bash
# Runs every fuzz target (fuzz/fuzz_targets/), or the TARGETs named, for
# SECONDS each (default 60) and prints each one's executions and crashes.
# FUZZ_RUNS=N also stops a target after N executions, whichever comes first
# (the long runs: FUZZ_RUNS=10000000 scripts/fuzz.sh 3600). Several copies
# may run side by side on disjoint targets. Needs the nightly toolchain
# and cargo-fuzz:
#   rustup toolchain install nightly --profile minimal && cargo install cargo-fuzz
# New inputs that reach new code go into fuzz/corpus/TARGET; a crash leaves
# its input in fuzz/artifacts/TARGET and makes the script exit non-zero.
# FUZZ_CODEGEN_UNITS (default 1, cargo-fuzz's own default) trades run speed
# for build speed: CI's short runs use 16, which builds the six targets in
# about 9 minutes here instead of 11.5 (both with AddressSanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
shift || true
mkdir -p target/fuzz-logs
# FUZZ_SANITIZER (default address, cargo-fuzz's own default): CI's
# five-second smoke runs use none, which builds faster; the panics, the
# hangs and the answers the targets check are caught either way, and the
# long runs keep AddressSanitizer.
flags=(-O --codegen-units "${FUZZ_CODEGEN_UNITS:-1}" --sanitizer "${FUZZ_SANITIZER:-address}")
cargo +nightly fuzz build "${flags[@]}"
runs=()
if [ -n "${FUZZ_RUNS:-}" ]; then runs=(-runs="$FUZZ_RUNS"); fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then mapfile -t targets < <(cargo +nightly fuzz list); fi
failed=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  log="target/fuzz-logs/$t.log"
  # -close_fd_mask=1: the UCI target's engine prints to stdout. -timeout=60:
  # the slowest honest input is a trace at its 25,000-node cap (1.6 s in a
  # release build, ~30 s under the fuzzer's instrumentation).
  if cargo +nightly fuzz run "${flags[@]}" "$t" "fuzz/corpus/$t" -- \
      -max_total_time="$secs" "${runs[@]}" -timeout=60 -rss_limit_mb=4096 -close_fd_mask=1 \
      -print_final_stats=1 >"$log" 2>&1; then
    status="0 crashes"
  else
    status="CRASH (see $log and fuzz/artifacts/$t)"
    failed=1
  fi
  # -a: a log can hold raw bytes (a crashing input echoed, or NULs when a
  # second run of the target shared the log), and grep would then answer
  # "binary file matches" instead of the count.
  execs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
  printf '%-10s %14s executions  %s\n' "$t" "${execs:-0}" "$status"
done
exit "$failed"

#!/usr/bin/env bash
# Every test of ply, in one command: the Rust suite (unit, integration,
# property and API tests), the Python bindings' tests (pytest on the abi3
# wheel that `pip wheel ./crates/ply-py` builds, installed from its file),
# then the browser tests of `ply serve`'s pages (Playwright's
# playwright-core, pinned in web-tests/package-lock.json, driving Debian's
# chromium headless).
#
# The browser needs /usr/bin/chromium: on Debian, as root, this script
# installs it (apt-get install chromium); elsewhere it says what to do and
# fails. PLY_SKIP_PYTHON=1 and PLY_SKIP_BROWSER=1 skip those parts. Go's
# scoring test needs GNU Go, installed the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target

# GNU Go referees Go's scoring test (crates/ply-games/tests/go_gnugo.rs):
# installed from Debian's package as root, like chromium below;
# elsewhere the test says what to do (PLY_SKIP_GNUGO=1 skips it).
if [ ! -x /usr/games/gnugo ] && ! command -v gnugo >/dev/null \
   && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's gnugo for Go's scoring test"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnugo >/dev/null
fi

# The quick-build profile (Cargo.toml): the release profile's optimisation,
# built in a fraction of its time; the wheel below shares its build.
echo "== Rust tests (cargo test --workspace --profile quick-build)"
cargo test --workspace --profile quick-build 2>&1 | tee target/test.log
ply_bin="$PWD/target/quick-build/ply"
# One closing line for the whole run: the sum over every test binary.
awk '/^test result:/ { p += $4; f += $6 } END { printf "rust tests: %d passed, %d failed\n", p, f }' target/test.log

echo "== Python tests (crates/ply-py: the wheel maturin builds, in a venv, and pytest)"
if [ "${PLY_SKIP_PYTHON:-}" = 1 ]; then
  echo "skipped (PLY_SKIP_PYTHON=1)"
else
  python3 -m venv target/py-venv
  # The abi3 wheel is built once, into target/wheels, and the tests
  # install that file: the wheel a class would be handed.
  rm -f target/wheels/plysearch-*.whl
  target/py-venv/bin/pip wheel --quiet --disable-pip-version-check --no-deps -w target/wheels ./crates/ply-py
  target/py-venv/bin/pip install --quiet --disable-pip-version-check -r crates/ply-py/requirements-test.txt
  target/py-venv/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps target/wheels/plysearch-*.whl
  (cd crates/ply-py && RAY_USAGE_STATS_ENABLED=0 PLY_BIN="$ply_bin" ../../target/py-venv/bin/python -m pytest -q tests ../../examples/python)
fi

if [ "${PLY_SKIP_BROWSER:-}" = 1 ]; then
  echo "== browser tests skipped (PLY_SKIP_BROWSER=1)"
  exit 0
fi

echo "== browser tests (web-tests/, headless chromium)"
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian's chromium for the browser tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "error: the browser tests need Chromium at $chromium: install Debian's package (sudo apt-get install chromium)," >&2
    echo "       or set CHROMIUM to its path, or PLY_SKIP_BROWSER=1 to skip them" >&2
    exit 1
  fi
fi
command -v npm >/dev/null || { echo "error: the browser tests need Node.js and npm" >&2; exit 1; }
# The server under test is the binary the Rust tests just built.
test -x "$ply_bin" || cargo build --profile quick-build -p ply-cli
(cd web-tests && npm ci --no-audit --no-fund --silent && PLY_BIN="$ply_bin" npm test)

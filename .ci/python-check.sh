#!/bin/bash
# The Python package (docs/python.md), installed the way the page says (`pip install ./python`:
# pip builds the engine through maturin) into a venv under target/, with PettingZoo, pytest and
# open_spiel from PyPI; then its tests: PettingZoo's api_test and seed_test on every preset,
# player count and Seven, masks, hidden information, records against Rust's, the OpenSpiel game
# with OpenSpiel's own ISMCTS, the examples and the page itself. Then the package crate's clippy
# and rustfmt (it is its own workspace, outside the root one). Uses the debug `oh7` the tests
# built, for `oh7 replay`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=target/py-oh7
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
pip=("$venv/bin/pip" --disable-pip-version-check -q)
"${pip[@]}" install --upgrade pip
# The extension's release build shares the workspace's target dir.
echo "== pip install ./python[test,spiel]"
CARGO_TARGET_DIR="$root/target" "${pip[@]}" install "./python[test,spiel]"
echo "== pytest python/tests"
# From the repository root: inside python/, the source folder oh7/ would shadow the installed
# package.
OH7_REQUIRE_BIN=1 OH7_BIN="$root/target/debug/oh7" "$venv/bin/pytest" -q -p no:cacheprovider python/tests
echo "== clippy and rustfmt on python/"
(cd python && PYO3_PYTHON="$root/$venv/bin/python" CARGO_TARGET_DIR="$root/target" cargo clippy --all-targets -- -D warnings)
(cd python && cargo fmt --check)

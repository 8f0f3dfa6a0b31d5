#!/usr/bin/env bash
# Plays 10,000 random games for every preset and player count (bga with and without passing,
# and with two decks), then checks that `oh7 replay` accepts every record written.
# Usage: scripts/simulate-all.sh [GAMES]   (needs a release build: cargo build --release)
set -u
B="$(dirname "$0")/../target/release/oh7"
GAMES="${1:-10000}"
DIR="$(mktemp -d)"
fail=0
run() { # name args...
  local name=$1; shift
  local out rep
  if ! out=$("$B" simulate "$@" --bots random --games "$GAMES" --seed 2026 --record "$DIR/$name.jsonl" 2>&1); then
    echo "FAIL simulate $name: $out"; fail=1; return
  fi
  if ! rep=$("$B" replay "$DIR/$name.jsonl" 2>&1); then
    echo "FAIL replay $name: $(echo "$rep" | tail -3)"; fail=1; return
  fi
  echo "$name: $(echo "$rep" | tail -1)"
  rm -f "$DIR/$name.jsonl"
}
for n in 2 3 4; do run en$n --preset en --players $n; done
for n in 2 3 4 5; do run fr$n --preset fr --players $n; done
for n in 3 4 5 6; do run fr-advanced$n --preset fr-advanced --players $n; done
for n in 2 3 4 5 6; do run kod7-$n --preset kod7 --players $n; done
for n in 2 3 4 5 6 7 8 9; do run bga$n --preset bga --players $n; done
for n in 2 3 4 5 6 7 8 9; do run bga-passing$n --preset bga --players $n --passing; done
for n in 2 3 4; do run bga-two-decks$n --preset bga --players $n --decks 2; done
for n in 2 3 4 5 6 7 8; do run seven$n --game seven --players $n; done
rmdir "$DIR" 2>/dev/null
exit $fail

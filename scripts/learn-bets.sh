#!/usr/bin/env bash
# The bid evaluator (issue 56, docs/learning.md "The bid evaluator"), from nothing: bets from
# seeded games of `ismcts` with half the bets explored (a legal bet drawn at random, then played
# for), training, and the held-out figures. Deterministic: the same commands give the same files
# on any machine, with any thread count.
#   scripts/learn-bets.sh [OUT_DIR]    (default: target/learn; the model is OUT_DIR/bet.safetensors,
#   shipped as crates/oh7-bots/models/bet.safetensors)
# About 9 minutes on a 2-core machine (kod7 4 only: SETS="kod7 4 6000" is the default).
set -euo pipefail
out=${1:-target/learn}
oh7=${OH7:-target/release/oh7}
mkdir -p "$out"
[ -x "$oh7" ] || cargo build --release --bin oh7
# preset players games (three rounds a game)
IFS=';' read -ra sets <<< "${SETS:-kod7 4 6000}"
for s in "${sets[@]}"; do
  set -- $s
  f="$out/bets-$1-$2.safetensors"
  [ -s "$f" ] || "$oh7" learn data --bets --explore-bets 0.5 --preset "$1" --players "$2" --games "$3" --rounds 3 \
      --seed 1 --bots ismcts --out "$f"
done
"$oh7" learn train "$out"/bets-*.safetensors --kind bet --hidden 64 --layers 2 --epochs 30 --batch 64 --lr 0.001 \
    --seed 1 --out "$out/bet.safetensors"
"$oh7" learn eval --kind bet --model "$out/bet.safetensors" "$out"/bets-*.safetensors

#!/usr/bin/env bash
# The hand model, the policy prior and the leaf value, from nothing: training data from seeded games of the
# expert (as it was when the shipped models were trained: `ismcts:iterations=4000`; BOTS=expert for today's), held-out games measured against the uniform sampler, training, evaluation
# (docs/learning.md).
# Deterministic: the same commands give the same files on any machine, with any thread count.
#   scripts/learn-hand.sh [OUT_DIR]    (default: target/learn; the models are OUT_DIR/hand.safetensors,
#   OUT_DIR/prior.safetensors and OUT_DIR/value.safetensors)
# About 50 minutes on a 2-core machine (docs/learning.md has the measured times).
set -euo pipefail
out=${1:-target/learn}
oh7=${OH7:-target/release/oh7}
bots=${BOTS:-ismcts:iterations=4000}
mkdir -p "$out"
[ -x "$oh7" ] || cargo build --release --bin oh7
# preset players games: about 150,000 decisions in all, two deals a game.
train_sets=("en 4 300" "kod7 4 300" "bga 5 250" "fr-advanced 5 250" "bga 9 130"
            "en 3 150" "fr 4 150" "kod7 6 100" "bga 4 120" "bga 7 80")
for s in "${train_sets[@]}"; do
  set -- $s
  f="$out/train-$1-$2.safetensors"
  [ -s "$f" ] || "$oh7" learn data --preset "$1" --players "$2" --games "$3" --rounds 2 --seed 1 --bots "$bots" --out "$f"
done
# Held-out games (another seed), with the uniform sampler's cross-entropy measured.
eval_sets=("en 4 16" "kod7 4 16" "fr-advanced 5 12" "bga 5 12" "bga 9 8")
for s in "${eval_sets[@]}"; do
  set -- $s
  f="$out/eval-$1-$2.safetensors"
  [ -s "$f" ] || "$oh7" learn data --preset "$1" --players "$2" --games "$3" --rounds 2 --seed 2 --bots "$bots" --baseline 128 --out "$f"
done
"$oh7" learn train "$out"/train-*.safetensors --epochs "${EPOCHS:-2}" --seed 1 --out "$out/hand.safetensors"
"$oh7" learn train "$out"/train-*.safetensors --kind prior --epochs 3 --seed 1 --out "$out/prior.safetensors"
"$oh7" learn eval "$out"/eval-*.safetensors --model "$out/hand.safetensors"
"$oh7" learn eval --kind prior "$out"/eval-*.safetensors --model "$out/prior.safetensors"
# The leaf value (docs/learning.md, "The leaf value"): every card played of the expert's games,
# each player's features and the tricks it still won; about 22 more minutes on 2 cores.
for s in "kod7 4" "bga 5" "fr-advanced 5" "en 4"; do
  set -- $s
  f="$out/value-$1-$2.safetensors"
  [ -s "$f" ] || "$oh7" learn data --value --preset "$1" --players "$2" --games 300 --rounds 2 --seed 1 --bots "$bots" --out "$f"
done
"$oh7" learn train "$out"/value-*.safetensors --kind value --hidden 32 --layers 2 --epochs 6 --batch 64 --lr 0.003 --seed 1 --out "$out/value.safetensors"
"$oh7" learn eval --kind value --model "$out/value.safetensors" "$out"/value-*.safetensors

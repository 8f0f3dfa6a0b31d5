#!/bin/bash
# The recipes of docs/scale-out.md as they are: a study cut into shards run by GNU parallel
# (scale-out/parallel.sh) and by a Slurm array job on a one-node cluster started here
# (scale-out/slurm-array.sh), each merged with `oh7 stats`, and compared byte for byte with one
# process playing the whole study. Uses the debug binary the tests built.
set -euo pipefail
cd "$(dirname "$0")/.."
export OH7="$PWD/target/debug/oh7"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export STUDY="--preset kod7 --players 5 --games 400 --seed 2"
# shellcheck disable=SC2086
"$OH7" simulate $STUDY --json > "$work/one.json" 2>/dev/null

echo "-- GNU parallel: 4 shards, 2 at a time"
OUT="$work/parallel" scale-out/parallel.sh 4 2
cmp "$work/parallel/stats.json" "$work/one.json"
echo "GNU parallel: the merge equals the one-process run"

echo "-- Slurm: a one-node cluster, an array job of 4 shards"
.ci/slurm-single-node.sh
OUT="$work/slurm" sbatch --wait --array=0-3 --output="$work/slurm-%A_%a.log" scale-out/slurm-array.sh
for log in "$work"/slurm-*.log; do
  echo "$(basename "$log"): $(tr '\n' ' ' < "$log")"
done
"$OH7" stats "$work"/slurm/shard-*.jsonl --json > "$work/slurm.json"
cmp "$work/slurm.json" "$work/one.json"
echo "Slurm: the merge equals the one-process run"

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

echo "-- Slurm: a lost shard run again alone (the documented retry)"
mv "$work/slurm/shard-2.jsonl" "$work/shard-2.lost"
OUT="$work/slurm" SHARDS=4 sbatch --wait --array=2 --output="$work/retry-%A_%a.log" scale-out/slurm-array.sh
cmp "$work/slurm/shard-2.jsonl" "$work/shard-2.lost"
"$OH7" stats "$work"/slurm/shard-*.jsonl --json > "$work/slurm-retry.json"
cmp "$work/slurm-retry.json" "$work/one.json"
echo "Slurm: shard 2 run again alone is the same file, and the merge equals the one-process run"
if OUT="$work/slurm" sbatch --wait --array=2 --output="$work/guess-%A_%a.log" scale-out/slurm-array.sh; then
  echo "a retry without SHARDS should be refused" >&2
  exit 1
fi
grep -q "set SHARDS" "$work"/guess-*.log
echo "Slurm: a retry without SHARDS is refused: $(cat "$work"/guess-*.log)"

echo "-- Kubernetes: the manifests (simulations and the server) against the oldest and newest versions the docs claim"
venv=target/k8s-venv
if [ ! -x "$venv/bin/check-jsonschema" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check kubernetes-validate check-jsonschema
fi
for v in 1.25.0 1.37.0; do
  "$venv/bin/kubernetes-validate" --strict -k "$v" scale-out/k8s-*.yaml deploy/k8s/*.yaml
done
echo "-- Compose: the server's compose file against the Compose Specification's schema"
"$venv/bin/check-jsonschema" --builtin-schema vendor.compose-spec deploy/compose.yaml

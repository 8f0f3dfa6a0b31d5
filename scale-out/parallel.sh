#!/bin/sh
# An oh7 study cut into shards on one big machine with GNU parallel, then merged.
#
#   scale-out/parallel.sh [SHARDS [JOBS]]      # default: 8 shards, one job per core
#
# Each shard is its own process (own threads: THREADS, default 1), so a shard that fails can be
# run again alone; the merge refuses a missing, repeated or cut shard. OH7, OUT, STUDY: see
# study.sh.
set -eu
SHARDS=${1:-8}
JOBS=${2:-100%}
OUT=${OUT:-./study}
export OH7="${OH7:-oh7}" OUT STUDY THREADS="${THREADS:-1}" EXT="${EXT:-jsonl}"
here=$(dirname "$0")
seq 0 $((SHARDS - 1)) | parallel --will-cite --halt now,fail=1 -j "$JOBS" \
  "SHARD={} SHARDS=$SHARDS $here/study.sh"
"$OH7" stats "$OUT"/shard-*."$EXT" --json > "$OUT/stats.json"
echo "merged $SHARDS shards: $OUT/stats.json"

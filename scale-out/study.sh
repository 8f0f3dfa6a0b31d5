#!/bin/sh
# One shard of an oh7 study: the part SHARD of SHARDS of a run that every shard describes the
# same way (same game, rules, players, bots, games, seed). Used by the Slurm, Kubernetes and
# GNU parallel recipes beside this file; each sets SHARD and SHARDS its own way.
#
#   OH7      the oh7 binary                      (default: oh7 on the PATH)
#   OUT      a directory every shard can write   (default: ./study)
#   STUDY    what to play: the arguments of `oh7 simulate` before --shard
#            (default: a kod7 study, 5 players, 100,000 games, heuristic bots, seed 1)
#   THREADS  threads per shard                   (default: every core the shard was given)
#   EXT      the records files' ending: jsonl, jsonl.gz or jsonl.zst (default: jsonl)
set -eu
: "${SHARD:?SHARD (this shard, from 0) is not set}"
: "${SHARDS:?SHARDS (how many in all) is not set}"
OH7=${OH7:-oh7}
OUT=${OUT:-./study}
STUDY=${STUDY:---preset kod7 --players 5 --games 100000 --seed 1}
EXT=${EXT:-jsonl}
mkdir -p "$OUT"
set -- simulate $STUDY --shard "$SHARD/$SHARDS"
if [ -n "${THREADS:-}" ]; then set -- "$@" --threads "$THREADS"; fi
# Write to a temporary name, then rename: a shard that died half-way leaves no file that looks
# finished (the merge would refuse a cut file anyway).
"$OH7" "$@" --record "$OUT/shard-$SHARD.$EXT.part" > "$OUT/shard-$SHARD.txt"
mv "$OUT/shard-$SHARD.$EXT.part" "$OUT/shard-$SHARD.$EXT"

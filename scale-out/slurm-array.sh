#!/bin/sh
# An oh7 study as a Slurm array job: one array task per shard, then one merge job.
#
#   sbatch scale-out/slurm-array.sh                 # 4 shards (the --array line below)
#   sbatch --array=0-31 scale-out/slurm-array.sh    # 32 shards: SHARDS follows the array
#   SHARDS=32 sbatch --array=7 scale-out/slurm-array.sh   # run shard 7 of 32 again, alone
#
# SHARDS is taken from the array when it is 0..N-1 whole; any other array (a retry of some
# shards) must say SHARDS, and the script refuses to guess.
#
# When every task is done, merge (the job prints this command with its job id):
#   sbatch --dependency=afterok:JOBID --wrap 'oh7 stats study/shard-*.jsonl --json > study/stats.json'
#
# OUT must be on a file system every node sees (the default ./study is under the directory
# sbatch was run from). OH7, STUDY and THREADS: see study.sh.
#SBATCH --job-name=oh7-study
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=oh7-study-%A_%a.log
set -eu
export SHARD="$SLURM_ARRAY_TASK_ID"
if [ -z "${SHARDS:-}" ]; then
  count="${SLURM_ARRAY_TASK_COUNT:-$((SLURM_ARRAY_TASK_MAX + 1))}"
  if [ "${SLURM_ARRAY_TASK_MIN:-0}" != 0 ] || [ "$count" != "$((SLURM_ARRAY_TASK_MAX + 1))" ]; then
    echo "oh7 study: the array ${SLURM_ARRAY_TASK_MIN:-?}-${SLURM_ARRAY_TASK_MAX} is not 0..N-1 whole," \
      "so it does not say how many shards the study has: set SHARDS (SHARDS=32 sbatch --array=7 ...)" >&2
    exit 2
  fi
  SHARDS=$count
fi
if [ "$SHARD" -ge "$SHARDS" ]; then
  echo "oh7 study: shard $SHARD does not exist in a study of $SHARDS shards" >&2
  exit 2
fi
export SHARDS
export THREADS="${THREADS:-${SLURM_CPUS_PER_TASK:-1}}"
echo "oh7 study: shard $SHARD of $SHARDS on $(hostname)"
# Slurm runs a copy of this script: study.sh is found from where sbatch was run (the checkout)
# unless STUDY_SH says where it is.
exec "${STUDY_SH:-${SLURM_SUBMIT_DIR:-.}/scale-out/study.sh}"

#!/usr/bin/env bash
# Submit an N-shard gpusim run as a Slurm job array plus a merge job that runs when every
# shard has succeeded.  Usage: submit.sh CONFIG ROUNDS SEED SHARDS [RUNS]
#   examples/slurm/submit.sh holdem_bonus 1e11 2026 8 /shared/runs/hb-2026
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CONFIG=$1 ROUNDS=$2 SEED=$3 N=$4
RUNS=${5:-runs/$CONFIG-$SEED}
export CONFIG ROUNDS SEED RUNS
array=$(sbatch --parsable --array=0-$((N - 1)) --export=ALL "$here/shard.sbatch")
sbatch --parsable --dependency=afterok:"$array" --export=ALL "$here/merge.sbatch"
echo "array job $array, merge queued after it; results in $RUNS/merged"

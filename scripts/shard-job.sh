#!/usr/bin/env bash
# One task of a sharded match on a Slurm job array (docs/matches.md; scripts/slurm-local.sh
# runs it in a test):
#   sbatch --array=1-$N shard-job.sh GOGO OUT N [gogo-arena arguments...]
# GOGO: the checkout (built), OUT: where the shards' files go; both on storage every node
# sees. Task I plays shard I/N into OUT/shardI.jsonl; run again (a resubmitted or preempted
# task), it goes on from that file. GOGO_ARENA names another gogo-arena (the tests' build).
set -euo pipefail
GOGO=$1 OUT=$2 N=$3
shift 3
I=${SLURM_ARRAY_TASK_ID:?not a Slurm array task}
mkdir -p "$OUT"
exec "${GOGO_ARENA:-$GOGO/target/release/gogo-arena}" "$@" --shard "$I/$N" --jsonl "$OUT/shard$I.jsonl"

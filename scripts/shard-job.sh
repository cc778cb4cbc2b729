#!/usr/bin/env bash
# One task of a sharded match on a Slurm job array or under GNU parallel (docs/matches.md;
# scripts/slurm-local.sh and scripts/parallel-local.sh run it in tests):
#   sbatch --array=1-$N shard-job.sh GOGO OUT N [gogo-arena arguments...]
#   TASK=I shard-job.sh GOGO OUT N [gogo-arena arguments...]    (GNU parallel: TASK={})
# GOGO: the checkout (built), OUT: where the shards' files go; both on storage every node
# sees. Task I plays shard I/N into OUT/shardI.jsonl; run again (a resubmitted or preempted
# task), it goes on from that file. GOGO_ARENA names another gogo-arena (the tests' build).
set -euo pipefail
GOGO=$1 OUT=$2 N=$3
shift 3
I=${SLURM_ARRAY_TASK_ID:-${TASK:?neither a Slurm array task nor TASK=I}}
mkdir -p "$OUT"
exec "${GOGO_ARENA:-$GOGO/target/release/gogo-arena}" "$@" --shard "$I/$N" --jsonl "$OUT/shard$I.jsonl"

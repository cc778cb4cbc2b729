#!/usr/bin/env bash
# A one-node Slurm on this machine, from Debian's packages (munge, slurmctld, slurmd started
# by hand: Debian's service policy keeps them from starting themselves in a container), and
# the docs' array recipe run on it:
#   scripts/slurm-local.sh up      install (if need be) and start munge and Slurm; prints the
#                                  SLURM_CONF to export for sbatch, squeue, scancel
#   scripts/slurm-local.sh test    up, then a small match as a 4-task array (scripts/shard-job.sh)
#                                  with one task cancelled midway and resubmitted, merged, and
#                                  compared with the same match unsharded (fixed nodes: the
#                                  same games); exit 0 if they agree
#   scripts/slurm-local.sh down    stop the daemons (and munged, if `up` started it)
# State lives in target/slurm. Needs root (it installs packages and runs the daemons).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
root=$PWD
state=$root/target/slurm
conf=$state/slurm.conf
export SLURM_CONF=$conf

up() {
  command -v slurmctld >/dev/null && command -v munged >/dev/null || apt_install slurm-wlm munge
  mkdir -p "$state/ctld" "$state/d" "$state/log" /run/munge /var/lib/munge /var/log/munge
  [ -f /etc/munge/munge.key ] || mungekey --create
  chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
  # A munged this script starts, it also stops (down): one left running keeps its key, and
  # another checkout's Slurm, started later, cannot then authenticate its jobs.
  if ! munge -n >/dev/null 2>&1; then /usr/sbin/munged --force; touch "$state/munged-ours"; sleep 1; fi
  local host mem
  host=$(hostname)
  mem=$(awk '/MemTotal/ {print int($2 / 1024) - 2048}' /proc/meminfo)
  cat > "$conf" <<CONF
ClusterName=gogo
SlurmctldHost=$host
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
NodeName=$host CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  stop_slurm
  slurmctld -f "$conf"
  slurmd -f "$conf"
  for _ in $(seq 1 50); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && { echo "export SLURM_CONF=$conf"; return; }
    sleep 0.2
  done
  echo "slurm-local: the node did not come up; see $state/log" >&2
  exit 1
}

stop_slurm() {
  for pid in "$state/slurmd.pid" "$state/slurmctld.pid"; do
    [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
  done
  pkill -x slurmd 2>/dev/null || true
  pkill -x slurmctld 2>/dev/null || true
  sleep 0.5
}

down() {
  stop_slurm
  if [ -f "$state/munged-ours" ]; then
    pkill -x munged 2>/dev/null || true
    for _ in $(seq 1 50); do pgrep -x munged >/dev/null || break; sleep 0.1; done
    rm -f "$state/munged-ours"
  fi
  [ "${1:-}" = quiet ] || echo "slurm-local: stopped"
}

wait_job() {  # until no task of job $1 is queued or running
  while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 0.5; done
}

test_recipe() {
  up >/dev/null
  # The binaries: GOGO_ARENA and GOGO_ENGINE if given (the test passes its own build), else
  # this checkout's release build.
  if [ -z "${GOGO_ARENA:-}" ] || [ -z "${GOGO_ENGINE:-}" ]; then
    cargo build --release -q -p gogo -p gogo-arena
  fi
  export GOGO_ARENA=${GOGO_ARENA:-$root/target/release/gogo-arena}
  local engine=${GOGO_ENGINE:-$root/target/release/gogo}
  local out=$state/run args n=4 job
  rm -rf "$out"; mkdir -p "$out"
  printf 'startpos\n' > "$out/openings.txt"
  sed -n '/^[^#]/p' scripts/openings.txt | head -6 >> "$out/openings.txt"
  args=(--engine "name=A,cmd=$engine" --engine "name=B,cmd=$engine,option.UseNNUE=false"
        --tc nodes=3000 --games 16 --openings "$out/openings.txt")
  # The docs' recipe: N named once, absolute paths, the shards on shared storage.
  job=$(sbatch --parsable --array=1-$n --cpus-per-task=1 -o "$out/task-%a.log" \
        scripts/shard-job.sh "$root" "$out" "$n" "${args[@]}")
  # Task 2 is cancelled once it has played a game (a preempted node), then resubmitted. A
  # Slurm installed a moment ago can take over a minute to start the tasks (seen on a fresh
  # machine with its cores busy): wait up to five.
  for _ in $(seq 1 3000); do
    [ "$({ wc -l < "$out/shard2.jsonl"; } 2>/dev/null || echo 0)" -ge 2 ] && break
    sleep 0.1
  done
  scancel "${job}_2"
  wait_job "$job"
  local kept
  kept=$(grep -c '"game"' "$out/shard2.jsonl" || true)
  if [ "$kept" -ge 4 ]; then
    # An idle machine can play the task's four games before scancel takes effect. Then the
    # file is cut to what a task preempted after its first game leaves, so that the rest of
    # the recipe (an incomplete merge, the task resubmitted) is tested every time.
    head -n 2 "$out/shard2.jsonl" > "$out/shard2.cut" && mv "$out/shard2.cut" "$out/shard2.jsonl"
    kept=1
    echo "slurm-local: task 2 finished before scancel took effect; its file cut to its first game, as a preempted task leaves it" >&2
  fi
  # A merge now is of an incomplete run: status 3.
  local status=0
  "$GOGO_ARENA" merge "$out"/shard*.jsonl > /dev/null 2>&1 || status=$?
  [ "$status" = 3 ] || { echo "slurm-local: merge of the incomplete run gave status $status, not 3" >&2; exit 1; }
  echo "slurm-local: task 2 cancelled with $kept of its 4 games (merge: incomplete, status 3); resubmitted"
  job=$(sbatch --parsable --array=2 --cpus-per-task=1 -o "$out/task-2-again.log" \
        scripts/shard-job.sh "$root" "$out" "$n" "${args[@]}")
  wait_job "$job"
  "$GOGO_ARENA" merge "$out"/shard*.jsonl > "$out/merged.txt"
  "$GOGO_ARENA" "${args[@]}" --jsonl "$out/whole.jsonl" > "$out/whole.txt" 2>/dev/null
  local a b
  a=$(grep -E '^(Score of|Pentanomial|Endings)' "$out/merged.txt")
  b=$(grep -E '^(Score of|Pentanomial|Endings)' "$out/whole.txt")
  if [ "$a" != "$b" ]; then
    echo "slurm-local: the merged shards differ from the whole match:"; echo "$a"; echo "$b"; exit 1
  fi
  # Game by game: the same moves.
  python3 scripts/same-games.py "$out" "slurm-local"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  test) trap 'down quiet' EXIT; test_recipe ;;
  *) sed -n '2,13p' "$0"; exit 2 ;;
esac

#!/usr/bin/env bash
# Soak test: many fast games through gogo-arena, reporting time forfeits, illegal moves,
# malformed lines, crashes and hangs (a hang shows as a time forfeit) for each engine.
# All must be zero for gogo. gogo ponders in three of the four matches (USI_Ponder: the arena
# sends go ponder, then ponderhit or stop) and uses 2 threads in one.
#
# The watchdog: when an engine's move is late, the arena logs `late: ...` with the engine's
# last lines (and how long ago each came) and the state of each of its threads as the kernel
# saw it; they are collected at the end. BUSY=N keeps N busy loops running on the side, as
# other work on the machine would.
#
#   scripts/soak.sh [games-per-match=250] [match...]   (4 matches: 1000 games by default)
#   BUSY=2 scripts/soak.sh 100 gogo-gogo-byoyomi20-ponder
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-250}; shift || true
only=("$@")
out=target/soak; mkdir -p "$out"
busy=()
for _ in $(seq 1 "${BUSY:-0}"); do
  ( while :; do :; done ) & busy+=($!)
done
trap '[ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2>/dev/null' EXIT
run() {
  local label=$1; shift
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " =~ " $label " ]]; then return; fi
  echo "== $label" | tee -a "$out/summary.txt"
  scripts/match.sh "$@" 2> "$out/$label.log" | tee -a "$out/summary.txt"
}
: > "$out/summary.txt"
common=(--games "$n" --openings scripts/openings.txt --concurrency 2 --tolerance 50)
run gogo-gogo-byoyomi20-ponder gogo,option.USI_Ponder=true gogo -- --tc byoyomi=20 "${common[@]}" --jsonl "$out/a.jsonl"
run gogo-fairy-byoyomi50 gogo fairy -- --tc byoyomi=50 "${common[@]}" --jsonl "$out/b.jsonl"
run gogo2threads-gogo-fischer-ponder gogo,option.Threads=2,option.USI_Ponder=true gogo -- --tc fischer=1000+10 "${common[@]}" --jsonl "$out/c.jsonl"
run gogo-fairy-byoyomi30-ponder gogo,option.USI_Ponder=true fairy -- --tc byoyomi=30 "${common[@]}" --jsonl "$out/d.jsonl"
echo "== totals for gogo"
grep -h "^Faults of gogo" "$out/summary.txt" | awk '{t+=$4; i+=$7; m+=$10; c+=$13} END {printf "time forfeits %d, illegal moves %d, malformed lines %d, crashes %d\n", t, i, m, c}'
grep -h "^Pondering of gogo" "$out/summary.txt" | awk '{h+=$4; m+=$6; if ($11 > s) s=$11} END {printf "pondering: %d ponderhits, %d misses, stop answered within %d ms\n", h, m, s}'
echo "== the watchdog: late moves (BUSY=${BUSY:-0})"
late=$(cat "$out"/*.log 2>/dev/null | grep -c "late: " || true)
echo "$late late moves"
if [ "$late" -gt 0 ]; then grep -h -A12 "late: " "$out"/*.log | head -100; fi

#!/usr/bin/env bash
# Soak test: many fast games through gogo-arena, reporting time forfeits, illegal moves,
# malformed lines, crashes and hangs (a hang shows as a time forfeit) for each engine.
# All must be zero for gogo. gogo ponders in three of the four matches (USI_Ponder: the arena
# sends go ponder, then ponderhit or stop) and uses 2 threads in one.
#
#   scripts/soak.sh [games-per-match=250]     (4 matches: 1000 games by default)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-250}
out=target/soak; mkdir -p "$out"
run() {
  local label=$1; shift
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

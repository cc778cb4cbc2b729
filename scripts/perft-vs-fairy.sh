#!/usr/bin/env bash
# perft 6 from the start position in gogo and in Debian fairy-stockfish, side by side, several
# rounds; prints each program's median wall time and the ratio. Both are timed as whole
# processes (fairy-stockfish's start-up, about 0.15 s here, is also shown separately so the
# ratio without it can be read off). One core each: the two never run at the same time.
#
#   scripts/perft-vs-fairy.sh [rounds=7] [depth=6]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy
rounds=${1:-7}
depth=${2:-6}
cargo build --release -q -p gogo
GOGO=target/release/gogo

now() { date +%s.%N; }
fairy_perft() {
  printf 'usi\nsetoption name UCI_Variant value minishogi\nposition startpos\ngo perft %s\nquit\n' "$1" \
    | "$FAIRY" 2>/dev/null | awk '/^Nodes searched/ {print $3}'
}

gogo_times=() fairy_times=() fairy_start=()
for ((i = 1; i <= rounds; i++)); do
  t0=$(now); g=$("$GOGO" perft "$depth" | awk '/^Nodes searched/ {print $3}'); t1=$(now)
  f=$(fairy_perft "$depth"); t2=$(now)
  fairy_perft 1 >/dev/null; t3=$(now)
  if [ "$g" != "$f" ]; then echo "node counts differ: gogo $g, fairy-stockfish $f" >&2; exit 1; fi
  gogo_times+=("$(echo "$t1 - $t0" | bc)")
  fairy_times+=("$(echo "$t2 - $t1" | bc)")
  fairy_start+=("$(echo "$t3 - $t2" | bc)")
done
g=$(printf '%s\n' "${gogo_times[@]}" | median)
f=$(printf '%s\n' "${fairy_times[@]}" | median)
s=$(printf '%s\n' "${fairy_start[@]}" | median)
echo "perft $depth from the start position: $(
  "$GOGO" perft "$depth" | awk '/^Nodes searched/ {print $3}') nodes, $rounds rounds"
printf 'gogo            median %.3f s\n' "$g"
printf 'fairy-stockfish median %.3f s (start-up alone: %.3f s)\n' "$f" "$s"
printf 'ratio           %.1fx (%.1fx without fairy-stockfish start-up)\n' \
  "$(echo "$f / $g" | bc -l)" "$(echo "($f - $s) / $g" | bc -l)"

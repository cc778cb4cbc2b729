#!/usr/bin/env bash
# What a second thread is worth on this machine:
#   scripts/threads.sh nps [rounds=3]   gogo bench at 1 and 2 threads in turn; the medians of
#                                       the nodes per second and their ratio
#   scripts/threads.sh match [games=400] Threads 2 against 1, 100 ms a move, both colours,
#                                       scripts/openings.txt, one game at a time
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p gogo
case "${1:-}" in
  nps)
    rounds=${2:-3}
    one=() two=()
    for _ in $(seq 1 "$rounds"); do
      one+=("$(target/release/gogo bench --threads 1 2>&1 | awk '/Nodes\/second/ {print $2}')")
      two+=("$(target/release/gogo bench --threads 2 2>&1 | awk '/Nodes\/second/ {print $2}')")
    done
    median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
    m1=$(median "${one[@]}") m2=$(median "${two[@]}")
    echo "1 thread: ${one[*]} (median $m1)"
    echo "2 threads: ${two[*]} (median $m2)"
    awk -v a="$m1" -v b="$m2" 'BEGIN {printf "2 threads / 1 thread: %.2fx (%.0f %% a thread)\n", b / a, 50 * b / a}'
    ;;
  match)
    scripts/match.sh "gogo,option.Threads=2" gogo -- --tc movetime=100 --games "${2:-400}" \
      --openings scripts/openings.txt --concurrency 1
    ;;
  *) sed -n '2,6p' "$0"; exit 2 ;;
esac

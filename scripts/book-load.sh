#!/usr/bin/env bash
# What loading a large opening book costs the engine: a valid book of each size (random
# games, crates/book/examples/big_book.rs) is loaded by `setoption name BookFile` into this
# checkout's gogo and into gogo built at REV, in alternation; prints the time until
# `readyok` and the engine's peak memory (VmHWM), and what the book added to it (the peak
# less the same engine's with the built-in book) against the file's size, medians of ROUNDS.
# MOVES=1 makes every position's moves one (the most positions a byte of text gives).
#
#   scripts/book-load.sh [REV] [ROUNDS] [MIB...]
#   scripts/book-load.sh 6e6c867 3 16 64 250
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
rev=${1:-HEAD}; rounds=${2:-3}; shift $(( $# >= 2 ? 2 : $# ))
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(16 64 250)
cargo build --release -q -p gogo
cargo build --release -q -p gogo-book --example big_book
base=$(gogo_at "$rev")
now=target/release/gogo
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT

# One load: "seconds peak_kib answer" for engine $1 and book $2.
load() {
  local engine=$1 book=$2 start end pid line answer=""
  coproc ENGINE { exec "$engine" 2>/dev/null; }
  pid=$ENGINE_PID
  printf 'usi\nsetoption name BookFile value %s\n' "$book" >&"${ENGINE[1]}"
  start=$(date +%s.%N)
  printf 'isready\n' >&"${ENGINE[1]}"
  while read -r line <&"${ENGINE[0]}"; do
    case $line in
      readyok) break ;;
      "info string error"*) answer="refused" ;;
    esac
  done
  end=$(date +%s.%N)
  peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
  printf 'quit\n' >&"${ENGINE[1]}"
  wait "$pid" 2>/dev/null || true
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}') $peak ${answer:-loaded}"
}

# The engine's peak without a book of its own (KiB), for each build.
declare -A alone
for which in base now; do
  engine=$base; [ "$which" = now ] && engine=$now
  read -r _ alone[$which] _ < <(load "$engine" "<internal>")
done
printf '%-8s %-10s %8s %10s %10s %8s %s\n' size build seconds "peak MiB" "book MiB" "x file" answer
for mib in "${sizes[@]}"; do
  book="$dir/book-$mib.db"
  target/release/examples/big_book "$mib" "$book" 1 "${MOVES:-3}"
  bytes=$(stat -c %s "$book")
  for which in base now; do
    engine=$base; [ "$which" = now ] && engine=$now
    times=(); peaks=(); answer=""
    for ((i = 0; i < rounds; i++)); do
      read -r t p answer < <(load "$engine" "$book")
      times+=("$t"); peaks+=("$p")
    done
    t=$(printf '%s\n' "${times[@]}" | median); p=$(printf '%s\n' "${peaks[@]}" | median)
    label=$rev; [ "$which" = now ] && label=checkout
    awk -v mib="$mib" -v l="$label" -v t="$t" -v p="$p" -v z="${alone[$which]}" -v b="$bytes" -v a="$answer" \
      'BEGIN {printf "%-8s %-10s %8.2f %10.1f %10.1f %8.2f %s\n", mib " MiB", l, t, p / 1024, (p - z) / 1024, (p - z) * 1024 / b, a}'
  done
done

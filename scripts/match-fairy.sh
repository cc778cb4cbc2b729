#!/usr/bin/env bash
# gogo against Debian fairy-stockfish (one thread each) from the balanced openings, both
# colours, at the same fixed time per move for both: fairy-stockfish 11.1 misreads byoyomi
# (it spends about a fifth of it) and swaps Fischer clocks, so `go movetime` is the fair
# equivalent of a byoyomi control. Prints wins, losses, draws, Elo with its error bar.
#
#   scripts/match-fairy.sh [games=200] [movetime-ms=200] [concurrency=2]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200} movetime=${2:-200} concurrency=${3:-2}
mkdir -p target/matches
stamp=$(date +%Y%m%d-%H%M%S)
exec scripts/match.sh gogo fairy -- --tc "movetime=$movetime" --games "$games" \
  --openings scripts/openings.txt --concurrency "$concurrency" --tolerance 200 \
  --kif "target/matches/fairy-$stamp.kif" --jsonl "target/matches/fairy-$stamp.jsonl"

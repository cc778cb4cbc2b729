#!/usr/bin/env bash
# gogo against Fairy-Stockfish (one thread and 16 MiB hash each) from the balanced openings,
# both colours, at the same fixed time per move for both (`go movetime`: Debian's 11.1
# misreads byoyomi and swaps Fischer clocks, so it is the fair control for both builds).
# Prints wins, losses, draws, Elo with its error bar. OPPONENT is `fairy` (current, built from
# source; the default) or `fairy11` (Debian's). OPPONENT-MS gives the opponent its own time a
# move (time odds: 100 against 400 is Fairy-Stockfish with four times gogo's time).
#
#   scripts/match-fairy.sh [games=200] [movetime-ms=200] [concurrency=2] [opponent=fairy] [opponent-ms=movetime-ms]
# OPENINGS=FILE plays another opening set (default scripts/openings.txt; the second set,
# made independently of it, is scripts/openings-book.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200} movetime=${2:-200} concurrency=${3:-2} opponent=${4:-fairy}
opponent_ms=${5:-$movetime}
mkdir -p target/matches
stamp=$(date +%Y%m%d-%H%M%S)
exec scripts/match.sh gogo "$opponent,tc=movetime=$opponent_ms" -- --tc "movetime=$movetime" --games "$games" \
  --openings "${OPENINGS:-scripts/openings.txt}" --concurrency "$concurrency" --tolerance 200 \
  --kif "target/matches/$opponent-$stamp.kif" --jsonl "target/matches/$opponent-$stamp.jsonl"

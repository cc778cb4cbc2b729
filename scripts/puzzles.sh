#!/usr/bin/env bash
# The puzzle set the board ships (crates/puzzle/data/puzzles.tsv):
#   scripts/puzzles.sh generate [OUT]   remake it from scratch: self-play of gogo's levels 4-9,
#                                       seed 2026, 900 games, then the check; the puzzles that
#                                       pass it are the set (docs/puzzles.md gives the figures)
#   scripts/puzzles.sh check [FILE]     check every puzzle with the deeper search (exit 1 if any fails)
#   scripts/puzzles.sh rate             rate the set again by gogo's levels as they are now (after
#                                       a change to the levels or the network) and put it in place
#   scripts/puzzles.sh stats [FILE]     the set by theme and by rating
set -euo pipefail
cd "$(dirname "$0")/.."
set_file=crates/puzzle/data/puzzles.tsv
threads=${THREADS:-2}
cargo build --release -q -p gogo
case "${1:-}" in
  generate)
    out=${2:-target/puzzles.tsv}
    rm -f "$out" "$out.found"
    target/release/gogo puzzles generate --self-play 900 --seed 2026 --threads "$threads" --out "$out.found"
    target/release/gogo puzzles check "$out.found" --threads "$threads" --passing "$out" || true
    ;;
  check)
    target/release/gogo puzzles check "${2:-$set_file}" --threads "$threads"
    ;;
  rate)
    rm -f target/puzzles-rated.tsv
    target/release/gogo puzzles rate "$set_file" --out target/puzzles-rated.tsv --threads "$threads"
    cp target/puzzles-rated.tsv "$set_file"
    ;;
  stats)
    file=${2:-$set_file}
    echo "puzzles: $(grep -vc '^#' "$file")"
    echo "by theme:"; grep -v '^#' "$file" | cut -f4 | tr ',' '\n' | sort | uniq -c | sort -rn
    echo "by rating:"; grep -v '^#' "$file" | cut -f5 | sort -n | uniq -c
    ;;
  *) sed -n '2,9p' "$0"; exit 2 ;;
esac

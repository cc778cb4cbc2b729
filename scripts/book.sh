#!/usr/bin/env bash
# The opening book built into gogo (crates/book/data/internal.db):
#   scripts/book.sh build [OUT]    remake it: analysis from the start position, 3000 positions
#                                  searched at 200,000 nodes, 4 lines each, 12 plies deep, lines
#                                  followed within 80 centipawns of the best (one thread: the
#                                  same book from the same build)
#   scripts/book.sh show [SFEN]    a position's moves in it
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p gogo-usi
case "${1:-}" in
  build)
    out=${2:-target/internal.db}
    rm -f "$out"
    target/release/gogo book build --positions 3000 --nodes 200000 --max-ply 12 --width 4 --margin 80 --out "$out"
    ;;
  show) target/release/gogo book show "${2:-startpos}" ;;
  *) sed -n '2,8p' "$0"; exit 2 ;;
esac

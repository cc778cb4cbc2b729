#!/usr/bin/env bash
# Opening books. The one built into gogo (crates/book/data/internal.db) is `build` alone;
# `games` and `learn` make a book that has learnt one opponent's answers (docs/book.md:
# it wins against that opponent and loses elsewhere).
#   scripts/book.sh build [OUT]      the analysis: the tree from the start position, 10 plies
#                                    deep, each position searched at 3,000,000 nodes with 3
#                                    lines, lines followed within 50 centipawns of the best;
#                                    two shards at once (one thread each: the same book from
#                                    the same build), merged
#   scripts/book.sh games BOOK N OUT games for learning: gogo playing from BOOK against gogo
#                                    without a book, from the start position, both colours,
#                                    Fischer 1 s + 10 ms, two at once (arena JSON lines)
#   scripts/book.sh learn BOOK OUT GAMES...
#                                    the games' results added to BOOK's moves (gogo book learn)
#   scripts/book.sh show [SFEN]      a position's moves in the built-in book
# docs/book.md gives the runs that made the built-in book.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p gogo -p gogo-arena
gogo=target/release/gogo
case "${1:-}" in
  build)
    out=${2:-target/book/analysis.db}
    mkdir -p "$(dirname "$out")"
    for i in 1 2; do
      rm -f "$out.$i"
      $gogo book build --positions 3000 --nodes 3000000 --max-ply 10 --width 3 --margin 50 \
        --shard "$i/2" --out "$out.$i" &
    done
    wait
    $gogo book merge "$out.1" "$out.2" --out "$out"
    ;;
  games)
    book=$(realpath "$2") n=$3 out=$4
    scripts/match.sh "gogo,option.USI_OwnBook=true,option.BookFile=$book" gogo -- \
      --tc fischer=1000+10 --games "$n" --concurrency 2 --jsonl "$out"
    ;;
  learn)
    book=$2 out=$3; shift 3
    $gogo book learn "$@" --book "$book" --out "$out"
    ;;
  show) $gogo book show "${2:-startpos}" ;;
  *) sed -n '2,17p' "$0"; exit 2 ;;
esac

#!/usr/bin/env bash
# gogo's `go mate` against current Fairy-Stockfish (built by scripts/fairy-build.sh) on the
# mate problems of tests/data/tsume.tsv: time to the mate, medians and ratios.
#
#   scripts/mate-vs-fairy.sh [limit-ms]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy_current
cargo build --release -q -p gogo-usi
python3 scripts/mate_vs_fairy.py --gogo target/release/gogo --fairy "$FAIRY_CURRENT" --limit "${1:-10000}"

#!/usr/bin/env bash
# Remakes tests/data/tsume.tsv: mate problems from Fairy-Stockfish self-play games, each
# mate length confirmed by the exhaustive checks-only search (crates/mate/examples/make_tsume.rs).
#
#   scripts/make-tsume.sh [games]     # default 150
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy_current
cargo run --release -q -p gogo-mate --example make_tsume -- \
  "$FAIRY_CURRENT" scripts/openings.txt "${1:-150}" tests/data/tsume.tsv
echo "wrote tests/data/tsume.tsv: $(grep -vc '^#' tests/data/tsume.tsv) problems"

#!/usr/bin/env bash
# Nodes per second of gogo (with its network and with the hand-made evaluation) and current
# Fairy-Stockfish (scripts/fairy-build.sh) on gogo's bench positions, one thread each,
# the same movetime each (default 1000 ms), with the medians and their ratio.
#
#   scripts/nps-vs-fairy.sh [movetime-ms]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy_current
cargo build --release -q -p gogo-usi
python3 scripts/nps_vs_fairy.py --gogo target/release/gogo --fairy "$FAIRY_CURRENT" --movetime "${1:-1000}"

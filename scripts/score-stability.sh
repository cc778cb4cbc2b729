#!/usr/bin/env bash
# Score stability from depth to depth (scripts/score_stability.py): this checkout's gogo with
# its network and with the hand-made evaluation, and gogo built at REV (default 45411d5, the
# last build before the network). Changes are given in centipawns and as a winning chance,
# each evaluation with its own scale, fitted by gogo-train --calibrate to game results and
# read from its provenance (`gogo score-scale`: the network's 323, the hand-made 790).
#
#   scripts/score-stability.sh [REV]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
cargo build --release -q -p gogo-usi
old=$(gogo_at "${1:-45411d5}")
nnue=$(target/release/gogo score-scale --eval nnue)
classical=$(target/release/gogo score-scale --eval classical)
python3 scripts/score_stability.py \
  --engine "gogo (network)=$PWD/target/release/gogo@$nnue" \
  --engine "gogo (hand-made evaluation)=$PWD/target/release/gogo,UseNNUE=false@$classical" \
  --engine "gogo@${1:-45411d5}=$old@$classical"

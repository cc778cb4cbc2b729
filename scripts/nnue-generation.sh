#!/usr/bin/env bash
# One generation of gogo's network: self-play data with the current network (or the
# hand-made evaluation for the first), training on it (and the previous generation's data),
# then an SPRT match of the new network against the current default.
#
#   scripts/nnue-generation.sh NAME GAMES [EVAL] [EXTRA_DATA...]
#     NAME        the new network: crates/search/nets/NAME.nnue (+ NAME.nnue.txt)
#     GAMES       self-play games (about 21 training positions each)
#     EVAL        who plays the self-play games: classical, nnue (the built-in network) or a
#                 network file; default nnue
#     EXTRA_DATA  earlier data files to train on as well
#
# Data goes to target/nnue/NAME.bin (not in git). Times on the 2-core machine: about 300
# positions/s of data with both cores; training about 10 s per epoch per million positions.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then sed -n '2,15p' "$0"; exit 2; fi
name=$1 games=$2 eval=${3:-nnue}; shift $(( $# >= 3 ? 3 : 2 ))
mkdir -p target/nnue
cargo build --release -q -p gogo -p gogo-train -p gogo-arena
data=target/nnue/$name.bin
net=crates/search/nets/$name.nnue
seed=$(( $(printf '%d' "'${name: -1}") + games ))
echo "== datagen: $games games, 5000 nodes a move, $eval, seed $seed"
time target/release/gogo datagen --games "$games" --nodes 5000 --threads 2 --seed "$seed" \
  --eval "$eval" --out "$data"
echo "== training"
time target/release/gogo-train --data "$data" "$@" --out "$net" --epochs 40 --seed 1 --threads 2
echo "== SPRT: $name against the current default, 40 ms a move"
scripts/match.sh "gogo,option.UseNNUE=true,option.EvalFile=$PWD/$net" gogo -- \
  --tc movetime=40 --games 2000 --openings scripts/openings.txt --concurrency 2 \
  --tolerance 200 --sprt "elo0=0 elo1=10"

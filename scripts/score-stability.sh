#!/usr/bin/env bash
# Score stability from depth to depth (the Python below): this checkout's gogo with
# its network and with the hand-made evaluation, and gogo built at REV (default 45411d5, the
# last build before the network). Changes are given in centipawns and as a winning chance,
# each evaluation with its own scale, fitted by gogo-train --calibrate to game results and
# read from its provenance (`gogo score-scale`: the network's 323, the hand-made 790).
#
#   scripts/score-stability.sh [REV]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
cargo build --release -q -p gogo
old=$(gogo_at "${1:-45411d5}")
nnue=$(target/release/gogo score-scale --eval nnue)
classical=$(target/release/gogo score-scale --eval classical)
PYTHONPATH=scripts python3 - --gogo "$PWD/target/release/gogo" \
  --engine "gogo (network)=$PWD/target/release/gogo@$nnue" \
  --engine "gogo (hand-made evaluation)=$PWD/target/release/gogo,UseNNUE=false@$classical" \
  --engine "gogo@${1:-45411d5}=$old@$classical" <<'PY'
"""How much the reported score moves from one depth to the next: for each engine, over gogo's
bench positions, `go depth 10`, the mean absolute change of the score (`info ... score cp`,
mates left out) from depth d-1 to depth d for d = 6..10. A GUI shows these numbers to people;
a score that swings with the parity of the depth looks like nonsense."""
import argparse
import math
import statistics

from usi_probe import Usi, bench_positions



def scores_by_depth(engine, sfen, depth):
    engine.send("usinewgame")
    engine.send("isready")
    engine.wait("readyok")
    engine.send(f"position sfen {sfen}")
    engine.send(f"go depth {depth}")
    scores = {}
    for line in engine.wait("bestmove"):
        w = line.split()
        if w[:1] != ["info"] or "score" not in w or "lowerbound" in w or "upperbound" in w:
            continue
        if "multipv" in w and w[w.index("multipv") + 1] != "1":
            continue
        i = w.index("score")
        if w[i + 1] == "cp" and "depth" in w:
            scores[int(w[w.index("depth") + 1])] = int(w[i + 2])
    return scores


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True,
                    help="NAME=PATH[,OPTION=VALUE...]@K, K the score scale (win chance "
                         "1/(1+e^(-cp/K)))")
    ap.add_argument("--gogo", required=True, help="the gogo whose bench positions are used")
    ap.add_argument("--depth", type=int, default=10)
    args = ap.parse_args()
    positions = bench_positions(args.gogo)
    for spec in args.engine:
        spec, scale = spec.rsplit("@", 1)
        scale = float(scale)
        name, rest = spec.split("=", 1)
        path, *options = rest.split(",")
        engine = Usi([path], [tuple(o.split("=", 1)) for o in options])
        changes = []
        chance_changes = []
        chance = lambda cp: 1 / (1 + math.exp(-cp / scale))
        for sfen in positions:
            s = scores_by_depth(engine, sfen, args.depth)
            for d in range(6, args.depth + 1):
                if d in s and d - 1 in s:
                    changes.append(abs(s[d] - s[d - 1]))
                    chance_changes.append(abs(chance(s[d]) - chance(s[d - 1])))
        engine.quit()
        print(f"{name:>28}: mean |score(d) - score(d-1)|, d = 6..{args.depth}: "
              f"{statistics.mean(changes):7.1f} cp (median {statistics.median(changes):.0f}, "
              f"{len(changes)} pairs over {len(positions)} positions); as a winning chance "
              f"(scale {scale:.0f}): {100 * statistics.mean(chance_changes):.1f} points")


if __name__ == "__main__":
    main()
PY

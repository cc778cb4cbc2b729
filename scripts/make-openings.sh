#!/usr/bin/env bash
# Regenerates scripts/openings.txt (see the Python below). Installs fairy-stockfish
# and minishogilib when missing. Arguments go to the Python script (--plies, --depth, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy
need_minishogilib
PYTHONPATH=scripts python3 - --fairy "$FAIRY" "$@" > scripts/openings.txt.new <<'PY'
"""Makes scripts/openings.txt: balanced minishogi openings for engine matches.

Every sequence of PLIES legal moves from the start position (generated with PyPI
minishogilib, which needs no gogo) is scored by Debian fairy-stockfish at a fixed depth; the
positions whose score is within +/- MAX_CP for the side to move are kept, and COUNT of them
are chosen with a fixed seed. Each line is `startpos moves ...`, to be played twice with
colours swapped.
"""
import argparse
import random

import minishogilib

from usi_probe import Usi


def sequences(plies):
    out = []

    def walk(pos, line):
        if len(line) == plies:
            out.append(list(line))
            return
        for mv in pos.generate_moves():
            pos.do_move(mv)
            line.append(mv.sfen())
            walk(pos, line)
            line.pop()
            pos.undo_move()

    pos = minishogilib.Position()
    pos.set_start_position()
    walk(pos, [])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fairy", required=True)
    ap.add_argument("--plies", type=int, default=3)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--max-cp", type=int, default=80)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=55)
    args = ap.parse_args()
    fairy = Usi([args.fairy], [("UCI_Variant", "minishogi"), ("Threads", 1)])
    kept = []
    for line in sequences(args.plies):
        fairy.send("usinewgame")
        fairy.send("position startpos moves " + " ".join(line))
        fairy.send(f"go depth {args.depth}")
        lines = fairy.wait("bestmove")
        score = None
        for l in lines:
            w = l.split()
            if "score" in w:
                i = w.index("score")
                score = (w[i + 1], int(w[i + 2]))
        if score and score[0] == "cp" and abs(score[1]) <= args.max_cp:
            kept.append((line, score[1]))
    fairy.quit()
    rng = random.Random(args.seed)
    chosen = sorted(rng.sample(kept, min(args.count, len(kept))))
    print(f"# {len(chosen)} balanced openings: {args.plies} plies from the start, scored within "
          f"+/-{args.max_cp} cp by fairy-stockfish at depth {args.depth} ({len(kept)} qualified);")
    print("# made by scripts/make-openings.sh (seed %d). The score is for the side to move." % args.seed)
    for line, cp in chosen:
        print(f"startpos moves {' '.join(line)}  # {cp:+d}")


if __name__ == "__main__":
    main()
PY
mv scripts/openings.txt.new scripts/openings.txt
grep -vc '^#' scripts/openings.txt >&2

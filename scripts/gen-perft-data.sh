#!/usr/bin/env bash
# Regenerates tests/data/perft.tsv from three independent move generators (see
# the Python below). Installs what is missing: Debian fairy-stockfish, PyPI
# minishogilib, npm shogiops (into $GOGO_REF_DIR, default ~/.cache/gogo-refs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy
need_minishogilib
need_shogiops
cp scripts/shogiops-perft.mjs "$GOGO_REF_DIR/"
PYTHONPATH=scripts python3 - --fairy "$FAIRY" --shogiops-dir "$GOGO_REF_DIR" "$@" \
  > tests/data/perft.tsv.new <<'PY'
"""Make tests/data/perft.tsv: perft counts of random minishogi positions from three
independent programs, none of them gogo.

Positions come from seeded random play with PyPI `minishogilib` (biased towards captures,
promotions and checks, so that hands, promoted pieces and checks are common). Each is counted
by npm `shogiops` (lishogi's rules; like gogo it excludes pawn drops that mate), Debian
`fairy-stockfish` (`go perft`) and `minishogilib` (a perft written here over its move
generator). The last two count a pawn drop that mates as a legal (losing) move, so their
counts are higher by the number of such drops at the last ply; the file records that
difference for each position.

Run through scripts/gen-perft-data.sh, which installs the three programs.
"""
import argparse
import random
import subprocess
import sys

import minishogilib

from usi_probe import Usi

STARTS = ["rbsgk/4p/5/P4/KGSBR b - 1", "rbsgk/p4/5/4P/KGSBR b - 1"]


def load(sfen):
    pos = minishogilib.Position()
    pos.set_sfen(f"{sfen} moves")
    return pos


def current_sfen(pos):
    # sfen(False) is the current position; sfen(True) prepends the start and the moves.
    board, side, hands = pos.sfen(False).split()[:3]
    return f"{board} {side} {hands} 1"


def hands_of(pos):
    return pos.sfen(False).split()[2]


def is_capture(pos, mv):
    before = hands_of(pos)
    pos.do_move(mv)
    after = hands_of(pos)
    pos.undo_move()
    return "*" not in mv.sfen() and before != after


def msl_perft(pos, depth):
    moves = pos.generate_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for mv in moves:
        pos.do_move(mv)
        total += msl_perft(pos, depth - 1)
        pos.undo_move()
    return total


def random_positions(rng, count):
    """Positions from random games, a mix of checks, promoted pieces and hands."""
    found, seen = [], set()
    want_check = count // 3
    checks = 0
    while len(found) < count:
        pos = load(rng.choice(STARTS))
        plies = rng.randint(6, 60)
        for _ in range(plies):
            moves = pos.generate_moves()
            if not moves:
                break
            noisy = [m for m in moves if m.sfen().endswith("+") or is_capture(pos, m)]
            pos.do_move(rng.choice(noisy) if noisy and rng.random() < 0.5 else rng.choice(moves))
        if not pos.generate_moves():
            continue
        sfen = current_sfen(pos)
        board, side, hands = sfen.split()[:3]
        if board + side + hands in seen:
            continue
        in_check = pos.is_in_check()
        if not in_check and checks < want_check and len(found) >= count - (want_check - checks):
            continue
        seen.add(board + side + hands)
        checks += in_check
        found.append(sfen)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=64)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--fairy", default="fairy-stockfish")
    ap.add_argument("--shogiops-dir", required=True)
    ap.add_argument("--max-nodes", type=int, default=300_000)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    rows = []
    for sfen in STARTS + random_positions(rng, args.count):
        # As deep as keeps the count under --max-nodes (pure-Python perft is the slow one).
        depth, nodes = 1, msl_perft(load(sfen), 1)
        while depth < 5:
            nxt = msl_perft(load(sfen), depth + 1) if nodes * 40 < args.max_nodes * 2 else None
            if nxt is None or nxt > args.max_nodes:
                break
            depth, nodes = depth + 1, nxt
        rows.append([sfen, depth, nodes])

    fairy = Usi([args.fairy], [("UCI_Variant", "minishogi")])
    for row in rows:
        row.append(fairy.perft(row[0], row[1]))
    feed = "".join(f"{sfen}\t{depth}\n" for sfen, depth, *_ in rows)
    out = subprocess.run(["node", "shogiops-perft.mjs"], cwd=args.shogiops_dir, input=feed,
                         capture_output=True, text=True, check=True).stdout.split()
    for row, count in zip(rows, out):
        row.append(int(count))

    print("# Perft counts from independent programs; made by scripts/gen-perft-data.sh "
          f"(seed {args.seed}).")
    print("# shogiops (lishogi's rules) excludes pawn drops that give mate, as the rules "
          "require; gogo must equal it.")
    print("# fairy-stockfish and minishogilib count such a drop as a legal (losing) move, so "
          "their count is higher by")
    print("# the number of mating pawn drops at the last ply (a mating drop earlier ends the "
          "line: it adds no deeper leaves).")
    print("# Column mating_pawn_drops = fairy_stockfish - shogiops; gogo's own count of them "
          "must equal it.")
    print("sfen\tdepth\tshogiops\tfairy_stockfish\tminishogilib\tmating_pawn_drops")
    for sfen, depth, msl, fsf, ops in rows:
        print(f"{sfen}\t{depth}\t{ops}\t{fsf}\t{msl}\t{fsf - ops}")
        if msl != fsf:
            print(f"warning: minishogilib {msl} != fairy-stockfish {fsf} for {sfen}",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
PY
mv tests/data/perft.tsv.new tests/data/perft.tsv
echo "wrote tests/data/perft.tsv ($(grep -vc '^#' tests/data/perft.tsv) lines with header)" >&2

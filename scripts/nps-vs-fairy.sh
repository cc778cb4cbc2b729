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
cargo build --release -q -p gogo
PYTHONPATH=scripts python3 - --gogo target/release/gogo --fairy "$FAIRY_CURRENT" --movetime "${1:-1000}" <<'PY'
"""gogo's and fairy-stockfish's search speed on the same positions (gogo's bench list),
one thread each, the same `go movetime` each; gogo with its network and with the hand-made
evaluation (`UseNNUE false`), in turn on each position so that the machine's load falls on
all three alike. Prints nodes per second per position, the medians and their ratios."""
import argparse
import sys

from usi_probe import Usi, bench_positions, medians



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gogo", required=True)
    ap.add_argument("--fairy", required=True)
    ap.add_argument("--movetime", type=int, default=1000)
    args = ap.parse_args()
    positions = bench_positions(args.gogo)
    gogo = Usi([args.gogo], [("USI_Hash", 64)])
    classical = Usi([args.gogo], [("USI_Hash", 64), ("UseNNUE", "false")])
    fairy = Usi([args.fairy], [("UCI_Variant", "minishogi"), ("Hash", 64), ("Threads", 1)])
    rows = []
    for sfen in positions:
        _, g = gogo.search(sfen, f"go movetime {args.movetime}")
        _, c = classical.search(sfen, f"go movetime {args.movetime}")
        _, f = fairy.search(sfen, f"go movetime {args.movetime}")
        if "nps" not in g or "nps" not in c or "nps" not in f:
            print(f"skipped (no nps reported): {sfen}", file=sys.stderr)
            continue
        rows.append((sfen, g["nps"], c["nps"], f["nps"]))
        print(f"{g['nps']:>10} {c['nps']:>10} {f['nps']:>10}  {sfen}")
    for engine in (gogo, classical, fairy):
        engine.quit()
    gm, cm, fm = medians(rows, 1, 2, 3)
    print(f"positions: {len(rows)}, go movetime {args.movetime} each")
    print(f"gogo (network)             median nps {gm:,.0f}")
    print(f"gogo (hand-made eval)      median nps {cm:,.0f}")
    print(f"fairy-stockfish            median nps {fm:,.0f}")
    print(f"network / fairy-stockfish  {gm / fm:.2f}x")
    print(f"network / hand-made        {gm / cm:.2f}x")


if __name__ == "__main__":
    main()
PY

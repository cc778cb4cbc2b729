#!/usr/bin/env bash
# gogo's `go mate` against current Fairy-Stockfish (built by scripts/fairy-build.sh) on the
# mate problems of tests/data/tsume.tsv: time to the mate, medians and ratios.
#
#   scripts/mate-vs-fairy.sh [limit-ms]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy_current
cargo build --release -q -p gogo
PYTHONPATH=scripts python3 - --gogo target/release/gogo --fairy "$FAIRY_CURRENT" --limit "${1:-10000}" <<'PY'
"""gogo's mate solver against Fairy-Stockfish on the mate problems of tests/data/tsume.tsv,
one thread each, side by side: gogo answers `go mate 10000` (the time until its `checkmate`
line, which is the whole mating line, shortest); Fairy-Stockfish searches with `go movetime
10000` (the time until it first reports a mate score, and until it reports the shortest
mate's length). Prints each problem, the medians and their ratios."""
import argparse
import statistics
import time

from usi_probe import Usi, medians


def gogo_time(engine, sfen, limit_ms):
    engine.send("usinewgame")
    engine.send("isready")
    engine.wait("readyok")
    engine.send(f"position sfen {sfen}")
    start = time.perf_counter()
    engine.send(f"go mate {limit_ms}")
    line = engine.wait("checkmate")[-1]
    elapsed = time.perf_counter() - start
    words = line.split()[1:]
    if words and words[0] not in ("nomate", "timeout", "notimplemented"):
        return elapsed, len(words)
    return None, None


def fairy_times(engine, sfen, plies, limit_ms):
    engine.send("usinewgame")
    engine.send("isready")
    engine.wait("readyok")
    engine.send(f"position sfen {sfen}")
    start = time.perf_counter()
    engine.send(f"go movetime {limit_ms}")
    first = exact = None
    while True:
        line = engine.proc.stdout.readline().rstrip("\n")
        if not line or line.startswith("bestmove"):
            break
        words = line.split()
        if "score" in words:
            i = words.index("score")
            if words[i + 1] == "mate" and int(words[i + 2]) > 0:
                now = time.perf_counter() - start
                if first is None:
                    first = now
                if exact is None and int(words[i + 2]) <= plies:
                    exact = now
                    engine.send("stop")
    return first, exact


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gogo", required=True)
    ap.add_argument("--fairy", required=True)
    ap.add_argument("--data", default="tests/data/tsume.tsv")
    ap.add_argument("--limit", type=int, default=10000, help="ms per problem")
    args = ap.parse_args()
    problems = []
    for line in open(args.data, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        sfen, length = line.rstrip("\n").split("\t")[:2]
        if length != "nomate":
            problems.append((sfen, int(length)))
    gogo = Usi([args.gogo], [("MateHash", 64)])
    fairy = Usi([args.fairy], [("UCI_Variant", "minishogi"), ("Hash", 64), ("Threads", 1)])
    rows = []
    for sfen, plies in problems:
        g, g_len = gogo_time(gogo, sfen, args.limit)
        f_first, f_exact = fairy_times(fairy, sfen, plies, args.limit)
        cap = args.limit / 1000
        rows.append((plies, g if g is not None else cap, f_first or cap, f_exact or cap))
        fmt = lambda x: f"{x * 1000:9.2f}" if x is not None else "  timeout"
        print(f"mate {plies:>2}: gogo {fmt(g)} ms (line {g_len}), fairy first mate {fmt(f_first)} ms, "
              f"shortest {fmt(f_exact)} ms  {sfen}")
    gogo.quit()
    fairy.quit()
    print("| mate in | problems | gogo median | Fairy-Stockfish first mate | shortest mate | ratio (first) |")
    print("|---|---|---|---|---|---|")
    for plies in sorted({r[0] for r in rows}):
        of_length = [r for r in rows if r[0] == plies]
        g, f, e = medians(of_length, 1, 2, 3)
        print(f"| {plies} | {len(of_length)} | {g * 1000:.2f} ms | {f * 1000:.2f} ms | "
              f"{e * 1000:.2f} ms | {f / g:.1f}x |")
    per_problem = statistics.median(r[2] / r[1] for r in rows)
    print(f"median of the per-problem ratios (first mate score / gogo): {per_problem:.1f}x")
    gm, ff, fe = medians(rows, 1, 2, 3)
    print(f"problems: {len(rows)} mates, limit {args.limit} ms (a timeout counts as the limit)")
    print(f"gogo go mate, whole shortest line:     median {gm * 1000:.2f} ms")
    print(f"fairy-stockfish, first mate score:     median {ff * 1000:.2f} ms  ratio {ff / gm:.1f}x")
    print(f"fairy-stockfish, shortest mate score:  median {fe * 1000:.2f} ms  ratio {fe / gm:.1f}x")


if __name__ == "__main__":
    main()
PY

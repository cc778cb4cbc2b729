#!/usr/bin/env bash
# Runs of the same two engines on different opening sets (or otherwise different runs, which
# `gogo-arena merge` refuses to take as one) as one result by pairs: the two games of each
# opening (colours swapped, games 2k-1 and 2k of a file) are one pair, the pairs of all the
# files one pentanomial, and the score of the pairs gives Elo with its 95 % error bar (the
# normal approximation over pairs; a single run's own summary, over games, differs a little).
#
#   scripts/pairs.sh RUN1.jsonl RUN2.jsonl ...   (each file a match's --jsonl record)
#   OPENINGS=scripts/openings-book.txt scripts/match-fairy.sh ... ; scripts/match-fairy.sh ...
#   scripts/pairs.sh target/matches/fairy-A.jsonl target/matches/fairy-B.jsonl
# Scores are for the engine that plays Sente in each file's first game.
set -euo pipefail
if [ $# -lt 1 ]; then sed -n '2,11p' "$0"; exit 2; fi
exec python3 - "$@" <<'PY'
import json, math, sys

penta = [0] * 5
wins = losses = draws = 0
for path in sys.argv[1:]:
    games, engine = {}, None
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if "game" not in record:
                continue
            games[record["game"]] = record
            if record["game"] == 1:
                engine = record["sente"]
    if engine is None:
        sys.exit(f"pairs.sh: {path}: no game 1, so no engine to score")
    def points(r):
        if r["winner"] is None:
            return 1
        side = r["sente"] if r["winner"] == "sente" else r["gote"]
        return 2 if side == engine else 0
    unpaired = 0
    for n in sorted(games):
        if n % 2 == 0:
            continue
        if n + 1 not in games:
            unpaired += 1
            continue
        a, b = points(games[n]), points(games[n + 1])
        penta[a + b] += 1
        for p in (a, b):
            wins += p == 2; losses += p == 0; draws += p == 1
    print(f"{path}: engine {engine}, {unpaired} game(s) without their pair left out", file=sys.stderr)

pairs = sum(penta)
if pairs == 0:
    sys.exit("pairs.sh: no complete pair")
xs = [0, 0.25, 0.5, 0.75, 1]
mean = sum(x * c for x, c in zip(xs, penta)) / pairs
var = sum(c * (x - mean) ** 2 for x, c in zip(xs, penta)) / pairs
se = math.sqrt(var / pairs)
def elo(s):
    s = min(max(s, 1e-9), 1 - 1e-9)
    return -400 * math.log10(1 / s - 1)
error = (elo(mean + 1.96 * se) - elo(mean - 1.96 * se)) / 2
print(f"Score: {wins} - {losses} - {draws} over {pairs} pairs")
print(f"Pentanomial (pairs by the engine's points 0, 0.5, 1, 1.5, 2): {penta}")
print(f"Elo difference: {elo(mean):+.1f} +/- {error:.1f} (lower bound {elo(mean) - error:+.1f})")
PY

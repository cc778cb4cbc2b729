#!/usr/bin/env bash
# The mate probe's share of gogo's thinking time in played games: every position where gogo
# moved in the match files (arena --jsonl) is given to the probe again (`gogo mate --nodes
# 5000`, the probe's node limit; its other limit, a twentieth of the move's time, only
# shortens it, so the share printed is an upper bound), and its time is set against the time
# the move took. Positions where the probe finds a mate are counted apart: there the probe
# is the whole move.
#
#   scripts/probe-share.sh MATCH.jsonl... [--engine NAME (default gogo)]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p gogo-usi
python3 - target/release/gogo "$@" <<'PY'
import json
import re
import statistics
import subprocess
import sys

gogo, args = sys.argv[1], sys.argv[2:]
engine = "gogo"
if "--engine" in args:
    i = args.index("--engine")
    engine = args[i + 1]
    del args[i:i + 2]

probe_ms, move_ms, mates, positions = [], 0, 0, 0
clock = {}  # engine name: [moves, milliseconds], every move of the matches
for path in args:
    for line in open(path):
        game = json.loads(line)
        start = game["start"].split()
        first = 0 if start[1] == "b" else 1  # 0: Sente moves first
        side = {"sente": game["sente"], "gote": game["gote"]}
        times = game["time_ms"]
        for ply in range(game["opening_moves"], len(game["moves"])):
            mover = "sente" if (ply + first) % 2 == 0 else "gote"
            t = ply - game["opening_moves"]
            if t < len(times):
                spent = clock.setdefault(side[mover], [0, 0])
                spent[0] += 1
                spent[1] += times[t]
            if side[mover] != engine or t >= len(times):
                continue
            out = subprocess.run(
                [gogo, "mate", "--sfen", game["start"], "--moves", *game["moves"][:ply],
                 "--nodes", "5000", "--hash", "16"],
                capture_output=True, text=True, check=True)
            ms = float(re.search(r"nodes in ([0-9.]+) ms", out.stderr).group(1))
            positions += 1
            if out.stdout.startswith("mate"):
                mates += 1
                continue
            probe_ms.append(ms)
            move_ms += times[t]
if not positions:
    sys.exit(f"no move of {engine} in the files")
print(f"positions: {positions} moves of {engine}; the probe found a mate in {mates}")
print(f"probe without a mate: median {statistics.median(probe_ms):.2f} ms, "
      f"longest {max(probe_ms):.2f} ms, total {sum(probe_ms) / 1e3:.1f} s")
for name, (moves, ms) in sorted(clock.items()):
    print(f"{name}: {moves} moves, {ms / moves:.0f} ms a move on average")
print(f"share of those moves' time: at most {100 * sum(probe_ms) / max(move_ms, 1):.2f} % "
      f"({sum(probe_ms) / 1e3:.1f} s of {move_ms / 1e3:.1f} s)")
PY

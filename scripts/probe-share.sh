#!/usr/bin/env bash
# The mate probe's share of gogo's thinking time in played games: every position where gogo
# moved in the match files (arena --jsonl) is given to the probe again (`gogo mate --nodes
# 5000`, the probe's node limit; its other limit, a twentieth of the move's time, only
# shortens it, so the share printed is an upper bound), and its time is set against the time
# the move took. Positions where the probe finds a mate are counted apart: there the probe
# is the whole move. It also prints each engine's time a move (mean and median), by move
# number in fives and over all (with the 90th percentile); `--time-only` prints only that,
# without the probes.
#
#   scripts/probe-share.sh MATCH.jsonl... [--engine NAME (default gogo)] [--time-only]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p gogo
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
time_only = "--time-only" in args
args = [a for a in args if a != "--time-only"]

probe_ms, move_ms, mates, positions = [], 0, 0, 0
clock = {}  # engine name: the milliseconds of every move, by the engine's move number
for path in args:
    for line in open(path):
        game = json.loads(line)
        if "header" in game:  # the run's header (gogo-arena writes one first)
            continue
        start = game["start"].split()
        first = 0 if start[1] == "b" else 1  # 0: Sente moves first
        side = {"sente": game["sente"], "gote": game["gote"]}
        times = game["time_ms"]
        for ply in range(game["opening_moves"], len(game["moves"])):
            mover = "sente" if (ply + first) % 2 == 0 else "gote"
            t = ply - game["opening_moves"]
            if t < len(times):
                clock.setdefault(side[mover], []).append((t // 2, times[t]))
            if time_only or side[mover] != engine or t >= len(times):
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
for name, moves in sorted(clock.items()):
    all_ms = [ms for _, ms in moves]
    tenth = sorted(all_ms)[len(all_ms) * 9 // 10]
    print(f"{name}: {len(moves)} moves, {statistics.mean(all_ms):.1f} ms a move on average, "
          f"median {statistics.median(all_ms):.0f} ms, 90th percentile {tenth} ms")
    by_five = {}
    for number, ms in moves:
        by_five.setdefault(number // 5, []).append(ms)
    for five, times in sorted(by_five.items()):
        if len(times) >= 20:  # fewer says little
            print(f"  moves {5 * five + 1:3}-{5 * five + 5:3}: {len(times):5} moves, "
                  f"mean {statistics.mean(times):4.0f} ms, median {statistics.median(times):4.0f} ms")
if time_only:
    sys.exit(0)
if not positions:
    sys.exit(f"no move of {engine} in the files")
print(f"positions: {positions} moves of {engine}; the probe found a mate in {mates}")
print(f"probe without a mate: median {statistics.median(probe_ms):.2f} ms, "
      f"longest {max(probe_ms):.2f} ms, total {sum(probe_ms) / 1e3:.1f} s")
print(f"share of those moves' time: at most {100 * sum(probe_ms) / max(move_ms, 1):.2f} % "
      f"({sum(probe_ms) / 1e3:.1f} s of {move_ms / 1e3:.1f} s)")
PY

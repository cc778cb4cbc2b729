#!/usr/bin/env python3
"""Whether the shards of a match (OUT/shard*.jsonl) hold the same games, move for move, as the
whole match (OUT/whole.jsonl); used by scripts/slurm-local.sh and scripts/parallel-local.sh.
Usage: scripts/same-games.py OUT WHAT (WHAT goes in the line printed on success)."""
import glob
import json
import sys


def games(paths):
    found = {}
    for path in paths:
        for line in open(path):
            value = json.loads(line)
            if "game" in value:  # the run's header is not a game
                found[value["game"]] = value["moves"]
    return found


out, what = sys.argv[1], sys.argv[2]
shards = games(sorted(glob.glob(out + "/shard*.jsonl")))
whole = games([out + "/whole.jsonl"])
if shards != whole:
    sys.exit(f"{what}: the shards' games differ from the whole match's")
print(f"{what}: {len(whole)} games, the merged shards equal the whole match move for move")

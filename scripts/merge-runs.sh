#!/usr/bin/env bash
# Several processes of the same match (the same engines, control and openings, each started
# on its own, not as --shard of one run) as one result: each file's games are numbered on
# from the last even number of the files before it, so that no two share a number and pairs
# stay pairs, then `gogo-arena merge --partial` gives the score, the pentanomial and, with
# --sprt, the verdict.
#
#   scripts/merge-runs.sh RUN1.jsonl RUN2.jsonl ... [-- MERGE_OPTIONS]
#   scripts/merge-runs.sh a.jsonl b.jsonl -- --sprt "elo0=0 elo1=10"
set -euo pipefail
cd "$(dirname "$0")/.."
files=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do files+=("$(realpath "$1")"); shift; done
[ "${1:-}" = -- ] && shift
if [ ${#files[@]} -lt 1 ]; then sed -n '2,9p' "$0"; exit 2; fi
cargo build --release -q -p gogo-arena
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" "${files[@]}" <<'EOF'
import json, os, sys
out_dir, files = sys.argv[1], sys.argv[2:]
offset = 0
for i, path in enumerate(files):
    last = 0
    with open(path) as src, open(os.path.join(out_dir, f"{i:03}.jsonl"), "w") as out:
        for line in src:
            record = json.loads(line)
            if "game" in record:
                last = max(last, record["game"])
                record["game"] += offset
            out.write(json.dumps(record) + "\n")
    offset += last + last % 2
EOF
target/release/gogo-arena merge "$tmp"/*.jsonl --partial "$@" 2>&1 | grep -v 'games missing' || true

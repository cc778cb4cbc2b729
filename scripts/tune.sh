#!/usr/bin/env bash
# Tunes the evaluation weights (crates/search/src/tuned_weights.rs) on positions from
# fairy-stockfish self-play, labelled by each game's result and by fairy-stockfish's score at
# depth 6 (half each), with the Texel tuner crates/search/examples/tune.rs.
#   scripts/tune.sh [games=1600] [passes=30] [extra arena JSON-lines files to take positions from...]
# Work files go to target/tune/. Takes about an hour on 2 cores; check the result with a match
# (scripts/match.sh gogo gogo@HEAD ...) before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy
need_minishogilib
games=${1:-1600} passes=${2:-30}
shift 2 || shift $#
dir=target/tune
mkdir -p $dir
python3 scripts/tune_data.py openings $((games / 2)) $dir/openings.txt
scripts/match.sh fairy fairy -- --tc movetime=10 --games "$games" --openings $dir/openings.txt \
  --concurrency 2 --tolerance 300 --jsonl $dir/selfplay.jsonl | tail -3
python3 scripts/tune_data.py extract $dir/positions.txt $dir/selfplay.jsonl "$@"
# Label in two halves at once.
split -n l/2 -d $dir/positions.txt $dir/part.
for part in $dir/part.0[01]; do
  python3 scripts/tune_data.py label "$part" "$part.labelled" "go depth 6" &
done
wait
cat $dir/part.0[01].labelled > $dir/labelled.txt
cargo run --release -q -p gogo-search --example tune -- --data $dir/labelled.txt \
  --out crates/search/src/tuned_weights.rs --passes "$passes" --threads 2
echo "new weights in crates/search/src/tuned_weights.rs; bench signature:"
cargo run --release -q -- bench 2>&1 | tail -2

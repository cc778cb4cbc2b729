#!/usr/bin/env bash
# Runs every fuzz target in fuzz/ for a fixed time with cargo-fuzz (installed if missing; the
# stable toolchain is told to accept cargo-fuzz's unstable flags with RUSTC_BOOTSTRAP=1).
# New interesting inputs land in fuzz/corpus/<target>/ (commit them: `cargo test` replays
# them); crashes in fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh [seconds-per-target=300] [target...]
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-300}; shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(sfen usi_position play usi_line kif csa network training_data engine_commands engine_messages gui_request room_messages match_records engine_spec puzzle_lines book game_records run_name datagen_starts)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
  before=$(ls "corpus/$t" | wc -l)
  start=$(date +%s)
  status=0
  cargo fuzz run "$t" "corpus/$t" -- -max_total_time="$seconds" -rss_limit_mb=4096 \
    > "/tmp/fuzz-$t.log" 2>&1 || status=$?
  end=$(date +%s)
  after=$(ls "corpus/$t" | wc -l)
  runs=$(grep -o 'Done [0-9]* runs' "/tmp/fuzz-$t.log" | tail -1 || true)
  crashes=$(ls "artifacts/$t" 2>/dev/null | wc -l)
  echo "$t: $((end - start)) s, ${runs:-no summary}, corpus $before -> $after, crash artifacts $crashes, exit $status"
done

#!/usr/bin/env bash
# The USI client's tests (crates/protocol/tests/client.rs) run many times beside one CPU hog
# per core, as a busy CI machine runs them: a race between the client's threads shows only
# so (issue 56). This checkout's tests run against this checkout's client and against the
# client at REV, in alternation; prints, for each, the runs that failed and how often each
# test failed. Each run is bounded (120 s), and the hogs end with the script.
#
#   scripts/client-stress.sh [REV] [RUNS]
#   scripts/client-stress.sh 8b7e3f7 100
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-HEAD}; runs=${2:-100}
dir=$(mktemp -d)
hogs=()
cleanup() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  git worktree remove --force "$dir/ref" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

# Builds the client's test binary in checkout $1; prints its path.
test_binary() {
  (cd "$1" && cargo test -p gogo-protocol --test client --no-run 2>&1) |
    grep -o 'target/debug/deps/client-[0-9a-f]*' | tail -1 | sed "s|^|$1/|"
}

git worktree add -q --detach "$dir/ref" "$rev"
cp crates/protocol/tests/client.rs "$dir/ref/crates/protocol/tests/client.rs"
ref=$(test_binary "$dir/ref")
now=$(test_binary "$PWD")

for _ in $(seq "$(nproc)"); do
  sh -c 'while :; do :; done' &
  hogs+=($!)
done

for i in $(seq "$runs"); do
  for side in ref now; do
    bin=${!side}
    if ! timeout 120 "$bin" --test-threads="$(nproc)" >"$dir/out" 2>&1; then
      echo run >>"$dir/$side.failed"
      grep -o '^test [a-z_]* \.\.\. FAILED' "$dir/out" | awk '{print $2}' >>"$dir/$side.tests" || true
    fi
  done
done

for side in ref now; do
  label=$([ "$side" = ref ] && echo "client at $rev" || echo "this checkout")
  failed=0
  [ -f "$dir/$side.failed" ] && failed=$(wc -l <"$dir/$side.failed")
  echo "$label: $failed of $runs runs failed"
  if [ -s "$dir/$side.tests" ]; then sort "$dir/$side.tests" | uniq -c | sed 's/^/  /'; fi
done

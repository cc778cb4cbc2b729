#!/usr/bin/env bash
# A soak of the browser board's server: starts gogo-gui (with gogo behind it) on a free port,
# opens SESSIONS pages over WebSocket that play engine-against-engine games at a fast clock
# for SECONDS, closes them, and reports gogo-gui's memory (RSS) before and after, its engine
# processes left once the pages are gone (one per page: a board waits for its page to come
# back, up to the idle timeout, 120 s), its threads, every error the pages saw, and the games'
# endings by rule set and result (crates/gui/examples/soak.rs). The second round's pages take
# the places of the first round's boards, which still wait: it shows errors if they cannot.
#
#   scripts/soak-gui.sh [sessions=8] [seconds=600]
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=${1:-8}
seconds=${2:-600}
cargo build --release -q -p gogo -p gogo-gui
cargo build --release -q -p gogo-gui --example soak
out=$(mktemp -d)
target/release/gogo-gui --port 0 --max-sessions "$sessions" > "$out/stdout" 2> "$out/stderr" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$out"' EXIT
for _ in $(seq 1 100); do
  grep -q "open http" "$out/stdout" 2>/dev/null && break
  sleep 0.1
done
url=$(grep -o 'http://[^ ]*' "$out/stdout" | head -1)
[ -n "$url" ] || { echo "gogo-gui printed no address"; cat "$out/stderr"; exit 1; }

rss() { awk '/^VmRSS/ {print $2 " kB"}' "/proc/$server/status"; }
threads() { awk '/^Threads/ {print $2}' "/proc/$server/status"; }
children() {
  local n=0
  for stat in /proc/[0-9]*/stat; do
    # Field 4, after the name in parentheses, is the parent's pid.
    local ppid
    ppid=$(sed 's/^.*) //' "$stat" 2>/dev/null | awk '{print $2}') || continue
    [ "$ppid" = "$server" ] && n=$((n + 1))
  done
  echo "$n"
}

echo "gogo-gui at $url"
echo "before: RSS $(rss), threads $(threads), engine processes $(children)"
target/release/examples/soak "$url" "$sessions" "$seconds" | tee "$out/pages"
during_rss=$(rss)
sleep 3   # the sessions end, their engines are told to quit and are reaped
echo "after:  RSS $(rss) (just after the pages closed: $during_rss), threads $(threads), engine processes $(children)"
# A second round: memory after twice the games says whether it grows with them.
target/release/examples/soak "$url" "$sessions" 20 | grep -E '^  error|^all pages'
sleep 3
echo "after a second round of 20 s: RSS $(rss), threads $(threads), engine processes $(children)"
errors=$(grep -c "WARN\|ERROR\|panicked" "$out/stderr" || true)
echo "server log: $errors warnings or errors"
grep -m 10 "WARN\|ERROR\|panicked" "$out/stderr" || true

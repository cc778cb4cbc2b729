#!/usr/bin/env bash
# The load figures of online play (docs/online.md): for each size, a fresh gogo-gui --online
# on a fresh database, then GAMES games at once between scripted players on loopback, each
# player moving about once a second for SECONDS (crates/gui/examples/online_load.rs). Prints
# one line a size: latencies of the move's acknowledgement and the opponent's update (p50,
# p99), moves a second, the server's CPU and memory, the database's bytes a game, and how
# many stored records differ from what the players saw acknowledged (0 is right).
#
#   scripts/online-load.sh [seconds=30] [sizes...=100 1000 5000]
#   KILL_AT=15 scripts/online-load.sh 40 1000   kills the server with SIGKILL 15 s into each
#     run and starts it again on the same database and port: every page comes back to its
#     seat, and the line also counts the games found lacking an acknowledged move (0 is
#     right); CPU and memory are then the restarted server's.
#   SERVER_PREFIX="perf record -g --" or CLIENT_PREFIX="taskset -c 1" put a command before
#   the server or the load client (a profile, a pinned core).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
sizes=${*:-100 1000 5000}
cargo build --release -q -p gogo-gui
cargo build --release -q -p gogo-gui --example online_load
# Two sockets a game on each side of loopback.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
out=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null; rm -rf "$out"' EXIT
for games in $sizes; do
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  db="$out/games-$games.db"
  start_server() {
    ${SERVER_PREFIX:-} target/release/gogo-gui --online --db "$db" --engine /bin/sh --port "$port" \
      --trust-proxy 127.0.0.1 >> "$out/stdout" 2>> "$out/stderr" &
    server=$!
    echo "$server" > "$out/pid"
    for _ in $(seq 1 100); do
      curl -s -o /dev/null "http://127.0.0.1:$port/online/lobby" && break
      sleep 0.1
    done
  }
  start_server
  ${CLIENT_PREFIX:-} target/release/examples/online_load "http://127.0.0.1:$port" "$games" "$seconds" "$out/pid" "$db" &
  client=$!
  if [ -n "${KILL_AT:-}" ]; then
    sleep "$KILL_AT"
    kill -9 "$server"
    wait "$server" 2>/dev/null || true
    echo "killed the server (SIGKILL) at ${KILL_AT} s; starting it again" >&2
    start_server
    grep "live games taken up again" "$out/stderr" | tail -1 >&2 || true
  fi
  wait "$client"
  kill $server
  wait $server 2>/dev/null || true
  server=
done

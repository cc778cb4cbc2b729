#!/usr/bin/env bash
# The load figures of online play (docs/online.md): for each size, fresh gogo-gui --online
# processes on a fresh database, then GAMES games at once between scripted players on
# loopback, each player moving about once a second for SECONDS
# (crates/gui/examples/online_load.rs). Prints one line a size: latencies of the move's
# acknowledgement and the opponent's update (p50, p99), moves a second, the servers' CPU and
# memory, the database's cost (PostgreSQL: its CPU and WAL a move) and bytes a game, and how
# many stored records differ from what the players saw acknowledged (0 is right).
#
#   scripts/online-load.sh [seconds=30] [sizes...=100 1000 5000]
#   POSTGRES=postgresql:///gogo_test?host=/var/run/postgresql scripts/online-load.sh ...
#     keeps the games on PostgreSQL, in a fresh schema a run (scripts/test-postgres.sh
#     starts a database and prints its URL), instead of a fresh SQLite file.
#   PROCESSES=2 (with POSTGRES) runs two server processes on the one database; each game's
#     players are on different processes, so every update crosses from one to the other.
#   KILL_AT=15 scripts/online-load.sh 40 1000   kills the (first) server with SIGKILL 15 s
#     into each run and starts it again on the same database and port: every page comes
#     back to its seat, and the line also counts the games found lacking an acknowledged
#     move (0 is right); CPU and memory are then the restarted server's.
#   SERVER_PREFIX="perf record -g --" or CLIENT_PREFIX="taskset -c 1" put a command before
#   the server or the load client (a profile, a pinned core).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
sizes=${*:-100 1000 5000}
processes=${PROCESSES:-1}
if [ "$processes" -gt 1 ] && [ -z "${POSTGRES:-}" ]; then
  echo "online-load.sh: several processes share PostgreSQL: set POSTGRES to its URL" >&2
  exit 2
fi
cargo build --release -q -p gogo-gui
cargo build --release -q -p gogo-gui --example online_load
# Two sockets a game on each side of loopback.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
out=$(mktemp -d)
servers=()
stop_servers() {
  for s in "${servers[@]}"; do kill "$s" 2>/dev/null || true; wait "$s" 2>/dev/null || true; done
  servers=()
}
trap 'stop_servers; rm -rf "$out"' EXIT
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
for games in $sizes; do
  if [ -n "${POSTGRES:-}" ]; then
    schema="load_$$_$games"
    psql -q -v ON_ERROR_STOP=1 "$POSTGRES" -c "SET client_min_messages = warning; DROP SCHEMA IF EXISTS $schema CASCADE; CREATE SCHEMA $schema"
    case "$POSTGRES" in *\?*) sep='&' ;; *) sep='?' ;; esac
    db="$POSTGRES${sep}options=-csearch_path%3D$schema"
  else
    db="$out/games-$games.db"
  fi
  ports=() urls=() pids=()
  for i in $(seq 1 "$processes"); do
    ports+=("$(free_port)")
    urls+=("http://127.0.0.1:${ports[-1]}")
    pids+=("$out/pid-$i")
  done
  start_server() { # the i-th process (from 1)
    local i=$1 port=${ports[$(($1 - 1))]}
    ${SERVER_PREFIX:-} target/release/gogo-gui --online --db "$db" --engine /bin/sh --port "$port" \
      --trust-proxy 127.0.0.1 >> "$out/stdout" 2>> "$out/stderr" &
    servers[$i]=$!
    echo "$!" > "$out/pid-$i"
    for _ in $(seq 1 100); do
      curl -s -o /dev/null "http://127.0.0.1:$port/online/lobby" && break
      sleep 0.1
    done
  }
  for i in $(seq 1 "$processes"); do start_server "$i"; done
  join() { local IFS=,; echo "$*"; }
  ${CLIENT_PREFIX:-} target/release/examples/online_load "$(join "${urls[@]}")" "$games" "$seconds" \
    "$(join "${pids[@]}")" "$db" &
  client=$!
  if [ -n "${KILL_AT:-}" ]; then
    sleep "$KILL_AT"
    kill -9 "${servers[1]}"
    wait "${servers[1]}" 2>/dev/null || true
    echo "killed the server (SIGKILL) at ${KILL_AT} s; starting it again" >&2
    start_server 1
    grep "live games taken up again" "$out/stderr" | tail -1 >&2 || true
  fi
  wait "$client"
  stop_servers
  if [ -n "${POSTGRES:-}" ]; then
    psql -q "$POSTGRES" -c "SET client_min_messages = warning; DROP SCHEMA IF EXISTS $schema CASCADE"
  fi
done

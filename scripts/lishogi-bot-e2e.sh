#!/usr/bin/env bash
# Lishogi-Bot (TheYoBots/Lishogi-Bot, the bot bridge lishogi's engines use) against
# `gogo-gui --online` (docs/online.md, "Lishogi-Bot"): it is pointed at this server in its own
# config.yml, with gogo as its engine; a scripted player challenges it to a minishogi game
# with a clock and plays it out through the Board API (its moves from gogo at level 1); the
# script prints how the game ended and checks the stored record. Not run by CI, which cannot
# fetch Lishogi-Bot.
#
#   scripts/lishogi-bot-e2e.sh PATH-TO-A-LISHOGI-BOT-CHECKOUT [clock-seconds=60] [increment=1]
#   LISHOGI_BOT_ARGS=-v (its verbose log), LOG_LINES=N (lines of its log shown at the end)
#
# Lishogi-Bot's Python requirements go into a virtualenv under $GOGO_REF_DIR (pip, PyPI);
# its checkout is only read.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [ -f "$1/lishogi-bot.py" ] || {
  echo "usage: $0 PATH-TO-A-LISHOGI-BOT-CHECKOUT [clock-seconds] [increment]" >&2
  exit 2
}
bot_dir=$(realpath "$1")
limit=${2:-60}
increment=${3:-1}
source scripts/refs.sh
cargo build --release -q -p gogo -p gogo-gui
venv="$GOGO_REF_DIR/lishogi-bot-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q -r "$bot_dir/requirements.txt" >&2
work=$(mktemp -d)
server=
bot=
cleanup() {
  [ -n "$bot" ] && { kill -- -"$bot" 2>/dev/null || kill "$bot" 2>/dev/null; }
  [ -n "$server" ] && kill "$server" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port"
target/release/gogo-gui --online --db "$work/games.db" --engine target/release/gogo \
  --port "$port" > "$work/server.out" 2> "$work/server.log" &
server=$!
for _ in $(seq 1 100); do
  curl -s -o /dev/null "$url/online/lobby" && break
  sleep 0.1
done

# The bot's player and its key, as a person would make them on the page.
made=$(curl -s -X POST "$url/api/token" -H 'Content-Type: application/json' -d '{"name":"gogo-bot"}')
bot_key=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])' <<< "$made")
bot_id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])' <<< "$made")

# Lishogi-Bot's own config.yml, pointed here (its defaults otherwise, greetings included).
cat > "$work/config.yml" <<EOF
token: "$bot_key"
url: "$url/"
engine:
  dir: "$PWD/target/release/"
  name: "gogo"
  protocol: "usi"
  ponder: true
  online_moves:
    lishogi_cloud_analysis:
      enabled: false
  usi_options:
    Threads: 1
  silence_stderr: true
abort_time: 30
fake_think_time: false
rate_limiting_delay: 0
move_overhead: 500
correspondence:
  move_time: 60
  checkin_period: 600
  disconnect_time: 150
  ponder: false
challenge:
  concurrency: 1
  sort_by: "first"
  accept_bot: true
  only_bot: false
  max_increment: 180
  min_increment: 0
  max_byoyomi: 180
  min_byoyomi: 0
  max_base: 315360000
  min_base: 0
  variants:
    - minishogi
  time_controls:
    - ultraBullet
    - bullet
    - blitz
    - rapid
    - classical
  modes:
    - casual
    - rated
greeting:
  hello: "Hi! I'm {me}. Good luck!"
  goodbye: "Good game!"
EOF
# -u: the account is not a BOT yet; Lishogi-Bot upgrades it (POST /api/bot/account/upgrade).
# In a process group of its own: its game processes go when it goes.
(cd "$bot_dir" && exec setsid "$venv/bin/python" lishogi-bot.py -u ${LISHOGI_BOT_ARGS:-} \
  --config "$work/config.yml") > "$work/bot.log" 2>&1 &
bot=$!

# The challenger: a player who plays through the Board API with gogo at level 1.
status=0
"$venv/bin/python" - "$url" "$bot_id" "$limit" "$increment" "$PWD/target/release/gogo" <<'PY' || status=$?
import json, subprocess, sys, time
import requests

url, bot_id, limit, increment, gogo = sys.argv[1:]
me = requests.post(f"{url}/api/token", json={"name": "challenger"}).json()
auth = {"Authorization": f"Bearer {me['token']}"}

# Wait for the bot to be a BOT (it upgrades itself at its start).
for _ in range(200):
    if requests.get(f"{url}/api/user/{bot_id}").json().get("title") == "BOT":
        break
    time.sleep(0.1)
else:
    sys.exit("Lishogi-Bot did not upgrade its account")
print("Lishogi-Bot is up and a BOT", flush=True)

events = requests.get(f"{url}/api/stream/event", headers=auth, stream=True, timeout=120)
challenge = requests.post(f"{url}/api/challenge/{bot_id}", headers=auth, data={
    "variant": "minishogi", "rated": "false", "color": "sente",
    "clock.limit": limit, "clock.increment": increment}).json()
print("challenge", challenge.get("challenge", challenge).get("id"), flush=True)
game_id = None
for line in events.iter_lines():
    if not line:
        continue
    event = json.loads(line)
    if event["type"] == "gameStart":
        game_id = event["game"]["id"]
        break
    if event["type"] == "challengeDeclined":
        sys.exit("Lishogi-Bot declined the challenge")
events.close()
print("game", game_id, "accepted by Lishogi-Bot", flush=True)

engine = subprocess.Popen([gogo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def usi(command, until=None):
    engine.stdin.write(command + "\n"); engine.stdin.flush()
    while until:
        line = engine.stdout.readline()
        if line.startswith(until):
            return line
usi("usi", "usiok"); usi("setoption name Level value 1"); usi("isready", "readyok")

stream = requests.get(f"{url}/api/board/game/stream/{game_id}", headers=auth, stream=True, timeout=120)
state, start = None, None
for line in stream.iter_lines():
    if not line:
        continue
    update = json.loads(line)
    if update["type"] == "gameFull":
        start, state = update["initialSfen"], update["state"]
    elif update["type"] == "gameState":
        state = update
    else:
        continue
    if state["status"] != "started":
        break
    moves = state["moves"].split()
    if len(moves) % 2 == 0:  # our move: we are Sente
        usi(f"position sfen {start} moves {' '.join(moves)}".rstrip())
        best = usi("go movetime 200", "bestmove").split()[1]
        if best == "resign":
            requests.post(f"{url}/api/board/game/{game_id}/resign", headers=auth)
        else:
            requests.post(f"{url}/api/board/game/{game_id}/move/{best}", headers=auth)
engine.stdin.write("quit\n"); engine.stdin.flush()
moves = state["moves"].split()
record = requests.get(f"{url}/online/games/{game_id}").json()
print(f"result: {state['status']}, winner {state.get('winner')}, {len(moves)} plies; "
      f"Lishogi-Bot (gogo) played Gote; the stored record has {len(record['moves'])} plies, "
      f"result {record['result']} ({record['reason']})", flush=True)
if record["moves"] != moves:
    sys.exit("the stored record differs from the stream's moves")
if len(moves) < 2:
    sys.exit("Lishogi-Bot did not play")
PY
echo "--- Lishogi-Bot's log (last lines)" >&2
tail -n "${LOG_LINES:-15}" "$work/bot.log" >&2
exit "$status"

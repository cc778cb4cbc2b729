#!/usr/bin/env bash
# Screenshot of XBoard (headless, under Xvfb) during a game against gogo: gogo plays gogo,
# one game at 1 minute each, and the picture is taken after SECONDS (default 25).
#   scripts/xboard-screenshot.sh [out=docs/xboard.png] [seconds=25]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_xboard headless
cargo build --release -q
xboard_minishogi_args
out=${1:-docs/xboard.png} secs=${2:-25}
mkdir -p "$(dirname "$out")"
display=:$((90 + RANDOM % 100))
home=$(mktemp -d)   # no ~/.xboardrc of the user's changes what XBoard shows
Xvfb "$display" -screen 0 1024x768x24 >/dev/null 2>&1 & xvfb=$!
trap 'kill $xboard $xvfb 2>/dev/null || true; rm -rf "$home"' EXIT
sleep 1
engine="$UCI2WB -s $PWD/target/release/gogo"
HOME=$home DISPLAY=$display "$XBOARD" "${XBOARD_MINISHOGI[@]}" -fcp "$engine" -scp "$engine" \
  -mg 1 -tc 1:00 -inc 0 -boardSize medium -showCoords true -showThinking true \
  -popupExitMessage false -saveSettingsOnExit false >/dev/null 2>&1 & xboard=$!
sleep "$secs"
DISPLAY=$display xdotool mousemove 1000 750 || true   # no tooltip in the picture
sleep 0.5
DISPLAY=$display import -window root -trim +repage "$out"
echo "wrote $out"

#!/usr/bin/env bash
# Play minishogi against gogo in XBoard (Debian xboard, with the USI adapter uci2wb),
# installing both if missing. You play Sente (XBoard's "White", at the bottom); gogo answers.
# Extra arguments go to XBoard, e.g. a 5-minute game with 2 s a move:
#   scripts/xboard.sh -tc 5:00 -inc 2
# gogo against itself, to watch:
#   scripts/xboard.sh -scp "/usr/games/uci2wb -s $PWD/target/release/gogo" -mg 1 -tc 1:00
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_xboard
cargo build --release -q
xboard_minishogi_args
exec "$XBOARD" "${XBOARD_MINISHOGI[@]}" \
  -fcp "$UCI2WB -s $PWD/target/release/gogo" -tc 10:00 -inc 0 "$@"

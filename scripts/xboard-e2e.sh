#!/usr/bin/env bash
# End-to-end proof that gogo plays in XBoard, installing xboard, uci2wb and Xvfb if missing:
#  1. crates/arena/tests/xboard.rs `games_through_uci2wb`: XBoard's side of the XBoard
#     protocol, as XBoard 4.9 sends it, to two `uci2wb -s gogo` adapters; complete games,
#     every move checked with the rules crate;
#  2. `xboard_plays_engine_against_engine`: XBoard itself under Xvfb plays gogo against gogo;
#     the saved game is checked move by move and its result against the rules.
#   scripts/xboard-e2e.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_xboard headless
cargo build --release -q --workspace
exec cargo test --release -q -p gogo-arena --test xboard -- --ignored --test-threads 1

#!/usr/bin/env bash
# Regenerates scripts/openings.txt (see scripts/make_openings.py). Installs fairy-stockfish
# and minishogilib when missing. Arguments go to the Python script (--plies, --depth, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy
need_minishogilib
python3 scripts/make_openings.py --fairy "$FAIRY" "$@" > scripts/openings.txt.new
mv scripts/openings.txt.new scripts/openings.txt
grep -vc '^#' scripts/openings.txt >&2

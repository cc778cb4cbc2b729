#!/usr/bin/env bash
# Regenerates tests/data/perft.tsv from three independent move generators (see
# scripts/gen_perft_data.py). Installs what is missing: Debian fairy-stockfish, PyPI
# minishogilib, npm shogiops (into $GOGO_REF_DIR, default ~/.cache/gogo-refs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy
need_minishogilib
need_shogiops
cp scripts/shogiops-perft.mjs "$GOGO_REF_DIR/"
python3 scripts/gen_perft_data.py --fairy "$FAIRY" --shogiops-dir "$GOGO_REF_DIR" "$@" \
  > tests/data/perft.tsv.new
mv tests/data/perft.tsv.new tests/data/perft.tsv
echo "wrote tests/data/perft.tsv ($(grep -vc '^#' tests/data/perft.tsv) lines with header)" >&2

#!/usr/bin/env bash
# Builds current Fairy-Stockfish from the source inside the PyPI sdist of `pyffish` (the
# engine's src/*.cpp, src/nnue/, src/syzygy/; the Python and JS bindings left out) into a
# cache folder, and prints the engine's path. Cached: the second call only prints it.
#
#   scripts/fairy-build.sh            # prints the path of the stockfish binary
#   FAIRY_PYFFISH_VERSION=0.0.90 scripts/fairy-build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
need_fairy_current
echo "$FAIRY_CURRENT"

#!/usr/bin/env bash
# The browser board end to end in a real headless browser: installs Debian's chromium and
# chromium-driver if missing, then runs crates/gui/tests/browser.rs (a whole game against
# gogo by clicks, every position checked with the rules crate, takeback, SFEN load, KIF save,
# hint, review, the embedded font, a reload, the record, the safeguards). With --screenshots
# it also writes docs/gui-game.png, gui-finished.png, gui-review.png and gui-international.png.
#
#   scripts/gui-e2e.sh [--screenshots]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
cargo build -q -p gogo   # the engine the test plays against
if [ "${1:-}" = --screenshots ]; then export GOGO_SCREENSHOTS="$PWD/docs"; fi
cargo test -q -p gogo-gui --test browser -- --nocapture

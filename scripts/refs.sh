# Sourced by scripts: installs the reference programs when they are missing.
GOGO_REF_DIR=${GOGO_REF_DIR:-$HOME/.cache/gogo-refs}
mkdir -p "$GOGO_REF_DIR"

_apt_updated=""
apt_install() {
  if [ -z "$_apt_updated" ]; then apt-get update -qq >&2; _apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

# Debian fairy-stockfish; sets FAIRY to its path.
need_fairy() {
  FAIRY=$(command -v fairy-stockfish || true)
  [ -n "$FAIRY" ] || { [ -x /usr/games/fairy-stockfish ] && FAIRY=/usr/games/fairy-stockfish; } || true
  if [ -z "$FAIRY" ]; then
    apt_install fairy-stockfish
    FAIRY=/usr/games/fairy-stockfish
  fi
  export FAIRY
}

need_minishogilib() {
  python3 -c 'import minishogilib' 2>/dev/null || pip install -q minishogilib >&2
}

need_shogiops() {
  if [ ! -d "$GOGO_REF_DIR/node_modules/shogiops" ]; then
    (cd "$GOGO_REF_DIR" && { [ -f package.json ] || npm init -y >/dev/null; } \
      && npm install -q shogiops >&2)
  fi
}

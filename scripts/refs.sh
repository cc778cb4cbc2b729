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

# gogo built at a git revision (cached in $GOGO_REF_DIR/builds); prints the binary's path.
gogo_at() {
  local sha dir
  sha=$(git rev-parse --short "$1")
  dir="$GOGO_REF_DIR/builds/$sha"
  if [ ! -x "$dir/target/release/gogo" ]; then
    rm -rf "$dir"; mkdir -p "$(dirname "$dir")"
    git worktree prune
    git worktree add -f --detach "$dir" "$sha" >&2
    (cd "$dir" && cargo build --release -q -p gogo-usi) >&2
  fi
  echo "$dir/target/release/gogo"
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

# Debian xboard and the USI adapter uci2wb (and, with `headless`, Xvfb and ImageMagick for
# runs without a display); sets XBOARD and UCI2WB to their paths.
need_xboard() {
  local missing=()
  command -v xboard >/dev/null || [ -x /usr/games/xboard ] || missing+=(xboard)
  command -v uci2wb >/dev/null || [ -x /usr/games/uci2wb ] || missing+=(uci2wb)
  if [ "${1:-}" = headless ]; then
    command -v xvfb-run >/dev/null || missing+=(xvfb xauth)
    command -v import >/dev/null || missing+=(imagemagick)
    command -v xdotool >/dev/null || missing+=(xdotool)
  fi
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
  XBOARD=$(command -v xboard || echo /usr/games/xboard)
  UCI2WB=$(command -v uci2wb || echo /usr/games/uci2wb)
  export XBOARD UCI2WB
}

# What XBoard needs to play minishogi (it has no built-in start position for a 5x5 shogi
# board): shogi on 5x5 with 5 holdings, the piece table that gives holdings for P S G B R
# (the one GNU Minishogi announces), and the start position, written to target/xboard/.
xboard_minishogi_args() {
  mkdir -p target/xboard
  echo "rbsgk/4p/5/P4/KGSBR[-] w 0 1" > target/xboard/minishogi.fen
  XBOARD_MINISHOGI=(-variant shogi -boardWidth 5 -boardHeight 5 -holdingsSize 5
    -pieceToCharTable "P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k"
    -lpf "$PWD/target/xboard/minishogi.fen")
}

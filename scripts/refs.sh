# Sourced by scripts: installs the reference programs when they are missing, and the
# helpers they share.

# The median of the numbers on stdin, one a line (the mean of the middle two for an even
# count).
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
GOGO_REF_DIR=${GOGO_REF_DIR:-$HOME/.cache/gogo-refs}
mkdir -p "$GOGO_REF_DIR"

# Scripts run side by side (the tests of crates/arena/tests/scale.rs do) would fail on apt's
# own locks; one lock file of ours makes them take turns, and apt waits for a lock held by
# anything else.
_apt_updated=""
apt_install() {
  local wait=(-o DPkg::Lock::Timeout=600)
  (
    flock -w 1200 9 || { echo "apt_install: apt is busy for 20 minutes" >&2; exit 1; }
    if [ -z "$_apt_updated" ]; then apt-get "${wait[@]}" update -qq >&2 || exit 1; fi
    DEBIAN_FRONTEND=noninteractive apt-get "${wait[@]}" install -y -qq "$@" >&2
  ) 9>/var/lock/gogo-apt.lock || return 1
  _apt_updated=1
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
    (cd "$dir" && cargo build --release -q --bin gogo) >&2
  fi
  echo "$dir/target/release/gogo"
}

# Current Fairy-Stockfish, built with g++ from the engine source inside the PyPI sdist of
# pyffish (pyffish.cpp and ffishjs.cpp, the bindings, left out); sets FAIRY_CURRENT to the
# binary. Debian's fairy-stockfish (need_fairy) is the old 11.1.
need_fairy_current() {
  local version=${FAIRY_PYFFISH_VERSION:-0.0.90}
  local dir="$GOGO_REF_DIR/fairy-current-$version"
  FAIRY_CURRENT="$dir/stockfish"
  export FAIRY_CURRENT
  [ -x "$FAIRY_CURRENT" ] && return 0
  command -v g++ >/dev/null || apt_install g++
  rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
  pip download -q --no-deps --no-binary :all: -d "$dir.tmp" "pyffish==$version" >&2
  tar xzf "$dir.tmp"/pyffish-"$version".tar.gz -C "$dir.tmp"
  local src="$dir.tmp/pyffish-$version/src"
  local flags=(-O3 -DNDEBUG -std=c++17 -DIS_64BIT -DNNUE_EMBEDDING_OFF -pthread)
  # What this CPU allows: popcnt, then BMI2's PEXT and AVX2.
  grep -qw popcnt /proc/cpuinfo && flags+=(-DUSE_POPCNT -mpopcnt)
  grep -qw bmi2 /proc/cpuinfo && flags+=(-DUSE_PEXT -mbmi2)
  grep -qw avx2 /proc/cpuinfo && flags+=(-DUSE_AVX2 -mavx2)
  local sources=()
  for f in "$src"/*.cpp "$src"/nnue/*.cpp "$src"/nnue/features/*.cpp "$src"/syzygy/*.cpp; do
    case "$(basename "$f")" in pyffish.cpp|ffishjs.cpp) continue ;; esac
    [ -f "$f" ] && sources+=("$f")
  done
  echo "building Fairy-Stockfish (pyffish $version sdist) with ${flags[*]}" >&2
  g++ "${flags[@]}" -o "$dir.tmp/stockfish" "${sources[@]}" >&2
  mkdir -p "$dir"; mv "$dir.tmp/stockfish" "$FAIRY_CURRENT"; rm -rf "$dir.tmp"
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

#!/usr/bin/env bash
# Plays a match with gogo-arena between two engines named by shortcut:
#   gogo        this checkout's gogo (built in release mode)
#   gogo@REV    gogo built from git revision REV (cached in $GOGO_REF_DIR/builds)
#   fairy       current Fairy-Stockfish (built from the pyffish sdist by scripts/fairy-build.sh),
#               minishogi, one thread, 16 MiB hash (gogo's defaults)
#   fairy11     Debian's fairy-stockfish 11.1 (installed if missing), likewise
#   name=...    any full gogo-arena engine spec
# A shortcut may carry options: gogo,option.Threads=2
# Everything after `--` goes to gogo-arena (see target/release/gogo-arena --help). Without a
# --jsonl of its own, the games are kept in target/runs/match-TIME-PID.jsonl.
#
# Examples:
#   scripts/match.sh gogo fairy -- --tc movetime=200 --games 200 --openings scripts/openings.txt --concurrency 2
#   scripts/match.sh gogo gogo@HEAD~1 -- --tc movetime=100 --games 400 --openings scripts/openings.txt --sprt "elo0=0 elo1=10"
#   scripts/match.sh fairy fairy -- --tc movetime=50 --games 4
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
if [ $# -lt 2 ]; then sed -n '2,16p' "$0"; exit 2; fi
a=$1 b=$2; shift 2
[ "${1:-}" = "--" ] && shift
cargo build --release -q -p gogo -p gogo-arena
# The match plays a copy of this checkout's gogo, named by its checksum: a rebuild during a
# long match must not change the engine halfway (the arena restarts an engine that died).
snapshot=target/match-engines/gogo-$(cksum < target/release/gogo | cut -d' ' -f1)
mkdir -p target/match-engines
[ -x "$snapshot" ] || cp target/release/gogo "$snapshot"

spec() {
  # A shortcut may carry extra settings after a comma: gogo,option.Threads=2
  local base=${1%%,*} extra=""
  [ "$base" != "$1" ] && extra=",${1#*,}"
  case "$base" in
    *=*) echo "$1"; return ;;
  esac
  echo "$(spec_base "$base")$extra"
}

spec_base() {
  case "$1" in
    gogo) echo "name=gogo,cmd=$PWD/$snapshot" ;;
    gogo@*)
      local rev=${1#gogo@}
      echo "name=gogo-$(git rev-parse --short "$rev"),cmd=$(gogo_at "$rev")" ;;
    fairy) need_fairy_current; echo "name=fairy-stockfish,cmd=$FAIRY_CURRENT,option.UCI_Variant=minishogi,option.Threads=1,option.Hash=16" ;;
    fairy11) need_fairy; echo "name=fairy-stockfish-11,cmd=$FAIRY,option.UCI_Variant=minishogi,option.Threads=1,option.Hash=16" ;;
    *=*) echo "$1" ;;
    *) echo "unknown engine shortcut '$1'" >&2; exit 2 ;;
  esac
}
sa=$(spec "$a"); sb=$(spec "$b")
# Two engines with the same name would be confusing in the records.
na=$(sed 's/^name=\([^,]*\).*/\1/' <<<"$sa"); nb=$(sed 's/^name=\([^,]*\).*/\1/' <<<"$sb")
if [ "$na" = "$nb" ]; then sb="name=$nb-2,${sb#*,}"; fi
# Every match keeps its games as JSON lines, so one stopped by hand (an SPRT given up, a
# session's end) can still be read whole with `gogo-arena merge --partial`.
jsonl=()
case " $* " in
  *" --jsonl "* | *" --jsonl="*) ;;
  *)
    mkdir -p target/runs
    jsonl=(--jsonl "target/runs/match-$(date -u +%Y%m%dT%H%M%S)-$$.jsonl")
    echo "match.sh: games are kept in ${jsonl[1]}" >&2 ;;
esac
exec target/release/gogo-arena --engine "$sa" --engine "$sb" "$@" "${jsonl[@]}"

#!/usr/bin/env bash
# Training data as named datagen runs, made again from their names.
#
#   scripts/data.sh make NAME [DIR]      the run NAME in DIR (default target/data): found, or
#                                        played from scratch
#   scripts/data.sh set SET [DIR]        every run of the named set SET in DIR, found or played
#   scripts/data.sh files SET [DIR]      the paths of SET's runs in DIR, for gogo-train --data
#   scripts/data.sh verify FILE [GAMES]  play FILE's first GAMES games (default 200) again and
#                                        check the file holds exactly their records
#   scripts/data.sh list                 the named sets (scripts/data-sets.txt)
#
# A run is named EVAL-sSEED-nNODES-gGAMES-REV.bin (crates/train/src/runs.rs): gogo at
# revision REV plays GAMES games of self-play at NODES nodes a move from seed SEED's random
# openings. EVAL is `classical` (the hand-made evaluation) or a network, genN, taken from the
# commit that made it the default (below), so the same name makes the same games on any
# machine. Both cores are used (game i of a seed is the same game whatever the thread count;
# only the file's order differs). A name may end in -STARTS for openings that start elsewhere
# than at the rule sets' start positions: -puzzles starts them from the positions of the
# puzzles shipped at REV (crates/puzzle/data/puzzles.tsv), with 0 to 3 random plies.
#
# A run already made is looked for before one is played: in DIR, then in ../shared/data (kept
# across machines, but only what its README lists: runs made into it by a session were gone
# at the next), under its name or under the README's shorter EVAL-sSEED-nNODES.bin of a run
# stopped by hand. One found elsewhere is linked into DIR, so DIR holds the whole set and
# `gogo-train --data DIR` reads it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
root=$PWD
default_dir=$root/target/data
shared_dir=$root/../shared/data

# The commit at which each network became the built-in default.
networks="gen1:feb90a9 gen2:701a462 gen3:171c017 gen4:88798da gen5:752dfb3 gen6:115497c gen7:6597fd0"

# The commit that made network $1 the default, or a failure for a name not in $networks.
network_commit() {
  local entry
  for entry in $networks; do
    if [ "${entry%%:*}" = "$1" ]; then echo "${entry#*:}"; return 0; fi
  done
  return 1
}

# Splits a run's name into the globals eval seed nodes games rev, or fails saying why. The
# name is read by gogo-train (crates/train/src/runs.rs), the one reader of the format.
parse_name() {
  local fields
  cargo build --release -q -p gogo-train
  fields=$("$root/target/release/gogo-train" --run-name "$1") || {
    echo "data.sh: $1 is not a run's name" >&2; return 2; }
  read -r eval seed nodes games rev starts <<<"$fields"
  if [ "$eval" != classical ] && ! network_commit "$eval" >/dev/null; then
    echo "data.sh: $1: no network named $eval (classical or one of:$(for e in $networks; do printf ' %s' "${e%%:*}"; done))" >&2
    return 2
  fi
  case "$starts" in
    -|puzzles) ;;
    *) echo "data.sh: $1: no starts named $starts (puzzles)" >&2; return 2 ;;
  esac
}

# The datagen arguments for the openings' starts of $starts at $rev (a file written into
# $1's directory).
starts_arguments() {
  case "$starts" in
    -) ;;
    puzzles)
      local file
      file="$(dirname "$1")/.starts-puzzles-$rev.txt"
      git show "$rev:crates/puzzle/data/puzzles.tsv" | cut -f2 > "$file"
      echo "--starts $file --min-random-plies 0 --max-random-plies 3" ;;
  esac
}

# The --eval argument for $eval played by gogo at $rev: `nnue` when it is that revision's
# built-in network (so the header carries its fitted scale), else the network's file.
eval_argument() {
  if [ "$eval" = classical ]; then echo classical; return; fi
  local commit net=crates/search/nets/default.nnue
  commit=$(network_commit "$eval")
  if [ "$(git rev-parse "$commit:$net")" = "$(git rev-parse "$rev:$net")" ]; then
    echo nnue
  else
    mkdir -p "$root/target/data-nets"
    git show "$commit:$net" > "$root/target/data-nets/$eval.nnue"
    echo "$root/target/data-nets/$eval.nnue"
  fi
}

# Plays $games games of the run into $1.
play() {
  local gogo e starting
  gogo=$(gogo_at "$rev")
  e=$(eval_argument)
  starting=$(starts_arguments "$1")
  echo "== gogo $rev: $games games, $nodes nodes a move, seed $seed, $eval ($e), starts $starts" >&2
  # shellcheck disable=SC2086 # $starting is a list of arguments without spaces
  "$gogo" datagen --games "$games" --nodes "$nodes" --threads "${THREADS:-2}" \
    --seed "$seed" --eval "$e" $starting --out "$1"
}

# The file of run $name made before, in $1 or the shared directory, if there is one: under its
# name, or under the shared README's EVAL-sSEED-nNODES.bin (a run stopped by hand, so its
# game count was not known when it was named).
find_run() {
  local d
  for d in "$1" "$shared_dir"; do
    if [ -f "$d/$name" ]; then echo "$d/$name"; return; fi
    if [ "$starts" = - ] && [ -f "$d/$eval-s$seed-n$nodes.bin" ]; then echo "$d/$eval-s$seed-n$nodes.bin"; return; fi
  done
  return 1
}

make_run() {
  local dir=${2:-$default_dir} found
  parse_name "$1"
  name=$(basename "$1" .bin).bin
  mkdir -p "$dir"
  if found=$(find_run "$dir"); then
    if [ "$found" != "$dir/$name" ]; then ln -sfn "$(realpath "$found")" "$dir/$name"; fi
    echo "data.sh: $dir/$name: made before ($found)" >&2
    return 0
  fi
  # Written under a hidden name and renamed when whole: gogo-train leaves dot files alone.
  play "$dir/.partial-$name"
  mv "$dir/.partial-$name" "$dir/$name"
  echo "$dir/$name"
}

# The runs of a named set, one a line.
set_runs() {
  local line
  line=$(grep -E "^$1( |$)" scripts/data-sets.txt) || {
    echo "data.sh: no set named $1 in scripts/data-sets.txt" >&2; return 2; }
  tr ' ' '\n' <<<"${line#* }" | grep -v '^$'
}

verify() {
  local file=$1 count=${2:-200} tmp
  parse_name "$file"
  [ -f "$file" ] || { echo "data.sh: $file: no such file" >&2; return 2; }
  [ "$count" -le "$games" ] || count=$games
  tmp=$(mktemp -d)
  games=$count THREADS=1 play "$tmp/first.bin" >/dev/null
  python3 - "$file" "$tmp/first.bin" <<'EOF'
import collections, sys
def records(path):
    data = open(path, 'rb').read()
    return data[:32], [data[i:i + 32] for i in range(32, len(data), 32)]
(fh, whole), (ph, part) = records(sys.argv[1]), records(sys.argv[2])
if fh != ph:
    sys.exit(f"headers differ: {fh.hex()} against {ph.hex()}")
missing = collections.Counter(part) - collections.Counter(whole)
if missing:
    sys.exit(f"{sum(missing.values())} of the {len(part)} records of the first games are not in {sys.argv[1]}")
order = "in the same order at its start" if whole[:len(part)] == part else "in another order"
print(f"{sys.argv[1]}: the header and all {len(part)} records of its first games made again, {order}")
EOF
  rm -rf "$tmp"
}

case "${1:-}" in
  make) [ $# -ge 2 ] || { sed -n '2,27p' "$0"; exit 2; }; make_run "$2" "${3:-}" ;;
  set)
    [ $# -ge 2 ] || { sed -n '2,27p' "$0"; exit 2; }
    runs=$(set_runs "$2")
    for run in $runs; do parse_name "$run"; done
    for run in $runs; do make_run "$run" "${3:-$default_dir}"; done ;;
  files)
    [ $# -ge 2 ] || { sed -n '2,27p' "$0"; exit 2; }
    for run in $(set_runs "$2"); do
      f=${3:-$default_dir}/$(basename "$run" .bin).bin
      [ -f "$f" ] || { echo "data.sh: $f is missing: scripts/data.sh set $2 makes it" >&2; exit 1; }
      echo "$f"
    done ;;
  verify) [ $# -ge 2 ] || { sed -n '2,27p' "$0"; exit 2; }; verify "$2" "${3:-200}" ;;
  list) grep -v '^#' scripts/data-sets.txt ;;
  *) sed -n '2,27p' "$0"; exit 2 ;;
esac

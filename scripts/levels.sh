#!/usr/bin/env bash
# Calibrates gogo's strength levels against lishogi's minishogi AI levels, side by side:
# lishogi's level K is current Fairy-Stockfish (scripts/fairy-build.sh) with Skill_Level S,
# `go movetime M depth D` (shoginet's settings, below); gogo's `Level K` gets `go movetime M`.
# Balanced openings (scripts/openings.txt), both colours, one thread each. Then each gogo
# level against the one below it, at the lower level's movetime. Prints docs/levels.md's table.
#
#   scripts/levels.sh [games=100] [levels="1 2 3 4 5 6 7"] [games-for-8-10=40]
#   STEPS=0 scripts/levels.sh 10 "1 3 5 7"     # a quick look, without the level-to-level matches
#   CONCURRENCY=1 scripts/levels.sh ...          # one game at a time (another match beside it)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
levels=${2:-"1 2 3 4 5 6 7"}
high_games=${3:-40}
out=target/levels; mkdir -p "$out"

# lishogi's ladder: level -> Skill_Level, movetime (ms), depth.
skill=(x -9 -5 -1 3 6 9 12 15 18 20)
movetime=(x 50 100 150 200 300 400 500 1000 1500 2000)
depth=(x 5 5 5 5 5 5 8 13 17 22)

# "Score of A vs B: W - L - D [ratio] N" and "Elo difference: E +/- X, LOS: ..." -> "W L D E X"
summary() {
  awk '/^Score of/ { split($0, a, ": "); split(a[2], n, /[^0-9]+/); w = n[1]; l = n[2]; d = n[3] }
       /^Elo difference:/ { e = $3; x = $5; sub(",", "", x) }
       END { print w, l, d, e, x }' "$1"
}

match() {
  local log=$1 n=$2 tc=$3; shift 3
  scripts/match.sh "$@" -- --tc "movetime=$tc" --games "$n" --openings scripts/openings.txt \
    --concurrency "${CONCURRENCY:-2}" --tolerance 100 > "$log" 2> "$log.err"
}

echo "| level | lishogi's settings | games | gogo's score against lishogi's level | Elo | Elo over the level below |"
echo "|---|---|---|---|---|---|"
previous=""
for k in $levels; do
  n=$games; [ "$k" -ge 8 ] && n=$high_games
  m=${movetime[$k]}
  match "$out/level$k.txt" "$n" "$m" "gogo,option.Level=$k,name=gogo-level-$k" \
    "fairy,option.Skill_Level=${skill[$k]},depth=${depth[$k]},name=lishogi-level-$k"
  read -r w l d e x < <(summary "$out/level$k.txt")
  total=$((w + l + d))
  pct=$(awk -v w="$w" -v d="$d" -v t="$total" 'BEGIN { printf "%.1f", t ? 100 * (w + d / 2) / t : 0 }')
  step="—"
  if [ -n "$previous" ] && [ "${STEPS:-1}" != 0 ]; then
    match "$out/step$k.txt" "$n" "${movetime[$previous]}" "gogo,option.Level=$k,name=gogo-level-$k" \
      "gogo,option.Level=$previous,name=gogo-level-$previous"
    read -r sw sl sd se sx < <(summary "$out/step$k.txt")
    step="$se ± $sx ($sw - $sl - $sd)"
  fi
  echo "| $k | Skill_Level ${skill[$k]}, ${m} ms, depth ${depth[$k]} | $total | $pct % ($w - $l - $d) | $e ± $x | $step |"
  previous=$k
done

#!/usr/bin/env bash
# Bench speed of this checkout's gogo against gogo built at another revision, run in
# alternation (the machine is noisy), with the node signatures, the medians and the ratio.
#
#   scripts/bench-compare.sh REV [rounds] [bench args...]
#   scripts/bench-compare.sh HEAD~1 7 --depth 9
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
if [ $# -lt 1 ]; then sed -n '2,6p' "$0"; exit 2; fi
rev=$1; rounds=${2:-7}; shift $(( $# >= 2 ? 2 : 1 ))
cargo build --release -q -p gogo
base=$(gogo_at "$rev")
now=target/release/gogo
declare -a nps_base nps_now
for ((i = 0; i < rounds; i++)); do
  out_base=$("$base" bench "$@" 2>/dev/null)
  out_now=$("$now" bench "$@" 2>/dev/null)
  nps_base+=("$(awk '/Nodes\/second/ {print $2}' <<<"$out_base")")
  nps_now+=("$(awk '/Nodes\/second/ {print $2}' <<<"$out_now")")
done
sig_base=$(awk '/Nodes searched/ {print $3}' <<<"$out_base")
sig_now=$(awk '/Nodes searched/ {print $3}' <<<"$out_now")
m_base=$(printf '%s\n' "${nps_base[@]}" | median); m_now=$(printf '%s\n' "${nps_now[@]}" | median)
echo "gogo@$rev: signature $sig_base, median $m_base nodes/s (${nps_base[*]})"
echo "gogo:      signature $sig_now, median $m_now nodes/s (${nps_now[*]})"
awk -v a="$m_now" -v b="$m_base" 'BEGIN {printf "ratio (this checkout / %s): %.3f\n", "'"$rev"'", a / b}'

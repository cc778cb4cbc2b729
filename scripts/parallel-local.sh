#!/usr/bin/env bash
# The docs' GNU parallel recipe over ssh, run against this machine: sshd on 127.0.0.1:2222
# with a key of its own, rsync for --return, a small match in 4 shards through
# `parallel --sshlogin`, merged and compared with the same match unsharded (fixed nodes: the
# same games). Exit 0 if they agree.
#   scripts/parallel-local.sh test
# Needs root (it installs openssh-server, rsync and parallel, and runs sshd). GOGO_ARENA and
# GOGO_ENGINE name the binaries (else this checkout's release build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/refs.sh
root=$PWD
state=$root/target/parallel
[ "${1:-}" = test ] || { sed -n '2,9p' "$0"; exit 2; }
command -v sshd >/dev/null || [ -x /usr/sbin/sshd ] || apt_install openssh-server
command -v rsync >/dev/null || apt_install rsync
command -v parallel >/dev/null || apt_install parallel
mkdir -p "$state" /run/sshd
key=$state/id_ed25519
[ -f "$key" ] || ssh-keygen -q -t ed25519 -N "" -f "$key"
ssh-keygen -A >/dev/null 2>&1 || true
cp "$key.pub" "$state/authorized_keys"
/usr/sbin/sshd -p 2222 -o ListenAddress=127.0.0.1 -o PermitRootLogin=prohibit-password \
  -o AuthorizedKeysFile="$state/authorized_keys" -o PidFile="$state/sshd.pid" -o StrictModes=no
trap 'kill "$(cat "$state/sshd.pid")" 2>/dev/null || true' EXIT
ssh_cmd="ssh -p 2222 -i $key -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
for _ in $(seq 1 50); do $ssh_cmd root@127.0.0.1 true 2>/dev/null && break; sleep 0.2; done
if [ -z "${GOGO_ARENA:-}" ] || [ -z "${GOGO_ENGINE:-}" ]; then
  cargo build --release -q -p gogo -p gogo-arena
fi
arena=${GOGO_ARENA:-$root/target/release/gogo-arena}
engine=${GOGO_ENGINE:-$root/target/release/gogo}
out=$state/run work=$state/remote-work n=4
rm -rf "$out" "$work"; mkdir -p "$out" "$work"
printf 'startpos\n' > "$out/openings.txt"
sed -n '/^[^#]/p' scripts/openings.txt | head -6 >> "$out/openings.txt"
args="--engine name=A,cmd=$engine --engine name=B,cmd=$engine,option.UseNNUE=false --tc nodes=3000 --games 16 --openings $out/openings.txt"
# The docs' recipe: N once; each task writes into the remote working directory and
# --return brings its file back here (rsync).
(cd "$out" && seq 1 $n | parallel --sshlogin "2/$ssh_cmd root@127.0.0.1" --workdir "$work" --return 'shard{}.jsonl' \
  "TASK={} GOGO_ARENA=$arena $root/scripts/shard-job.sh $root . $n $args" 2>/dev/null)
"$arena" merge "$out"/shard*.jsonl > "$out/merged.txt"
# shellcheck disable=SC2086
"$arena" $args --jsonl "$out/whole.jsonl" > "$out/whole.txt" 2>/dev/null
a=$(grep -E '^(Score of|Pentanomial|Endings)' "$out/merged.txt")
b=$(grep -E '^(Score of|Pentanomial|Endings)' "$out/whole.txt")
[ "$a" = "$b" ] || { echo "parallel-local: the merged shards differ from the whole match:"; echo "$a"; echo "$b"; exit 1; }
python3 scripts/same-games.py "$out" "parallel-local: over ssh"

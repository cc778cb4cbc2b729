#!/usr/bin/env bash
# A PostgreSQL database for the tests (Debian's server, installed where missing): starts the
# newest cluster, makes a superuser role for this user and the database gogo_test, and prints
# the URL to put in GOGO_TEST_POSTGRES (crates/store/tests run on it then). Run as root, as
# .ci/run is; elsewhere, say what to do and print nothing.
#
#   export GOGO_TEST_POSTGRES=$(scripts/test-postgres.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
  echo "test-postgres.sh: run as root (to install and start PostgreSQL), or set" \
    "GOGO_TEST_POSTGRES to a database you may create schemas in" >&2
  exit 0
fi
source scripts/refs.sh
command -v pg_ctlcluster > /dev/null || apt_install postgresql
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
pg_lsclusters -h | grep -q "^$version *main " || pg_createcluster "$version" main >&2
pg_lsclusters -h | grep -q "^$version *main .*online" || pg_ctlcluster "$version" main start >&2
as_postgres() { runuser -u postgres -- "$@"; }
user=$(id -un)
for _ in $(seq 1 50); do as_postgres psql -qtAc "SELECT 1" > /dev/null 2>&1 && break; sleep 0.2; done
[ "$(as_postgres psql -qtAc "SELECT 1 FROM pg_roles WHERE rolname = '$user'")" = 1 ] ||
  as_postgres createuser --superuser "$user" >&2
[ "$(as_postgres psql -qtAc "SELECT 1 FROM pg_database WHERE datname = 'gogo_test'")" = 1 ] ||
  as_postgres createdb --owner "$user" gogo_test >&2
socket_dir=$(as_postgres psql -qtAc "SHOW unix_socket_directories" | cut -d, -f1)
echo "postgresql:///gogo_test?host=$socket_dir"

#!/usr/bin/env bash
# `ci/with-postgres.sh CMD...`: starts a throwaway PostgreSQL cluster (ci/postgres/start.sh) on a free loopback
# port, runs CMD with POSTGRES_URL set, stops and removes the cluster, and exits with CMD's status (97 when the
# cluster cannot start). The benchmarks run it with POSTGRES_SYNCHRONOUS_COMMIT=on, as production would.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp/servers
export POSTGRES_STATE="${POSTGRES_STATE:-.tmp/servers/postgres-only}"
trap 'ci/postgres/stop.sh' EXIT
if ! POSTGRES_URL="$(ci/postgres/start.sh 2>.tmp/servers/postgres-only.start.log)"; then
  echo "PostgreSQL did not start:"
  cat .tmp/servers/postgres-only.start.log
  exit 97
fi
export POSTGRES_URL
"$@"

#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster (Debian's PostgreSQL, as ci/ferretdb/start.sh does for FerretDB) on
# 127.0.0.1 for the PostgreSQL event store, creates the database `events`, waits until it answers, and prints
# its URL (postgres://postgres@127.0.0.1:PORT/events). stop.sh stops it and removes it.
#
# Env: POSTGRES_PORT (a free port), POSTGRES_STATE (.tmp/servers/postgres), POSTGRES_START_TIMEOUT (30 s),
# POSTGRES_SYNCHRONOUS_COMMIT (off: the suites kill our processes, never the database's; the benchmarks pass on).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${POSTGRES_STATE:-$here/../../.tmp/servers/postgres}"
timeout="${POSTGRES_START_TIMEOUT:-30}"
sync="${POSTGRES_SYNCHRONOUS_COMMIT:-off}"
# shellcheck source=../ferretdb/postgres.sh
source "$here/../ferretdb/postgres.sh"
[ -n "$pgbin" ] || { echo "postgres: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
port="${POSTGRES_PORT:-$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}"

"$here/stop.sh" >/dev/null 2>&1 || true
rm -rf "$state" && mkdir -p "$state"
state="$(cd "$state" && pwd)"
# As root the cluster belongs to Debian's postgres user, in a directory of its own under /tmp (the
# checkout's parents may be closed to that user).
pgdir="$(mktemp -d /tmp/svc-events-pg.XXXXXX)"
echo "$pgdir" >"$state/pgdir"
[ "${#as_pg[@]}" -eq 0 ] || chown postgres "$pgdir"
"${as_pg[@]}" "$pgbin/initdb" -D "$pgdir/data" -A trust -U postgres --no-sync >"$state/initdb.log" 2>&1 ||
  { echo "postgres: initdb failed:" >&2; cat "$state/initdb.log" >&2; exit 1; }
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/postgresql.log" -w -t "$timeout" start \
  -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c synchronous_commit=$sync -c max_connections=300" >&2 ||
  { echo "postgres: did not start:" >&2; tail -n 30 "$pgdir/postgresql.log" >&2 || true; exit 1; }
"${as_pg[@]}" "$pgbin/createdb" -h 127.0.0.1 -p "$port" -U postgres events
echo "postgres: $("$pgbin/postgres" --version), synchronous_commit=$sync" >&2
echo "postgres://postgres@127.0.0.1:$port/events"

#!/usr/bin/env bash
# Starts FerretDB v1 on 127.0.0.1 through our wrapper (main.go), building it from the Go module proxy on first
# use, on fresh data; waits (bounded) until it accepts connections. Prints the MongoDB URL.
#
# Backend: Debian's PostgreSQL when it is installed (`.ci/run` installs it), else SQLite. FerretDB 1.24's SQLite
# backend scans the whole collection for every write by `_id` (its `_id` index is on another expression than
# its query), so a write costs 15-30 ms at 5,000 documents and a restart's catch-up grows with the square of
# the tail; on PostgreSQL the same write is 2-3.5 ms whatever the size (docs/operations.md).
#
# Env: FERRETDB_PORT (27018), FERRETDB_STATE (.tmp/servers/ferretdb), FERRETDB_START_TIMEOUT (30 s),
# FERRETDB_BACKEND (postgresql when installed, else sqlite), FERRETDB_PG_PORT (a free port).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
port="${FERRETDB_PORT:-27018}"
state="${FERRETDB_STATE:-$here/../../.tmp/servers/ferretdb}"
timeout="${FERRETDB_START_TIMEOUT:-30}"
bin="$here/target/ferretdb-run"
# shellcheck source=postgres.sh
source "$here/postgres.sh"
backend="${FERRETDB_BACKEND:-$([ -n "$pgbin" ] && echo postgresql || echo sqlite)}"

if [ ! -x "$bin" ]; then
  echo "ferretdb: building the wrapper from the Go module proxy (go build)" >&2
  (cd "$here" && go build -o "$bin" .)
fi

if [ -f "$state/pid" ] && kill -0 "$(cat "$state/pid")" 2>/dev/null; then
  echo "ferretdb: already running (pid $(cat "$state/pid"))" >&2
  echo "mongodb://127.0.0.1:$port/?directConnection=true"
  exit 0
fi
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "ferretdb: port $port is taken by another process; set FERRETDB_PORT" >&2
  exit 1
fi

"$here/stop.sh" >/dev/null 2>&1 || true
rm -rf "$state" && mkdir -p "$state/data"
state="$(cd "$state" && pwd)"

if [ "$backend" = postgresql ]; then
  [ -n "$pgbin" ] || { echo "ferretdb: FERRETDB_BACKEND=postgresql, but PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
  pg_port="${FERRETDB_PG_PORT:-$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}"
  # As root the cluster belongs to Debian's postgres user, in a directory of its own under /tmp (the
  # checkout's parents may be closed to that user). stop.sh removes it.
  pgdir="$(mktemp -d /tmp/svc-ferretdb-pg.XXXXXX)"
  echo "$pgdir" >"$state/pgdir"
  [ "${#as_pg[@]}" -eq 0 ] || chown postgres "$pgdir"
  "${as_pg[@]}" "$pgbin/initdb" -D "$pgdir/data" -A trust -U postgres --no-sync >"$state/initdb.log" 2>&1 ||
    { echo "ferretdb: initdb failed:" >&2; cat "$state/initdb.log" >&2; exit 1; }
  # A test server: no fsync per commit (the suites kill our processes, never the database's).
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/postgresql.log" -w -t "$timeout" start \
    -o "-p $pg_port -k $pgdir -c listen_addresses=127.0.0.1 -c synchronous_commit=off -c max_connections=200" >&2 ||
    { echo "ferretdb: PostgreSQL did not start:" >&2; tail -n 30 "$pgdir/postgresql.log" >&2 || true; exit 1; }
  "${as_pg[@]}" "$pgbin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres ferretdb
  export FERRETDB_POSTGRESQL_URL="postgres://postgres@127.0.0.1:$pg_port/ferretdb"
fi

FERRETDB_ADDR="127.0.0.1:$port" FERRETDB_DIR="$state/data" nohup "$bin" >"$state/ferretdb.log" 2>&1 &
echo $! >"$state/pid"

for _ in $(seq 1 "$((timeout * 10))"); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "ferretdb: $backend backend" >&2
    echo "$backend" >"$state/backend"
    echo "mongodb://127.0.0.1:$port/?directConnection=true"
    exit 0
  fi
  if ! kill -0 "$(cat "$state/pid")" 2>/dev/null; then break; fi
  sleep 0.1
done
echo "ferretdb: not ready after ${timeout}s; last lines of $state/ferretdb.log:" >&2
tail -n 30 "$state/ferretdb.log" >&2 || true
"$here/stop.sh" >&2 || true
exit 1

#!/usr/bin/env bash
# Stops what start.sh started: FerretDB (SIGTERM, SIGKILL after 10 s), then its PostgreSQL cluster, if any,
# which it removes.
here="$(cd "$(dirname "$0")" && pwd)"
state="${FERRETDB_STATE:-$here/../../.tmp/servers/ferretdb}"
"$here/../stop-pid.sh" "$state" 10
if [ -f "$state/pgdir" ]; then
  pgdir="$(cat "$state/pgdir")"
  # shellcheck source=postgres.sh
  source "$here/postgres.sh"
  if [ -n "$pgbin" ] && [ -f "$pgdir/data/postmaster.pid" ]; then
    "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -m fast -w -t 20 stop >/dev/null 2>&1 ||
      kill -9 "$(head -n 1 "$pgdir/data/postmaster.pid")" 2>/dev/null
  fi
  rm -rf "$pgdir" "$state/pgdir"
fi
exit 0

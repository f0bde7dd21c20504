#!/usr/bin/env bash
# Stops the cluster start.sh started and removes it.
here="$(cd "$(dirname "$0")" && pwd)"
state="${POSTGRES_STATE:-$here/../../.tmp/servers/postgres}"
[ -f "$state/pgdir" ] || exit 0
pgdir="$(cat "$state/pgdir")"
# shellcheck source=../ferretdb/postgres.sh
source "$here/../ferretdb/postgres.sh"
if [ -n "$pgbin" ] && [ -f "$pgdir/data/postmaster.pid" ]; then
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -m fast -w -t 20 stop >/dev/null 2>&1 ||
    kill -9 "$(head -n 1 "$pgdir/data/postmaster.pid")" 2>/dev/null
fi
rm -rf "$pgdir" "$state/pgdir"
exit 0

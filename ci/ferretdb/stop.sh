#!/usr/bin/env bash
# Stops the server started by start.sh: SIGTERM, SIGKILL after 10 s.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${FERRETDB_STATE:-$here/../../.tmp/servers/ferretdb}"
[ -f "$state/pid" ] || exit 0
pid="$(cat "$state/pid")"
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid" 2>/dev/null
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
fi
rm -f "$state/pid"

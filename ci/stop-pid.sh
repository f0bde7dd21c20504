#!/usr/bin/env bash
# Stops the server whose pid a start script wrote to <state>/pid: SIGTERM, SIGKILL after <grace> seconds.
# Usage: ci/stop-pid.sh <state-dir> <grace-seconds>
set -uo pipefail
state="$1"
grace="$2"
[ -f "$state/pid" ] || exit 0
pid="$(cat "$state/pid")"
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid" 2>/dev/null
  for _ in $(seq 1 "$((grace * 4))"); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
fi
rm -f "$state/pid"

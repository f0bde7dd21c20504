#!/usr/bin/env bash
# Stops the broker started by start.sh: SIGTERM (controlled shutdown), SIGKILL after 20 s.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${KAFKA_STATE:-$here/../../.tmp/servers/kafka}"
[ -f "$state/pid" ] || exit 0
pid="$(cat "$state/pid")"
if kill -0 "$pid" 2>/dev/null; then
  kill "$pid" 2>/dev/null
  for _ in $(seq 1 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
fi
rm -f "$state/pid"

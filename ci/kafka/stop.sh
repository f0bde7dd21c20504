#!/usr/bin/env bash
# Stops the broker started by start.sh: SIGTERM (controlled shutdown), SIGKILL after 20 s.
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../stop-pid.sh" "${KAFKA_STATE:-$here/../../.tmp/servers/kafka}" 20

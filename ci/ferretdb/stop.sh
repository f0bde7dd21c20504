#!/usr/bin/env bash
# Stops the server started by start.sh: SIGTERM, SIGKILL after 10 s.
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../stop-pid.sh" "${FERRETDB_STATE:-$here/../../.tmp/servers/ferretdb}" 10

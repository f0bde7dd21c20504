#!/usr/bin/env bash
# Starts FerretDB v1 (SQLite backend) on 127.0.0.1 through our wrapper (main.go), building it from the Go
# module proxy on first use, on a fresh data directory; waits (bounded) until it accepts connections.
# Prints the MongoDB URL. Env: FERRETDB_PORT (27018), FERRETDB_STATE (.tmp/servers/ferretdb),
# FERRETDB_START_TIMEOUT (30 s).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
port="${FERRETDB_PORT:-27018}"
state="${FERRETDB_STATE:-$here/../../.tmp/servers/ferretdb}"
timeout="${FERRETDB_START_TIMEOUT:-30}"
bin="$here/target/ferretdb-run"

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

rm -rf "$state" && mkdir -p "$state/data"
state="$(cd "$state" && pwd)"
FERRETDB_ADDR="127.0.0.1:$port" FERRETDB_DIR="$state/data" nohup "$bin" >"$state/ferretdb.log" 2>&1 &
echo $! >"$state/pid"

for _ in $(seq 1 "$((timeout * 10))"); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
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

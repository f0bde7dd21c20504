#!/usr/bin/env bash
# `npm run test:external`: starts a real Kafka broker and FerretDB (building them on first use: Kafka jars via
# mvn, the FerretDB wrapper via go build), runs vitest.external.config.ts against them with BUS=kafka and
# READ_STORE=mongo, stops both, and prints the plain line `N passed, N failed, N skipped` last.
# A server that cannot start counts as one failed test (the suites would otherwise only be skipped).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp/servers
trap 'ci/kafka/stop.sh; ci/ferretdb/stop.sh' EXIT

# Free loopback ports unless given: another checkout on the same machine may be running its own servers.
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
export KAFKA_PORT="${KAFKA_PORT:-$(free_port)}"
export KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$(free_port)}"
export FERRETDB_PORT="${FERRETDB_PORT:-$(free_port)}"

started=$SECONDS
ci/kafka/start.sh >.tmp/servers/kafka.address 2>.tmp/servers/kafka.start.log &
kafka_pid=$!
ci/ferretdb/start.sh >.tmp/servers/ferretdb.address 2>.tmp/servers/ferretdb.start.log &
ferret_pid=$!
failed=0
wait "$kafka_pid" || { echo "Kafka did not start:"; cat .tmp/servers/kafka.start.log; failed=1; }
wait "$ferret_pid" || { echo "FerretDB did not start:"; cat .tmp/servers/ferretdb.start.log; failed=1; }
if [ "$failed" -ne 0 ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "== servers ready in $((SECONDS - started)) s: Kafka $(cat .tmp/servers/kafka.address), $(cat .tmp/servers/ferretdb.address)"

export KAFKA_BROKERS="$(cat .tmp/servers/kafka.address)"
export MONGO_URL="$(cat .tmp/servers/ferretdb.address)"
# A killed test process holds its partitions for the session timeout: 6 s (Kafka's minimum) instead of 30 s.
export BUS=kafka READ_STORE=mongo KAFKA_SESSION_TIMEOUT_MS=6000 KAFKAJS_NO_PARTITIONER_WARNING=1
# run-vitest.mjs prints the closing line; nothing may be printed after it (the stop scripts are silent).
node test/support/run-vitest.mjs --config vitest.external.config.ts "$@"

#!/usr/bin/env bash
# `ci/with-servers.sh CMD...`: starts a real Kafka broker, FerretDB and a PostgreSQL cluster for the event store
# on free loopback ports (building them on first use: Kafka jars via mvn, the FerretDB wrapper via go build),
# runs CMD with BUS=kafka, READ_STORE=mongo, KAFKA_BROKERS, MONGO_URL and POSTGRES_URL set (the event store stays
# embedded unless CMD's environment says EVENT_STORE=postgres), stops them, and exits with CMD's status. Exit 97
# when a server cannot start.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp/servers
trap 'ci/kafka/stop.sh; ci/ferretdb/stop.sh; ci/postgres/stop.sh' EXIT

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
ci/postgres/start.sh >.tmp/servers/postgres.address 2>.tmp/servers/postgres.start.log &
postgres_pid=$!
failed=0
wait "$kafka_pid" || { echo "Kafka did not start:"; cat .tmp/servers/kafka.start.log; failed=1; }
wait "$ferret_pid" || { echo "FerretDB did not start:"; cat .tmp/servers/ferretdb.start.log; failed=1; }
wait "$postgres_pid" || { echo "PostgreSQL did not start:"; cat .tmp/servers/postgres.start.log; failed=1; }
[ "$failed" -eq 0 ] || exit 97
echo "== servers ready in $((SECONDS - started)) s: Kafka $(cat .tmp/servers/kafka.address), $(cat .tmp/servers/ferretdb.address), $(cat .tmp/servers/postgres.address)"

export KAFKA_BROKERS="$(cat .tmp/servers/kafka.address)"
export MONGO_URL="$(cat .tmp/servers/ferretdb.address)"
export POSTGRES_URL="$(cat .tmp/servers/postgres.address)"
# Which backend FerretDB keeps its data in (postgresql or sqlite): benchmarks print it beside their figures.
FERRETDB_BACKEND="$(cat "${FERRETDB_STATE:-.tmp/servers/ferretdb}/backend" 2>/dev/null || echo unknown)"
export FERRETDB_BACKEND
# A killed process holds its partitions for the session timeout: 6 s (Kafka's minimum) instead of 30 s.
export BUS=kafka READ_STORE=mongo KAFKA_SESSION_TIMEOUT_MS=6000 KAFKAJS_NO_PARTITIONER_WARNING=1
"$@"

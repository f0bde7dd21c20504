#!/usr/bin/env bash
# Starts a real single-node Kafka 3.9 broker (KRaft) on 127.0.0.1 from Maven Central jars, on a fresh data
# directory, and waits (bounded) until it serves. Prints the bootstrap address. Env: KAFKA_PORT (19092),
# KAFKA_CONTROLLER_PORT (19093), KAFKA_STATE (.tmp/servers/kafka), KAFKA_START_TIMEOUT (90 s).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
port="${KAFKA_PORT:-19092}"
controller="${KAFKA_CONTROLLER_PORT:-19093}"
state="${KAFKA_STATE:-$here/../../.tmp/servers/kafka}"
timeout="${KAFKA_START_TIMEOUT:-90}"

if [ ! -f "$here/target/lib/.complete" ]; then
  echo "kafka: fetching broker jars from Maven Central (mvn package)" >&2
  mvn -B -q -f "$here/pom.xml" package >&2
  touch "$here/target/lib/.complete"
fi

if [ -f "$state/pid" ] && kill -0 "$(cat "$state/pid")" 2>/dev/null; then
  echo "kafka: already running (pid $(cat "$state/pid"))" >&2
  echo "127.0.0.1:$port"
  exit 0
fi
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "kafka: port $port is taken by another process; set KAFKA_PORT" >&2
  exit 1
fi

rm -rf "$state" && mkdir -p "$state"
state="$(cd "$state" && pwd)"
sed -e "s#@PORT@#$port#g" -e "s#@CONTROLLER_PORT@#$controller#g" -e "s#@DATA@#$state#g" \
  "$here/server.properties.template" >"$state/server.properties"
lib="$here/target/lib/*"
# The scripts' default heap is 1 GiB; 512 MiB is plenty for tests. Without -Xmx the JVM takes 1/4 of RAM.
jopts=(-Xms256m -Xmx512m -XX:+UseG1GC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true
  "-Dlog4j.configuration=file:$here/log4j.properties")
cluster="$(java -cp "$lib" kafka.tools.StorageTool random-uuid 2>/dev/null)"
java "${jopts[@]}" -cp "$lib" kafka.tools.StorageTool format -t "$cluster" -c "$state/server.properties" >"$state/format.log" 2>&1
nohup java "${jopts[@]}" -cp "$lib" kafka.Kafka "$state/server.properties" >"$state/broker.log" 2>&1 &
echo $! >"$state/pid"

for _ in $(seq 1 "$((timeout * 4))"); do
  if grep -qE 'Kafka Server started|BrokerServer id=[0-9]+] Transition from STARTING to STARTED' "$state/broker.log"; then
    echo "127.0.0.1:$port"
    exit 0
  fi
  if ! kill -0 "$(cat "$state/pid")" 2>/dev/null; then break; fi
  sleep 0.25
done
echo "kafka: not ready after ${timeout}s; last lines of $state/broker.log:" >&2
tail -n 30 "$state/broker.log" >&2 || true
"$here/stop.sh" >&2 || true
exit 1

#!/usr/bin/env bash
# The API contract test: Schemathesis (PyPI, pinned, in a venv under .tmp/) against the service's own
# OpenAPI documents, with response-schema and status-code conformance on. Starts the service embedded on
# free loopback ports with a fresh data directory and the tests' source fixtures, opens a funded account
# with a key through the CLI, runs Schemathesis on /v2/openapi.json (and the x402 app's document when it
# serves one), stops the service, and prints `N passed, N failed` (operations) last, for ci/sum-results.mjs.
# Usage: ci/contract-test.sh [--max-examples N] [extra schemathesis options...]
set -uo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
MAX_EXAMPLES="${CONTRACT_MAX_EXAMPLES:-25}"
VENV=.tmp/schemathesis-venv
STATE=.tmp/contract
mkdir -p "$STATE"
rm -f "$STATE"/*.xml "$STATE"/*.log

if [ "$("$VENV/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
  echo "== install schemathesis $SCHEMATHESIS_VERSION into $VENV"
  { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION"; } || {
    echo "could not install schemathesis"
    echo "0 passed, 1 failed"
    exit 1
  }
fi

free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
PORT="$(free_port)"
X402_PORT="$(free_port)"
DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/svc-contract-XXXXXX")"
trap 'ci/stop-pid.sh "$STATE" 15; rm -rf "$DATA_DIR"' EXIT

# The x402 channel on, with a local facilitator whose chain is unreachable: every quote and refusal is
# real; no payment can settle (Schemathesis cannot sign one anyway). The keys are made up. Rate limits out
# of the way: a 429 on most calls would leave the routes' own logic untested.
export DATA_DIR PORT X402_PORT HOST=127.0.0.1 LOG_LEVEL=warn SVC_PASSWORD_SCRYPT_LOG_N=10 \
  SVC_SOURCES_DIR="${CONTRACT_SOURCES_DIR:-test/fixtures/sources}" \
  X402_PAY_TO=0x00000000000000000000000000000000c0ffee01 X402_FACILITATOR=local X402_RPC_URL=http://127.0.0.1:9/ \
  X402_GAS_WALLET_KEY=0x1111111111111111111111111111111111111111111111111111111111111111 X402_RPC_TIMEOUT_MS=500 \
  X402_PAID_CALLS_PER_MINUTE=1000000 X402_FREE_CALLS_PER_MINUTE=1000000

echo "== start the service on 127.0.0.1:$PORT (x402 on $X402_PORT), data in $DATA_DIR"
node --import tsx infra/main.ts >"$STATE/service.log" 2>&1 &
echo $! >"$STATE/pid"
base="http://127.0.0.1:$PORT"
x402_base="http://127.0.0.1:$X402_PORT"
for _ in $(seq 1 240); do
  curl -fsS "$base/v2/health" >/dev/null 2>&1 && break
  kill -0 "$(cat "$STATE/pid")" 2>/dev/null || break
  sleep 0.5
done
if ! curl -fsS "$base/v2/health" >/dev/null 2>&1; then
  echo "the service did not start:"
  tail -n 30 "$STATE/service.log"
  echo "0 passed, 1 failed"
  exit 1
fi

echo "== a funded account with a key (the CLI, through the running service)"
account="$(node --import tsx infra/cli/main.ts account create --email contract@example.test --org Contract --subgroup Tests --plan ledger --deposit 1000 --inspect --with-key)"
API_KEY="$(node -e 'const a=JSON.parse(process.argv[1]);if(!a.api_key)process.exit(1);console.log(a.api_key)' "$account")" || {
  echo "could not open an account: $account"
  echo "0 passed, 1 failed"
  exit 1
}

# Bounded: a fixed number of examples per operation and phase, a fixed seed (a failure reproduces). One
# worker: Hypothesis' lambda descriptions call ast.parse, which CPython 3.11 does not survive from two threads.
run_schemathesis() {
  local name="$1" document="$2"
  shift 2
  echo "== schemathesis: $name ($document)"
  "$VENV/bin/schemathesis" --config-file ci/schemathesis.toml run "$document" \
    --checks not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "$MAX_EXAMPLES" --seed 17 --workers 1 --request-timeout 20 \
    --suppress-health-check all --no-color --generation-database none \
    --report junit --report-junit-path "$STATE/$name.xml" \
    "$@" 2>&1 | tee "$STATE/$name.log"
}

status=0
run_schemathesis v2 "$base/v2/openapi.json" -H "Authorization: Bearer $API_KEY" "$@" || status=1
reports=("$STATE/v2.xml")
x402_document="$x402_base/openapi.json"
if [ "$(curl -sS -o /dev/null -w '%{http_code}' "$x402_document" 2>/dev/null)" = "200" ]; then
  run_schemathesis x402 "$x402_document" "$@" || status=1
  reports+=("$STATE/x402.xml")
else
  echo "== x402: the app serves no /openapi.json: not tested"
fi

ci/stop-pid.sh "$STATE" 15
node ci/contract-summary.mjs "${reports[@]}" || status=1
exit "$status"

#!/usr/bin/env bash
# `npm run test:external`: runs vitest.external.config.ts against a real Kafka broker, FerretDB and PostgreSQL
# (ci/with-servers.sh starts and stops them) in two passes (ci/external-passes.sh) and prints the plain line
# `N passed, N failed, N skipped` last, summing both. With arguments (a file, `-t name`), one pass with them,
# on the event store EXTERNAL_EVENT_STORE names (embedded unless set to postgres).
# A server that cannot start counts as one failed test (the suites would otherwise only be skipped).
set -uo pipefail
cd "$(dirname "$0")/.."
# run-vitest.mjs and sum-results.mjs print the closing line; nothing may be printed after it (the stop scripts are silent).
if [ "$#" -gt 0 ]; then
  EVENT_STORE="${EXTERNAL_EVENT_STORE:-embedded}" ci/with-servers.sh node test/support/run-vitest.mjs --config vitest.external.config.ts "$@"
else
  ci/with-servers.sh bash ci/external-passes.sh
fi
status=$?
if [ "$status" -eq 97 ]; then
  echo "0 passed, 1 failed"
fi
exit "$status"

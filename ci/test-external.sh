#!/usr/bin/env bash
# `npm run test:external`: runs vitest.external.config.ts against a real Kafka broker and FerretDB
# (ci/with-servers.sh starts and stops them) and prints the plain line `N passed, N failed, N skipped` last.
# A server that cannot start counts as one failed test (the suites would otherwise only be skipped).
set -uo pipefail
cd "$(dirname "$0")/.."
# run-vitest.mjs prints the closing line; nothing may be printed after it (the stop scripts are silent).
ci/with-servers.sh node test/support/run-vitest.mjs --config vitest.external.config.ts "$@"
status=$?
if [ "$status" -eq 97 ]; then
  echo "0 passed, 1 failed"
fi
exit "$status"

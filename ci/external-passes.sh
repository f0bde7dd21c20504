#!/usr/bin/env bash
# The two passes of `npm run test:external`, run by ci/with-servers.sh with the servers up:
# 1. every suite of vitest.external.config.ts with the bus on Kafka and the read models on FerretDB, the event
#    store embedded (the PostgreSQL suites and the separate-process topology choose PostgreSQL themselves);
# 2. the end-to-end suites of a ledger period (a kill -9 mid-rollover included), a charge, a full check, a
#    transfer check and a webhook delivery again, with the event store on PostgreSQL (EVENT_STORE=postgres).
# Prints the sum of both closing lines last; exits non-zero when either pass failed.
set -uo pipefail
cd "$(dirname "$0")/.."
ON_POSTGRES=(
  test/e2e/ledger-rollover-crash.e2e.test.ts
  test/e2e/ledger-audit-webhook-retry.e2e.test.ts
  test/e2e/screen-billing.e2e.test.ts
  test/e2e/check-address.e2e.test.ts
  test/e2e/transfer-check.e2e.test.ts
  test/e2e/webhooks-delivery.e2e.test.ts
)
status=0
EVENT_STORE=embedded node test/support/run-vitest.mjs --config vitest.external.config.ts 2>&1 | tee .tmp/external-pass-1.log
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "== the same end-to-end suites with the event store on PostgreSQL: ${ON_POSTGRES[*]}"
EVENT_STORE=postgres node test/support/run-vitest.mjs --config vitest.external.config.ts "${ON_POSTGRES[@]}" 2>&1 |
  tee .tmp/external-pass-2.log
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
node ci/sum-results.mjs .tmp/external-pass-1.log .tmp/external-pass-2.log
exit "$status"

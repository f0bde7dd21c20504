import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialInspectState } from '../../domain/inspect/inspect.decider.js';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import { inspectStatement } from '../../domain/receipts/verdict-statements.js';
import { inspectBodyStatement } from '../../test/support/body-statements.js';
import { isoTime } from '../../test/support/zod-arbitrary.js';
import { finalAuditArbitrary, inspectRequestArbitrary } from '../../test/support/verdict-arbitraries.js';
import { inspectResultSchema } from '../schemas/inspect.js';
import { inspectResultBody } from './inspect.presenter.js';

const BILLING = { model: 'quota', charged_units: 1, units_used: 1, monthly_quota: 100, period_start: '2026-01-01', replay: false } as const;

describe('an inspect presented and parsed back', () => {
  it('loses nothing its receipt signs: the statement read from the body is the signed one', () => {
    fc.assert(
      fc.property(inspectRequestArbitrary, finalAuditArbitrary, isoTime, (request, audit, finishedAt) => {
        const state = { ...initialInspectState(), status: 'completed' as const, request, audit, finishedAt };
        const outcome = { kind: 'completed' as const, checkId: request.checkId, request, state, receipt: 'a.b.c', billing: BILLING };
        const body = inspectResultSchema.parse(JSON.parse(JSON.stringify(inspectResultBody(outcome))));
        const caller = { kind: 'api_key' as const, id: request.keyId };
        const context = {
          verdictId: request.checkId,
          caller,
          input: { address: request.address, network: request.network },
          issuedAt: finishedAt,
        };
        const signed = inspectStatement(context, request, audit);
        expect(canonicalJson(inspectBodyStatement(caller, body))).toBe(canonicalJson(signed));
      }),
      { numRuns: 200 },
    );
  });
});

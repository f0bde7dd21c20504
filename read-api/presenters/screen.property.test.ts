import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OWN_ENGINE } from '../../commands/screen-address.js';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import { screenStatement } from '../../domain/receipts/verdict-statements.js';
import { screenBodyStatement } from '../../test/support/body-statements.js';
import { isoTime } from '../../test/support/zod-arbitrary.js';
import { callerArbitrary, screenVerdictArbitrary, subjectArbitrary } from '../../test/support/verdict-arbitraries.js';
import { screenResultSchema } from '../schemas/screen.js';
import { presentScreen } from './screen.presenter.js';

const BILLING = { model: 'quota', chargedUnits: 1, unitsUsed: 1, monthlyQuota: 100, periodStart: '2026-01-01', replay: false } as const;

describe('a light screen presented and parsed back', () => {
  it('loses nothing its receipt signs: the statement read from the body (and the receipt’s time) is the signed one', () => {
    fc.assert(
      fc.property(
        screenVerdictArbitrary,
        subjectArbitrary,
        callerArbitrary,
        isoTime,
        fc.uuid(),
        (verdict, subject, caller, issuedAt, verdictId) => {
          const presented = presentScreen({
            kind: 'completed',
            verdict: { subject, engine: OWN_ENGINE, screen: verdict },
            receipt: 'a.b.c',
            verdictId,
            billing: BILLING,
          });
          const body = screenResultSchema.parse(JSON.parse(JSON.stringify({ ...presented.body, elapsed_ms: 1 })));
          const signed = screenStatement({ verdictId, caller, input: subject, issuedAt }, subject, verdict);
          expect(canonicalJson(screenBodyStatement(caller, issuedAt, body))).toBe(canonicalJson(signed));
        },
      ),
      { numRuns: 200 },
    );
  });
});

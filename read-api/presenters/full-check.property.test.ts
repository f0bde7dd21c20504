import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import { fullCheckStatement } from '../../domain/receipts/verdict-statements.js';
import { fullCheckBodyStatement } from '../../test/support/body-statements.js';
import { callerArbitrary, fullCheckVerdictArbitrary } from '../../test/support/verdict-arbitraries.js';
import { fullCheckResultSchema } from '../schemas/full-check-result.schema.js';
import { presentFullCheck } from './full-check.presenter.js';

/** The body as a client gets it: presented, written as JSON, read back and parsed by the wire schema. */
const overTheWire = (body: unknown) => fullCheckResultSchema.parse(JSON.parse(JSON.stringify(body)));

describe('a full check presented and parsed back', () => {
  it('loses nothing its receipt signs: the statement read from the body is the signed one, byte for byte', () => {
    fc.assert(
      fc.property(fullCheckVerdictArbitrary, callerArbitrary, (verdict, caller) => {
        const body = overTheWire(presentFullCheck(verdict));
        const signed = fullCheckStatement(
          {
            verdictId: verdict.checkId,
            caller,
            input: { address: verdict.subject.address, network: verdict.subject.network },
            issuedAt: verdict.completedAt,
          },
          verdict,
        );
        expect(canonicalJson(fullCheckBodyStatement(caller, body))).toBe(canonicalJson(signed));
      }),
      { numRuns: 200 },
    );
  });
});

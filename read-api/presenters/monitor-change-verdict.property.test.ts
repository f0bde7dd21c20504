import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import { monitorChangeStatement } from '../../domain/receipts/verdict-statements.js';
import { monitorChangeBodyStatement } from '../../test/support/body-statements.js';
import { text } from '../../test/support/zod-arbitrary.js';
import { monitorChangeArbitrary, subjectArbitrary } from '../../test/support/verdict-arbitraries.js';
import { storedVerdictSchema } from '../schemas/verdicts.js';
import { presentMonitorChangeVerdict } from './monitor-change-verdict.presenter.js';

describe('a monitor change read back and parsed', () => {
  it('loses nothing its receipt signs: the statement read from the body is the signed one', () => {
    fc.assert(
      fc.property(monitorChangeArbitrary, subjectArbitrary, fc.uuid(), text, (change, subject, monitorId, userId) => {
        const verdictId = `${monitorId}:${change.changeKey}`;
        const found = { verdictId, monitorId, userId, ...subject, change };
        const body = storedVerdictSchema.parse(JSON.parse(JSON.stringify(presentMonitorChangeVerdict(found).body)));
        const caller = { kind: 'monitor_owner' as const, id: userId };
        const context = { verdictId, caller, input: subject, issuedAt: change.at };
        const signed = monitorChangeStatement(context, subject, { current: change.current, dataVersions: change.dataVersions });
        expect(canonicalJson(monitorChangeBodyStatement(caller, body))).toBe(canonicalJson(signed));
      }),
      { numRuns: 200 },
    );
  });
});

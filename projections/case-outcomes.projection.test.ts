import { describe, expect, it } from 'vitest';
import type { CloseReason } from '../domain/alerts/alert-case.events.js';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { caseOutcomeReader, caseOutcomesProjection } from './case-outcomes.projection.js';

const at = '2026-06-01T09:00:00.000Z';
const ann = { userId: 'u1', email: 'ann@example.com' };
const opened = (alertId: string, checkId: string, alertIndex: number) =>
  event(`alertcase-${alertId}`, 'AlertCaseOpened', {
    alertId,
    checkId,
    alertIndex,
    subgroupId: 's1',
    chain: 'ETH',
    txHash: '0xtx',
    alert: {
      category: 'scam',
      riskLevel: 'High',
      ruleType: 'Direct exposure',
      actualShare: 100,
      thresholdShare: 0,
      thresholdValue: 0,
      entityName: null,
      entityAddress: null,
      direction: 'incoming',
      entityScore: 90,
    },
    checkedAt: at,
    at,
  });
const moved = (
  alertId: string,
  from: 'open' | 'in_review' | 'closed',
  to: 'open' | 'in_review' | 'closed',
  reason: CloseReason | null = null,
) => event(`alertcase-${alertId}`, 'AlertCaseStatusChanged', { alertId, from, to, reason, note: null, by: ann, at });

const spec = projectionSpec(caseOutcomesProjection, caseOutcomeReader);

describe('the case outcomes a backtest reads', () => {
  it('an opened case has no outcome yet', async () => {
    await spec
      .given([])
      .when([opened('a1', 'c1', 0)])
      .thenDocument('a1', { id: 'a1', check_id: 'c1', alert_index: 0, reason: null });
  });

  it('a closed case gives its check the reason, by alert index; open and in-review ones give nothing', async () => {
    await spec
      .given([opened('a1', 'c1', 0), opened('a2', 'c1', 1), opened('a3', 'c1', 2), opened('b1', 'c2', 0)])
      .when([moved('a1', 'open', 'closed', 'flagged'), moved('a2', 'open', 'closed', 'dismissed'), moved('a3', 'open', 'in_review')])
      .then(async (outcomesOf) => {
        expect(await outcomesOf('c1')).toEqual(
          expect.arrayContaining([
            { alertIndex: 0, reason: 'flagged' },
            { alertIndex: 1, reason: 'dismissed' },
          ]),
        );
        expect(await outcomesOf('c1')).toHaveLength(2);
        expect(await outcomesOf('c2')).toEqual([]);
      });
  });

  it('a reopened case loses its outcome', async () => {
    await spec
      .given([opened('a1', 'c1', 0), moved('a1', 'open', 'closed', 'dismissed')])
      .when([moved('a1', 'closed', 'open')])
      .thenDocument('a1', { id: 'a1', check_id: 'c1', alert_index: 0, reason: null });
  });

  it('a status change of a case it never saw opened makes no document', async () => {
    await spec
      .given([])
      .when([moved('zz', 'open', 'closed', 'other')])
      .thenDocument('zz', null);
  });
});

import { describe, expect, it } from 'vitest';
import type { CaseAlert } from '../domain/alerts/alert-case.events.js';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { alertCaseRepository, alertCasesProjection } from './alert-cases.projection.js';

const ann = { userId: 'u1', email: 'ann@example.com' };
const bob = { userId: 'u2', email: 'bob@example.com' };
const alert = (riskLevel: CaseAlert['riskLevel']): CaseAlert => ({
  category: 'mixer',
  riskLevel,
  ruleType: 'Direct exposure',
  actualShare: 100,
  thresholdShare: 0,
  thresholdValue: 0,
  entityName: 'Made-up mixer',
  entityAddress: '0xmixer',
  direction: 'incoming',
  entityScore: 90,
});
const opened = (alertId: string, subgroupId: string, at: string, riskLevel: CaseAlert['riskLevel'] = 'High') =>
  event(`alertcase-${alertId}`, 'AlertCaseOpened', {
    alertId,
    checkId: `check-${alertId}`,
    alertIndex: 0,
    subgroupId,
    chain: 'ETH',
    txHash: '0xtx',
    alert: alert(riskLevel),
    checkedAt: at,
    at,
  });
const status = (alertId: string, from: 'open' | 'in_review' | 'closed', to: 'open' | 'in_review' | 'closed', at: string) =>
  event(`alertcase-${alertId}`, 'AlertCaseStatusChanged', {
    alertId,
    from,
    to,
    reason: to === 'closed' ? 'dismissed' : null,
    note: to === 'closed' ? 'known counterparty' : null,
    by: ann,
    at,
  });

const spec = projectionSpec(alertCasesProjection, alertCaseRepository);

describe('the alert cases read model', () => {
  it('an opened case is open, unassigned, with the service as the opener in its trail', async () => {
    await spec
      .given([])
      .when([opened('a1', 's1', '2026-04-01T10:00:00.000Z')])
      .then((_cases, documents) =>
        expect(documents.get('a1')).toMatchObject({
          status: 'open',
          riskLevel: 'High',
          assignee: null,
          assigneeId: null,
          closeReason: null,
          comments: [],
          history: [{ at: '2026-04-01T10:00:00.000Z', by: null, action: 'opened', to: 'open' }],
        }),
      );
  });

  it('opening it again (a replayed check) keeps the triage done since', async () => {
    await spec
      .given([opened('a1', 's1', '2026-04-01T10:00:00.000Z'), status('a1', 'open', 'in_review', '2026-04-01T11:00:00.000Z')])
      .when([opened('a1', 's1', '2026-04-01T12:00:00.000Z')])
      .thenUnchanged();
  });

  it('a close keeps its reason and note; a reopen clears them; every step is in the trail', async () => {
    await spec
      .given([opened('a1', 's1', '2026-04-01T10:00:00.000Z')])
      .when([status('a1', 'open', 'closed', '2026-04-01T11:00:00.000Z')])
      .then((_cases, documents) =>
        expect(documents.get('a1')).toMatchObject({ status: 'closed', closeReason: 'dismissed', closeNote: 'known counterparty' }),
      );
    await spec
      .given([opened('a1', 's1', '2026-04-01T10:00:00.000Z'), status('a1', 'open', 'closed', '2026-04-01T11:00:00.000Z')])
      .when([status('a1', 'closed', 'open', '2026-04-01T12:00:00.000Z')])
      .then((_cases, documents) => {
        const doc = documents.get('a1');
        expect(doc).toMatchObject({ status: 'open', closeReason: null, closeNote: null, updatedAt: '2026-04-01T12:00:00.000Z' });
        expect(doc?.history.map((h) => [h.action, h.to])).toEqual([
          ['opened', 'open'],
          ['status_changed', 'closed'],
          ['status_changed', 'open'],
        ]);
      });
  });

  it('an assignment names the assignee; a comment is kept with its author', async () => {
    await spec
      .given([opened('a1', 's1', '2026-04-01T10:00:00.000Z')])
      .when([
        event('alertcase-a1', 'AlertCaseAssigned', { alertId: 'a1', from: null, to: bob, by: ann, at: '2026-04-01T11:00:00.000Z' }),
        event('alertcase-a1', 'AlertCaseCommented', {
          alertId: 'a1',
          commentId: 'c1',
          text: 'looking',
          by: bob,
          at: '2026-04-01T12:00:00.000Z',
        }),
      ])
      .then((_cases, documents) => {
        const doc = documents.get('a1');
        expect(doc).toMatchObject({ assignee: bob, assigneeId: 'u2', comments: [{ commentId: 'c1', text: 'looking', by: bob }] });
        expect(doc?.history.slice(1)).toEqual([
          { at: '2026-04-01T11:00:00.000Z', by: ann, action: 'assigned', from: null, to: 'bob@example.com' },
          { at: '2026-04-01T12:00:00.000Z', by: bob, action: 'commented', text: 'looking' },
        ]);
      });
  });

  it('events of a case never opened create nothing', async () => {
    await spec
      .given([])
      .when([status('a1', 'open', 'in_review', '2026-04-01T11:00:00.000Z')])
      .thenDocument('a1', null);
  });

  it('pages newest first within one subgroup or across several, filtered', async () => {
    await spec
      .given([opened('a1', 's1', '2026-04-01T10:00:00.000Z', 'Low'), opened('a2', 's2', '2026-04-02T10:00:00.000Z')])
      .when([opened('a3', 's1', '2026-04-03T10:00:00.000Z'), opened('a4', 's3', '2026-04-04T10:00:00.000Z')])
      .then(async (cases) => {
        const one = await cases.page(['s1'], {}, { page: 1, pageSize: 10 });
        expect(one).toMatchObject({ total: 2, rows: [{ alertId: 'a3' }, { alertId: 'a1' }] });
        const several = await cases.page(['s1', 's2'], { riskLevel: 'High' }, { page: 1, pageSize: 1 });
        expect(several.total).toBe(2);
        expect(several.rows.map((c) => c.alertId)).toEqual(['a3']);
        const unassigned = await cases.page(['s1'], { assigneeId: null, since: '2026-04-02T00:00:00.000Z' }, { page: 1, pageSize: 10 });
        expect(unassigned.rows.map((c) => c.alertId)).toEqual(['a3']);
      });
  });

  it('lists the cases opened in [since, until) oldest first, up to a limit (exports)', async () => {
    await spec
      .given([opened('a1', 's1', '2026-04-01T10:00:00.000Z'), opened('a2', 's2', '2026-04-02T10:00:00.000Z')])
      .when([opened('a3', 's1', '2026-04-03T10:00:00.000Z')])
      .then(async (cases) => {
        const range = { since: '2026-04-01T10:00:00.000Z', until: '2026-04-03T10:00:00.000Z' };
        expect((await cases.opened(['s1', 's2'], range, 10)).map((c) => c.alertId)).toEqual(['a1', 'a2']);
        expect((await cases.opened(['s1', 's2'], range, 1)).map((c) => c.alertId)).toEqual(['a1']);
      });
  });
});

import { describe, expect, it } from 'vitest';
import type { PolicyFact } from '../domain/kyt/policy-engine.js';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import type { TransferVerdict } from '../domain/kyt/transfer-verdict.js';
import { transferVerdictFixture } from '../test/support/transfer-verdict-fixture.js';
import { policyInputsProjection, policyInputsRepository, type PolicyInputsDoc } from './policy-inputs.projection.js';

const at = '2026-06-01T09:00:00.000Z';
const requested = (checkId: string, channel: 'v2' | 'x402' = 'v2') =>
  event(`transfer-${checkId}`, 'TransferCheckRequested', {
    checkId,
    chain: 'ETH',
    txHash: '0xtx',
    requester: channel === 'v2' ? { channel, userId: 'u1', keyId: 'k1', subgroupId: 's1' } : { channel, payer: '0xpayer' },
    at,
  });
const fact: PolicyFact = {
  ruleType: 'Direct exposure',
  slug: 'scam',
  displayName: 'Scam',
  level: 'high',
  share: 100,
  usdMicros: 50_000_000_000,
  entityName: null,
  anchor: { address: '0xsender', label: null },
  senders: ['0xsender'],
};
/** A completed check whose body lists one High alert of rule D3 on `scam`. */
const completed = (checkId: string, checkedAt: string, recorded: { facts?: PolicyFact[]; policy?: { id: string; version: string } } = {}) =>
  event(`transfer-${checkId}`, 'TransferCheckCompleted', {
    checkId,
    verdict: verdictOf(checkId, checkedAt),
    worstLevel: 'High',
    alertCount: 1,
    ...recorded,
    at: checkedAt,
  });

const HIGH_ON_SCAM = {
  category: 'Scam',
  riskLevel: 'High',
  ruleType: 'Direct exposure',
  actualShare: 100,
  thresholdShare: 0,
  thresholdValue: 0,
  entityName: null,
  entityAddress: '0xsender',
  direction: 'incoming',
  entityScore: 0,
} as const;

/** A completed check's verdict listing one High alert of rule D3 on `scam`. */
function verdictOf(checkId: string, checkedAt: string): TransferVerdict {
  const made = transferVerdictFixture({ checkId, alerts: [HIGH_ON_SCAM], checkedAt });
  const explanation = { ruleId: 'D3', categorySlug: 'scam', exposureUsdMicros: 0, note: '', sendersTotal: 1, senders: ['0xsender'] };
  return { ...made, policy: { ...made.policy, version: '2026-05-01', explanations: [explanation] } };
}

const spec = projectionSpec(policyInputsProjection, policyInputsRepository);

describe('the policy inputs a backtest reads', () => {
  it('a V2 check is a document once requested; an x402 check belongs to no subgroup and is left out', async () => {
    await spec
      .given([])
      .when([requested('c1'), requested('c2', 'x402')])
      .then((_, documents) => {
        expect(documents.get('c1')).toEqual({ id: 'c1', subgroup_id: 's1', checked_at: null, policy: null, facts: [], raised: [] });
        expect(documents.has('c2')).toBe(false);
      });
  });

  it('a completed check keeps the policy and facts it recorded, and the alerts its body raised by rule', async () => {
    await spec
      .given([requested('c1')])
      .when([completed('c1', at, { facts: [fact], policy: { id: 'p1', version: '3' } })])
      .thenDocument('c1', {
        id: 'c1',
        subgroup_id: 's1',
        checked_at: at,
        policy: { id: 'p1', version: '3' },
        facts: [fact],
        raised: [{ ruleId: 'D3', slug: 'scam', ruleType: 'Direct exposure', level: 'High' }],
      } satisfies PolicyInputsDoc);
  });

  it('a check completed before policies were versioned applied the one its body names', async () => {
    await spec
      .given([requested('c1')])
      .when([completed('c1', at)])
      .then((_, documents) => expect(documents.get('c1')?.policy).toEqual({ id: 'standard', version: '2026-05-01' }));
  });

  it('a failed or timed-out check is removed', async () => {
    await spec
      .given([requested('c1'), requested('c2')])
      .when([
        event('transfer-c1', 'TransferCheckFailed', { checkId: 'c1', code: 'tx_not_found', message: 'no such transaction', at }),
        event('transfer-c2', 'TransferCheckTimedOut', { checkId: 'c2', at }),
      ])
      .then((_, documents) => expect(documents.size).toBe(0));
  });

  it("a backtest walks one subgroup's checks in [from, to), in time order", async () => {
    const times = ['2026-06-03T00:00:00.000Z', '2026-06-01T00:00:00.000Z', '2026-06-02T00:00:00.000Z', '2026-06-04T00:00:00.000Z'];
    await spec
      .given(times.flatMap((t, i) => [requested(`c${i}`), completed(`c${i}`, t, { facts: [fact] })]))
      .when([])
      .then(async (repository) => {
        const walked: string[] = [];
        for await (const check of repository.walk('s1', { from: '2026-06-01T12:00:00.000Z', to: '2026-06-04T00:00:00.000Z' }))
          walked.push(check.checkId);
        expect(walked).toEqual(['c2', 'c0']);
        expect(await repository.countSince('s1', '2026-06-02T00:00:00.000Z')).toBe(3);
      });
  });
});

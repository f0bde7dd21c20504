import { describe, expect, it } from 'vitest';
import { tiersFor } from '../../test/support/check-fixtures.js';
import { edge } from '../../test/support/transfer-fixtures.js';
import { fullCheckResultSchema } from '../schemas/full-check-result.schema.js';
import { presentFullCheck } from './full-check.presenter.js';
import { fullCheckVerdictSchema, type FullCheckVerdict } from '../../domain/address-check/full-check-verdict.js';
import { buildFullCheckVerdict, highRiskPayload as highRiskPayloadOf } from '../../domain/address-check/full-verdict.js';

const SUBJECT = { checkId: 'c-1', network: 'ETH', requestedAt: '2026-01-01T00:00:00.000Z' };
const AT = '2026-01-01T00:00:05.000Z';

/** The verdicts presented bodies came from, for highRiskPayload: the rule reads the domain verdict. */
const verdictOfBody = new WeakMap<object, FullCheckVerdict>();
const highRiskPayload = (body: object) => highRiskPayloadOf(verdictOfBody.get(body) as FullCheckVerdict);

/** The domain verdict (valid by its schema), asserted on as the body presents it (valid by the wire schema). */
async function verdictOf(address: string, data: Parameters<typeof tiersFor>[1]) {
  const verdict = fullCheckVerdictSchema.parse(buildFullCheckVerdict({ ...SUBJECT, address }, await tiersFor(address, data), AT));
  const body = fullCheckResultSchema.parse(presentFullCheck(verdict));
  verdictOfBody.set(body, verdict);
  return body;
}

/** Stolen funds (r) reach d three hops away and b two hops away; e is funded by an exchange. */
const LAUNDERING = [
  edge('r', 'a', 10_000),
  edge('a', 'b', 6_000),
  edge('c', 'b', 4_000),
  edge('b', 'd', 5_000),
  edge('e', 'd', 5_000),
  edge('x', 'e', 8_000),
];
const CLAIMS = [
  { address: 'r', kind: 'risk' as const, category: 'stolen_funds', label: 'Example exploiter' },
  { address: 'x', kind: 'identity' as const, category: 'exchange', label: 'Example Exchange' },
];

describe('the full check verdict', () => {
  it('is unable when nothing is known: no intelligence, no transfer history', async () => {
    const result = await verdictOf('nobody', {});
    expect(result).toMatchObject({
      decision: 'unable',
      verdict: {
        risk_level: 'none',
        risk_score: null,
        tier3_applied: false,
        tier3_reason: 'no_transaction_history',
        tier4_applied: false,
        tier_hit: null,
      },
    });
    expect(result.tiers.map((t) => t.applied)).toEqual([true, true, false, false, false]);
    expect(highRiskPayload(result)).toBeNull();
  });

  it('rejects a sanctioned address itself (tier 0), and raises high risk as severe', async () => {
    const result = await verdictOf('s', { claims: [{ address: 's', kind: 'sanction' }] });
    expect(result).toMatchObject({ decision: 'reject', verdict: { risk_level: 'sanctioned', risk_score: 100, tier_hit: 0 } });
    expect(result.evidence[0]).toMatchObject({ slug: 'sanctions', relation: 'ownership', direction: 'self', tier: 0 });
    expect(highRiskPayload(result)).toEqual({
      check_id: 'c-1',
      address: 's',
      network: 'ETH',
      risk_level: 'severe',
      risk_score: 100,
      tier_hit: 0,
      categories: ['sanctions'],
      // which lists the verdict was checked against travels with the webhook
      sanctions: expect.objectContaining({ checked: ['US'], not_checked: ['UK', 'EU'] }),
    });
  });

  it('reviews indirect exposure to stolen funds with its USD share and route, and accepts the exchange share as a service', async () => {
    const result = await verdictOf('d', { claims: CLAIMS, transfers: LAUNDERING });
    // d: half its 10k incoming from b (60 % of b from a ← r), half from e (all from the exchange).
    expect(result.decision).toBe('review');
    expect(result.verdict).toMatchObject({
      risk_level: 'medium',
      tier3_applied: true,
      tier4_applied: false,
      tier4_reason: 'too_few_transfers',
      tier_hit: 3,
      ownership_risk_level: 'none',
      exposure_risk_level: 'medium',
    });
    expect(result.evidence).toEqual([
      {
        slug: 'stolen_funds',
        severity: 8,
        risk_level: 'medium',
        relation: 'indirect',
        direction: 'incoming',
        tier: 3,
        usd: 3000,
        share_pct: 30,
        weighted_share_pct: 7.5,
        hops: 3,
        sources: ['graphsense'],
        paths: [
          {
            hops: 3,
            addresses: ['r', 'a', 'b', 'd'],
            usd: 3000,
            share_pct: 30,
            label: 'Example exploiter',
            source: 'graphsense',
            usd_estimated: false,
          },
        ],
      },
    ]);
    expect(result.exposure.source_of_funds.categories.map((c) => [c.slug, c.share_pct])).toEqual([
      ['stolen_funds', 30],
      ['exchange', 50],
    ]);
    expect(result.exposure.source_of_funds).toMatchObject({ complete: true, unattributed_pct: 20, total_usd: 10_000 });
    expect(result.verdict.risk_categories).toEqual(['stolen_funds']);
    expect(highRiskPayload(result)).toBeNull();
  });

  it('is high (tier 2 hit) when a risky counterparty is direct and large, and emits high risk', async () => {
    const result = await verdictOf('a', { claims: CLAIMS, transfers: LAUNDERING });
    expect(result).toMatchObject({ decision: 'review', verdict: { risk_level: 'high', tier_hit: 2, tier4_applied: true } });
    expect(result.evidence[0]).toMatchObject({ slug: 'stolen_funds', relation: 'direct', share_pct: 100, usd: 10_000, hops: 1 });
    expect(highRiskPayload(result)).toMatchObject({ risk_level: 'high', tier_hit: 2, categories: ['stolen_funds'] });
  });

  it('ignores dust from a risky address', async () => {
    const result = await verdictOf('d', {
      claims: [{ address: 's', kind: 'sanction' }],
      transfers: [edge('s', 'd', 50), edge('c', 'd', 100_000)],
    });
    expect(result).toMatchObject({ decision: 'accept', verdict: { risk_level: 'none', risk_score: 0 } });
    expect(result.exposure.direct_incoming.categories[0]).toMatchObject({ slug: 'sanctions', usd: 50 });
  });

  it('calls paying a sanctioned address directly high, whatever the share', async () => {
    const result = await verdictOf('d', {
      claims: [{ address: 's', kind: 'sanction' }],
      transfers: [edge('d', 's', 500), edge('d', 'c', 100_000), edge('c', 'd', 100)],
    });
    expect(result.verdict).toMatchObject({ risk_level: 'high', tier_hit: 2 });
    expect(result.evidence[0]).toMatchObject({ slug: 'sanctions', relation: 'direct', direction: 'outgoing' });
  });

  it('rejects an address attributed to a high-risk category itself, and does not search behind a service', async () => {
    const own = await verdictOf('p', { claims: [{ address: 'p', kind: 'risk', category: 'phishing' }], transfers: [edge('c', 'p', 10)] });
    expect(own).toMatchObject({ decision: 'reject', verdict: { risk_level: 'high', tier_hit: 1, ownership_risk_level: 'high' } });
    const exchange = await verdictOf('x', { claims: CLAIMS, transfers: LAUNDERING });
    expect(exchange.verdict).toMatchObject({
      tier3_applied: false,
      tier3_reason: 'service_address',
      tier4_applied: false,
      tier4_reason: 'service_address',
    });
    expect(exchange.tiers[2]!.applied).toBe(true);
  });
});

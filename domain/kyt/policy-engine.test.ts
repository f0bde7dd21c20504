import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TAXONOMY } from '../intel/taxonomy.js';
import { computeComposite, type ValuedLeg } from './composite.js';
import type { DecodedTransaction } from './decoded-transaction.js';
import { evaluatePolicy } from './policy-engine.js';
import type { DirectCategory, IndirectCategory, SenderExposure } from './sender-exposure.js';
import { STANDARD_POLICY } from './standard-policy.js';
import { findPatterns } from './transfer-patterns.js';

const A: string = '0x00000000000000000000000000000000000000a1';
const B: string = '0x00000000000000000000000000000000000000b2';
const C: string = '0x00000000000000000000000000000000000000c3';
const TO: string = '0x00000000000000000000000000000000000000ff';

const leg = (from: string, usd: number | null, o: Partial<ValuedLeg> = {}): ValuedLeg => ({
  kind: 'native',
  token: null,
  symbol: 'ETH',
  decimals: 18,
  from,
  to: TO,
  amount: '1000000000000000000',
  logIndex: null,
  usdMicros: usd === null ? null : Math.round(usd * 1e6),
  ...o,
});
const direct = (slug: string): DirectCategory => {
  const definition = TAXONOMY.categories[slug]!;
  return { slug, level: definition.level, severity: definition.severity, confidence: 90, sources: ['fixture'] };
};
const sender = (address: string, o: { label?: string | null; direct?: string[]; indirect?: IndirectCategory[] } = {}): SenderExposure => ({
  address,
  label: o.label ?? null,
  dataAvailable: (o.direct?.length ?? 0) > 0,
  direct: (o.direct ?? []).map(direct),
  indirect: o.indirect ?? [],
  graph: o.indirect ? 'analysed' : 'not_available',
  sources: [],
});
const exposures = (...senders: SenderExposure[]) => new Map(senders.map((s) => [s.address, s]));

function judge(legs: ValuedLeg[], known: Map<string, SenderExposure>, tx?: DecodedTransaction) {
  const composite = computeComposite(legs, known, TAXONOMY);
  return { composite, outcome: evaluatePolicy(STANDARD_POLICY, composite, tx ? findPatterns(tx) : [], TAXONOMY) };
}

describe('standard policy on the USD-weighted composite', () => {
  it('a sanctioned sender is a Severe Direct exposure alert at 100 % with thresholds 0 % and $0, whatever the amount', () => {
    for (const usd of [0.01, 3_000, 2_000_000]) {
      const { outcome } = judge([leg(A, usd)], exposures(sender(A, { label: 'LAZARUS GROUP', direct: ['sanctions'] })));
      expect(outcome.alerts).toEqual([
        {
          category: 'Sanctioned entity / address',
          riskLevel: 'Severe',
          ruleType: 'Direct exposure',
          actualShare: 100,
          thresholdShare: 0,
          thresholdValue: 0,
          entityName: 'LAZARUS GROUP',
          entityAddress: A,
          direction: 'incoming',
          entityScore: 0,
        },
      ]);
      expect(outcome.matches[0]!.ruleId).toBe('D1');
      expect(outcome.worstLevel).toBe('Severe');
    }
  });

  it('clean and unknown senders raise nothing: unknown never auto-rejects', () => {
    const { composite, outcome } = judge([leg(A, 900), leg(B, 100)], exposures(sender(A, { label: 'Binance 14', direct: ['exchange'] })));
    expect(outcome.alerts).toEqual([]);
    expect(outcome.worstLevel).toBeNull();
    expect(composite.unknownShare).toBeCloseTo(0.1);
    expect(composite.categories.map((c) => c.slug)).toEqual(['exchange']);
  });

  it('shares are USD-weighted across senders and the anchor is the top-USD sender of the category', () => {
    const known = exposures(sender(A, { direct: ['sanctions'], label: 'Sanctioned A' }), sender(C, { direct: ['sanctions'] }));
    const { composite, outcome } = judge([leg(A, 200), leg(B, 750), leg(C, 50)], known);
    expect(composite.totalUsdMicros).toBe(1_000_000_000);
    expect(composite.senders.map((s) => [s.address, s.weight])).toEqual([
      [B, 0.75],
      [A, 0.2],
      [C, 0.05],
    ]);
    expect(outcome.alerts[0]).toMatchObject({ actualShare: 25, entityAddress: A, entityName: 'Sanctioned A' });
  });

  it('first match wins per category: USD thresholds pick the rule (scam $999 → Low catch-all, $1,000 → High; darknet $5,000 → High)', () => {
    const scam = exposures(sender(A, { direct: ['scam'] }));
    expect(judge([leg(A, 499)], scam).outcome.alerts).toEqual([]);
    expect(judge([leg(A, 999)], scam).outcome).toMatchObject({ worstLevel: 'Low', matches: [{ ruleId: 'D7' }] });
    expect(judge([leg(A, 1_000)], scam).outcome).toMatchObject({ worstLevel: 'High', matches: [{ ruleId: 'D3' }] });
    const darknet = exposures(sender(A, { direct: ['darknet_market'] }));
    expect(judge([leg(A, 4_999)], darknet).outcome.matches.map((m) => m.ruleId)).toEqual(['D7']);
    expect(judge([leg(A, 5_000)], darknet).outcome.alerts[0]).toMatchObject({
      riskLevel: 'High',
      thresholdValue: 5_000,
      thresholdShare: 0,
    });
  });

  it('indirect exposure alerts under Origin of funds / Indirect with a "Sender … (exposed to …)" entity name', () => {
    const known = exposures(
      sender(A, {
        indirect: [
          { slug: 'sanctions', share: 0.3, hops: 2, paths: [] },
          { slug: 'mixer', share: 0.08, hops: 3, paths: [] },
        ],
      }),
    );
    const { outcome } = judge([leg(A, 10_000)], known);
    expect(outcome.alerts).toEqual([
      expect.objectContaining({
        category: 'Sanctioned entity / address',
        riskLevel: 'High',
        ruleType: 'Origin of funds / Indirect',
        actualShare: 30,
        thresholdShare: 0,
        thresholdValue: 1_000,
        entityName: `Sender ${A} (exposed to Sanctioned entity / address)`,
        entityAddress: A,
      }),
      // 8 % of $10,000 misses the 10 % mixer rule and falls to the catch-all.
      expect.objectContaining({ category: 'Mixer / tumbler (unsanctioned)', riskLevel: 'Low', actualShare: 8, thresholdValue: 500 }),
    ]);
  });

  it('without any price the senders weigh equally and a sanctioned sender still alerts', () => {
    const known = exposures(sender(A, { direct: ['sanctions'] }));
    const { composite, outcome } = judge([leg(A, null), leg(B, null)], known);
    expect(composite).toMatchObject({ weighting: 'equal', pricing: 'none', totalUsdMicros: 0 });
    expect(outcome.alerts[0]).toMatchObject({ riskLevel: 'Severe', actualShare: 50 });
  });

  it('a zero-value token transfer moved by another signer is the address-poisoning Pattern', () => {
    const tx: DecodedTransaction = {
      chain: 'ETH',
      txHash: `0x${'1'.repeat(64)}`,
      blockNumber: 1,
      blockTime: '2026-11-20T00:00:00.000Z',
      success: true,
      signer: C,
      to: '0x00000000000000000000000000000000000000dd',
      legs: [leg(A, 0, { kind: 'token', amount: '0', token: '0x00000000000000000000000000000000000000dd', logIndex: 0 })],
    };
    const { outcome } = judge(
      tx.legs.map((l) => ({ ...l, usdMicros: 0 })),
      exposures(),
      tx,
    );
    expect(outcome.alerts).toEqual([
      expect.objectContaining({ ruleType: 'Pattern', category: 'Poisoning / dust attacker', riskLevel: 'Medium', entityAddress: C }),
    ]);
  });

  it('alerts come worst level first', () => {
    const known = exposures(sender(A, { direct: ['gambling'] }), sender(B, { direct: ['sanctions'] }));
    const { outcome } = judge([leg(A, 3_000), leg(B, 10)], known);
    expect(outcome.alerts.map((a) => a.riskLevel)).toEqual(['Severe', 'Medium']);
  });

  it('property: shares stay within 0..100 %, and senders nobody knows never cause an alert', () => {
    const slugs = Object.keys(TAXONOMY.categories);
    const arbSender = fc.record({
      address: fc.constantFrom(A, B, C, TO),
      usd: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null }),
      direct: fc.array(fc.constantFrom(...slugs), { maxLength: 3 }),
      known: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arbSender, { minLength: 1, maxLength: 6 }), (rows) => {
        const legs = rows.map((r) => leg(r.address, r.usd));
        const known = new Map(rows.filter((r) => r.known).map((r) => [r.address, sender(r.address, { direct: r.direct })]));
        const { composite, outcome } = judge(legs, known);
        for (const category of composite.categories) {
          expect(category.direct?.share ?? 0).toBeLessThanOrEqual(1 + 1e-9);
          expect(category.indirect?.share ?? 0).toBeLessThanOrEqual(1 + 1e-9);
        }
        for (const alert of outcome.alerts) {
          expect(alert.actualShare).toBeGreaterThanOrEqual(0);
          expect(alert.actualShare).toBeLessThanOrEqual(100);
          expect(known.get(alert.entityAddress!)?.direct.length ?? 0).toBeGreaterThan(0);
        }
        expect(composite.riskScore).toBeGreaterThanOrEqual(0);
        expect(composite.riskScore).toBeLessThanOrEqual(10);
      }),
    );
  });
});

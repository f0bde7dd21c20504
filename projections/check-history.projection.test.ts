import { describe, expect, it } from 'vitest';
import { ledgerPeriodStream, ledgerStream } from '../domain/ledger/ledger.events.js';
import type { RecordedEvent } from '../domain/ports/event-store.port.js';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { chargeStreamOf, checkHistoryProjection, checkHistoryRepository } from './check-history.projection.js';

const charged = (streamId: string, chargeId: string): RecordedEvent => ({
  id: `e-${chargeId}`,
  type: 'Charged',
  data: {
    chargeId,
    product: 'full_check',
    units: 0,
    amountMicros: 500_000,
    periodStart: '2026-12-01T00:00:00.000Z',
    at: '2026-12-03T10:00:00.000Z',
    details: { endpoint: '/v2/check', keyId: null, network: 'ETH', subject: '0xabc' },
  },
  metadata: { correlationId: 'c', occurredAt: '2026-12-03T10:00:00.000Z', schemaVersion: 1 },
  streamId,
  revision: 0n,
  position: { commit: 1n, prepare: 1n },
  created: new Date(0),
});

describe('the check history', () => {
  it('files a charge of the root ledger stream under its user', () => {
    const event = charged(ledgerStream('u1'), 'chk-1');
    expect(checkHistoryProjection.idOf(event)).toBe('chk-1');
    expect(checkHistoryProjection.evolve(null, event)).toMatchObject({ id: 'chk-1', user_id: 'u1', kind: 'full_check', network: 'ETH' });
  });

  it('files a charge of a later period stream under the same user, not under "user@month"', () => {
    const event = charged(ledgerPeriodStream('u1', '2026-12-01T00:00:00.000Z'), 'chk-2');
    expect(event.streamId).toBe('ledger-u1@2026-12');
    expect(checkHistoryProjection.evolve(null, event)).toMatchObject({ id: 'chk-2', user_id: 'u1' });
  });
});

describe('the check history keeps what a light screen can be read back with', () => {
  const screenCharge = (chargeId: string, extra: Record<string, unknown>, stream = 'ledger-u1') =>
    event(stream, 'Charged', {
      chargeId,
      product: 'screen',
      units: 0,
      amountMicros: 100_000,
      periodStart: '2026-12-01T00:00:00.000Z',
      at: '2026-12-03T10:00:00.000Z',
      details: { endpoint: 'POST /v2/screen', keyId: 'k1', network: 'ETH', subject: '0xabc', ...extra },
    });
  const summary = {
    version: 1,
    addressLevel: 'low',
    riskScore: 5,
    confidence: 80,
    sourceCount: 1,
    label: null,
    dataAvailable: true,
    sanctionsMatch: null,
    categories: [],
  };
  const statement = {
    version: 1,
    verdictId: 's1',
    kind: 'screen',
    subject: { network: 'ETH', address: '0xabc', txHash: null },
    caller: { kind: 'api_key', id: 'k1' },
    inputHash: 'a'.repeat(64),
    issuedAt: '2026-12-03T10:00:00.000Z',
    outcome: { riskLevel: 'low', riskScore: 5, decision: null, categories: [], sanctioned: false },
    data: { taxonomy: null, snapshot: null, sources: [] },
  };
  const receipt = { statement, jws: 'aGVhZGVy..c2ln' };
  const spec = projectionSpec(checkHistoryProjection, checkHistoryRepository);

  it('a screen charged with its receipt: the summary and where its charge is (not the receipt), for its owner', async () => {
    await spec
      .given([screenCharge('s0', { screen: summary, receipt })])
      .when([screenCharge('s1', { screen: summary, receipt })])
      .then(async (history) => {
        const doc = await history.get('u1', 's1');
        expect(doc).toMatchObject({
          kind: 'screen',
          risk_level: 'low',
          summary,
          charge_event: { revision: 1 },
        });
        expect(chargeStreamOf('u1', doc!.charge_event!)).toBe('ledger-u1');
        // A row folded before `month` named the stream itself.
        expect(chargeStreamOf('u1', { stream: 'ledger-u1@2026-11', revision: 4 })).toBe('ledger-u1@2026-11');
        expect(doc).not.toHaveProperty('receipt');
        expect(await history.get('u2', 's1')).toBeNull();
      });
  });

  it('a screen charged in a later period: the month of the period stream it is in', async () => {
    await spec
      .given([])
      .when([screenCharge('s3', { screen: summary, receipt }, 'ledger-u1@2026-12')])
      .then(async (history) => {
        const doc = await history.get('u1', 's3');
        expect(doc).toMatchObject({ user_id: 'u1', charge_event: { month: '2026-12', revision: 0 } });
        expect(chargeStreamOf('u1', doc!.charge_event!)).toBe('ledger-u1@2026-12');
      });
  });

  it('a screen charged before receipts were kept: its summary, no receipt', async () => {
    await spec
      .given([])
      .when([screenCharge('s2', { screen: summary })])
      .then(async (history) => {
        const doc = await history.get('u1', 's2');
        expect(doc).toMatchObject({ kind: 'screen', summary });
        expect(doc).not.toHaveProperty('receipt');
      });
  });
});

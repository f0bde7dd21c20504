import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { usageDayRepository, usageDaysProjection } from './usage-days.projection.js';

const charged = (stream: string, chargeId: string, at: string, units: number, amountMicros: number) =>
  event(stream, 'Charged', {
    chargeId,
    product: 'screen',
    units,
    amountMicros,
    periodStart: '2026-12-01T00:00:00.000Z',
    at,
    details: { endpoint: '/v2/screen', keyId: null, network: 'ETH', subject: '0xabc' },
  });
const refunded = (stream: string, chargeId: string, at: string, units: number, amountMicros: number) =>
  event(stream, 'Refunded', { chargeId, units, amountMicros, reason: 'provider_failed', at });

const spec = projectionSpec(usageDaysProjection, usageDayRepository);

describe('the usage days read model', () => {
  it('sums the calls, units and spend of one user’s UTC day', async () => {
    await spec
      .given([charged('ledger-u1', 'c1', '2026-12-03T00:00:00.000Z', 1, 0)])
      .when([charged('ledger-u1@2026-12', 'c2', '2026-12-03T23:59:59.999Z', 0, 250_000)])
      .thenDocument('u1:2026-12-03', { userId: 'u1', day: '2026-12-03', calls: 2, units: 1, chargedMicros: 250_000, refundedMicros: 0 });
  });

  it('a refund counts on the day it happened, not the day of its charge', async () => {
    await spec
      .given([charged('ledger-u1', 'c1', '2026-12-03T10:00:00.000Z', 2, 100)])
      .when([refunded('ledger-u1', 'c1', '2026-12-04T10:00:00.000Z', 2, 100)])
      .then((_days, documents) => {
        expect(documents.get('u1:2026-12-03')).toMatchObject({ calls: 1, units: 2, refundedMicros: 0 });
        expect(documents.get('u1:2026-12-04')).toMatchObject({ calls: 0, units: -2, refundedMicros: 100 });
      });
  });

  it('lists one user’s days from a day on, oldest first', async () => {
    await spec
      .given([charged('ledger-u1', 'c1', '2026-12-01T10:00:00.000Z', 1, 0), charged('ledger-u2', 'c2', '2026-12-03T10:00:00.000Z', 1, 0)])
      .when([charged('ledger-u1', 'c3', '2026-12-05T10:00:00.000Z', 1, 0), charged('ledger-u1', 'c4', '2026-12-03T10:00:00.000Z', 1, 0)])
      .then(async (days) => expect((await days.since('u1', '2026-12-02')).map((d) => d.day)).toEqual(['2026-12-03', '2026-12-05']));
  });
});

import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { checkHistoryProjection } from './check-history.projection.js';
import { usageRepository } from './usage-rows.js';

const charged = (stream: string, chargeId: string, at: string, amountMicros = 1_500_000) =>
  event(stream, 'Charged', {
    chargeId,
    product: 'full_check',
    units: 0,
    amountMicros,
    periodStart: '2026-12-01T00:00:00.000Z',
    at,
    details: { endpoint: '/v2/check', keyId: 'k1', network: 'ETH', subject: '0xabc' },
  });
const refunded = (chargeId: string, amountMicros: number, reason: string) =>
  event('ledger-u1', 'Refunded', { chargeId, units: 0, amountMicros, reason, at: '2026-12-03T11:00:00.000Z' });

const spec = projectionSpec(checkHistoryProjection, usageRepository);
const firstPage = (usage: ReturnType<typeof usageRepository>) => usage.page('u1', { page: 1, pageSize: 10 });

describe('the usage rows, derived from the charge’s History row', () => {
  it('one row per charged call, in dollars, filed under the user of the ledger stream', async () => {
    await spec
      .given([])
      .when([charged('ledger-u1@2026-12', 'c1', '2026-12-03T10:00:00.000Z')])
      .then(async (usage) =>
        expect((await firstPage(usage)).rows).toEqual([
          {
            call_id: 'c1',
            user_id: 'u1',
            key_id: 'k1',
            product: 'full_check',
            endpoint: '/v2/check',
            network: 'ETH',
            subject: '0xabc',
            units: 0,
            charged_usd: 1.5,
            refunded_units: 0,
            refunded_usd: 0,
            refund_reason: null,
            period_start: '2026-12-01T00:00:00.000Z',
            created_at: '2026-12-03T10:00:00.000Z',
          },
        ]),
      );
  });

  it('the charge has one document, holding its History fields and its usage, refunded fields from the first refund', async () => {
    await spec
      .given([])
      .when([charged('ledger-u1@2026-12', 'c1', '2026-12-03T10:00:00.000Z')])
      .then((_usage, rows) => {
        expect([...rows.keys()]).toEqual(['c1']);
        expect(rows.get('c1')).toMatchObject({ id: 'c1', user_id: 'u1', kind: 'full_check', key_id: 'k1', units: 0, charged_usd: 1.5 });
        expect(rows.get('c1')).not.toHaveProperty('refunded_units');
      });
  });

  it('refunds add up on the row, exactly in micros, the last reason kept', async () => {
    await spec
      .given([charged('ledger-u1', 'c1', '2026-12-03T10:00:00.000Z')])
      .when([refunded('c1', 100_000, 'partial'), refunded('c1', 200_000, 'provider_failed')])
      .then(async (usage) =>
        expect((await firstPage(usage)).rows[0]).toMatchObject({ refunded_units: 0, refunded_usd: 0.3, refund_reason: 'provider_failed' }),
      );
  });

  it('a refund of a charge it never saw creates no row', async () => {
    await spec
      .given([])
      .when([refunded('c9', 100_000, 'x')])
      .thenDocument('c9', null);
  });

  it('pages a user’s rows newest first, within [since, until)', async () => {
    await spec
      .given([charged('ledger-u1', 'c1', '2026-12-01T10:00:00.000Z'), charged('ledger-u2', 'c2', '2026-12-02T10:00:00.000Z')])
      .when([charged('ledger-u1', 'c3', '2026-12-03T10:00:00.000Z'), charged('ledger-u1', 'c4', '2026-12-04T10:00:00.000Z')])
      .then(async (usage) => {
        const all = await usage.page('u1', { page: 1, pageSize: 2 });
        expect(all.total).toBe(3);
        expect(all.rows.map((r) => r.call_id)).toEqual(['c4', 'c3']);
        const window = await usage.page('u1', {
          page: 1,
          pageSize: 10,
          since: '2026-12-01T10:00:00.000Z',
          until: '2026-12-04T10:00:00.000Z',
        });
        expect(window.rows.map((r) => r.call_id)).toEqual(['c3', 'c1']);
      });
  });
});

import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { x402RevenueProjection, x402RevenueRepository } from './x402-revenue.projection.js';

const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const settled = (callId: string, at: string, amount: string, product = 'screen') =>
  event(`x402-84532-usdc-0xpayer-${callId}`, 'PaymentSettled', {
    callId,
    transaction: `0xtx${callId}`,
    network: 'eip155:84532',
    asset: USDC,
    amount,
    product,
    at,
  });

const spec = projectionSpec(x402RevenueProjection, x402RevenueRepository);

describe('the x402 revenue read model', () => {
  it('sums settled payments per UTC day, product and network, exactly in base units', async () => {
    await spec
      .given([settled('p1', '2026-12-03T00:00:01.000Z', '10000')])
      .when([settled('p2', '2026-12-03T23:00:00.000Z', '9007199254740993')])
      .then((_revenue, rows) => {
        // Base units add as big integers: above 2^53 a number sum would be off by one unit.
        expect(rows.get('2026-12-03|screen|eip155:84532')).toMatchObject({
          day: '2026-12-03',
          product: 'screen',
          network: 'eip155:84532',
          asset: USDC,
          settled_count: 2,
          settled_amount: '9007199254750993',
        });
      });
  });

  it('another product or day is another row; the newest day comes first', async () => {
    await spec
      .given([settled('p1', '2026-12-03T10:00:00.000Z', '10000')])
      .when([settled('p2', '2026-12-04T10:00:00.000Z', '10000'), settled('p3', '2026-12-03T10:00:00.000Z', '50000', 'transfer_check')])
      .then(async (revenue) => {
        const days = await revenue.days(10);
        expect(days.map((d) => [d.day, d.product])).toHaveLength(3);
        expect(days[0]).toMatchObject({ day: '2026-12-04', settled_usd: 0.01 });
        expect(await revenue.days(1)).toHaveLength(1);
      });
  });
});

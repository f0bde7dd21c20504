import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { balanceRepository, balancesProjection } from './balances.projection.js';

const at = '2026-12-03T10:00:00.000Z';
const deposited = (stream: string, amountMicros: number) =>
  event(stream, 'FundsDeposited', { depositId: `d${amountMicros}`, amountMicros, at });
const charged = (stream: string, chargeId: string, amountMicros: number) =>
  event(stream, 'Charged', {
    chargeId,
    product: 'screen',
    units: 0,
    amountMicros,
    periodStart: '2026-12-01T00:00:00.000Z',
    at,
    details: { endpoint: '/v2/screen', keyId: null, network: 'ETH', subject: '0xabc' },
  });
const refunded = (stream: string, chargeId: string, amountMicros: number) =>
  event(stream, 'Refunded', { chargeId, units: 0, amountMicros, reason: 'provider_failed', at });

const spec = projectionSpec(balancesProjection, balanceRepository);

describe('the balances read model', () => {
  it('deposits, charges and refunds add up to the balance, with counts', async () => {
    await spec
      .given([deposited('ledger-u1', 10_000_000)])
      .when([charged('ledger-u1', 'c1', 2_000_000), charged('ledger-u1', 'c2', 500_000), refunded('ledger-u1', 'c2', 500_000)])
      .thenDocument('u1', {
        user_id: 'u1',
        deposited_micros: 10_000_000,
        charged_micros: 2_500_000,
        refunded_micros: 500_000,
        balance_micros: 8_000_000,
        charges: 2,
        refunds: 1,
      });
  });

  it('a later period’s stream counts for the same user, not for "u1@2026-12"', async () => {
    await spec
      .given([deposited('ledger-u1', 1_000_000)])
      .when([charged('ledger-u1@2026-12', 'c1', 250_000)])
      .then(async (balances) => {
        expect(await balances.get('u1')).toMatchObject({ balance_micros: 750_000, charges: 1 });
        expect(await balances.get('u1@2026-12')).toBeNull();
      });
  });

  it('ledger events it does not total (plans, caps) change nothing', async () => {
    await spec
      .given([deposited('ledger-u1', 1_000_000)])
      .when([
        event('ledger-u1', 'PlanChanged', { plan: { kind: 'ledger' }, at }),
        event('ledger-u1', 'MonthlyCapSet', { capMicros: 5, at }),
      ])
      .thenUnchanged();
  });
});

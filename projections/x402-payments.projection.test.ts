import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { x402PaymentRepository, x402PaymentsProjection } from './x402-payments.projection.js';

const stream = (callId: string) => `x402-84532-0xusdc-0xpayer-${callId}`;
const reserved = (callId: string, at: string) =>
  event(stream(callId), 'PaymentReserved', {
    callId,
    network: 'eip155:84532',
    asset: '0xusdc',
    payer: '0xpayer',
    payTo: '0xpayto',
    amount: '10000',
    nonce: `0xnonce${callId}`,
    validBefore: '1799999999',
    product: 'screen',
    resource: 'GET /screen/ETH/0xabc',
    at,
  });
const settled = (callId: string, at: string) =>
  event(stream(callId), 'PaymentSettled', {
    callId,
    transaction: `0xtx${callId}`,
    network: 'eip155:84532',
    asset: '0xusdc',
    amount: '10000',
    product: 'screen',
    at,
  });

const spec = projectionSpec(x402PaymentsProjection, x402PaymentRepository);

describe('the x402 payments read model', () => {
  it('a reserved proof is a row with its amount in dollars', async () => {
    await spec
      .given([])
      .when([reserved('p1', '2026-03-01T09:00:00.000Z')])
      .then((_payments, rows) =>
        expect(rows.get('p1')).toMatchObject({ status: 'reserved', amount: '10000', amount_usd: 0.01, needs_reconciliation: false }),
      );
  });

  it('settled then served: the transaction and the response status are kept', async () => {
    await spec
      .given([reserved('p1', '2026-03-01T09:00:00.000Z')])
      .when([
        settled('p1', '2026-03-01T09:00:01.000Z'),
        event(stream('p1'), 'PaidCallServed', { callId: 'p1', status: 200, at: '2026-03-01T09:00:02.000Z' }),
      ])
      .then((_payments, rows) =>
        expect(rows.get('p1')).toMatchObject({
          status: 'served',
          transaction: '0xtxp1',
          response_status: 200,
          updated_at: '2026-03-01T09:00:02.000Z',
        }),
      );
  });

  it('a backend failure after settlement needs reconciliation; before any settlement it does not', async () => {
    const failed = (callId: string) =>
      event(stream(callId), 'PaidCallFailed', { callId, code: 'upstream_unavailable', at: '2026-03-01T09:00:03.000Z' });
    await spec
      .given([
        reserved('p1', '2026-03-01T09:00:00.000Z'),
        settled('p1', '2026-03-01T09:00:01.000Z'),
        reserved('p2', '2026-03-01T09:00:00.000Z'),
      ])
      .when([failed('p1'), failed('p2')])
      .then((_payments, rows) => {
        expect(rows.get('p1')).toMatchObject({
          status: 'backend_failed',
          failure_code: 'upstream_unavailable',
          needs_reconciliation: true,
        });
        expect(rows.get('p2')).toMatchObject({ status: 'backend_failed', needs_reconciliation: false });
      });
  });

  it('an uncertain settlement needs reconciliation; a refusal and a waiver do not', async () => {
    await spec
      .given([
        reserved('p1', '2026-03-01T09:00:00.000Z'),
        reserved('p2', '2026-03-01T09:00:00.000Z'),
        reserved('p3', '2026-03-01T09:00:00.000Z'),
      ])
      .when([
        event(stream('p1'), 'PaymentSettlementUncertain', {
          callId: 'p1',
          reason: 'timeout after broadcast',
          transaction: null,
          at: '2026-03-01T09:00:05.000Z',
        }),
        event(stream('p2'), 'PaymentFailed', {
          callId: 'p2',
          stage: 'verify',
          code: 'payment_invalid',
          reason: 'insufficient_funds',
          transaction: null,
          at: '2026-03-01T09:00:05.000Z',
        }),
        event(stream('p3'), 'PaymentWaived', { callId: 'p3', subject: 'ETH:0xtx', at: '2026-03-01T09:00:05.000Z' }),
      ])
      .then(async (payments) => {
        expect(await payments.get('p1')).toMatchObject({
          status: 'uncertain',
          needs_reconciliation: true,
          failure_reason: 'timeout after broadcast',
        });
        expect(await payments.get('p2')).toMatchObject({ status: 'failed', failure_code: 'payment_invalid', needs_reconciliation: false });
        expect(await payments.get('p3')).toMatchObject({ status: 'waived', needs_reconciliation: false });
        expect((await payments.list({ needsReconciliation: true, limit: 10 })).map((p) => p.call_id)).toEqual(['p1']);
        expect(await payments.count({ status: 'failed' })).toBe(1);
      });
  });

  it('events of a proof never reserved create nothing', async () => {
    await spec
      .given([])
      .when([settled('p1', '2026-03-01T09:00:01.000Z')])
      .thenDocument('p1', null);
  });

  it('lists newest reservation first', async () => {
    await spec
      .given([reserved('p1', '2026-03-01T09:00:00.000Z')])
      .when([reserved('p2', '2026-03-02T09:00:00.000Z')])
      .then(async (payments) => expect((await payments.list({ limit: 10 })).map((p) => p.call_id)).toEqual(['p2', 'p1']));
  });
});

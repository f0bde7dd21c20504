import { describe, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { paymentDecider, type PaymentCommand } from './payment.decider.js';
import type { PaymentEvent, PaymentReservation } from './payment.events.js';

const spec = deciderSpec(paymentDecider);
const AT = '2026-06-01T12:00:00.000Z';
const TX = `0x${'ab'.repeat(32)}`;

const reservation = (callId = 'call-1'): PaymentReservation => ({
  callId,
  network: 'eip155:84532',
  asset: '0x036cbd53842c5426634e7929541ec2318f3dcf7e',
  payer: '0x00000000000000000000000000000000000000aa',
  payTo: '0x00000000000000000000000000000000000000bb',
  amount: '100000',
  nonce: `0x${'01'.repeat(32)}`,
  validBefore: '1800000300',
  product: 'screen',
  resource: 'GET /screen/ETH/0x0000000000000000000000000000000000000001',
  at: AT,
});
const reserve = (callId = 'call-1'): PaymentCommand => ({ type: 'Reserve', ...reservation(callId) });
const reserved: PaymentEvent = { type: 'PaymentReserved', data: reservation() };
const settled: PaymentEvent = {
  type: 'PaymentSettled',
  data: {
    callId: 'call-1',
    transaction: TX,
    network: 'eip155:84532',
    asset: reservation().asset,
    amount: '100000',
    product: 'screen',
    at: AT,
  },
};

describe('payment decider: the replay guard', () => {
  it('the first presentation of a proof reserves it', () => {
    spec.given([]).when(reserve()).then([reserved]);
  });

  it('any later presentation is payment_replayed, whatever became of the first', () => {
    spec.given([reserved]).when(reserve('call-2')).thenThrows('payment_replayed');
    spec.given([reserved, settled]).when(reserve('call-2')).thenThrows('payment_replayed');
    const failed: PaymentEvent = {
      type: 'PaymentFailed',
      data: { callId: 'call-1', stage: 'verify', code: 'payment_invalid', reason: 'insufficient', transaction: null, at: AT },
    };
    spec.given([reserved, failed]).when(reserve('call-1')).thenThrows('payment_replayed');
  });
});

describe('payment decider: the fate of a reserved proof', () => {
  it('settled with its transaction, carrying what revenue accounting needs; then served', () => {
    spec.given([reserved]).when({ type: 'RecordSettlement', callId: 'call-1', transaction: TX, at: AT }).then([settled]);
    spec
      .given([reserved, settled])
      .when({ type: 'RecordServed', callId: 'call-1', status: 200, at: AT })
      .then([{ type: 'PaidCallServed', data: { callId: 'call-1', status: 200, at: AT } }]);
  });

  it('a backend failure after settlement is recorded, never before it', () => {
    spec
      .given([reserved, settled])
      .when({ type: 'RecordBackendFailure', callId: 'call-1', code: 'service_internal_error', at: AT })
      .then([{ type: 'PaidCallFailed', data: { callId: 'call-1', code: 'service_internal_error', at: AT } }]);
    spec
      .given([reserved])
      .when({ type: 'RecordBackendFailure', callId: 'call-1', code: 'service_internal_error', at: AT })
      .thenThrows('invalid_state');
    spec.given([reserved]).when({ type: 'RecordServed', callId: 'call-1', status: 200, at: AT }).thenThrows('invalid_state');
  });

  it('refused, uncertain or waived only while reserved', () => {
    spec
      .given([reserved])
      .when({
        type: 'RecordFailure',
        callId: 'call-1',
        stage: 'settle',
        code: 'payment_invalid',
        reason: 'invalid_exact_evm_transaction_failed',
        transaction: TX,
        at: AT,
      })
      .then([
        {
          type: 'PaymentFailed',
          data: {
            callId: 'call-1',
            stage: 'settle',
            code: 'payment_invalid',
            reason: 'invalid_exact_evm_transaction_failed',
            transaction: TX,
            at: AT,
          },
        },
      ]);
    spec
      .given([reserved])
      .when({ type: 'RecordUncertainSettlement', callId: 'call-1', reason: 'timeout', transaction: TX, at: AT })
      .then([{ type: 'PaymentSettlementUncertain', data: { callId: 'call-1', reason: 'timeout', transaction: TX, at: AT } }]);
    spec
      .given([reserved])
      .when({ type: 'RecordWaiver', callId: 'call-1', subject: 'ETH:0x01', at: AT })
      .then([{ type: 'PaymentWaived', data: { callId: 'call-1', subject: 'ETH:0x01', at: AT } }]);
    spec
      .given([reserved, settled])
      .when({ type: 'RecordFailure', callId: 'call-1', stage: 'settle', code: 'payment_invalid', reason: 'x', transaction: null, at: AT })
      .thenThrows('invalid_state');
  });

  it('recording the same outcome twice is a no-op; another call cannot record on this proof', () => {
    spec.given([reserved, settled]).when({ type: 'RecordSettlement', callId: 'call-1', transaction: TX, at: AT }).thenNothingHappened();
    spec.given([reserved]).when({ type: 'RecordSettlement', callId: 'call-2', transaction: TX, at: AT }).thenThrows('invalid_state');
    spec.given([]).when({ type: 'RecordServed', callId: 'call-1', status: 200, at: AT }).thenThrows('invalid_state');
  });
});

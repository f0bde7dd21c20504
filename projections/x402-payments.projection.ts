import { defineProjection } from '../domain/ports/projection.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { microsToUsd } from '../domain/shared/money.js';
import type { PaymentStatus } from '../domain/x402/payment.decider.js';
import { PAYMENT_EVENT_TYPES } from '../domain/x402/payment.events.js';

/** One row per payment proof presented to the x402 channel, with its fate (the accounting view). */
export interface X402PaymentDoc extends Record<string, unknown> {
  call_id: string;
  status: Exclude<PaymentStatus, 'none'>;
  product: string;
  resource: string;
  network: string;
  asset: string;
  payer: string;
  pay_to: string;
  /** Base units of the asset (6 decimals), as a decimal string. */
  amount: string;
  amount_usd: number;
  nonce: string;
  transaction: string | null;
  /** The spec code of a refusal or of a failure after settlement, and the facilitator's reason. */
  failure_code: string | null;
  failure_reason: string | null;
  response_status: number | null;
  /** True when money may have moved without the call being served: an operator must look at it. */
  needs_reconciliation: boolean;
  reserved_at: string;
  updated_at: string;
}

export const x402PaymentsProjection = defineProjection({
  name: 'x402-payments',
  collection: 'x402_payments',
  indexes: ['reserved_at', ['status', 'reserved_at'], ['needs_reconciliation', 'reserved_at']],
  handles: PAYMENT_EVENT_TYPES,
  idOf: (event) => event.data.callId,
  evolve: (doc: X402PaymentDoc | null, event): X402PaymentDoc | null => {
    if (event.type === 'PaymentReserved') {
      const d = event.data;
      return {
        call_id: d.callId,
        status: 'reserved',
        product: d.product,
        resource: d.resource,
        network: d.network,
        asset: d.asset,
        payer: d.payer,
        pay_to: d.payTo,
        amount: d.amount,
        amount_usd: microsToUsd(Number(d.amount)),
        nonce: d.nonce,
        transaction: null,
        failure_code: null,
        failure_reason: null,
        response_status: null,
        needs_reconciliation: false,
        reserved_at: d.at,
        updated_at: d.at,
      };
    }
    if (!doc) return null;
    const at = event.data.at;
    switch (event.type) {
      case 'PaymentFailed':
        return {
          ...doc,
          status: 'failed',
          failure_code: event.data.code,
          failure_reason: event.data.reason,
          transaction: event.data.transaction,
          updated_at: at,
        };
      case 'PaymentSettled':
        return { ...doc, status: 'settled', transaction: event.data.transaction, updated_at: at };
      case 'PaymentSettlementUncertain':
        return {
          ...doc,
          status: 'uncertain',
          failure_reason: event.data.reason,
          transaction: event.data.transaction,
          needs_reconciliation: true,
          updated_at: at,
        };
      case 'PaymentWaived':
        return { ...doc, status: 'waived', updated_at: at };
      case 'PaidCallServed':
        return { ...doc, status: 'served', response_status: event.data.status, updated_at: at };
      case 'PaidCallFailed':
        return {
          ...doc,
          status: 'backend_failed',
          failure_code: event.data.code,
          needs_reconciliation: doc.transaction !== null,
          updated_at: at,
        };
    }
  },
});

export interface X402PaymentRepository {
  /** Newest first. */
  list(options: { status?: string; needsReconciliation?: boolean; limit: number }): Promise<readonly X402PaymentDoc[]>;
  count(options: { status?: string; needsReconciliation?: boolean }): Promise<number>;
  get(callId: string): Promise<X402PaymentDoc | null>;
}

export function x402PaymentRepository(store: ReadStore): X402PaymentRepository {
  const rows = store.collection<X402PaymentDoc>(x402PaymentsProjection.collection, x402PaymentsProjection.indexes);
  const where = (options: { status?: string; needsReconciliation?: boolean }) => ({
    ...(options.status ? { status: options.status } : {}),
    ...(options.needsReconciliation !== undefined ? { needs_reconciliation: options.needsReconciliation } : {}),
  });
  return {
    list: (options) => rows.find({ where: where(options), orderBy: { field: 'reserved_at', direction: 'desc' }, limit: options.limit }),
    count: (options) => rows.count({ where: where(options) }),
    async get(callId) {
      return (await rows.get(callId))?.doc ?? null;
    },
  };
}

import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { paymentEventSchemas, type PaymentEvent, type PaymentReservation } from './payment.events.js';

/**
 * The life of one presented payment proof:
 *   none ─Reserve→ reserved ─┬→ failed      (refused by the facilitator; nothing moved)
 *                            ├→ uncertain   (settlement outcome unknown: reconcile)
 *                            ├→ settled ─┬→ served
 *                            └→ waived  ─┴→ backend_failed (paid, not served: reconcile)
 * A second Reserve, in any state, is `payment_replayed`. The other commands belong to the call that
 * reserved the proof and are idempotent for it.
 */
export type PaymentStatus = 'none' | 'reserved' | 'failed' | 'uncertain' | 'settled' | 'waived' | 'served' | 'backend_failed';

export type PaymentCommand =
  | ({ type: 'Reserve' } & PaymentReservation)
  | {
      type: 'RecordFailure';
      callId: string;
      stage: 'verify' | 'settle';
      code: string;
      reason: string;
      transaction: string | null;
      at: string;
    }
  | { type: 'RecordSettlement'; callId: string; transaction: string; at: string }
  | { type: 'RecordUncertainSettlement'; callId: string; reason: string; transaction: string | null; at: string }
  | { type: 'RecordWaiver'; callId: string; subject: string; at: string }
  | { type: 'RecordServed'; callId: string; status: number; at: string }
  | { type: 'RecordBackendFailure'; callId: string; code: string; at: string };

export interface PaymentState {
  readonly status: PaymentStatus;
  readonly reservation: PaymentReservation | null;
  readonly transaction: string | null;
}

export const initialPaymentState = (): PaymentState => ({ status: 'none', reservation: null, transaction: null });

/** The status each recording command moves to, and the statuses it may start from. */
const TRANSITIONS = {
  RecordFailure: { to: 'failed', from: ['reserved'] },
  RecordSettlement: { to: 'settled', from: ['reserved'] },
  RecordUncertainSettlement: { to: 'uncertain', from: ['reserved'] },
  RecordWaiver: { to: 'waived', from: ['reserved'] },
  RecordServed: { to: 'served', from: ['settled', 'waived'] },
  RecordBackendFailure: { to: 'backend_failed', from: ['settled', 'waived'] },
} as const satisfies Record<Exclude<PaymentCommand['type'], 'Reserve'>, { to: PaymentStatus; from: readonly PaymentStatus[] }>;

export function decidePayment(command: PaymentCommand, state: PaymentState): PaymentEvent[] {
  if (command.type === 'Reserve') {
    if (state.status !== 'none') throw fail('payment_replayed', 'this payment authorization (payer, nonce) was already presented');
    const { type: _type, ...data } = command;
    return [{ type: 'PaymentReserved', data }];
  }
  const reservation = state.reservation;
  if (!reservation || reservation.callId !== command.callId) throw fail('invalid_state', `payment not reserved by call ${command.callId}`);
  const transition = TRANSITIONS[command.type];
  if (state.status === transition.to) return [];
  if (!(transition.from as readonly PaymentStatus[]).includes(state.status)) {
    throw fail('invalid_state', `${command.type} is not possible for a payment that is ${state.status}`);
  }
  const { callId, at } = command;
  switch (command.type) {
    case 'RecordFailure':
      return [
        {
          type: 'PaymentFailed',
          data: { callId, stage: command.stage, code: command.code, reason: command.reason, transaction: command.transaction, at },
        },
      ];
    case 'RecordSettlement': {
      const { network, asset, amount, product } = reservation;
      return [{ type: 'PaymentSettled', data: { callId, transaction: command.transaction, network, asset, amount, product, at } }];
    }
    case 'RecordUncertainSettlement':
      return [{ type: 'PaymentSettlementUncertain', data: { callId, reason: command.reason, transaction: command.transaction, at } }];
    case 'RecordWaiver':
      return [{ type: 'PaymentWaived', data: { callId, subject: command.subject, at } }];
    case 'RecordServed':
      return [{ type: 'PaidCallServed', data: { callId, status: command.status, at } }];
    case 'RecordBackendFailure':
      return [{ type: 'PaidCallFailed', data: { callId, code: command.code, at } }];
  }
}

export function evolvePayment(state: PaymentState, event: PaymentEvent): PaymentState {
  switch (event.type) {
    case 'PaymentReserved':
      return { status: 'reserved', reservation: event.data, transaction: null };
    case 'PaymentFailed':
      return { ...state, status: 'failed', transaction: event.data.transaction };
    case 'PaymentSettled':
      return { ...state, status: 'settled', transaction: event.data.transaction };
    case 'PaymentSettlementUncertain':
      return { ...state, status: 'uncertain', transaction: event.data.transaction };
    case 'PaymentWaived':
      return { ...state, status: 'waived' };
    case 'PaidCallServed':
      return { ...state, status: 'served' };
    case 'PaidCallFailed':
      return { ...state, status: 'backend_failed' };
  }
}

export const paymentDecider: Decider<PaymentCommand, PaymentEvent, PaymentState> = {
  decide: decidePayment,
  evolve: evolvePayment,
  initialState: initialPaymentState,
  parse: parserFor<PaymentEvent>(paymentEventSchemas),
};

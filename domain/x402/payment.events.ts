import { z } from 'zod';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `x402-{chainId}-{asset}-{payer}-{nonce}` (lowercase): one EIP-3009 authorization presented to
 * the x402 channel. Its first append uses expected revision `no_stream`, so the stream itself is the
 * atomic replay guard: a proof is reserved once, whatever happens to it afterwards.
 */
export const paymentStreams = streamFamily('x402');
export const paymentStream = (input: { chainId: number; asset: string; payer: string; nonce: string }): string =>
  paymentStreams.stream(`${input.chainId}-${input.asset}-${input.payer}-${input.nonce}`).toLowerCase();

const reserved = z.object({
  callId: z.string(),
  /** CAIP-2 network id. */
  network: z.string(),
  asset: z.string(),
  payer: z.string(),
  payTo: z.string(),
  /** Base units of the asset, as a decimal string (uint256). */
  amount: z.string(),
  nonce: z.string(),
  validBefore: z.string(),
  product: z.string(),
  /** The paid request, e.g. `GET /screen/ETH/0x…`. */
  resource: z.string(),
  at: z.string(),
});

export const paymentEventSchemas = {
  PaymentReserved: reserved,
  /** The facilitator refused the proof (on-chain state, balance…) or refused to settle it: nothing moved. */
  PaymentFailed: z.object({
    callId: z.string(),
    stage: z.enum(['verify', 'settle']),
    code: z.string(),
    reason: z.string(),
    transaction: z.string().nullable(),
    at: z.string(),
  }),
  /** Settled on chain; carries what revenue accounting needs. */
  PaymentSettled: z.object({
    callId: z.string(),
    transaction: z.string(),
    network: z.string(),
    asset: z.string(),
    amount: z.string(),
    product: z.string(),
    at: z.string(),
  }),
  /** The settlement call failed in a way that leaves its outcome unknown (e.g. a timeout after broadcast). */
  PaymentSettlementUncertain: z.object({ callId: z.string(), reason: z.string(), transaction: z.string().nullable(), at: z.string() }),
  /** The call was paid for earlier (one payment per subject): this proof was never settled. */
  PaymentWaived: z.object({ callId: z.string(), subject: z.string(), at: z.string() }),
  PaidCallServed: z.object({ callId: z.string(), status: z.number().int(), at: z.string() }),
  /** The backend failed after settlement: the payment is kept (no automatic refund) for reconciliation. */
  PaidCallFailed: z.object({ callId: z.string(), code: z.string(), at: z.string() }),
} as const;

type Schemas = typeof paymentEventSchemas;
export type PaymentEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
export type PaymentReservation = z.infer<typeof reserved>;
export const PAYMENT_EVENT_TYPES = Object.keys(paymentEventSchemas) as readonly PaymentEvent['type'][];

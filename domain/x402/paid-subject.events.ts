import { z } from 'zod';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `x402subject-{product}-{subject}`: products paid once per subject (the transfer check: one payment
 * per (chain, tx_hash)). The claim is taken before settling, so two concurrent first payments cannot
 * both be settled; a failed settlement releases it for the next payer.
 */
export const paidSubjectStreams = streamFamily('x402subject');
export const paidSubjectStream = (product: string, subject: string): string =>
  paidSubjectStreams.stream(`${product}-${subject}`).toLowerCase();

export const paidSubjectEventSchemas = {
  PaidSubjectClaimed: z.object({ callId: z.string(), product: z.string(), subject: z.string(), at: z.string() }),
  PaidSubjectConfirmed: z.object({ callId: z.string(), transaction: z.string(), at: z.string() }),
  PaidSubjectReleased: z.object({ callId: z.string(), at: z.string() }),
} as const;

type Schemas = typeof paidSubjectEventSchemas;
export type PaidSubjectEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

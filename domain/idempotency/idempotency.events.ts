import { z } from 'zod';
import { streamFamily } from '../shared/streams.js';

/** Stream `idem-{userId}-{sha256(key)}`: one client key's claim and the response it produced. */
export const idempotencyStreams = streamFamily('idem');
export const idempotencyStream = (userId: string, keyHash: string): string => idempotencyStreams.stream(`${userId}-${keyHash}`);

export const idempotencyEventSchemas = {
  IdempotencyKeyClaimed: z.object({
    callId: z.string(),
    route: z.string(),
    requestHash: z.string(),
    bootId: z.string(),
    at: z.string(),
  }),
  IdempotentResponseStored: z.object({ callId: z.string(), status: z.number().int(), body: z.unknown(), at: z.string() }),
  IdempotencyClaimReleased: z.object({ callId: z.string(), at: z.string() }),
} as const;

type Schemas = typeof idempotencyEventSchemas;
export type IdempotencyEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

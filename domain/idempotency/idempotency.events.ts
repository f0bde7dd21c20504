import { z } from 'zod';
import { streamFamily } from '../shared/streams.js';

/** Stream `idem-{userId}-{sha256(key)}`: one client key's claim and the outcome it produced. */
export const idempotencyStreams = streamFamily('idem');
export const idempotencyStream = (userId: string, keyHash: string): string => idempotencyStreams.stream(`${userId}-${keyHash}`);

/**
 * What a key's first call left for its replays: the command's outcome (plain JSON, typed by the route that
 * claimed the key), or, for a call recorded before outcomes were stored, the answer it gave then, kept
 * verbatim so that its replay is byte for byte what the client saw (see idempotency.upcast.ts).
 */
export const storedResultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('outcome'), outcome: z.unknown() }),
  z.object({ kind: z.literal('recordedAnswer'), code: z.number().int(), body: z.unknown() }),
]);
export type StoredResult = z.infer<typeof storedResultSchema>;

export const idempotencyEventSchemas = {
  IdempotencyKeyClaimed: z.object({
    callId: z.string(),
    route: z.string(),
    requestHash: z.string(),
    bootId: z.string(),
    at: z.string(),
  }),
  IdempotentOutcomeStored: z.object({ callId: z.string(), result: storedResultSchema, at: z.string() }),
  IdempotencyClaimReleased: z.object({ callId: z.string(), at: z.string() }),
} as const;

type Schemas = typeof idempotencyEventSchemas;
export type IdempotencyEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

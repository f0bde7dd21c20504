import { z } from 'zod';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `session-{sessionId}`: one dashboard login. The session id is the SHA-256 of the cookie's token,
 * so the log never holds a token that could be replayed.
 */
export const sessionStreams = streamFamily('session');
export const sessionStream = sessionStreams.stream;

export const sessionEventSchemas = {
  SessionStarted: z.object({ sessionId: z.string(), userId: z.string(), expiresAt: z.string(), at: z.string() }),
  SessionEnded: z.object({ sessionId: z.string(), userId: z.string(), reason: z.enum(['logout']), at: z.string() }),
} as const;

type Schemas = typeof sessionEventSchemas;
export type SessionEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

import { z } from 'zod';
import { sha256Hex } from '../shared/hash.js';
import { streamFamily } from '../shared/streams.js';

/** Emails are compared without case and surrounding space: `Ops@Example.com ` is `ops@example.com`. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Stream `email-{sha256(normalized email)}`: which account an email address belongs to. One stream per
 * address makes "one account per email" a decision on one stream (two concurrent opens cannot both win);
 * the hash keeps the address out of stream names.
 */
export const emailClaimStreams = streamFamily('email');
export const emailClaimStream = (email: string): string => emailClaimStreams.stream(sha256Hex(normalizeEmail(email)));

export const emailClaimEventSchemas = {
  EmailClaimed: z.object({ email: z.string(), userId: z.string(), at: z.string() }),
} as const;

type Schemas = typeof emailClaimEventSchemas;
export type EmailClaimEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

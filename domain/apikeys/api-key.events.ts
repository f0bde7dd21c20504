import { z } from 'zod';

/** Stream `apikey-{keyId}`: a key's life. Never the key itself, only its hash and 4-character prefix. */
export const apiKeyStream = (keyId: string): string => `apikey-${keyId}`;

export const apiKeyEventSchemas = {
  ApiKeyIssued: z.object({ keyId: z.string(), userId: z.string(), hash: z.string(), prefix: z.string(), at: z.string() }),
  ApiKeyRevoked: z.object({ keyId: z.string(), userId: z.string(), hash: z.string(), at: z.string() }),
} as const;

type Schemas = typeof apiKeyEventSchemas;
export type ApiKeyEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

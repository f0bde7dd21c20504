import { z } from 'zod';
import { streamFamily } from '../shared/streams.js';

/** Stream `apikey-{keyId}`: a key's life. Never the key itself, only its hash and 4-character prefix. */
export const apiKeyStreams = streamFamily('apikey');
export const apiKeyStream = apiKeyStreams.stream;

export const apiKeyEventSchemas = {
  ApiKeyIssued: z.object({ keyId: z.string(), userId: z.string(), hash: z.string(), prefix: z.string(), at: z.string() }),
  ApiKeyRevoked: z.object({ keyId: z.string(), userId: z.string(), hash: z.string(), at: z.string() }),
} as const;

type Schemas = typeof apiKeyEventSchemas;
export type ApiKeyEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

import { present } from '../domain/shared/present.js';
import type { FastifyRequest } from 'fastify';
import { hashApiKey, isWellFormedApiKey } from '../domain/apikeys/api-key.js';
import { fail } from '../domain/shared/errors.js';
import type { ApiKeyRepository } from '../projections/api-keys.projection.js';

export interface Caller {
  readonly userId: string;
  readonly keyId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** `Authorization: Bearer <API_KEY>`: 401 missing_api_key without it, 401 invalid_api_key for a bad one. */
export function bearerAuth(apiKeys: ApiKeyRepository) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (!header) throw fail('missing_api_key', 'send Authorization: Bearer <API_KEY>');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw fail('missing_api_key', 'the Authorization header must be "Bearer <API_KEY>"');
    const key = present(match[1], 'the pattern matched, and the group is not optional');
    if (!isWellFormedApiKey(key)) throw fail('invalid_api_key', 'unknown or revoked API key');
    const found = await apiKeys.byHash(hashApiKey(key));
    if (!found || found.revoked) throw fail('invalid_api_key', 'unknown or revoked API key');
    request.caller = { userId: found.userId, keyId: found.keyId };
  };
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw fail('missing_api_key', 'send Authorization: Bearer <API_KEY>');
  return request.caller;
}

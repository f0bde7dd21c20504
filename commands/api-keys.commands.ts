import { apiKeyDecider } from '../domain/apikeys/api-key.decider.js';
import { apiKeyStream } from '../domain/apikeys/api-key.events.js';
import { apiKeyFromRandom, apiKeyPrefix, hashApiKey, isWellFormedApiKey } from '../domain/apikeys/api-key.js';
import type { Position } from '../domain/ports/event-store.port.js';
import { fail } from '../domain/shared/errors.js';
import type { CommandDeps } from './command-deps.js';

export interface IssuedApiKey {
  readonly keyId: string;
  /** The full key: returned once, never stored. */
  readonly apiKey: string;
  readonly prefix: string;
  readonly createdAt: string;
  readonly position: Position | null;
}

/**
 * Issues a new key for the user; `chosenKey` lets an operator install a known key (SVC_DEMO_API_KEY). The key
 * id is always a fresh random id: it is shown in usage rows and the dashboard, so it must say nothing about
 * the key (an id derived from the key's hash would let a weak chosen key be guessed offline). Installing a
 * chosen key only once is the caller's check (infra/startup/demo-account.ts looks its hash up first).
 */
export async function issueApiKey(deps: CommandDeps, userId: string, chosenKey?: string): Promise<IssuedApiKey> {
  if (chosenKey !== undefined && !isWellFormedApiKey(chosenKey)) {
    throw fail('bad_request', 'an API key is 48 characters: svc_ followed by 44 letters or digits');
  }
  const apiKey = chosenKey ?? apiKeyFromRandom(deps.random.bytes);
  const keyId = deps.ids.newId();
  const at = deps.clock.now().toISOString();
  const outcome = await deps.executor.execute(
    apiKeyStream(keyId),
    apiKeyDecider,
    { type: 'IssueApiKey', keyId, userId, hash: hashApiKey(apiKey), prefix: apiKeyPrefix(apiKey), at },
    { commandId: `issue-key:${keyId}` },
  );
  return { keyId, apiKey, prefix: apiKeyPrefix(apiKey), createdAt: at, position: outcome.position };
}

/** Revokes the key now; resolves with the position the read models must reach for it to take effect. */
export async function revokeApiKey(deps: CommandDeps, userId: string, keyId: string): Promise<Position | null> {
  const outcome = await deps.executor.execute(
    apiKeyStream(keyId),
    apiKeyDecider,
    { type: 'RevokeApiKey', userId, at: deps.clock.now().toISOString() },
    { commandId: deps.ids.newId() },
  );
  return outcome.position;
}

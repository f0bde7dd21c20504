import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { apiKeyDecider, type ApiKeyCommand } from './api-key.decider.js';
import type { ApiKeyEvent } from './api-key.events.js';
import { API_KEY_LENGTH, API_KEY_PREFIX, apiKeyFromRandom, apiKeyPrefix, hashApiKey, isWellFormedApiKey } from './api-key.js';

const spec = deciderSpec(apiKeyDecider);
const T = '2026-03-10T12:00:00.000Z';
const HASH = 'a'.repeat(64);

const issue: ApiKeyCommand = { type: 'IssueApiKey', keyId: 'k1', userId: 'u1', hash: HASH, prefix: 'AbC1', at: T };
const issued: ApiKeyEvent = { type: 'ApiKeyIssued', data: { keyId: 'k1', userId: 'u1', hash: HASH, prefix: 'AbC1', at: T } };
const revoke = (userId = 'u1'): ApiKeyCommand => ({ type: 'RevokeApiKey', userId, at: T });
const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { keyId: 'k1', userId: 'u1', hash: HASH, at: T } };

describe('api key decider', () => {
  it('issues a key once; issuing the same key id again is invalid_state', () => {
    const state = spec.given([]).when(issue).then([issued]);
    expect(state).toEqual({ keyId: 'k1', userId: 'u1', hash: HASH, revoked: false });
    spec.given([issued]).when(issue).thenThrows('invalid_state');
    spec.given([issued, revoked]).when(issue).thenThrows('invalid_state');
  });

  it('revokes the owner’s key with its hash (so caches can drop it); revoking again decides nothing', () => {
    const state = spec.given([issued]).when(revoke()).then([revoked]);
    expect(state.revoked).toBe(true);
    spec.given([issued, revoked]).when(revoke()).thenNothingHappened();
  });

  it('someone else’s key is indistinguishable from a missing key: not_found', () => {
    const missing = spec.given([]).when(revoke()).thenThrows('not_found');
    const foreign = spec.given([issued]).when(revoke('u2')).thenThrows('not_found');
    expect(foreign.message).toBe(missing.message);
    spec.given([issued, revoked]).when(revoke('u2')).thenThrows('not_found');
  });
});

describe('api key format', () => {
  it('is 48 characters: svc_ then 44 base62 characters', () => {
    for (let i = 0; i < 200; i++) {
      const key = apiKeyFromRandom(cryptoRandom.bytes);
      expect(key).toHaveLength(48);
      expect(API_KEY_LENGTH).toBe(48);
      expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(API_KEY_PREFIX).toBe('svc_');
      expect(key.slice(4)).toMatch(/^[0-9A-Za-z]{44}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('is well formed whatever bytes the random source yields, skipping bytes ≥ 248 (no modulo bias)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 64, maxLength: 64 }), { minLength: 1, maxLength: 5 }), (chunks) => {
        let call = 0;
        // cycles through the generated chunks, then falls back to bytes that are always used
        const next = (n: number) => chunks[call++] ?? new Uint8Array(n).fill(7);
        const key = apiKeyFromRandom(next);
        expect(isWellFormedApiKey(key)).toBe(true);
        const usable = chunks.flatMap((chunk) => [...chunk]).filter((b) => b < 248);
        const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
        const expected = [...usable.slice(0, 44).map((b) => alphabet[b % 62]!)].join('');
        expect(key.slice(4, 4 + expected.length)).toBe(expected);
      }),
      { numRuns: 200 },
    );
    // every byte of a chunk of 248..255 is skipped
    let calls = 0;
    const key = apiKeyFromRandom((n) => (calls++ === 0 ? new Uint8Array(n).fill(255) : new Uint8Array(n).fill(61)));
    expect(key).toBe(`svc_${'z'.repeat(44)}`);
  });

  it('hashes to the SHA-256 hex of the key (64 lowercase hex characters, no 0x)', () => {
    const key = apiKeyFromRandom(cryptoRandom.bytes);
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
    expect(hashApiKey(`svc_${'0'.repeat(44)}`)).not.toBe(hash);
  });

  it('shows a 4-character prefix: the first four characters after svc_', () => {
    const key = `svc_AbC1${'x'.repeat(40)}`;
    expect(apiKeyPrefix(key)).toBe('AbC1');
    expect(apiKeyPrefix(apiKeyFromRandom(cryptoRandom.bytes))).toMatch(/^[0-9A-Za-z]{4}$/);
  });

  it('rejects malformed keys', () => {
    const good = `svc_${'a'.repeat(44)}`;
    expect(isWellFormedApiKey(good)).toBe(true);
    for (const bad of [
      `svc_${'a'.repeat(43)}`,
      `svc_${'a'.repeat(45)}`,
      `sk_l${'a'.repeat(44)}`,
      `SVC_${'a'.repeat(44)}`,
      `svc_${'a'.repeat(43)}-`,
      `svc_${'a'.repeat(43)}_`,
      `svc_${'a'.repeat(43)}é`,
      `${good}\n`,
      ` ${good}`,
      '',
    ]) {
      expect(isWellFormedApiKey(bad), bad).toBe(false);
    }
  });
});

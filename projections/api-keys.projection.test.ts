import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { apiKeyHashesProjection, apiKeyRepository, apiKeysProjection } from './api-keys.projection.js';

const issued = (keyId: string, at: string) =>
  event(`apikey-${keyId}`, 'ApiKeyIssued', { keyId, userId: 'u1', hash: `hash-${keyId}`, prefix: keyId.slice(0, 4), at });
const revoked = (keyId: string, at: string) =>
  event(`apikey-${keyId}`, 'ApiKeyRevoked', { keyId, userId: 'u1', hash: `hash-${keyId}`, at });
const charged = (keyId: string | null, at: string) =>
  event('ledger-u1', 'Charged', {
    chargeId: `c-${at}`,
    product: 'screen',
    units: 1,
    amountMicros: 0,
    periodStart: '2026-03-01T00:00:00.000Z',
    at,
    details: { endpoint: '/v2/screen', keyId, network: 'ETH', subject: '0xabc' },
  });

describe('the API keys read model', () => {
  const keys = projectionSpec(apiKeysProjection, apiKeyRepository);

  it('an issued key is listed with its prefix, never used and not revoked', async () => {
    await keys
      .given([])
      .when([issued('key1', '2026-03-01T09:00:00.000Z')])
      .thenDocument('key1', {
        keyId: 'key1',
        userId: 'u1',
        prefix: 'key1',
        createdAt: '2026-03-01T09:00:00.000Z',
        revokedAt: null,
        lastUsedAt: null,
      });
  });

  it('a charge made with the key marks it used; a revocation dates it', async () => {
    await keys
      .given([issued('key1', '2026-03-01T09:00:00.000Z')])
      .when([charged('key1', '2026-03-02T09:00:00.000Z'), revoked('key1', '2026-03-03T09:00:00.000Z')])
      .then(async (_repository, documents) => {
        expect(documents.get('key1')).toMatchObject({ lastUsedAt: '2026-03-02T09:00:00.000Z', revokedAt: '2026-03-03T09:00:00.000Z' });
      });
  });

  it('a charge without a key (dashboard, x402) or of an unknown key touches no key', async () => {
    await keys
      .given([issued('key1', '2026-03-01T09:00:00.000Z')])
      .when([charged(null, '2026-03-02T09:00:00.000Z'), charged('gone', '2026-03-02T09:00:00.000Z')])
      .thenUnchanged();
  });

  it('lists a user’s keys oldest first', async () => {
    await keys
      .given([issued('key2', '2026-03-02T09:00:00.000Z')])
      .when([issued('key1', '2026-03-01T09:00:00.000Z')])
      .then(async (repository) => expect((await repository.listForUser('u1')).map((k) => k.keyId)).toEqual(['key1', 'key2']));
  });
});

describe('the API key hashes read model', () => {
  const hashes = projectionSpec(apiKeyHashesProjection, apiKeyRepository);

  it('a presented key’s hash finds its owner until it is revoked', async () => {
    await hashes
      .given([issued('key1', '2026-03-01T09:00:00.000Z')])
      .when([])
      .then(async (repository) => expect(await repository.byHash('hash-key1')).toEqual({ keyId: 'key1', userId: 'u1', revoked: false }));
    await hashes
      .given([issued('key1', '2026-03-01T09:00:00.000Z')])
      .when([revoked('key1', '2026-03-02T09:00:00.000Z')])
      .thenDocument('hash-key1', { keyId: 'key1', userId: 'u1', revoked: true });
  });

  it('a revocation of a key never issued creates nothing', async () => {
    await hashes
      .given([])
      .when([revoked('key1', '2026-03-02T09:00:00.000Z')])
      .thenDocument('hash-key1', null);
  });
});

import type { Collection, ReadStore } from '../domain/ports/read-store.port.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/** The keys of each user, for listing (prefix, created, last used) and for revocation checks. */
export interface ApiKeyDoc extends Record<string, unknown> {
  keyId: string;
  userId: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export const apiKeysProjection = defineProjection({
  name: 'api-keys',
  collection: 'api_keys',
  indexes: ['userId'],
  handles: ['ApiKeyIssued', 'ApiKeyRevoked', 'Charged'],
  idOf: (event) => (event.type === 'Charged' ? event.data.details.keyId : event.data.keyId),
  evolve: (doc: ApiKeyDoc | null, event) => {
    switch (event.type) {
      case 'ApiKeyIssued': {
        const { keyId, userId, prefix, at } = event.data;
        return { keyId, userId, prefix, createdAt: at, revokedAt: null, lastUsedAt: null };
      }
      case 'ApiKeyRevoked':
        return doc && { ...doc, revokedAt: event.data.at };
      case 'Charged':
        return doc && { ...doc, lastUsedAt: event.data.at };
    }
  },
});

/** Authentication: the SHA-256 of a presented key → its owner, in one lookup. */
export interface ApiKeyHashDoc extends Record<string, unknown> {
  keyId: string;
  userId: string;
  revoked: boolean;
}

export const apiKeyHashesProjection = defineProjection({
  name: 'api-key-hashes',
  collection: 'api_key_hashes',
  handles: ['ApiKeyIssued', 'ApiKeyRevoked'],
  idOf: (event) => event.data.hash,
  evolve: (doc: ApiKeyHashDoc | null, event) => {
    if (event.type === 'ApiKeyIssued') return { keyId: event.data.keyId, userId: event.data.userId, revoked: false };
    return doc && { ...doc, revoked: true };
  },
});

export interface ApiKeyRepository {
  byHash(hash: string): Promise<ApiKeyHashDoc | null>;
  listForUser(userId: string): Promise<readonly ApiKeyDoc[]>;
}

export function apiKeyRepository(store: ReadStore): ApiKeyRepository {
  const hashes: Collection<ApiKeyHashDoc> = store.collection(apiKeyHashesProjection.collection);
  const keys: Collection<ApiKeyDoc> = store.collection(apiKeysProjection.collection, apiKeysProjection.indexes);
  return {
    byHash: async (hash) => (await hashes.get(hash))?.doc ?? null,
    listForUser: (userId) => keys.find({ where: { userId }, orderBy: { field: 'createdAt', direction: 'asc' } }),
  };
}

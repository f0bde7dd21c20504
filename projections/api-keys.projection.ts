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

type Data = Record<string, string> & { details?: { keyId?: string | null } };

export const apiKeysProjection = defineProjection<ApiKeyDoc>({
  name: 'api-keys',
  collection: 'api_keys',
  indexes: ['userId'],
  handles: ['ApiKeyIssued', 'ApiKeyRevoked', 'Charged'],
  idOf: (event) => {
    const data = event.data as Data;
    return event.type === 'Charged' ? (data.details?.keyId ?? null) : (data.keyId ?? null);
  },
  evolve: (doc, event) => {
    const data = event.data as Data;
    switch (event.type) {
      case 'ApiKeyIssued':
        return { keyId: data.keyId!, userId: data.userId!, prefix: data.prefix!, createdAt: data.at!, revokedAt: null, lastUsedAt: null };
      case 'ApiKeyRevoked':
        return doc && { ...doc, revokedAt: data.at! };
      case 'Charged':
        return doc && { ...doc, lastUsedAt: data.at! };
      default:
        return doc;
    }
  },
});

/** Authentication: the SHA-256 of a presented key → its owner, in one lookup. */
export interface ApiKeyHashDoc extends Record<string, unknown> {
  keyId: string;
  userId: string;
  revoked: boolean;
}

export const apiKeyHashesProjection = defineProjection<ApiKeyHashDoc>({
  name: 'api-key-hashes',
  collection: 'api_key_hashes',
  handles: ['ApiKeyIssued', 'ApiKeyRevoked'],
  idOf: (event) => (event.data as Data).hash ?? null,
  evolve: (doc, event) => {
    const data = event.data as Data;
    if (event.type === 'ApiKeyIssued') return { keyId: data.keyId!, userId: data.userId!, revoked: false };
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

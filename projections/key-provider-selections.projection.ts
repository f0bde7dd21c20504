import { keyProvidersStreams } from '../domain/inspect/key-providers.decider.js';
import { defineProjection } from '../domain/ports/projection.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';

/** Each API key's saved active subset of inspect providers (absent or null: the account's default applies). */
export interface KeyProviderSelectionDoc extends Record<string, unknown> {
  keyId: string;
  userId: string;
  providers: string[] | null;
  selectedAt: string;
}

export const keyProviderSelectionsProjection = defineProjection({
  name: 'key-provider-selections',
  collection: 'key_provider_selections',
  handles: ['KeyProvidersSelected'],
  idOf: (event) => keyProvidersStreams.idOf(event.streamId),
  evolve: (_doc: KeyProviderSelectionDoc | null, event) => {
    const data = event.data;
    return { keyId: data.keyId, userId: data.userId, providers: data.providers, selectedAt: data.at };
  },
});

export interface KeyProviderSelectionRepository {
  /** The key's saved subset, or null when none is saved. */
  providersOf(keyId: string): Promise<readonly string[] | null>;
}

export function keyProviderSelectionRepository(store: ReadStore): KeyProviderSelectionRepository {
  const selections = store.collection<KeyProviderSelectionDoc>(keyProviderSelectionsProjection.collection);
  return { providersOf: async (keyId) => (await selections.get(keyId))?.doc.providers ?? null };
}

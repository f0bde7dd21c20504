import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { keyProviderSelectionRepository, keyProviderSelectionsProjection } from './key-provider-selections.projection.js';

const selected = (keyId: string, providers: string[] | null, at: string) =>
  event(`keyproviders-${keyId}`, 'KeyProvidersSelected', { keyId, userId: 'u1', providers, at });

const spec = projectionSpec(keyProviderSelectionsProjection, keyProviderSelectionRepository);

describe('the key provider selections read model', () => {
  it('a key’s selection is saved under the key', async () => {
    await spec
      .given([])
      .when([selected('k1', ['chainalysis'], '2026-03-01T09:00:00.000Z')])
      .thenDocument('k1', { keyId: 'k1', userId: 'u1', providers: ['chainalysis'], selectedAt: '2026-03-01T09:00:00.000Z' });
  });

  it('the latest selection wins; a null selection returns the key to the account default', async () => {
    await spec
      .given([selected('k1', ['a'], '2026-03-01T09:00:00.000Z'), selected('k2', ['b'], '2026-03-01T09:00:00.000Z')])
      .when([selected('k1', ['a', 'c'], '2026-03-02T09:00:00.000Z'), selected('k2', null, '2026-03-02T09:00:00.000Z')])
      .then(async (selections) => {
        expect(await selections.providersOf('k1')).toEqual(['a', 'c']);
        expect(await selections.providersOf('k2')).toBeNull();
        expect(await selections.providersOf('k3')).toBeNull();
      });
  });
});

import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { keyProvidersDecider, type KeyProvidersEvent } from './key-providers.decider.js';

const spec = deciderSpec(keyProvidersDecider);
const T = '2026-03-10T12:00:00.000Z';
const selected = (providers: string[] | null): KeyProvidersEvent => ({
  type: 'KeyProvidersSelected',
  data: { keyId: 'k1', userId: 'u1', providers, at: T },
});

describe('a key’s saved provider subset', () => {
  it('saves a subset once (duplicates folded); the same subset again decides nothing', () => {
    const state = spec
      .given([])
      .when({ type: 'SelectKeyProviders', keyId: 'k1', userId: 'u1', providers: ['provider_b', 'provider_b'], at: T })
      .then([selected(['provider_b'])]);
    expect(state.providers).toEqual(['provider_b']);
    spec
      .given([selected(['provider_b'])])
      .when({ type: 'SelectKeyProviders', keyId: 'k1', userId: 'u1', providers: ['provider_b'], at: T })
      .thenNothingHappened();
  });

  it('an empty subset (the own engine alone) differs from a cleared one (the account’s default)', () => {
    spec
      .given([selected(['provider_b'])])
      .when({ type: 'SelectKeyProviders', keyId: 'k1', userId: 'u1', providers: [], at: T })
      .then([selected([])]);
    const cleared = spec
      .given([selected([])])
      .when({ type: 'SelectKeyProviders', keyId: 'k1', userId: 'u1', providers: null, at: T })
      .then([selected(null)]);
    expect(cleared.providers).toBeNull();
    spec.given([]).when({ type: 'SelectKeyProviders', keyId: 'k1', userId: 'u1', providers: null, at: T }).thenNothingHappened();
  });
});

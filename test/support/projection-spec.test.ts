import { describe, expect, it } from 'vitest';
import { defineProjection } from '../../domain/ports/projection.port.js';
import { event, projectionSpec, type SpecEvent } from './projection-spec.js';

/** The helper must fail specs that describe impossible events or projections that break the runner's rules. */
interface CountDoc extends Record<string, unknown> {
  userId: string;
  keys: string[];
}

const countingKeys = (mutate: boolean) =>
  defineProjection({
    name: 'count-keys',
    collection: 'count_keys',
    handles: ['ApiKeyIssued'],
    idOf: (e) => e.data.userId,
    evolve: (doc: CountDoc | null, e) => {
      if (doc && mutate) {
        doc.keys.push(e.data.keyId);
        return doc;
      }
      return { userId: e.data.userId, keys: [...(doc?.keys ?? []), e.data.keyId] };
    },
  });
const issued = (keyId: string) =>
  event(`apikey-${keyId}`, 'ApiKeyIssued', { keyId, userId: 'u1', hash: `h-${keyId}`, prefix: 'abcd', at: '2026-03-01T00:00:00.000Z' });

describe('projectionSpec', () => {
  it('folds given then when, and compares documents', async () => {
    await projectionSpec(countingKeys(false))
      .given([issued('k1')])
      .when([issued('k2')])
      .thenDocument('u1', { userId: 'u1', keys: ['k1', 'k2'] });
    await expect(
      projectionSpec(countingKeys(false))
        .given([issued('k1')])
        .when([issued('k2')])
        .thenDocument('u1', { userId: 'u1', keys: ['k2'] }),
    ).rejects.toThrow();
    await expect(
      projectionSpec(countingKeys(false))
        .given([issued('k1')])
        .when([issued('k2')])
        .thenUnchanged(),
    ).rejects.toThrow();
  });

  it('fails a projection that mutates the document it is given', async () => {
    await expect(
      projectionSpec(countingKeys(true))
        .given([issued('k1')])
        .when([issued('k2')])
        .thenUnchanged(),
    ).rejects.toThrow(/read.only|frozen|not extensible/i);
  });

  it('fails an event on a stream its type is never appended to, or with data its schema refuses', async () => {
    const misplaced = { ...issued('k1'), stream: 'account-u1' };
    await expect(projectionSpec(countingKeys(false)).given([]).when([misplaced]).thenUnchanged()).rejects.toThrow(
      /not appended to account-u1/,
    );
    const malformed = { ...issued('k1'), data: { keyId: 'k1' } } as unknown as SpecEvent;
    await expect(projectionSpec(countingKeys(false)).given([]).when([malformed]).thenUnchanged()).rejects.toThrow();
  });

  it('fails a projection whose fold is not idempotent under redelivery', async () => {
    // idOf changes with every call: the redelivered events land on new documents.
    let calls = 0;
    const unstable = defineProjection({
      name: 'unstable',
      collection: 'unstable',
      handles: ['ApiKeyIssued'],
      idOf: (e) => `${e.data.keyId}-${(calls += 1) > 1 ? 'again' : 'first'}`,
      evolve: (_doc: CountDoc | null, e) => ({ userId: e.data.userId, keys: [e.data.keyId] }),
    });
    await expect(
      projectionSpec(unstable)
        .given([])
        .when([issued('k1')])
        .thenDocument('k1-first', { userId: 'u1', keys: ['k1'] }),
    ).rejects.toThrow(/redelivered/);
  });
});

import { describe, expect, it } from 'vitest';
import { readStoreContract } from '../../test/contracts/read-store.contract.js';
import { createMemoryReadStore } from './memory-read-store.js';

readStoreContract('memory', async () => createMemoryReadStore());

describe('memory read store', () => {
  it('answers equality lookups on an indexed field of a 100k-row collection', async () => {
    const store = createMemoryReadStore();
    const usage = store.collection<{ user: string; at: string }>('usage', ['user']);
    for (let i = 0; i < 100_000; i += 1) {
      await usage.apply(`u${i}`, { commit: BigInt(i), prepare: BigInt(i) }, () => ({ user: `user${i % 1000}`, at: `2024-${i}` }));
    }
    // Speed is the benchmarks' business (no timed assertions here); this checks the index answers right.
    for (let i = 0; i < 1000; i += 1) expect(await usage.count({ where: { user: `user${i}` } })).toBe(100);
  });

  it('builds an index declared after documents were written and keeps it current', async () => {
    const store = createMemoryReadStore();
    const rows = store.collection<{ user: string }>('rows');
    await rows.apply('a', { commit: 1n, prepare: 1n }, () => ({ user: 'x' }));
    const indexed = store.collection<{ user: string }>('rows', ['user']);
    expect(await indexed.find({ where: { user: 'x' } })).toEqual([{ user: 'x' }]);
    await indexed.apply('a', { commit: 2n, prepare: 2n }, () => ({ user: 'y' }));
    expect(await indexed.count({ where: { user: 'x' } })).toBe(0);
    expect(await indexed.count({ where: { user: 'y' } })).toBe(1);
  });

  it('refuses use after close', async () => {
    const store = createMemoryReadStore();
    const rows = store.collection('rows');
    await store.close();
    await expect(rows.get('a')).rejects.toMatchObject({ code: 'store_closed' });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStoreContract } from '../../test/contracts/read-store.contract.js';
import { openLmdbReadStore } from './lmdb-read-store.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

readStoreContract('lmdb', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lmdb-read-store-'));
  dirs.push(dir);
  return openLmdbReadStore(dir);
});

describe('lmdb read store on disk', () => {
  const pos = (n: number) => ({ commit: BigInt(n), prepare: BigInt(n) });

  it('keeps documents, indexes and checkpoints across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lmdb-read-store-'));
    dirs.push(dir);
    const first = await openLmdbReadStore(dir);
    const rows = [1, 2, 3].map((n) => ({
      collection: 'usage',
      id: `r${n}`,
      doc: { user: n === 2 ? 'b' : 'a', at: `2026-01-0${n}`, n },
      position: pos(n),
    }));
    expect(await first.commit(rows, { name: 'projections', next: pos(3), previous: null })).toBe('ok');
    await first.close();

    const second = await openLmdbReadStore(dir);
    try {
      expect(await second.checkpoint('projections')).toEqual(pos(3));
      const usage = second.collection<{ user: string; at: string; n: number }>('usage', ['user', 'at']);
      expect((await usage.find({ where: { user: 'a' }, orderBy: { field: 'at', direction: 'desc' }, limit: 1 })).map((d) => d.n)).toEqual([
        3,
      ]);
      expect(await usage.count({ where: { user: 'a' }, since: { field: 'at', value: '2026-01-02' } })).toBe(1);
      expect((await usage.get('r2'))?.doc.user).toBe('b');
    } finally {
      await second.close();
    }
  });

  it('answers reads made while a commit is in flight with the state before it, then with the commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lmdb-read-store-'));
    dirs.push(dir);
    const store = await openLmdbReadStore(dir);
    try {
      const balances = store.collection<{ usd: number }>('balances');
      expect(
        await store.commit([{ collection: 'balances', id: 'u', doc: { usd: 10 }, position: pos(1) }], {
          name: 'p',
          next: pos(1),
          previous: null,
        }),
      ).toBe('ok');
      expect((await balances.get('u'))?.doc.usd).toBe(10);
      const second = store.commit([{ collection: 'balances', id: 'u', doc: { usd: 9 }, position: pos(2) }], {
        name: 'p',
        next: pos(2),
        previous: pos(1),
      });
      const during = await balances.get('u');
      expect(await second).toBe('ok');
      expect([10, 9]).toContain(during?.doc.usd);
      expect((await balances.get('u'))?.doc.usd).toBe(9);
      expect(await balances.entry('u')).toEqual({ doc: { usd: 9 }, position: pos(2) });
      // A replayed older event is still refused against the cached position.
      expect(await balances.apply('u', pos(1), () => ({ usd: 0 }))).toBe('duplicate');
      expect(await balances.apply('u', pos(3), (doc) => ({ usd: (doc?.usd ?? 0) - 1 }))).toBe('applied');
      expect((await balances.get('u'))?.doc.usd).toBe(8);
      // A commit refused for its checkpoint leaves what the cache serves as it was.
      expect(
        await store.commit([{ collection: 'balances', id: 'u', doc: { usd: 100 }, position: pos(9) }], {
          name: 'p',
          next: pos(9),
          previous: pos(1),
        }),
      ).toBe('mismatch');
      expect((await balances.get('u'))?.doc.usd).toBe(8);
      await store.drop('balances');
      expect(await store.collection<{ usd: number }>('balances').get('u')).toBeNull();
    } finally {
      await store.close();
    }
  });
});

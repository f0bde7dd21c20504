import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStoreContract } from '../../test/contracts/read-store.contract.js';
import { open, type Key } from 'lmdb';
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

  /** The index keys of a collection, as stored. */
  function indexKeysIn(dir: string, collection: string): Key[][] {
    const root = open({ path: dir, compression: false });
    try {
      return [...root.openDB<true, Key[]>({ name: 'index' }).getKeys({ start: [collection], end: [collection, '\uffff'] })];
    } finally {
      void root.close();
    }
  }

  it('re-indexes a collection when its declared indexes change, dropping the keys of the ones gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lmdb-read-store-'));
    dirs.push(dir);
    const first = await openLmdbReadStore(dir);
    first.collection('rows', ['user', 'at']);
    await first.commit([{ collection: 'rows', id: 'r1', doc: { user: 'a', at: '2026-01-01' }, position: pos(1) }], {
      name: 'p',
      next: pos(1),
      previous: null,
    });
    await first.close();
    expect(indexKeysIn(dir, 'rows')).toEqual([
      ['rows', 'at', '2026-01-01', 'r1'],
      ['rows', 'user', 'a', 'r1'],
    ]);

    const second = await openLmdbReadStore(dir);
    const rows = second.collection<{ user: string; at: string }>('rows', [['user', 'at']]);
    expect(await rows.count({ where: { user: 'a' } })).toBe(1);
    await second.close();
    expect(indexKeysIn(dir, 'rows')).toEqual([['rows', 'user>at', 'a', '2026-01-01', 'r1']]);
  });

  it('writes a shape of document once: each document refers to it, in every store that opens the directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lmdb-read-store-'));
    dirs.push(dir);
    // Two stores on one directory, as the projection thread's and the API thread's are.
    const writer = await openLmdbReadStore(dir);
    const reader = await openLmdbReadStore(dir);
    writer.onWritten((keys) => reader.forget(keys));
    reader.onWritten((keys) => writer.forget(keys));
    try {
      const row = (n: number) => ({
        call_id: `c${n}`,
        user_id: 'u',
        network: 'ETH',
        created_at: `2026-01-0${n}`,
        summary: { level: 'high' },
      });
      const rows = [1, 2].map((n) => ({ collection: 'usage_rows', id: `c${n}`, doc: row(n), position: pos(n) }));
      expect(await writer.commit(rows, { name: 'w', next: pos(2), previous: null })).toBe('ok');
      expect((await reader.collection('usage_rows').get('c2'))?.doc).toEqual(row(2));
      // Keyed by data (addresses): stored whole, not as a shape of its own.
      const byAddress = { '0xab12': 1, '0xcd34': 2 };
      expect(
        await reader.commit([{ collection: 'tallies', id: 't', doc: byAddress, position: pos(3) }], {
          name: 'r',
          next: pos(3),
          previous: null,
        }),
      ).toBe('ok');
      expect((await writer.collection('tallies').get('t'))?.doc).toEqual(byAddress);
      // The same entry as a plain map (field names in every document), written to a database of its own.
      const stored = open({ path: dir, compression: false }).openDB<unknown, Key[]>({ name: 'docs' }).getBinary(['usage_rows', 'c2'])!;
      const plain = open({ path: join(dir, 'plain'), compression: false });
      await plain.put('c2', { d: row(2), c: '2', p: '2' });
      const names = Buffer.byteLength('dcpcall_iduser_idnetworkcreated_atsummarylevel');
      expect(stored.length).toBeLessThanOrEqual(plain.getBinary('c2')!.length - names);
      await plain.close();
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('opens a data directory of the earlier layout (a key per field and per pair of fields) and re-indexes it once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lmdb-read-store-'));
    dirs.push(dir);
    // As the earlier version wrote it: the declared fields, and keys for each field and each ordered pair.
    const old = open({ path: dir, compression: false });
    const docs = old.openDB<unknown, Key[]>({ name: 'docs' });
    const index = old.openDB<true, Key[]>({ name: 'index' });
    await old.transaction(() => {
      void docs.put(['usage_rows', 'c1'], { d: { user_id: 'u', created_at: '2026-01-01' }, c: '1', p: '0' });
      for (const key of [
        ['usage_rows', 'user_id', 'u', 'c1'],
        ['usage_rows', 'created_at', '2026-01-01', 'c1'],
        ['usage_rows', 'user_id>created_at', 'u', '2026-01-01', 'c1'],
        ['usage_rows', 'created_at>user_id', '2026-01-01', 'u', 'c1'],
      ])
        void index.put(key, true);
      void old.openDB<string[], string>({ name: 'fields' }).put('usage_rows', ['user_id', 'created_at']);
    });
    await old.close();

    const store = await openLmdbReadStore(dir);
    const usage = store.collection<{ user_id: string }>('usage_rows', [['user_id', 'created_at']]);
    expect((await usage.find({ where: { user_id: 'u' }, orderBy: { field: 'created_at', direction: 'desc' } })).length).toBe(1);
    await store.close();
    expect(indexKeysIn(dir, 'usage_rows')).toEqual([['usage_rows', 'user_id>created_at', 'u', '2026-01-01', 'c1']]);
  });

  it('refuses use after close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lmdb-read-store-'));
    dirs.push(dir);
    const store = await openLmdbReadStore(dir);
    const rows = store.collection('rows');
    await store.close();
    await expect(rows.get('a')).rejects.toMatchObject({ code: 'store_closed' });
  });
});

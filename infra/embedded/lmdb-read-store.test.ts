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
    const rows = [1, 2, 3].map((n) => ({ collection: 'usage', id: `r${n}`, doc: { user: n === 2 ? 'b' : 'a', at: `2026-01-0${n}`, n }, position: pos(n) }));
    expect(await first.commit(rows, { name: 'projections', next: pos(3), previous: null })).toBe('ok');
    await first.close();

    const second = await openLmdbReadStore(dir);
    try {
      expect(await second.checkpoint('projections')).toEqual(pos(3));
      const usage = second.collection<{ user: string; at: string; n: number }>('usage', ['user', 'at']);
      expect((await usage.find({ where: { user: 'a' }, orderBy: { field: 'at', direction: 'desc' }, limit: 1 })).map((d) => d.n)).toEqual([3]);
      expect(await usage.count({ where: { user: 'a' }, since: { field: 'at', value: '2026-01-02' } })).toBe(1);
      expect((await usage.get('r2'))?.doc.user).toBe('b');
    } finally {
      await second.close();
    }
  });
});

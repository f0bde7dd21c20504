import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { checkpointStoreContract } from '../../test/contracts/read-store.contract.js';
import { openLmdbCheckpointStore } from './lmdb-checkpoint-store.js';
import { openLmdbEventStore } from './lmdb-event-store.js';

const dirs: string[] = [];
const tempDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'checkpoints-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

checkpointStoreContract('lmdb', async () => openLmdbCheckpointStore(await tempDir()));
checkpointStoreContract('lmdb, in the event store', async () => (await openLmdbEventStore(await tempDir(), { fsync: false })).checkpoints);

describe('lmdb checkpoint store', () => {
  it('keeps checkpoints across a reopen', async () => {
    const dir = await tempDir();
    const first = await openLmdbCheckpointStore(dir);
    await first.store('relay', { commit: 12n, prepare: 11n }, null);
    await Promise.all([first.store('a', { commit: 1n, prepare: 1n }, null), first.store('b', { commit: 2n, prepare: 2n }, null)]);
    await first.close();
    const second = await openLmdbCheckpointStore(dir);
    expect(await second.load('relay')).toEqual({ commit: 12n, prepare: 11n });
    expect(await second.load('b')).toEqual({ commit: 2n, prepare: 2n });
    expect(await second.store('relay', { commit: 13n, prepare: 13n }, { commit: 12n, prepare: 11n })).toBe('ok');
    expect(await second.store('relay', { commit: 14n, prepare: 0n }, { commit: 12n, prepare: 11n })).toBe('mismatch');
    await second.close();
  });

  it('keeps positions beyond 2^53 exactly (an external store’s)', async () => {
    const store = await openLmdbCheckpointStore(await tempDir());
    const far = { commit: 2n ** 63n - 1n, prepare: 2n ** 60n + 1n };
    expect(await store.store('esdb', far, null)).toBe('ok');
    expect(await store.load('esdb')).toEqual(far);
    await store.close();
  });

  it('shares the event store’s environment: checkpoints and events survive one reopen together', async () => {
    const dir = await tempDir();
    const events = await openLmdbEventStore(dir, { fsync: true });
    const metadata = { correlationId: randomUUID(), occurredAt: new Date(0).toISOString(), schemaVersion: 1 };
    const { position } = await events.append('s', [{ id: randomUUID(), type: 'Tested', data: {}, metadata }], { expected: 'no_stream' });
    expect(await events.checkpoints.store('relay', position, null)).toBe('ok');
    await events.close();
    const reopened = await openLmdbEventStore(dir, { fsync: true });
    expect(await reopened.checkpoints.load('relay')).toEqual(position);
    expect(await reopened.headPosition()).toEqual(position);
    await reopened.close();
    await expect(reopened.checkpoints.load('relay')).rejects.toMatchObject({ code: 'store_closed' });
  });

  it('refuses use after close', async () => {
    const store = await openLmdbCheckpointStore(await tempDir());
    await store.close();
    await expect(store.load('a')).rejects.toMatchObject({ code: 'store_closed' });
  });
});

import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkpointStoreContract } from '../../test/contracts/read-store.contract.js';
import { openFileCheckpointStore } from './file-checkpoint-store.js';
import { createMemoryCheckpointStore } from './memory-checkpoint-store.js';

const dirs: string[] = [];
const tempDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'checkpoints-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

checkpointStoreContract('memory', async () => createMemoryCheckpointStore());
checkpointStoreContract('file', async () => openFileCheckpointStore(await tempDir()));

describe('file checkpoint store', () => {
  it('keeps checkpoints across a reopen and leaves no temp file behind', async () => {
    const dir = await tempDir();
    const first = await openFileCheckpointStore(dir);
    await first.store('relay', { commit: 12n, prepare: 11n }, null);
    await Promise.all([first.store('a', { commit: 1n, prepare: 1n }, null), first.store('b', { commit: 2n, prepare: 2n }, null)]);
    await first.close();
    const second = await openFileCheckpointStore(dir);
    expect(await second.load('relay')).toEqual({ commit: 12n, prepare: 11n });
    expect(await second.load('b')).toEqual({ commit: 2n, prepare: 2n });
    expect(await second.store('relay', { commit: 13n, prepare: 13n }, { commit: 12n, prepare: 11n })).toBe('ok');
    await second.close();
    expect(await readdir(dir)).toEqual(['checkpoints.json']);
  });

  it('refuses to open a corrupt file', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'checkpoints.json'), '{"relay": ');
    await expect(openFileCheckpointStore(dir)).rejects.toMatchObject({ code: 'store_corrupt' });
  });

  it('refuses use after close', async () => {
    const store = await openFileCheckpointStore(await tempDir());
    await store.close();
    await expect(store.load('a')).rejects.toMatchObject({ code: 'store_closed' });
  });
});

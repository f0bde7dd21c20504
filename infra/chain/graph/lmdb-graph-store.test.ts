import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { transferGraphStoreContract } from '../../../test/contracts/transfer-graph-store.contract.js';
import { openLmdbGraphStore } from './lmdb-graph-store.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

transferGraphStoreContract('LMDB', async (superNodeBound) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-graph-'));
  dirs.push(dir);
  return openLmdbGraphStore({ dir, superNodeBound });
});

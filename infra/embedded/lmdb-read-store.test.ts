import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { readStoreContract } from '../../test/contracts/read-store.contract.js';
import { openLmdbReadStore } from './lmdb-read-store.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

readStoreContract('lmdb', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lmdb-read-store-'));
  dirs.push(dir);
  return openLmdbReadStore(dir);
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLmdbGraphStore } from '../../infra/chain/graph/lmdb-graph-store.js';
import { BULK_BOUND, contents, fixture } from '../support/bulk-fixture.js';
import { bulkLoadKilledIn } from '../support/bulk-kill.js';

/**
 * A bulk load killed with SIGKILL while it writes the graph (the stage given) leaves it marked `loading`;
 * the next load wipes it and starts over, and the graph equals a fold of the same transfers from scratch.
 */
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('bulk load killed with SIGKILL', () => {
  it.each(['ranked', 'pairs'])(
    'in its %s stage: the next load counts nothing twice',
    async (stage) => {
      const root = await mkdtemp(join(tmpdir(), 'svc-bulk-kill-'));
      dirs.push(root);
      await bulkLoadKilledIn('test/e2e/graph/bulk-kill-child.ts', [join(root, 'graph'), root], stage);
      const batches = fixture(20_000);
      const store = await openLmdbGraphStore({ dir: join(root, 'graph'), superNodeBound: BULK_BOUND });
      await expect(store.fold([batches[0]!])).rejects.toThrow(/under way/);
      await store.bulkLoad({ network: 'ETH', batches, workDir: root, memoryBytes: 700_000 });
      await store.close();
      const reference = await openLmdbGraphStore({ dir: join(root, 'reference'), superNodeBound: BULK_BOUND });
      for (const batch of batches) await reference.fold([batch]);
      await reference.close();
      expect(await contents(join(root, 'graph'))).toEqual(await contents(join(root, 'reference')));
    },
    120_000,
  );
});

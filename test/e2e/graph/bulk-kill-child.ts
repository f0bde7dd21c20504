import { openLmdbGraphStore } from '../../../infra/chain/graph/lmdb-graph-store.js';
import { BULK_BOUND, fixture } from '../../support/bulk-fixture.js';

/** `<graphDir> <workDir>`: bulk-loads the fixture, printing each stage it enters (the parent kills it in one). */
const [dir, workDir] = process.argv.slice(2);
const store = await openLmdbGraphStore({ dir: dir ?? '', superNodeBound: BULK_BOUND });
let stage = '';
await store.bulkLoad({
  network: 'ETH',
  batches: fixture(20_000),
  workDir: workDir ?? '',
  memoryBytes: 700_000,
  onProgress: (p) => {
    if (p.stage !== stage) process.stdout.write(`stage ${(stage = p.stage)}\n`);
  },
});
await store.close();
process.stdout.write('done\n');

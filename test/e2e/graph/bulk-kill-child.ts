import { openLmdbGraphStore } from '../../../infra/chain/graph/lmdb-graph-store.js';
import { BULK_BOUND, fixture } from '../../support/bulk-fixture.js';
import { stopInStage } from '../../support/bulk-kill.js';

/** `<graphDir> <workDir> <stage>`: bulk-loads the fixture, stopping in `<stage>` for the parent to kill it. */
const [dir, workDir, killStage] = process.argv.slice(2);
const store = await openLmdbGraphStore({ dir: dir ?? '', superNodeBound: BULK_BOUND });
await store.bulkLoad({
  network: 'ETH',
  batches: fixture(20_000),
  workDir: workDir ?? '',
  memoryBytes: 700_000,
  onProgress: stopInStage(killStage),
});
await store.close();
process.stdout.write('done\n');

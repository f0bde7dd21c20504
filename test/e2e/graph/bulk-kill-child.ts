import { writeSync } from 'node:fs';
import { openLmdbGraphStore } from '../../../infra/chain/graph/lmdb-graph-store.js';
import { BULK_BOUND, fixture } from '../../support/bulk-fixture.js';

/**
 * `<graphDir> <workDir> <stage>`: bulk-loads the fixture, printing each stage it enters. On entering `<stage>`
 * it stops there (a blocking wait inside the load's progress callback, up to a minute) so that the parent's
 * SIGKILL lands in that stage for certain, however loaded the machine is.
 */
const [dir, workDir, killStage] = process.argv.slice(2);
const store = await openLmdbGraphStore({ dir: dir ?? '', superNodeBound: BULK_BOUND });
let stage = '';
await store.bulkLoad({
  network: 'ETH',
  batches: fixture(20_000),
  workDir: workDir ?? '',
  memoryBytes: 700_000,
  onProgress: (p) => {
    if (p.stage === stage) return;
    writeSync(1, `stage ${(stage = p.stage)}\n`);
    if (stage === killStage) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  },
});
await store.close();
process.stdout.write('done\n');

import { openPostgresGraphStore } from '../../infra/postgres/pg-graph-store.js';
import { BULK_BOUND, fixture } from '../support/bulk-fixture.js';

/** `<url> <schema>`: bulk-loads the fixture into PostgreSQL, printing each stage it enters (the parent kills it in one). */
const [url, schema] = process.argv.slice(2);
const store = await openPostgresGraphStore({ url: url ?? '', schema: schema ?? '', superNodeBound: BULK_BOUND, poolSize: 1 });
let stage = '';
await store.bulkLoad({
  network: 'ETH',
  batches: fixture(20_000),
  workDir: '',
  onProgress: (p) => {
    if (p.stage !== stage) process.stdout.write(`stage ${(stage = p.stage)}\n`);
  },
});
await store.close();
process.stdout.write('done\n');

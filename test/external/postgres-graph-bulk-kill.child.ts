import { openPostgresGraphStore } from '../../infra/postgres/pg-graph-store.js';
import { BULK_BOUND, fixture } from '../support/bulk-fixture.js';
import { stopInStage } from '../support/bulk-kill.js';

/** `<url> <schema> <stage>`: bulk-loads the fixture into PostgreSQL, stopping in `<stage>` for the parent to kill it. */
const [url, schema, killStage] = process.argv.slice(2);
const store = await openPostgresGraphStore({ url: url ?? '', schema: schema ?? '', superNodeBound: BULK_BOUND, poolSize: 1 });
await store.bulkLoad({ network: 'ETH', batches: fixture(20_000), workDir: '', onProgress: stopInStage(killStage) });
await store.close();
process.stdout.write('done\n');

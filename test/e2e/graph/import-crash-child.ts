import { importTransfers } from '../../../infra/chain/import/import-transfers.js';
import { startTestService } from '../../support/test-service.js';

/**
 * The service on DATA_DIR importing one export file through the graph pipeline, printing its progress;
 * killed with SIGKILL by graph-crash.e2e.test.ts at a random point, then started again until "done".
 */
async function main() {
  const dataDir = process.env.GRAPH_CRASH_DATA_DIR ?? '';
  const file = process.env.GRAPH_CRASH_FILE ?? '';
  const service = await startTestService({ SVC_SOURCES_DIR: '' }, dataDir, undefined, { sanctions: 'none' });
  process.stdout.write('started\n');
  const { graph, prices } = service.services.fullCheck;
  await importTransfers({
    paths: [file],
    network: 'ETH',
    graph,
    bus: service.services.bus,
    prices,
    onProgress: (p) => process.stdout.write(`progress ${p.rows}\n`),
  });
  await service.services.fullCheck.whenCaughtUp();
  process.stdout.write('done\n');
  await service.close();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

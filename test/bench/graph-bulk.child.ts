import { syntheticSource } from '../synthetic/synthetic-graph.js';
import { bulkBuild } from './graph-bulk-build.js';

/**
 * bench:graph's bulk load in a process of its own: `<dataDir> <addresses> <transfers> <count>` builds the
 * first `count` transfers of the synthetic graph (seed 42, as the parent's) into dataDir/graph and prints
 * its figures as JSON on the last line.
 */
const [dataDir, addresses, transfers, count] = process.argv.slice(2);
const source = syntheticSource({ addresses: Number(addresses), transfers: Number(transfers), seed: 42 });
bulkBuild(dataDir ?? '', source, Number(count))
  .then((figures) => process.stdout.write(`${JSON.stringify(figures)}\n`))
  .catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });

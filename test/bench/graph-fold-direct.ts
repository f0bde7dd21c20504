import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLmdbGraphStore } from '../../infra/chain/graph/lmdb-graph-store.js';
import { openPostgresGraphStore } from '../../infra/postgres/pg-graph-store.js';
import { externalGraph, graphStoreEnv, postgresGraphBytes } from './graph-bench-store.js';
import type { TransferBatch, TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import { syntheticSource } from '../synthetic/synthetic-graph.js';
import { syntheticBatch } from './graph-synthetic-ingest.js';
import { FOLD_MESSAGES as GRAPH_FOLD_MESSAGES } from '../../processors/graph/graph-fold.processor.js';

/**
 * The graph store's fold alone, without the bus: the synthetic graph bench:graph publishes, in messages
 * of 1,000 transfers folded BENCH_GRAPH_FOLD_MESSAGES at a time (what the graph-fold processor hands the store per bus
 * batch). Prints transfers/s and the load average. For profiling the fold (node --cpu-prof) apart from the
 * pipeline: BENCH_GRAPH_TRANSFERS (default 1M), BENCH_GRAPH_FOLD_MESSAGES (default the graph-fold processor's FOLD_MESSAGES). With GRAPH_STORE=postgres
 * and POSTGRES_URL (`GRAPH_STORE=postgres ci/with-postgres.sh npm run bench:graph:fold`), the PostgreSQL graph
 * store's fold, in a schema of the run's own.
 */

const TRANSFERS = Number(process.env.BENCH_GRAPH_TRANSFERS ?? 1_000_000);
const FOLD_MESSAGES = Number(process.env.BENCH_GRAPH_FOLD_MESSAGES ?? GRAPH_FOLD_MESSAGES);
const PER_MESSAGE = 1000;

/** The store under test and what it costs on disk: LMDB under `dir`, or PostgreSQL in a schema of the run's own. */
async function openStore(dir: string): Promise<{ store: TransferGraphStore; diskBytes: () => Promise<number> }> {
  const schema = graphStoreEnv().GRAPH_POSTGRES_SCHEMA;
  if (externalGraph() && schema) {
    const store = await openPostgresGraphStore({ url: process.env.POSTGRES_URL ?? '', schema });
    return { store, diskBytes: () => postgresGraphBytes(schema) };
  }
  const store = await openLmdbGraphStore({ dir });
  return { store, diskBytes: () => store.diskBytes() };
}

/** Bytes this process has had written to disk so far (Linux's /proc/self/io), or null elsewhere. */
async function bytesWritten(): Promise<number | null> {
  const io = await readFile('/proc/self/io', 'utf8').catch(() => '');
  const found = /^write_bytes: (\d+)$/m.exec(io);
  return found ? Number(found[1]) : null;
}

async function main() {
  const source = syntheticSource({ addresses: Math.round(TRANSFERS / 10), transfers: TRANSFERS, seed: 42 });
  const dir = await mkdtemp(join(tmpdir(), 'bench-graph-fold-'));
  const { store, diskBytes } = await openStore(dir);
  const load = [loadavg()[0]];
  let index = 0;
  let folding = 0;
  try {
    for (;;) {
      const batches: TransferBatch[] = [];
      for (let m = 0; m < FOLD_MESSAGES; m++) {
        const chunk = source.next(PER_MESSAGE);
        if (chunk.from.length === 0) break;
        batches.push(syntheticBatch(chunk, index));
        index += chunk.from.length;
      }
      if (batches.length === 0) break;
      const started = performance.now();
      await store.fold(batches);
      folding += performance.now() - started;
    }
    load.push(loadavg()[0]);
    const written = await bytesWritten();
    const size = await store.size('ETH');
    process.stdout.write(
      `fold: ${size.toLocaleString('en')} transfers in ${(folding / 1000).toFixed(1)} s of folding: ${Math.round(size / (folding / 1000)).toLocaleString('en')} transfers/s, ${Math.round((await diskBytes()) / size)} B/transfer, ${written === null ? '?' : Math.round(written / size).toLocaleString('en')} B written to disk per transfer (load ${load.map((l) => l?.toFixed(1)).join(' → ')})\n`,
    );
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

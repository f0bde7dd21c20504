import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLmdbGraphStore } from '../../infra/chain/graph/lmdb-graph-store.js';
import { chainPosition, type GraphTransfer, type TransferBatch } from '../../domain/ports/transfer-graph.port.js';
import { syntheticAddress, syntheticSource } from '../synthetic/synthetic-graph.js';

/**
 * The LMDB graph store's fold alone, without the bus: the synthetic graph bench:graph publishes, in messages
 * of 1,000 transfers folded FOLD_MESSAGES at a time (what the graph-fold processor hands the store per bus
 * batch). Prints transfers/s and the load average. For profiling the fold (node --cpu-prof) apart from the
 * pipeline: BENCH_GRAPH_TRANSFERS (default 1M), BENCH_GRAPH_FOLD_MESSAGES (default 100).
 */

const TRANSFERS = Number(process.env.BENCH_GRAPH_TRANSFERS ?? 1_000_000);
const FOLD_MESSAGES = Number(process.env.BENCH_GRAPH_FOLD_MESSAGES ?? 100);
const PER_MESSAGE = 1000;

async function main() {
  const source = syntheticSource({ addresses: Math.round(TRANSFERS / 10), transfers: TRANSFERS, seed: 42 });
  const dir = await mkdtemp(join(tmpdir(), 'bench-graph-fold-'));
  const store = await openLmdbGraphStore({ dir });
  const load = [loadavg()[0]];
  let index = 0;
  let folding = 0;
  try {
    for (;;) {
      const batches: TransferBatch[] = [];
      for (let m = 0; m < FOLD_MESSAGES; m++) {
        const chunk = source.next(PER_MESSAGE);
        if (chunk.from.length === 0) break;
        const transfers: GraphTransfer[] = [];
        for (let k = 0; k < chunk.from.length; k++, index++)
          transfers.push({
            from: syntheticAddress(chunk.from[k]!),
            to: syntheticAddress(chunk.to[k]!),
            usdMicros: chunk.usdMicros[k]!,
            at: chunk.at[k]!,
            estimated: false,
            txHash: `0x${index.toString(16).padStart(64, '0')}`,
            position: chainPosition(Math.floor(index / 200), 'log', index % 200),
          });
        batches.push({ network: 'ETH', dataset: 'synthetic', caveat: null, positions: 'blocks', finalThrough: null, transfers });
      }
      if (batches.length === 0) break;
      const started = performance.now();
      await store.fold(batches);
      folding += performance.now() - started;
    }
    load.push(loadavg()[0]);
    const size = await store.size('ETH');
    process.stdout.write(
      `fold: ${size.toLocaleString('en')} transfers in ${(folding / 1000).toFixed(1)} s of folding: ${Math.round(size / (folding / 1000)).toLocaleString('en')} transfers/s, ${Math.round((await store.diskBytes()) / size)} B/transfer (load ${load.map((l) => l?.toFixed(1)).join(' → ')})\n`,
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

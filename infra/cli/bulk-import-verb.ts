import type { Services } from '../bootstrap.js';
import { fail } from '../../domain/shared/errors.js';
import type { Network } from '../../domain/shared/network.js';
import { bulkImportTransfers } from '../chain/import/bulk-import-transfers.js';
import type { BulkLoader } from '../chain/graph/bulk/bulk-load.js';
import { findRunningService } from './service-file.js';
import type { VerbIo } from './progress.js';
import type { VerbResult } from './verb.js';

/**
 * `data import-transfers --bulk`: the bulk load of export files into the graph store, LMDB's or PostgreSQL's
 * (docs/operations.md#the-transfer-graph-ingestion-backfill-disk). Refused inside a running service (the service's own fold must not run
 * while a load holds the network, and the load would hold its event loop for an hour). On PostgreSQL other
 * processes' folds of the network are refused while it runs (pg-graph-bulk-claim.ts).
 */
const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** `--memory-mb`: the load's memory budget in MiB (memory-budget.ts), at least 16. */
export function bulkMemoryMb(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 16) throw fail('bad_request', '--memory-mb is a whole number of MiB, at least 16');
  return value;
}

export async function bulkImportVerb(
  services: Pick<Services, 'config' | 'fullCheck'>,
  input: { paths: readonly string[]; network: Network; workDir: string | undefined; memoryMb: number | undefined },
  io: VerbIo,
): Promise<VerbResult> {
  const graph = services.fullCheck.graph as Partial<BulkLoader>;
  if (typeof graph.bulkLoad !== 'function') throw fail('bad_request', '--bulk needs a graph store with a bulk load (LMDB or PostgreSQL)');
  if (await findRunningService(services.config.DATA_DIR))
    throw fail('invalid_state', 'stop the service first: a bulk load writes the graph alone (import without --bulk while it runs)');
  // What was published before and not folded yet folds first: the load starts from a network at rest.
  await services.fullCheck.whenCaughtUp();
  const progress = io.progress();
  try {
    const outcome = await bulkImportTransfers({
      paths: input.paths,
      network: input.network,
      memoryBytes: input.memoryMb === undefined ? undefined : input.memoryMb * 1024 * 1024,
      graph: graph as BulkLoader,
      prices: services.fullCheck.prices,
      workDir: input.workDir ?? services.config.DATA_DIR,
      onProgress: (p) => progress.update(`bulk ${p.stage} (RSS ${mib(p.rss)} MiB)`, p.done, p.done, p.file ?? ''),
    });
    return {
      exitCode: 0,
      output: {
        bulk: {
          transfers: outcome.transfers - outcome.skipped,
          skipped: outcome.skipped,
          addresses: outcome.addresses,
          pairs: outcome.pairs,
          blocks: { native: outcome.blocks[0], token: outcome.blocks[1] },
          peakRssMiB: mib(outcome.peakRss),
        },
        files: outcome.files,
      },
    };
  } finally {
    progress.stop();
  }
}

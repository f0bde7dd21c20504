import { blockOfPosition, kindOfPosition, type TransferBatch } from '../../../../domain/ports/transfer-graph.port.js';
import { normalizeAddress } from '../../../../domain/shared/address.js';
import type { Network } from '../../../../domain/shared/network.js';
import { pairKey } from '../graph-keys.js';
import { encodePair, FLAG_ESTIMATED } from '../graph-records.js';
import type { CoverageEntry, GraphDbs } from '../lmdb-graph-dbs.js';
import { AddressIds } from './address-ids.js';
import type { BlockRange } from './bulk-claim.js';
import type { ExternalSorter } from './external-sorter.js';

/**
 * The read stage of a bulk load: each transfer of the input, in input order, gets its addresses' ids
 * the way the fold interns them (sender, then recipient, on first sight: the same ids as a fold of the
 * same input: address-ids.ts) and goes to the pair sorter as a one-transfer pair record. The data sets'
 * coverage and the blocks per kind are summed in memory (a few numbers per data set).
 */

export interface ReadSummary {
  transfers: number;
  /** From an address to itself (the fold counts none of them either). */
  skipped: number;
  addresses: number;
  blocks: [BlockRange | null, BlockRange | null];
  coverage: Map<number, CoverageEntry>;
}

export const widen = (range: BlockRange | null, block: number): BlockRange =>
  range === null ? [block, block] : [Math.min(range[0], block), Math.max(range[1], block)];

export function checkBatch(batch: TransferBatch, network: Network): void {
  if (batch.network !== network) throw new Error(`bulk load: a ${batch.network} batch in a ${network} load`);
  if (batch.positions === 'rows') throw new Error('bulk load: chain positions only (a data set of rows goes through the pipeline)');
  if (batch.finalThrough !== null) throw new Error('bulk load: final history only (revertible blocks go through the pipeline)');
}

export async function readTransfers(
  dbs: GraphDbs,
  network: Network,
  batches: AsyncIterable<TransferBatch> | Iterable<TransferBatch>,
  pairs: ExternalSorter,
  cachedAddresses: number,
  onRead: (transfers: number) => void,
): Promise<ReadSummary> {
  const interner = new AddressIds(dbs, network, cachedAddresses, Math.min(100_000, cachedAddresses));
  const summary: ReadSummary = { transfers: 0, skipped: 0, addresses: 0, blocks: [null, null], coverage: new Map() };
  for await (const batch of batches) {
    checkBatch(batch, network);
    const dataset = dbs.root.transactionSync(() => dbs.datasetId(network, batch.dataset));
    for (const t of batch.transfers) {
      const sender = normalizeAddress(t.from);
      const recipient = normalizeAddress(t.to);
      if (sender === recipient) {
        summary.skipped += 1;
        continue;
      }
      const from = interner.id(sender);
      const to = interner.id(recipient);
      const at = Math.floor(t.at / 1000) * 1000;
      pairs.add(pairKey(network, from, to), encodePair(onePair(t.usdMicros, t.estimated, at, t.position, t.txHash)));
      const kind = kindOfPosition(t.position);
      summary.blocks[kind] = widen(summary.blocks[kind], blockOfPosition(t.position));
      count(summary.coverage, dataset, batch, at, blockOfPosition(t.position));
    }
    summary.transfers += batch.transfers.length;
    onRead(summary.transfers);
  }
  interner.flush();
  summary.addresses = interner.next;
  return summary;
}

const onePair = (usd: number | null, estimated: boolean, at: number, position: number, tx: string | null) => ({
  usd: usd ?? 0,
  transfers: 1,
  unpriced: usd === null ? 1 : 0,
  flags: estimated ? FLAG_ESTIMATED : 0,
  firstAt: at,
  lastAt: at,
  settledLastAt: at,
  sampleOrigin: 0,
  samplePosition: position,
  sampleTx: tx,
});

/** The data set's coverage as the fold keeps it (named after its first batch). */
function count(coverage: Map<number, CoverageEntry>, dataset: number, batch: TransferBatch, at: number, block: number): void {
  let entry = coverage.get(dataset);
  if (!entry) {
    entry = {
      name: batch.dataset,
      caveat: batch.caveat,
      transfers: 0,
      from: at,
      to: at,
      kind: batch.kind ?? 'ingested_blocks',
      version: batch.version ?? null,
      upToBlock: block,
    };
    coverage.set(dataset, entry);
  }
  entry.transfers += 1;
  entry.from = Math.min(entry.from, at);
  entry.to = Math.max(entry.to, at);
  entry.upToBlock = Math.max(entry.upToBlock ?? 0, block);
}

import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TransferBatch } from '../../../../domain/ports/transfer-graph.port.js';
import type { Network } from '../../../../domain/shared/network.js';
import { idKey, pairKey, rankedKey } from '../graph-keys.js';
import { encodeNode, FLAG_ESTIMATED, restFlag } from '../graph-records.js';
import type { GraphDbs } from '../lmdb-graph-dbs.js';
import { claimable, putBulkState, wipeNetwork } from './bulk-claim.js';
import { readTransfers, type ReadSummary } from './bulk-read.js';
import { ExternalSorter } from './external-sorter.js';
import { budgetShares, DEFAULT_MEMORY_BYTES } from './memory-budget.js';
import { putOptions } from './lmdb-append.js';
import { NodeTotals } from './node-totals.js';
import { combinePairs, NODE_FIELDS, pairFields } from './pair-sums.js';
import { mergeRuns, RunWriter, type RunRecord } from './record-runs.js';

/**
 * A bulk load of a network's history into the LMDB graph store (docs/ARCHITECTURE.md#the-transfer-graph): the
 * transfers are summed per pair in memory chunks spilled as sorted run files, merged (k-way), and every
 * database is then written in key order (appended), so that a graph larger than the page cache is built
 * with sequential writes, not a random write per transfer. The result is the store a fold of the same
 * transfers builds (ids, pairs, ranked counterparties with the super-node bound, nodes, coverage), without
 * a dedup key per transfer: the load records the blocks it covered instead (bulk-claim.ts).
 * Stages: read → merge pairs (ranked candidates) → ranked (top counterparties per address and side, the
 * rest flagged; node totals) → pairs → meta. Memory is bounded by a budget (memory-budget.ts), whatever the
 * number of transfers or addresses.
 */

export interface BulkProgress {
  /** 'nodes': PostgreSQL's load only (LMDB's sums nodes in its ranked stage). */
  readonly stage: 'read' | 'merge pairs' | 'ranked' | 'pairs' | 'nodes';
  /** Transfers read (read), records handled (the others). */
  readonly done: number;
  /** The process's resident memory now, in bytes (LMDB's mapped pages of the store count). */
  readonly rss: number;
}

export interface BulkLoadInput {
  readonly network: Network;
  readonly batches: AsyncIterable<TransferBatch> | Iterable<TransferBatch>;
  /** Where the run files go (a directory of the load's own is made there and removed after). */
  readonly workDir: string;
  /** What the load's own records may take in memory, in bytes (memory-budget.ts; default 1 GiB). */
  readonly memoryBytes?: number;
  readonly onProgress?: (progress: BulkProgress) => void;
}

export interface BulkLoadResult extends Omit<ReadSummary, 'coverage'> {
  readonly pairs: number;
  readonly runs: number;
  /** The process's peak resident memory so far, in bytes (its whole life: what the operating system counts). */
  readonly peakRss: number;
}

/** A graph store with a bulk load (the LMDB store, and PostgreSQL's: infra/postgres/pg-graph-bulk.ts). */
export interface BulkLoader {
  /** Loads a network's history: only into a network that holds nothing (bulk-claim.ts). */
  bulkLoad(input: BulkLoadInput): Promise<BulkLoadResult>;
}

const EMPTY = Buffer.alloc(0);
/** A pair key (network, sender, recipient) as (sender, recipient); one network per load. */
const pairNumbers = (key: Buffer) => [key.readUInt32BE(1), key.readUInt32BE(5)] as const;
/** A ranked key (network, owner, side, inverted USD, …) as (owner and side, inverted USD). */
const rankedNumbers = (key: Buffer) =>
  [key.readUInt32BE(1) * 2 + (key[5] ?? 0), key.readUInt32BE(6) * 2 ** 32 + key.readUInt32BE(10)] as const;
const PER_TRANSACTION = 250_000;

export async function bulkLoad(dbs: GraphDbs, input: BulkLoadInput): Promise<BulkLoadResult> {
  const { network } = input;
  if (claimable(dbs, network) === 'killed-load') wipeNetwork(dbs, network);
  putBulkState(dbs, network, { state: 'loading', blocks: [null, null], transfers: 0 });
  const dir = mkdtempSync(join(input.workDir, `bulk-${network}-`));
  const { chunkEntries: chunk, cachedAddresses } = budgetShares(input.memoryBytes ?? DEFAULT_MEMORY_BYTES);
  const report = input.onProgress ?? (() => undefined);
  const progress = (p: Omit<BulkProgress, 'rss'>) => report({ ...p, rss: process.memoryUsage.rss() });
  const pairs = new ExternalSorter({ dir, name: 'pairs', maxEntries: chunk, combine: combinePairs, numbers: pairNumbers });
  try {
    const onRead = (done: number) => progress({ stage: 'read', done });
    const read = await readTransfers(dbs, network, input.batches, pairs, cachedAddresses, onRead);
    // A ranked candidate holds its key and its pair's sums: about as much as a pair sum.
    const ranked = new ExternalSorter({ dir, name: 'ranked', maxEntries: chunk, numbers: rankedNumbers });
    const merged = mergePairs(join(dir, 'pairs-merged.run'), network, pairs, ranked, progress);
    const pairRuns = pairs.files;
    pairs.remove();
    const orFlags = (a: Buffer, b: Buffer) => Buffer.of((a[0] ?? 0) | (b[0] ?? 0));
    const rest = new ExternalSorter({ dir, name: 'rest', maxEntries: chunk, combine: orFlags, numbers: pairNumbers });
    writeRankedAndNodes(dbs, network, ranked, rest, progress);
    const allRuns = pairRuns + ranked.files;
    ranked.remove();
    writePairs(dbs, network, merged, rest, progress);
    dbs.root.transactionSync(() => {
      dbs.meta.putSync(`next-id:${network}`, read.addresses);
      for (const [dataset, entry] of read.coverage) dbs.putCoverage(network, dataset, entry);
      putBulkState(dbs, network, { state: 'loaded', blocks: read.blocks, transfers: read.transfers - read.skipped });
    });
    const { transfers, skipped, addresses, blocks } = read;
    const runs = allRuns + rest.files;
    return { transfers, skipped, addresses, blocks, pairs: merged.records, runs, peakRss: process.resourceUsage().maxRSS * 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `write` on each item, in write transactions of PER_TRANSACTION items; reports progress after each. */
function inTransactions<T>(dbs: GraphDbs, items: Iterator<T>, write: (item: T) => void, report: (done: number) => void): number {
  let done = 0;
  let ended = false;
  while (!ended) {
    dbs.root.transactionSync(() => {
      for (let k = 0; k < PER_TRANSACTION; k++) {
        const next = items.next();
        if (next.done) return void (ended = true);
        write(next.value);
        done += 1;
      }
    });
    report(done);
  }
  return done;
}

/**
 * Merges the pair runs into one file of final pairs; collects both sides' ranked candidates, each with the
 * pair's sums and times (the first 24 bytes of its record, pair-sums.ts) for its owner's node totals.
 */
function mergePairs(
  path: string,
  network: Network,
  pairs: ExternalSorter,
  ranked: ExternalSorter,
  progress: (p: Omit<BulkProgress, 'rss'>) => void,
): { path: string; records: number } {
  const writer = new RunWriter(path);
  let done = 0;
  for (const { key, value } of pairs.sorted()) {
    writer.write(key, value);
    const from = key.readUInt32BE(1);
    const to = key.readUInt32BE(5);
    const fields = pairFields(value);
    const sums = value.subarray(0, NODE_FIELDS);
    const row = { usd: fields.usd, transfers: fields.transfers, estimated: (fields.flags & FLAG_ESTIMATED) !== 0 };
    ranked.add(rankedKey(network, from, 'out', { ...row, counterparty: to }), sums);
    ranked.add(rankedKey(network, to, 'in', { ...row, counterparty: from }), sums);
    if (++done % 1_000_000 === 0) progress({ stage: 'merge pairs', done });
  }
  writer.close();
  return { path: writer.path, records: writer.records };
}

/**
 * Keeps each address's first `superNodeBound` counterparties per side (ranked order) and flags the others'
 * pairs; sums each address's totals on the way (its candidates come together) and writes its node record.
 */
function writeRankedAndNodes(
  dbs: GraphDbs,
  network: Network,
  ranked: ExternalSorter,
  rest: ExternalSorter,
  progress: (p: Omit<BulkProgress, 'rss'>) => void,
): void {
  const append = putOptions(dbs.ranked, network);
  const appendNode = putOptions(dbs.nodes, network);
  const nodes = new NodeTotals((id, node) => dbs.nodes.putSync(idKey(network, id), encodeNode(node), appendNode));
  let group = -1;
  let inGroup = 0;
  inTransactions(
    dbs,
    ranked.sorted(),
    ({ key, value }) => {
      const owner = key.readUInt32BE(1);
      const side = key[5] === 1 ? 'out' : 'in';
      const id = owner * 2 + (side === 'out' ? 1 : 0);
      if (id !== group) [group, inGroup] = [id, 0];
      const kept = inGroup++ < dbs.superNodeBound;
      nodes.add(owner, side, pairFields(value), key[22] === 1, kept);
      if (kept) return void dbs.ranked.putSync(key, EMPTY, append);
      const counterparty = key.readUInt32BE(18);
      const flag = Buffer.of(restFlag(side));
      rest.add(side === 'out' ? pairKey(network, owner, counterparty) : pairKey(network, counterparty, owner), flag);
    },
    (done) => progress({ stage: 'ranked', done }),
  );
  dbs.root.transactionSync(() => nodes.finish());
}

/** Writes the merged pairs in key order, with the remainder flags of the counterparties not kept. */
function writePairs(
  dbs: GraphDbs,
  network: Network,
  merged: { path: string },
  rest: ExternalSorter,
  progress: (p: Omit<BulkProgress, 'rss'>) => void,
): void {
  const append = putOptions(dbs.pairs, network);
  const flags = rest.sorted();
  let flag: RunRecord | null = flags.next().value ?? null;
  inTransactions(
    dbs,
    mergeRuns([merged.path]),
    ({ key, value }) => {
      while (flag && Buffer.compare(flag.key, key) < 0) flag = flags.next().value ?? null;
      if (flag && flag.key.equals(key)) value[38] = (value[38] ?? 0) | (flag.value[0] ?? 0);
      dbs.pairs.putSync(key, value, append);
    },
    (done) => progress({ stage: 'pairs', done }),
  );
}

import { mkdir, stat } from 'node:fs/promises';
import { TransactionFlags } from 'lmdb';
import { join } from 'node:path';
import type { AddressActivity, DirectionTotals, FlowDirection, FlowPage, IndexCoverage } from '../../../domain/ports/chain-data.port.js';
import { EMPTY_TOTALS } from '../../../domain/ports/chain-data.port.js';
import type { TransferGraphStore } from '../../../domain/ports/transfer-graph.port.js';
import { normalizeAddress } from '../../../domain/shared/address.js';
import type { Network } from '../../../domain/shared/network.js';
import type { SideTotals } from './graph-records.js';
import { GraphDbs } from './lmdb-graph-dbs.js';
import { bulkLoad, type BulkLoadInput, type BulkLoadResult } from './bulk/bulk-load.js';
import { finalizeThrough, foldBatches, revertFrom } from './lmdb-graph-fold.js';

/**
 * The embedded transfer graph store, on LMDB under DATA_DIR/graph (docs/ARCHITECTURE.md#the-transfer-graph).
 * Opening reads nothing but LMDB's meta pages, so a start costs the same for a thousand transfers or a
 * hundred million; the JS heap holds two bounded id caches, the OS caches the pages a search reads.
 * A fold (of one or more batches), a revert or a finalisation is one synchronous LMDB write transaction: a kill -9 leaves the graph
 * either before or after it, never between.
 */

export interface LmdbGraphStore extends TransferGraphStore {
  /** Bytes of the LMDB data file (what the graph costs on disk). */
  diskBytes(): Promise<number>;
  /** Loads a network's history in key order (bulk/bulk-load.ts): only into a network that holds nothing. */
  bulkLoad(input: BulkLoadInput): Promise<BulkLoadResult>;
}

export const DEFAULT_SUPER_NODE_BOUND = 10_000;

export async function openLmdbGraphStore(options: { dir: string; superNodeBound?: number }): Promise<LmdbGraphStore> {
  await mkdir(options.dir, { recursive: true });
  const dbs = new GraphDbs(options.dir, options.superNodeBound ?? DEFAULT_SUPER_NODE_BOUND);
  // Committed at once, flushed to disk off the write lock; a write resolves once flushed (LMDB's overlapping sync).
  const write = async <T>(work: () => T): Promise<T> => {
    let result: T;
    try {
      result = dbs.root.transactionSync(
        work,
        TransactionFlags.ABORTABLE | TransactionFlags.SYNCHRONOUS_COMMIT | TransactionFlags.NO_SYNC_FLUSH,
      );
    } catch (error) {
      dbs.forgetUncommitted();
      throw error;
    }
    await dbs.root.flushed;
    return result;
  };

  return {
    async fold(batches) {
      const outcomes = await write(() => foldBatches(dbs, batches));
      return { folded: outcomes.reduce((n, o) => n + o.folded, 0), skipped: outcomes.reduce((n, o) => n + o.skipped, 0) };
    },
    async revert(network, fromBlock) {
      return { reverted: await write(() => revertFrom(dbs, network, fromBlock)) };
    },
    async finalize(network, block) {
      await write(() => finalizeThrough(dbs, network, block));
    },
    async readSource(name) {
      return dbs.meta.get(`source:${name}`) ?? null;
    },
    async writeSource(name, state) {
      await dbs.meta.put(`source:${name}`, state);
    },
    async size(network) {
      return dbs.coverages(network).reduce((sum, c) => sum + c.transfers, 0);
    },
    async activity(address, network): Promise<AddressActivity | null> {
      const id = dbs.lookup(network, normalizeAddress(address));
      const node = id === undefined ? null : dbs.node(network, id);
      if (!node) return null;
      return {
        incoming: totalsOf(node.in),
        outgoing: totalsOf(node.out),
        firstAt: new Date(node.firstAt).toISOString(),
        lastAt: new Date(node.lastAt).toISOString(),
      };
    },
    flows(address, network, direction, limit) {
      return pageOf(dbs, network, normalizeAddress(address), direction, limit);
    },
    async coverage(network): Promise<IndexCoverage> {
      const datasets = dbs.coverages(network).map((c) => ({
        name: c.name,
        transfers: c.transfers,
        from: c.transfers > 0 ? new Date(c.from).toISOString() : null,
        to: c.transfers > 0 ? new Date(c.to).toISOString() : null,
        caveat: c.caveat,
        kind: c.kind ?? null,
        version: c.upToBlock ? `blocks up to ${c.upToBlock}` : (c.version ?? null),
        asOf: c.transfers > 0 ? new Date(c.to).toISOString() : null,
        upToBlock: c.upToBlock ?? null,
      }));
      return { network, datasets };
    },
    async bulkLoad(input) {
      try {
        return await bulkLoad(dbs, input);
      } finally {
        dbs.forgetUncommitted();
      }
    },
    async diskBytes() {
      return (await stat(join(options.dir, 'data.mdb'))).size;
    },
    async close() {
      await dbs.root.close();
    },
  };
}

function totalsOf(side: SideTotals): DirectionTotals {
  return {
    transfers: side.transfers,
    usdMicros: Math.round(side.usd),
    counterparties: side.counterparties,
    unpricedTransfers: side.unpriced,
    estimated: side.estimated,
  };
}

const EMPTY_PAGE: FlowPage = {
  size: 0,
  totals: EMPTY_TOTALS,
  counterparty: () => '',
  usdMicros: () => 0,
  transfers: () => 0,
  estimated: () => false,
  sampleTx: () => null,
};

/**
 * The kept counterparties of an address in one direction, heaviest first: one LMDB range read of keys,
 * decoded into columns (no object per row: a search reads a thousand pages), counterparties' addresses
 * decoded only for the rows the search reads.
 */
function pageOf(dbs: GraphDbs, network: Network, address: string, direction: FlowDirection, limit: number): FlowPage {
  const id = dbs.lookup(network, address);
  const totals = id === undefined ? null : dbs.side(network, id, direction);
  if (id === undefined || !totals) return EMPTY_PAGE;
  const rows = dbs.rankedColumns(network, id, direction, Math.max(0, Math.min(limit, totals.kept)));
  return {
    size: rows.size,
    totals: totalsOf(totals),
    kept: totals.kept,
    counterparty: (row) => (row < rows.size ? dbs.address(network, rows.counterparty[row] ?? 0) : ''),
    usdMicros: (row) => (row < rows.size ? (rows.usd[row] ?? 0) : 0),
    transfers: (row) => (row < rows.size ? (rows.transfers[row] ?? 0) : 0),
    estimated: (row) => row < rows.size && rows.estimated[row] === 1,
    sampleTx: (row) => (row < rows.size ? (dbs.pair(network, id, rows.counterparty[row] ?? 0, direction)?.sampleTx ?? null) : null),
  };
}

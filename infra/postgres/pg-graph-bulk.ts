import type { Pool, PoolClient } from 'pg';
import type { BulkLoadInput, BulkLoadResult, BulkProgress } from '../chain/graph/bulk/bulk-load.js';
import { buildGraph } from './pg-graph-bulk-build.js';
import { claimSql, markLoadedSql } from './pg-graph-bulk-claim.js';
import { stageTransfers, stagingTableSql } from './pg-graph-bulk-read.js';
import { netId } from './pg-graph-net.js';
import type { Query } from './pg-graph-query.js';

/**
 * A bulk load of a network's history into the PostgreSQL graph store (docs/operations.md#backfill-on-postgresql):
 * the same semantics as the LMDB store's (infra/chain/graph/bulk), with PostgreSQL doing the sorting.
 * 1. Claim: the network must hold nothing; it is marked `loading` (committed: folds of it are refused from
 *    then on), a killed load's leftovers wiped first (pg-graph-bulk-claim.ts).
 * 2. Stage: the transfers into an UNLOGGED table of the load's own (pg-graph-bulk-read.ts), out of any transaction.
 * 3. Build: one transaction sums pairs, writes edges with the super-node bound, nodes and coverage set-based
 *    (pg-graph-bulk-build.ts) and marks the network `loaded` with the blocks it covered.
 * A kill -9 at any point leaves the network `loading` (or `loaded`, complete): the next load wipes and
 * starts over. The input's workDir is not used (PostgreSQL spills its sorts under its own data directory).
 */

const stagingTable = (s: string, network: number) => `${s}.bulk_staging_${network}`;

async function inTransaction<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

export async function pgBulkLoad(pool: Pool, s: string, bound: number, input: BulkLoadInput): Promise<BulkLoadResult> {
  const { network } = input;
  const net = netId(network);
  const staging = stagingTable(s, net);
  const report = input.onProgress ?? (() => undefined);
  const progress = (p: Omit<BulkProgress, 'rss'>) => report({ ...p, rss: process.memoryUsage.rss() });
  const client = await pool.connect();
  const q: Query = async (sql, params) => (await client.query(sql, params as unknown[])).rows;
  try {
    await inTransaction(client, () => claimSql(q, s, network));
    await client.query(`DROP TABLE IF EXISTS ${staging}`);
    await client.query(stagingTableSql(staging));
    const read = await stageTransfers(client, s, staging, input, (done) => progress({ stage: 'read', done }));
    await client.query(`ANALYZE ${staging}`);
    const built = await inTransaction(client, async () => {
      const graph = await buildGraph(client, s, staging, { network: net, bound, coverage: read.coverage }, (stage, done) =>
        progress({ stage, done }),
      );
      await markLoadedSql(q, s, network, { blocks: read.blocks, transfers: read.transfers - read.skipped });
      return graph;
    });
    await client.query(`DROP TABLE IF EXISTS ${staging}`);
    const { transfers, skipped, blocks } = read;
    return {
      transfers,
      skipped,
      blocks,
      addresses: built.addresses,
      pairs: built.pairs,
      runs: 0,
      peakRss: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    client.release();
  }
}

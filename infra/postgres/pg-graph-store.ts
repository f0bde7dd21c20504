import pg from 'pg';
import type { AddressActivity, FlowPage, IndexCoverage, TransferDataKind, TransferDataset } from '../../domain/ports/chain-data.port.js';
import type { TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import type { BulkLoader } from '../chain/graph/bulk/bulk-load.js';
import { normalizeAddress } from '../../domain/shared/address.js';
import { present } from '../../domain/shared/present.js';
import { pgBulkLoad } from './pg-graph-bulk.js';
import { flowPagesSql, totalsOf, type NodeRow } from './pg-graph-flows.js';
import { foldBatchSql, finalizeSql, netId } from './pg-graph-fold.js';
import type { Query } from './pg-graph-query.js';
import { GRAPH_MIGRATIONS } from './pg-graph-migrations.js';
import { revertSql } from './pg-graph-revert.js';
import { mergedBatches } from './pg-merged-batches.js';
import { migrate } from './pg-migrations.js';
import { schemaIdentifier, storeError } from './pg-rows.js';

/**
 * The transfer graph store on PostgreSQL (docs/ARCHITECTURE.md#the-transfer-graph): the production graph,
 * shared by every process of a deployment, so that ingesters and folders run side by side in one consumer
 * group. The same port and contract suite as the LMDB store; edges and nodes hash-partitioned by address.
 * A fold, a revert or a finalisation is one transaction (retried whole on a deadlock or a serialisation
 * failure), a fold's batches joined where they can be (pg-merged-batches.ts); a page of flows is one statement, and so is a batch of them (a search's frontier).
 */

export interface PostgresGraphOptions {
  readonly url: string;
  /** The schema of the graph's tables (created by the migrations); default `transfer_graph`. */
  readonly schema?: string;
  readonly superNodeBound?: number;
  readonly poolSize?: number;
  readonly connectTimeoutMs?: number;
}

/** How often a transaction that lost a deadlock or a serialisation race is run again before the error is raised. */
const RETRIES = 5;
const RETRYABLE = new Set(['40P01', '40001']);

export type PostgresGraphStore = TransferGraphStore & BulkLoader;

export async function openPostgresGraphStore(options: PostgresGraphOptions): Promise<PostgresGraphStore> {
  const s = schemaIdentifier(options.schema ?? 'transfer_graph');
  const bound = options.superNodeBound ?? 10_000;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 4,
    connectionTimeoutMillis: Math.max(options.connectTimeoutMs ?? 2000, 30_000),
    application_name: 'risk-screening-graph',
    // No JIT: a page read is a few index lookups, but its plan over 16 partitions per table costs past
    // jit_above_cost, and compiling it took ~300 ms against ~2 ms to run it (bench:graph:external, 2026-11-29).
    // A startup option, not a query on connect: that query raced the pool's first one (pg's overlap warning).
    options: '-c jit=off',
  });
  pool.on('error', () => undefined);
  try {
    await migrate(pool, s, GRAPH_MIGRATIONS);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw storeError(error);
  }
  const query: Query = async (sql, params) => (await pool.query(sql, params as unknown[])).rows;

  async function transaction<T>(work: (q: Query) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(async (sql, params) => (await client.query(sql, params as unknown[])).rows);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        const code = (error as { code?: string }).code;
        if (attempt >= RETRIES || !code || !RETRYABLE.has(code)) throw storeError(error);
      } finally {
        client.release();
      }
    }
  }

  return {
    async fold(batches) {
      return transaction(async (q) => {
        let folded = 0;
        let skipped = 0;
        for (const batch of mergedBatches(batches)) {
          const outcome = await foldBatchSql(q, s, bound, batch);
          folded += outcome.folded;
          skipped += outcome.skipped;
        }
        return { folded, skipped };
      });
    },
    async revert(network, fromBlock) {
      return { reverted: await transaction((q) => revertSql(q, s, network, fromBlock)) };
    },
    async finalize(network, block) {
      await transaction((q) => finalizeSql(q, s, network, block));
    },
    async readSource(name) {
      const rows = await query<{ state: unknown }>(`SELECT state FROM ${s}.sources WHERE name = $1`, [name]);
      return rows[0]?.state ?? null;
    },
    async writeSource(name, state) {
      await query(`INSERT INTO ${s}.sources (name, state) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET state = excluded.state`, [
        name,
        JSON.stringify(state),
      ]);
    },
    async size(network) {
      const rows = await query<{ n: string | null }>(`SELECT sum(transfers) AS n FROM ${s}.datasets WHERE network = $1`, [netId(network)]);
      return Number(rows[0]?.n ?? 0);
    },
    async activity(address, network): Promise<AddressActivity | null> {
      const rows = await query<NodeRow>(`SELECT * FROM ${s}.nodes WHERE network = $1 AND address = $2`, [
        netId(network),
        normalizeAddress(address),
      ]);
      const node = rows[0];
      if (!node) return null;
      return {
        incoming: totalsOf(node, 'in'),
        outgoing: totalsOf(node, 'out'),
        firstAt: new Date(Number(node.first_at) * 1000).toISOString(),
        lastAt: new Date(Number(node.last_at) * 1000).toISOString(),
      };
    },
    async flows(address, network, direction, limit): Promise<FlowPage> {
      return present((await flowPagesSql(query, s, [address], network, direction, limit))[0], 'one page per address asked');
    },
    flowsOfMany: (addresses, network, direction, limit) => flowPagesSql(query, s, addresses, network, direction, limit),
    async coverage(network): Promise<IndexCoverage> {
      const rows = await query<DatasetRow>(
        `SELECT name, caveat, transfers, from_at, to_at, kind, version, up_to_block FROM ${s}.datasets WHERE network = $1 AND kind IS NOT NULL ORDER BY id`,
        [netId(network)],
      );
      // A data set is listed once a fold counted a transfer of it (its kind is set then), as in the LMDB store.
      return { network, datasets: rows.map(datasetOf) };
    },
    async bulkLoad(input) {
      try {
        return await pgBulkLoad(pool, s, bound, input);
      } catch (error) {
        throw storeError(error);
      }
    },
    async close() {
      await pool.end();
    },
  };
}

interface DatasetRow {
  readonly name: string;
  readonly caveat: string | null;
  readonly transfers: string;
  readonly from_at: string | null;
  readonly to_at: string | null;
  readonly kind: TransferDataKind | null;
  readonly version: string | null;
  readonly up_to_block: string | null;
}

/** As the LMDB store names a data set: ingested blocks by the last block folded, a sample by its version. */
function datasetOf(r: DatasetRow): TransferDataset {
  const transfers = Number(r.transfers);
  const iso = (seconds: string | null) => (transfers > 0 && seconds !== null ? new Date(Number(seconds) * 1000).toISOString() : null);
  const upToBlock = r.up_to_block === null ? null : Number(r.up_to_block);
  return {
    name: r.name,
    transfers,
    from: iso(r.from_at),
    to: iso(r.to_at),
    caveat: r.caveat,
    kind: r.kind,
    version: upToBlock ? `blocks up to ${upToBlock}` : r.version,
    asOf: iso(r.to_at),
    upToBlock,
  };
}

import type { BlockRange, BulkState } from '../chain/graph/bulk/bulk-claim.js';
import { fail } from '../../domain/shared/errors.js';
import type { Network } from '../../domain/shared/network.js';
import { netId } from './pg-graph-net.js';
import type { Query } from './pg-graph-query.js';

/**
 * Who may write a network's graph while a bulk load runs, on PostgreSQL: the same states as the LMDB store's
 * (infra/chain/graph/bulk/bulk-claim.ts), in `bulk_loads`. A load claims a network that holds nothing under
 * the exclusive advisory lock of the network's bulk state; every fold of chain positions reads that state
 * under the shared lock, so that no fold commits into a network between the load's check and its claim,
 * and none while it runs (`loading`: refused). A load killed before it finished is wiped by the next one.
 */

/** First key of the bulk state's advisory locks ("GB"), beside the units' "GR". */
const BULK_LOCK_CLASS = 0x4742_0000;

interface BulkRow {
  readonly state: 'loading' | 'loaded';
  readonly native_from: string | null;
  readonly native_to: string | null;
  readonly token_from: string | null;
  readonly token_to: string | null;
  readonly transfers: string;
}

const rangeOf = (from: string | null, to: string | null): BlockRange | null =>
  from === null || to === null ? null : [Number(from), Number(to)];

/** The network's bulk state, read under the shared lock (inside the caller's transaction: a fold's). */
export async function bulkStateSql(q: Query, s: string, network: Network): Promise<BulkState | null> {
  const rows = await q<BulkRow & { locked: unknown }>(
    `SELECT l.locked, b.* FROM (SELECT pg_advisory_xact_lock_shared($1, $2) AS locked) AS l
     LEFT JOIN ${s}.bulk_loads AS b ON b.network = $2`,
    [BULK_LOCK_CLASS, netId(network)],
  );
  const row = rows[0];
  if (!row?.state) return null;
  return {
    state: row.state,
    blocks: [rangeOf(row.native_from, row.native_to), rangeOf(row.token_from, row.token_to)],
    transfers: Number(row.transfers),
  };
}

/** The tables that hold a network's graph, wiped when a killed load's leftovers are. */
const NETWORK_TABLES = ['edges', 'nodes', 'units', 'seen', 'journal', 'datasets'] as const;

/**
 * Claims an empty network for a bulk load (state `loading`), inside the caller's transaction; a killed
 * load's leftovers are deleted first. Refuses a network that holds data or was bulk-loaded already.
 */
export async function claimSql(q: Query, s: string, network: Network): Promise<'empty' | 'killed-load'> {
  const net = netId(network);
  await q(`SELECT pg_advisory_xact_lock($1, $2)`, [BULK_LOCK_CLASS, net]);
  const rows = await q<{ state: string }>(`SELECT state FROM ${s}.bulk_loads WHERE network = $1`, [net]);
  const state = rows[0]?.state;
  if (state === 'loaded')
    throw fail('invalid_state', `bulk load: ${network} was bulk-loaded already; later history goes through the pipeline`);
  if (state === 'loading') {
    for (const table of NETWORK_TABLES) await q(`DELETE FROM ${s}.${table} WHERE network = $1`, [net]);
  } else {
    const holds = await q(`SELECT 1 FROM ${s}.nodes WHERE network = $1 UNION ALL SELECT 1 FROM ${s}.datasets WHERE network = $1 LIMIT 1`, [
      net,
    ]);
    if (holds.length > 0)
      throw fail('invalid_state', `bulk load: the graph holds ${network} data already; a bulk load starts from an empty network`);
  }
  await q(
    `INSERT INTO ${s}.bulk_loads (network, state) VALUES ($1, 'loading')
     ON CONFLICT (network) DO UPDATE SET state = 'loading', native_from = NULL, native_to = NULL, token_from = NULL, token_to = NULL, transfers = 0`,
    [net],
  );
  return state === 'loading' ? 'killed-load' : 'empty';
}

/** Marks the load finished with the blocks it covered, inside the transaction that wrote its graph. */
export async function markLoadedSql(q: Query, s: string, network: Network, done: Omit<BulkState, 'state'>): Promise<void> {
  const [native, token] = done.blocks;
  await q(
    `UPDATE ${s}.bulk_loads SET state = 'loaded', native_from = $2, native_to = $3, token_from = $4, token_to = $5, transfers = $6
     WHERE network = $1`,
    [netId(network), native?.[0] ?? null, native?.[1] ?? null, token?.[0] ?? null, token?.[1] ?? null, done.transfers],
  );
}

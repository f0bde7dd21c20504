import type { PoolClient } from 'pg';
import type { DatasetCoverage } from './pg-graph-bulk-read.js';

/**
 * The set-based stage of a bulk load into PostgreSQL (pg-graph-bulk.ts), inside its one transaction: the staged
 * transfers summed per pair (one sort: the window's frame is the whole pair, its first row the earliest
 * transfer by time then position, the fold's sample), both sides of each pair into `edges` with the owner's
 * `bound` heaviest counterparties per side kept (row_number, the fold's order: USD, transfers, then the lower
 * address), then the nodes' totals from those edges, then the data sets' coverage.
 */

const PAIRS_SQL = (staging: string) => `
  CREATE TEMPORARY TABLE bulk_pairs ON COMMIT DROP AS
  SELECT DISTINCT ON (sender, recipient) sender, recipient,
    sum(coalesce(usd, 0)) OVER pair AS usd, count(*) OVER pair AS transfers,
    count(*) FILTER (WHERE usd IS NULL) OVER pair AS unpriced, bool_or(estimated) OVER pair AS estimated,
    at AS first_at, max(at) OVER pair AS last_at, position AS sample_position, tx AS sample_tx
  FROM ${staging}
  WINDOW pair AS (PARTITION BY sender, recipient ORDER BY at, position ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
  ORDER BY sender, recipient, at, position`;

const EDGES_SQL = (s: string) => `
  INSERT INTO ${s}.edges (network, owner, side, counterparty, usd, transfers, unpriced, estimated, first_at, last_at,
    settled_last_at, sample_origin, sample_position, sample_tx, kept)
  SELECT $1, owner, side, counterparty, usd, transfers, unpriced, estimated, first_at, last_at, last_at, 0, sample_position, sample_tx,
    row_number() OVER (PARTITION BY owner, side ORDER BY usd DESC, transfers DESC, counterparty) <= $2
  FROM (
    SELECT sender AS owner, 1 AS side, recipient AS counterparty, usd, transfers, unpriced, estimated, first_at, last_at, sample_position, sample_tx
    FROM bulk_pairs
    UNION ALL
    SELECT recipient, 0, sender, usd, transfers, unpriced, estimated, first_at, last_at, sample_position, sample_tx FROM bulk_pairs
  ) AS sides`;

const side = (n: 0 | 1, name: 'in' | 'out') => `
    coalesce(sum(transfers) FILTER (WHERE side = ${n}), 0) AS ${name}_transfers,
    coalesce(sum(usd) FILTER (WHERE side = ${n}), 0) AS ${name}_usd,
    coalesce(sum(unpriced) FILTER (WHERE side = ${n}), 0) AS ${name}_unpriced,
    count(*) FILTER (WHERE side = ${n}) AS ${name}_counterparties,
    count(*) FILTER (WHERE side = ${n} AND kept) AS ${name}_kept,
    coalesce(bool_or(estimated) FILTER (WHERE side = ${n}), false) AS ${name}_estimated`;

const NODES_SQL = (s: string) => `
  INSERT INTO ${s}.nodes (network, address, in_transfers, in_usd, in_unpriced, in_counterparties, in_kept, in_estimated,
    out_transfers, out_usd, out_unpriced, out_counterparties, out_kept, out_estimated, first_at, last_at, settled_last_at)
  SELECT $1, owner, ${side(0, 'in')}, ${side(1, 'out')}, min(first_at), max(last_at), max(last_at)
  FROM ${s}.edges WHERE network = $1 GROUP BY owner`;

export interface BuiltGraph {
  readonly pairs: number;
  readonly addresses: number;
}

export async function buildGraph(
  client: PoolClient,
  s: string,
  staging: string,
  at: { network: number; bound: number; coverage: ReadonlyMap<number, DatasetCoverage> },
  onStage: (stage: 'merge pairs' | 'ranked' | 'nodes', done: number) => void,
): Promise<BuiltGraph> {
  // Sorts of a few hundred MB stay in memory; larger ones spill to disk as PostgreSQL's sorts do.
  await client.query(`SET LOCAL work_mem = '256MB'`);
  const pairs = (await client.query(PAIRS_SQL(staging))).rowCount ?? 0;
  onStage('merge pairs', pairs);
  await client.query('ANALYZE bulk_pairs');
  const edges = (await client.query(EDGES_SQL(s), [at.network, at.bound])).rowCount ?? 0;
  onStage('ranked', edges);
  const addresses = (await client.query(NODES_SQL(s), [at.network])).rowCount ?? 0;
  onStage('nodes', addresses);
  for (const [id, c] of at.coverage)
    await client.query(
      `UPDATE ${s}.datasets SET transfers = $2, from_at = $3, to_at = $4, kind = coalesce($5, 'ingested_blocks'), version = $6, up_to_block = $7
       WHERE id = $1`,
      [id, c.transfers, c.from, c.to, c.kind, c.version, c.upToBlock],
    );
  return { pairs, addresses };
}

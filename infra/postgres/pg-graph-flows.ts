import type { DirectionTotals, FlowDirection, FlowPage } from '../../domain/ports/chain-data.port.js';
import { EMPTY_TOTALS, flowPageOf } from '../../domain/ports/chain-data.port.js';
import { normalizeAddress } from '../../domain/shared/address.js';
import type { Network } from '../../domain/shared/network.js';
import { netId, sideId } from './pg-graph-fold.js';
import type { Query } from './pg-graph-query.js';

/**
 * Pages of flows of several addresses in one statement: each address's node totals and its heaviest kept
 * counterparties (a LATERAL read of the ranked index per address, so the per-address limit and order are
 * those of a single page). A search's frontier thus costs one round trip per batch, not one per address.
 */

export interface NodeRow {
  readonly first_at: string;
  readonly last_at: string;
  readonly [column: string]: unknown;
}

export function totalsOf(node: NodeRow, side: 'in' | 'out'): DirectionTotals {
  return {
    transfers: Number(node[`${side}_transfers`]),
    usdMicros: Number(node[`${side}_usd`]),
    counterparties: Number(node[`${side}_counterparties`]),
    unpricedTransfers: Number(node[`${side}_unpriced`]),
    estimated: node[`${side}_estimated`] === true,
  };
}

type PageRow = NodeRow & {
  ord: string;
  counterparty: string | null;
  usd: string;
  transfers: string;
  estimated: boolean;
  sample_tx: string | null;
};

export async function flowPagesSql(
  query: Query,
  s: string,
  addresses: readonly string[],
  network: Network,
  direction: FlowDirection,
  limit: number,
): Promise<FlowPage[]> {
  if (addresses.length === 0) return [];
  // ORDINALITY numbers the addresses as asked (a repeated one gets a page per mention); the outer ORDER BY
  // restates the lateral's order, which a join alone does not promise to keep.
  const rows = await query<PageRow>(
    `SELECT a.ord, n.*, e.counterparty, e.usd, e.transfers, e.estimated, e.sample_tx
     FROM unnest($2::text[]) WITH ORDINALITY AS a(address, ord)
     JOIN ${s}.nodes AS n ON n.network = $1 AND n.address = a.address COLLATE "C"
     LEFT JOIN LATERAL (
       SELECT counterparty, usd, transfers, estimated, sample_tx FROM ${s}.edges
       WHERE network = n.network AND owner = n.address AND side = $3 AND kept
       ORDER BY usd DESC, transfers DESC, counterparty LIMIT $4
     ) AS e ON true
     ORDER BY a.ord, e.usd DESC, e.transfers DESC, e.counterparty`,
    [netId(network), addresses.map(normalizeAddress), sideId(direction), Math.max(0, limit)],
  );
  const byOrd = new Map<number, PageRow[]>();
  for (const row of rows) {
    const ord = Number(row.ord);
    const group = byOrd.get(ord);
    if (group) group.push(row);
    else byOrd.set(ord, [row]);
  }
  return addresses.map((_, i) => pageOf(byOrd.get(i + 1), direction, limit));
}

function pageOf(rows: readonly PageRow[] | undefined, direction: FlowDirection, limit: number): FlowPage {
  const node = rows?.[0];
  if (!rows || !node) return flowPageOf([], EMPTY_TOTALS, 0);
  const page = rows
    .filter((r) => r.counterparty !== null)
    .map((r) => ({
      counterparty: r.counterparty as string,
      usdMicros: Number(r.usd),
      transfers: Number(r.transfers),
      estimated: r.estimated,
      sampleTx: r.sample_tx,
    }));
  return flowPageOf(page, totalsOf(node, direction), limit, Number(node[`${direction}_kept`]));
}

import type { FlowDirection, FlowPage } from '../ports/chain-data.port.js';
import { present } from '../shared/present.js';
import type { Network } from '../shared/network.js';
import type { CategoryExposure, ExposureBudget, ExposurePath, ExposureResult } from './exposure.schema.js';
import type { Classify, NodeLabel } from './node-label.js';
import { frontierPages, type FlowsOf, type FlowsOfMany } from './frontier-pages.js';
import { SearchStopsLog } from './search-stops.js';
import { borrowReached, returnReached, type ReachedTable } from './reached-table.js';

/**
 * Breadth-first, USD-weighted exposure of an anchor address (docs/ARCHITECTURE.md#exposure-search).
 *
 * - Haircut: a node's share of the anchor's flow passes to its counterparties in proportion to what each
 *   sent it (incoming) or received from it (outgoing): share(m) += share(n) · value(m↔n) / total(n).
 *   Flows are weighted by USD; where an address's transfers have no price at all, by transfer count.
 * - Stop at attributed addresses: a labelled address (sanctioned, risky, or a service such as an
 *   exchange) takes the share that reached it and is not followed further (Chainalysis' "stop at
 *   services"; funds inside a service are pooled).
 * - Decay: the verdict reads `weightedShare` = Σ share · DECAY^(hops − 1), so a far exposure counts less
 *   than a near one of the same size; `share` and `usdMicros` stay undiscounted, as evidence.
 * - Level by level, heaviest first: each level is expanded in decreasing share, so a budget cut drops
 *   the lightest flows. Shares below MIN_SHARE are dust and not followed (their value stays unattributed).
 * - Budget: nodes discovered, edges scanned, hops, wall time, counterparties per node. `complete` is
 *   false when any of them cut the search short.
 * - Cycles: an address already reached is not re-entered (funds coming back add nothing new).
 * - Reads (frontier-pages.ts): page by page, or in batches read ahead where the index reads many at once.
 * - Stops (search-stops.ts): the services reached and the counterparties of expanded addresses not read
 *   (per-node limit, a super-node's aggregated remainder) are reported with the share that stopped there.
 */

export const DECAY = 0.5;
export const MIN_SHARE = 1e-4;
const PATHS_PER_CATEGORY = 3;
const TIME_CHECK_EVERY_EDGES = 256;
const BREATHE_EVERY_MS = 20;

export interface ExposureSearchDeps {
  readonly flows: FlowsOf;
  /** Several pages in one read, where the index offers it (frontier-pages.ts): one round trip per batch of a level. */
  readonly flowsOfMany?: FlowsOfMany | undefined;
  readonly classify: Classify;
  /** Milliseconds from a monotonic clock (performance.now in production). */
  readonly now: () => number;
  /**
   * Lets the process serve other work (HTTP requests) during a long search over an in-memory index,
   * which never waits on I/O by itself; called about every BREATHE_EVERY_MS of search.
   */
  readonly breathe?: () => Promise<void>;
}

interface Hit {
  readonly address: string;
  /** Its row in the search's ReachedTable (its route). */
  readonly row: number;
  readonly label: NodeLabel;
  readonly share: number;
  readonly hop: number;
  readonly estimated: boolean;
}

export async function searchExposure(
  deps: ExposureSearchDeps,
  input: { address: string; network: Network; direction: FlowDirection; budget: ExposureBudget },
): Promise<ExposureResult> {
  const reached = borrowReached();
  try {
    return await searchWith(reached, deps, input);
  } finally {
    returnReached(reached);
  }
}

async function searchWith(
  reached: ReachedTable,
  deps: ExposureSearchDeps,
  input: { address: string; network: Network; direction: FlowDirection; budget: ExposureBudget },
): Promise<ExposureResult> {
  const { address: anchor, network, direction, budget } = input;
  const started = deps.now();
  // Every address reached so far (the anchor at hop 0, row 0), with the share that reached it: one table, so
  // a flow costs one lookup whether it leads somewhere new, to this level's addresses or back.
  reached.add(anchor, 1, 0, 0, false);
  const hits: Hit[] = [];
  /** Rows of the addresses to expand at this level. */
  let frontier: number[] = [0];
  let stoppedBy: ExposureResult['stoppedBy'] = null;
  let edges = 0;
  let hopsReached = 0;
  let anchorTotals: FlowPage['totals'] | null = null;
  let weighting: ExposureResult['weighting'] = 'usd';
  let breathed = started;
  const stops = new SearchStopsLog();

  levels: for (let hop = 1; frontier.length > 0; hop++) {
    if (hop > budget.maxHops) {
      stoppedBy = 'max_hops';
      break;
    }
    const found: number[] = [];
    frontier.sort((a, b) => (reached.share[b] ?? 0) - (reached.share[a] ?? 0));
    const pageAt = frontierPages(
      deps.flows,
      deps.flowsOfMany,
      frontier.map((row) => reached.addressAt(row)),
      { network, direction, limit: budget.perNodeLimit, edgesLeft: () => budget.maxEdges - edges },
    );
    scan: for (let at = 0; at < frontier.length; at++) {
      const from = present(frontier[at], 'a frontier entry');
      const fromShare = present(reached.share[from], 'a frontier share');
      const fromEstimated = reached.estimated[from] === 1;
      const now = deps.now();
      if (now - started > budget.timeMs) {
        stoppedBy = 'time';
        break levels;
      }
      if (deps.breathe && now - breathed > BREATHE_EVERY_MS) {
        await deps.breathe();
        breathed = deps.now();
      }
      const answer = pageAt(at);
      const page = answer instanceof Promise ? await answer : answer;
      if (hop === 1) {
        anchorTotals = page.totals;
        weighting = page.totals.usdMicros > 0 ? 'usd' : 'transfer_count';
      }
      const byUsd = page.totals.usdMicros > 0;
      const total = byUsd ? page.totals.usdMicros : page.totals.transfers;
      if (total <= 0) continue;
      if (page.size < page.totals.counterparties) stoppedBy ??= 'per_node_limit';
      stops.expanded(reached.addressAt(from), hop - 1, fromShare, page, byUsd);
      for (let row = 0; row < page.size; row++) {
        if (++edges > budget.maxEdges) {
          stoppedBy = 'max_edges';
          hopsReached = hop;
          break levels;
        }
        if (edges % TIME_CHECK_EVERY_EDGES === 0 && deps.now() - started > budget.timeMs) {
          stoppedBy = 'time';
          hopsReached = hop;
          break levels;
        }
        const counterparty = page.counterparty(row);
        const entry = reached.rowOf(counterparty);
        // Reached at an earlier level (or the anchor): funds coming back add nothing new.
        if (entry >= 0 && present(reached.hop[entry], 'a reached hop') < hop) continue;
        const part = (fromShare * (byUsd ? page.usdMicros(row) : page.transfers(row))) / total;
        if (part <= 0) continue;
        const estimated = fromEstimated || page.estimated(row);
        if (entry < 0) {
          // Addresses past the node budget would be dropped: stop reading flows that can only lead to them.
          if (reached.size - 1 >= budget.maxNodes) {
            stoppedBy = 'max_nodes';
            break scan;
          }
          found.push(reached.add(counterparty, part, from, hop, estimated));
        } else {
          reached.pass(entry, part, from, estimated);
        }
      }
    }
    hopsReached = hop;
    frontier = [];
    for (const row of found) {
      const address = reached.addressAt(row);
      const share = present(reached.share[row], 'a found share');
      const label = deps.classify(address);
      if (label) {
        hits.push({ address, row, label, share, hop, estimated: reached.estimated[row] === 1 });
        stops.reached(address, label, hop, share);
      } else if (share >= MIN_SHARE) frontier.push(row);
    }
    if (stoppedBy === 'max_nodes') break;
  }

  const totals = anchorTotals;
  const totalUsd = totals?.usdMicros ?? 0;
  const categories = aggregate(hits, (row) => routeOf(reached, row, direction), totalUsd, weighting);
  const attributed = Math.min(
    1,
    categories.reduce((sum, c) => sum + c.share, 0),
  );
  return {
    direction,
    complete: stoppedBy === null,
    stoppedBy,
    weighting,
    totalUsdMicros: totalUsd,
    totalTransfers: totals?.transfers ?? 0,
    categories,
    unattributedShare: totals ? clamp01(1 - attributed) : 0,
    nodesVisited: reached.size - 1,
    edgesScanned: Math.min(edges, budget.maxEdges),
    hopsReached,
    elapsedMs: Math.round((deps.now() - started) * 1000) / 1000,
    usdEstimated: weighting === 'usd' && (totals?.estimated ?? false),
    stops: stops.result(totalUsd, weighting === 'usd'),
  };
}

/** The route of the largest part from the anchor (row 0) to `row`, in the direction funds moved. */
function routeOf(reached: ReachedTable, row: number, direction: FlowDirection): string[] {
  const route = [reached.addressAt(row)];
  for (let at = row; at !== 0;) {
    at = present(reached.parent[at], 'a route step');
    route.push(reached.addressAt(at));
  }
  // The walk goes entity → … → anchor: that is the flow of incoming funds; outgoing funds flow the other way.
  return direction === 'in' ? route : route.reverse();
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

function aggregate(
  hits: readonly Hit[],
  route: (row: number) => string[],
  totalUsd: number,
  weighting: ExposureResult['weighting'],
): CategoryExposure[] {
  const bySlug = new Map<string, Hit[]>();
  for (const hit of hits) {
    const group = bySlug.get(hit.label.category);
    if (group) group.push(hit);
    else bySlug.set(hit.label.category, [hit]);
  }
  const usdOf = (share: number) => (weighting === 'usd' ? Math.round(share * totalUsd) : 0);
  return [...bySlug.values()]
    .map((group): CategoryExposure => {
      const first = present(group[0], 'a group member').label;
      const share = clamp01(group.reduce((sum, h) => sum + h.share, 0));
      const heaviest = [...group].sort((a, b) => b.share - a.share || a.hop - b.hop || (a.address < b.address ? -1 : 1));
      const paths = heaviest.slice(0, PATHS_PER_CATEGORY).map((hit): ExposurePath => ({
        hops: hit.hop,
        addresses: route(hit.row),
        usdMicros: usdOf(hit.share),
        share: clamp01(hit.share),
        label: hit.label.label,
        source: hit.label.source,
        usdEstimated: hit.estimated,
      }));
      return {
        slug: first.category,
        severity: first.severity,
        riskLevel: first.riskLevel,
        usdMicros: usdOf(share),
        share,
        weightedShare: clamp01(group.reduce((sum, h) => sum + h.share * DECAY ** (h.hop - 1), 0)),
        minHops: group.reduce((min, h) => Math.min(min, h.hop), Number.POSITIVE_INFINITY),
        entities: group.length,
        paths,
        sources: [...new Set(group.flatMap((h) => h.label.sources))].sort(),
        confidence: group.reduce<number | null>(
          (best, h) => (h.label.confidence === null ? best : Math.max(best ?? 0, h.label.confidence)),
          null,
        ),
      };
    })
    .sort((a, b) => b.severity - a.severity || b.usdMicros - a.usdMicros || b.share - a.share || (a.slug < b.slug ? -1 : 1));
}

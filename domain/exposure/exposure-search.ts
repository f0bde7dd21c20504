import type { FlowDirection, FlowPage } from '../ports/chain-data.port.js';
import { present } from '../shared/present.js';
import type { Network } from '../shared/network.js';
import type { CategoryExposure, ExposureBudget, ExposurePath, ExposureResult } from './exposure.schema.js';
import type { Classify, NodeLabel } from './node-label.js';
import { frontierPages, type FlowsOf, type FlowsOfMany } from './frontier-pages.js';
import { SearchStopsLog } from './search-stops.js';

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

interface Reached {
  share: number;
  /** The neighbour that passed the largest part of the share: the evidence route. */
  parent: string;
  bestPart: number;
  hop: number;
  estimated: boolean;
}

interface Hit {
  readonly address: string;
  readonly label: NodeLabel;
  readonly share: number;
  readonly hop: number;
  readonly estimated: boolean;
}

export async function searchExposure(
  deps: ExposureSearchDeps,
  input: { address: string; network: Network; direction: FlowDirection; budget: ExposureBudget },
): Promise<ExposureResult> {
  const { address: anchor, network, direction, budget } = input;
  const started = deps.now();
  // Every address reached so far (the anchor at hop 0), with the share that reached it: one map, so a
  // flow costs one lookup whether it leads somewhere new, to this level's addresses or back.
  const reached = new Map<string, Reached>([[anchor, { share: 1, parent: anchor, bestPart: 1, hop: 0, estimated: false }]]);
  const hits: Hit[] = [];
  let frontier: [string, Reached][] = [[anchor, present(reached.get(anchor), 'the anchor')]];
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
    const found: string[] = [];
    frontier.sort((a, b) => b[1].share - a[1].share);
    const pageAt = frontierPages(
      deps.flows,
      deps.flowsOfMany,
      frontier.map(([node]) => node),
      { network, direction, limit: budget.perNodeLimit, edgesLeft: () => budget.maxEdges - edges },
    );
    scan: for (let at = 0; at < frontier.length; at++) {
      const [node, from] = present(frontier[at], 'a frontier entry');
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
      stops.expanded(node, hop - 1, from.share, page, byUsd);
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
        const entry = reached.get(counterparty);
        // Reached at an earlier level (or the anchor): funds coming back add nothing new.
        if (entry && entry.hop < hop) continue;
        const part = (from.share * (byUsd ? page.usdMicros(row) : page.transfers(row))) / total;
        if (part <= 0) continue;
        const estimated = from.estimated || page.estimated(row);
        if (!entry) {
          // Addresses past the node budget would be dropped: stop reading flows that can only lead to them.
          if (reached.size - 1 >= budget.maxNodes) {
            stoppedBy = 'max_nodes';
            break scan;
          }
          reached.set(counterparty, { share: part, parent: node, bestPart: part, hop, estimated });
          found.push(counterparty);
        } else {
          entry.share += part;
          entry.estimated ||= estimated;
          if (part > entry.bestPart) {
            entry.bestPart = part;
            entry.parent = node;
          }
        }
      }
    }
    hopsReached = hop;
    frontier = [];
    for (const address of found) {
      const entry = present(reached.get(address), 'a found address');
      const label = deps.classify(address);
      if (label) {
        hits.push({ address, label, share: entry.share, hop, estimated: entry.estimated });
        stops.reached(address, label, hop, entry.share);
      } else if (entry.share >= MIN_SHARE) frontier.push([address, entry]);
    }
    if (stoppedBy === 'max_nodes') break;
  }

  const totals = anchorTotals;
  const totalUsd = totals?.usdMicros ?? 0;
  const categories = aggregate(hits, (address) => routeOf(reached, anchor, address, direction), totalUsd, weighting);
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

/** The route of the largest part from the anchor to `address`, in the direction funds moved. */
function routeOf(reached: Map<string, Reached>, anchor: string, address: string, direction: FlowDirection): string[] {
  const route = [address];
  for (let at = address; at !== anchor;) {
    at = present(reached.get(at), 'a route step').parent;
    route.push(at);
  }
  // The walk goes entity → … → anchor: that is the flow of incoming funds; outgoing funds flow the other way.
  return direction === 'in' ? route : route.reverse();
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

function aggregate(
  hits: readonly Hit[],
  route: (address: string) => string[],
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
        addresses: route(hit.address),
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

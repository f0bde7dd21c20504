import { present } from '../../domain/shared/present.js';
import type { AddressActivity, DirectionTotals, FlowDirection, TransferIndex } from '../../domain/ports/chain-data.port.js';
import { EMPTY_TOTALS, flowPageOf } from '../../domain/ports/chain-data.port.js';
import { normalizeAddress } from '../../domain/shared/address.js';
import type { Network } from '../../domain/shared/network.js';

/**
 * A TransferIndex over an account-history API (Etherscan-compatible, TRON HTTP API): each address's
 * recent transfers are fetched on demand, aggregated per counterparty, and kept for a while (an LRU of
 * addresses), so a graph search asks for each address once. Adapters only say how to fetch a history.
 * Remote histories are capped (the most recent page(s) only), which the coverage says.
 */

/** One transfer of a fetched history. */
export interface TransferInput {
  readonly from: string;
  readonly to: string;
  /** null when the asset has no price (the transfer counts, its value is unknown). */
  readonly usdMicros: number | null;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly estimated?: boolean;
  readonly txHash?: string | null;
}

export interface AccountHistory {
  /** The transfers fetched; an API's cap on history (the coverage caveat says which) is not an error. */
  readonly transfers: readonly TransferInput[];
}

interface Aggregated {
  readonly rows: Record<FlowDirection, { counterparty: string; usdMicros: number; transfers: number; sampleTx: string | null }[]>;
  readonly totals: Record<FlowDirection, DirectionTotals>;
  readonly firstAt: number;
  readonly lastAt: number;
}

function aggregate(address: string, history: AccountHistory): Aggregated | null {
  const sides = {
    in: new Map<string, { counterparty: string; usdMicros: number; transfers: number; sampleTx: string | null; unpriced: number }>(),
    out: new Map(),
  } as const;
  let firstAt = Number.POSITIVE_INFINITY;
  let lastAt = Number.NEGATIVE_INFINITY;
  for (const t of history.transfers) {
    const from = normalizeAddress(t.from);
    const to = normalizeAddress(t.to);
    if (from === to || (from !== address && to !== address)) continue;
    const direction: FlowDirection = to === address ? 'in' : 'out';
    const counterparty = direction === 'in' ? from : to;
    const side = sides[direction];
    const row = side.get(counterparty) ?? { counterparty, usdMicros: 0, transfers: 0, sampleTx: t.txHash ?? null, unpriced: 0 };
    row.usdMicros += t.usdMicros ?? 0;
    row.transfers += 1;
    if (t.usdMicros === null) row.unpriced += 1;
    side.set(counterparty, row);
    firstAt = Math.min(firstAt, t.at);
    lastAt = Math.max(lastAt, t.at);
  }
  if (sides.in.size + sides.out.size === 0) return null;
  const sorted = (direction: FlowDirection) =>
    [...sides[direction].values()].sort(
      (a, b) => b.usdMicros - a.usdMicros || b.transfers - a.transfers || (a.counterparty < b.counterparty ? -1 : 1),
    );
  const totals = (direction: FlowDirection): DirectionTotals => {
    const rows = [...sides[direction].values()];
    return {
      transfers: rows.reduce((sum, r) => sum + r.transfers, 0),
      usdMicros: rows.reduce((sum, r) => sum + r.usdMicros, 0),
      counterparties: rows.length,
      unpricedTransfers: rows.reduce((sum, r) => sum + r.unpriced, 0),
      estimated: false,
    };
  };
  return { rows: { in: sorted('in'), out: sorted('out') }, totals: { in: totals('in'), out: totals('out') }, firstAt, lastAt };
}

export function accountHistoryIndex(options: {
  name: string;
  networks: readonly Network[];
  caveat: string;
  /** How much of an address's history one answer holds (e.g. "1000 most recent native and 1000 token transfers per address"). */
  cap: string;
  /** The API's host: which service answered. */
  version?: string;
  fetchHistory: (address: string, network: Network) => Promise<AccountHistory>;
  cacheSize?: number;
}): TransferIndex {
  const cache = new Map<string, Promise<Aggregated | null>>();
  const limit = options.cacheSize ?? 10_000;
  let fetched = 0;

  function historyOf(address: string, network: Network): Promise<Aggregated | null> {
    const normalized = normalizeAddress(address);
    const key = `${network}|${normalized}`;
    let found = cache.get(key);
    if (found) {
      cache.delete(key);
    } else {
      if (!options.networks.includes(network)) return Promise.resolve(null);
      found = options.fetchHistory(normalized, network).then((history) => {
        fetched += history.transfers.length;
        return aggregate(normalized, history);
      });
      // A failed fetch is not remembered: the next ask tries again.
      found.catch(() => cache.delete(key));
    }
    cache.set(key, found);
    if (cache.size > limit) cache.delete(present(cache.keys().next().value, 'the cache is over its limit, so not empty'));
    return found;
  }

  return {
    async activity(address, network): Promise<AddressActivity | null> {
      const history = await historyOf(address, network);
      if (!history) return null;
      return {
        incoming: history.totals.in,
        outgoing: history.totals.out,
        firstAt: new Date(history.firstAt).toISOString(),
        lastAt: new Date(history.lastAt).toISOString(),
      };
    },
    async flows(address, network, direction, limitRows) {
      const history = await historyOf(address, network);
      return flowPageOf(history?.rows[direction] ?? [], history?.totals[direction] ?? EMPTY_TOTALS, limitRows);
    },
    async coverage(network) {
      return {
        network,
        datasets: options.networks.includes(network)
          ? [
              {
                name: options.name,
                transfers: fetched,
                from: null,
                to: null,
                caveat: options.caveat,
                kind: 'account_history_api' as const,
                version: options.version ?? null,
                // fetched on demand: a verdict sees each address's history as it was when asked
                asOf: new Date().toISOString(),
                cap: options.cap,
              },
            ]
          : [],
      };
    },
  };
}

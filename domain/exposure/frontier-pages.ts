import type { FlowDirection, FlowPage } from '../ports/chain-data.port.js';
import type { Network } from '../shared/network.js';

/**
 * How the exposure search reads a level's frontier: page by page through `flows` (an index in memory or
 * on local disk answers at once), or, where the index reads several addresses in one round trip
 * (`flowsOfMany`, the PostgreSQL graph store), in batches read ahead of the scan. The scan still takes the
 * pages one by one in the same order, so the budgets cut it at the same place; a batch only reads ahead.
 *
 * Batches start small (a search cut by its budget early wastes little), double, and stop growing at
 * BATCH_MAX or at what the remaining edge budget can still read, judged by the rows of the pages so far.
 */

export const BATCH_FIRST = 16;
export const BATCH_MAX = 1024;

export type FlowsOf = (address: string, network: Network, direction: FlowDirection, limit: number) => FlowPage | Promise<FlowPage>;
export type FlowsOfMany = (
  addresses: readonly string[],
  network: Network,
  direction: FlowDirection,
  limit: number,
) => Promise<readonly FlowPage[]>;

export interface FrontierRead {
  readonly network: Network;
  readonly direction: FlowDirection;
  readonly limit: number;
  /** Edges the search may still scan: a batch larger than it can use is not read. */
  readonly edgesLeft: () => number;
}

export type PageAt = (index: number) => FlowPage | Promise<FlowPage>;

export function frontierPages(
  flows: FlowsOf,
  flowsOfMany: FlowsOfMany | undefined,
  frontier: readonly string[],
  read: FrontierRead,
): PageAt {
  const { network, direction, limit } = read;
  const addressAt = (index: number): string => {
    const address = frontier[index];
    if (address === undefined) throw new RangeError(`frontier index ${index} is past its ${frontier.length} addresses`);
    return address;
  };
  if (!flowsOfMany) return (index) => flows(addressAt(index), network, direction, limit);
  const batches: { start: number; pages: Promise<readonly FlowPage[]> }[] = [];
  let readUpTo = 0;
  let size = BATCH_FIRST;
  let rows = 0;
  let pagesSeen = 0;
  return async (index) => {
    while (index >= readUpTo) {
      const rowsPerPage = pagesSeen > 0 ? Math.max(1, rows / pagesSeen) : 1;
      const useful = Math.max(1, Math.ceil(read.edgesLeft() / rowsPerPage));
      const count = Math.min(size, useful, frontier.length - readUpTo);
      batches.push({ start: readUpTo, pages: flowsOfMany(frontier.slice(readUpTo, readUpTo + count), network, direction, limit) });
      readUpTo += count;
      size = Math.min(BATCH_MAX, size * 2);
    }
    let batch = batches.at(-1);
    for (let b = batches.length - 1; batch && batch.start > index; b--) batch = batches[b - 1];
    if (!batch) throw new RangeError(`frontier index ${index} was not read`);
    const page = (await batch.pages)[index - batch.start];
    if (!page) throw new Error(`the batched read returned no page for frontier index ${index}`);
    rows += page.size;
    pagesSeen++;
    return page;
  };
}

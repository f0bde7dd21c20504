import type { FlowDirection } from '../../../../domain/ports/chain-data.port.js';
import { emptyNode, FLAG_ESTIMATED, type NodeRecord } from '../graph-records.js';
import type { pairFields } from './pair-sums.js';

/**
 * Every address's totals per direction as columns indexed by id (about 80 bytes an address, no object per
 * address), summed from the merged pairs of a bulk load, then written as node records in id order.
 */

class SideColumns {
  readonly transfers: Float64Array;
  readonly usd: Float64Array;
  readonly unpriced: Float64Array;
  readonly counterparties: Uint32Array;
  readonly kept: Uint32Array;
  readonly estimated: Uint8Array;

  constructor(size: number) {
    this.transfers = new Float64Array(size);
    this.usd = new Float64Array(size);
    this.unpriced = new Float64Array(size);
    this.counterparties = new Uint32Array(size);
    this.kept = new Uint32Array(size);
    this.estimated = new Uint8Array(size);
  }
}

export class NodeTotals {
  readonly in: SideColumns;
  readonly out: SideColumns;
  /** Seconds; 0xffffffff for none yet. */
  private readonly firstAt: Uint32Array;
  private readonly lastAt: Uint32Array;

  constructor(readonly size: number) {
    this.in = new SideColumns(size);
    this.out = new SideColumns(size);
    this.firstAt = new Uint32Array(size).fill(0xffffffff);
    this.lastAt = new Uint32Array(size);
  }

  /** One merged pair, seen from its `side` end (`id`). */
  add(id: number, side: FlowDirection, pair: ReturnType<typeof pairFields>): void {
    const columns = this[side];
    columns.transfers[id] = (columns.transfers[id] ?? 0) + pair.transfers;
    columns.usd[id] = (columns.usd[id] ?? 0) + pair.usd;
    columns.unpriced[id] = (columns.unpriced[id] ?? 0) + pair.unpriced;
    columns.counterparties[id] = (columns.counterparties[id] ?? 0) + 1;
    if (pair.flags & FLAG_ESTIMATED) columns.estimated[id] = 1;
    this.firstAt[id] = Math.min(this.firstAt[id] ?? 0, pair.firstAt);
    this.lastAt[id] = Math.max(this.lastAt[id] ?? 0, pair.lastAt);
  }

  /** The node record of `id` (bulk-loaded history is final: its last time is settled). */
  record(id: number): NodeRecord {
    const node = emptyNode();
    for (const side of ['in', 'out'] as const) {
      const columns = this[side];
      node[side].transfers = columns.transfers[id] ?? 0;
      node[side].usd = columns.usd[id] ?? 0;
      node[side].unpriced = columns.unpriced[id] ?? 0;
      node[side].counterparties = columns.counterparties[id] ?? 0;
      node[side].kept = columns.kept[id] ?? 0;
      node[side].estimated = columns.estimated[id] === 1;
    }
    node.firstAt = (this.firstAt[id] ?? 0) * 1000;
    node.lastAt = (this.lastAt[id] ?? 0) * 1000;
    node.settledLastAt = node.lastAt;
    return node;
  }
}

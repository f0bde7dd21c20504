import type { FlowDirection } from '../../../../domain/ports/chain-data.port.js';
import { emptyNode, type NodeRecord } from '../graph-records.js';
import type { pairFields } from './pair-sums.js';

/**
 * Every address's totals summed from the ranked candidates of a bulk load, which come in owner order (an
 * owner's incoming pairs, then its outgoing ones): one address's totals in memory at a time, handed to
 * `write` when the next owner starts. Every address is the owner of some pair (the load interns the two
 * ends of a transfer between two addresses only), so the records go out for ids 0, 1, 2, … in order.
 */
export class NodeTotals {
  private owner = -1;
  private node = emptyNode();
  /** Seconds, as the pairs hold them. */
  private firstAt = Number.POSITIVE_INFINITY;
  private lastAt = 0;

  constructor(private readonly write: (id: number, node: NodeRecord) => void) {}

  /** One pair, seen from its `side` end (`owner`); `kept` when it is among the owner's first counterparties. */
  add(owner: number, side: FlowDirection, pair: ReturnType<typeof pairFields>, estimated: boolean, kept: boolean): void {
    if (owner !== this.owner) this.startOwner(owner);
    const totals = this.node[side];
    totals.transfers += pair.transfers;
    totals.usd += pair.usd;
    totals.unpriced += pair.unpriced;
    totals.counterparties += 1;
    if (kept) totals.kept += 1;
    if (estimated) totals.estimated = true;
    this.firstAt = Math.min(this.firstAt, pair.firstAt);
    this.lastAt = Math.max(this.lastAt, pair.lastAt);
  }

  /** Writes the last owner's record. */
  finish(): void {
    if (this.owner < 0) return;
    const node = this.node;
    node.firstAt = this.firstAt * 1000;
    node.lastAt = this.lastAt * 1000;
    // Bulk-loaded history is final: its last time is settled.
    node.settledLastAt = node.lastAt;
    this.write(this.owner, node);
    this.owner = -1;
  }

  private startOwner(owner: number): void {
    this.finish();
    this.owner = owner;
    this.node = emptyNode();
    this.firstAt = Number.POSITIVE_INFINITY;
    this.lastAt = 0;
  }
}

// Typed-array walks whose indexes are bounded by construction (CSR offsets, columns grown before a write): a
// check per access would cost the hot loop, so `!` is allowed here and nowhere else outside tests.
/* eslint-disable @typescript-eslint/no-non-null-assertion */
import type { DirectionTotals, FlowDirection } from '../../domain/ports/chain-data.port.js';
import { Column } from './growable-arrays.js';

/**
 * A transfer graph in compact typed arrays, for millions of addresses and tens of millions of transfers
 * in a few hundred megabytes: addresses are interned to integer ids; raw transfers are columns; `build`
 * aggregates them per (sender, recipient) pair and lays the pairs out twice in CSR form (by sender and by
 * recipient), each address's pairs sorted most USD first, so a search reads the heaviest counterparties
 * of an address as one contiguous slice.
 */

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

export class TransferGraphBuilder {
  readonly addresses: string[] = [];
  private readonly ids = new Map<string, number>();
  readonly from = new Column(Int32Array);
  readonly to = new Column(Int32Array);
  readonly usd = new Column(Float64Array);
  readonly at = new Column(Float64Array);
  /** bit 0: unpriced, bit 1: estimated valuation */
  readonly flags = new Column(Uint8Array);
  /** Transaction hash of a transfer, by transfer index; absent for data without hashes. */
  readonly hashes = new Map<number, string>();

  get transfers(): number {
    return this.from.length;
  }

  idOf(address: string): number | undefined {
    return this.ids.get(address);
  }

  intern(address: string): number {
    let id = this.ids.get(address);
    if (id === undefined) {
      id = this.addresses.length;
      this.addresses.push(address);
      this.ids.set(address, id);
    }
    return id;
  }

  add(transfer: TransferInput): void {
    if (transfer.from === transfer.to) return;
    this.addIds(this.intern(transfer.from), this.intern(transfer.to), transfer.usdMicros, transfer.at, transfer.estimated ?? false);
    if (transfer.txHash) this.hashes.set(this.from.length - 1, transfer.txHash);
  }

  /** The fast path for generated graphs: ids from `intern`, no hash. */
  addIds(from: number, to: number, usdMicros: number | null, at: number, estimated = false): void {
    this.from.push(from);
    this.to.push(to);
    this.usd.push(usdMicros ?? 0);
    this.at.push(at);
    this.flags.push((usdMicros === null ? 1 : 0) | (estimated ? 2 : 0));
  }

  build(): CompactTransferGraph {
    return CompactTransferGraph.from(this);
  }
}

/** Pairs of one direction in CSR form: the pairs of address i are `order[offsets[i]..offsets[i+1])`. */
interface Side {
  readonly offsets: Int32Array;
  /** Pair indices, grouped by address, most USD first within a group. */
  readonly order: Int32Array;
  /** Per address: transfers, USD, unpriced transfers, estimated flag. */
  readonly transfers: Uint32Array;
  readonly usd: Float64Array;
  readonly unpriced: Uint32Array;
  readonly estimated: Uint8Array;
}

export class CompactTransferGraph {
  private constructor(
    readonly addresses: readonly string[],
    private readonly ids: (address: string) => number | undefined,
    /** Aggregated pairs. */
    readonly pairFrom: Int32Array,
    readonly pairTo: Int32Array,
    readonly pairUsd: Float64Array,
    readonly pairTransfers: Uint32Array,
    readonly pairEstimated: Uint8Array,
    private readonly pairHash: ReadonlyMap<number, string>,
    private readonly out: Side,
    private readonly in_: Side,
    readonly firstAt: Float64Array,
    readonly lastAt: Float64Array,
  ) {}

  get size(): number {
    return this.addresses.length;
  }

  get pairs(): number {
    return this.pairFrom.length;
  }

  idOf(address: string): number | undefined {
    return this.ids(address);
  }

  /**
   * The counterparties of address `id` in a direction, heaviest first: slot `start + k` of `order` is
   * the k-th pair, and `counterparty[pair]` the address on the other end.
   */
  slice(id: number, direction: FlowDirection): { start: number; end: number; order: Int32Array; counterparty: Int32Array } {
    const side = direction === 'out' ? this.out : this.in_;
    return {
      start: side.offsets[id]!,
      end: side.offsets[id + 1]!,
      order: side.order,
      counterparty: direction === 'out' ? this.pairTo : this.pairFrom,
    };
  }

  sampleTx(pair: number): string | null {
    return this.pairHash.get(pair) ?? null;
  }

  totals(id: number, direction: FlowDirection): DirectionTotals {
    const side = direction === 'out' ? this.out : this.in_;
    return {
      transfers: side.transfers[id]!,
      usdMicros: Math.round(side.usd[id]!),
      counterparties: side.offsets[id + 1]! - side.offsets[id]!,
      unpricedTransfers: side.unpriced[id]!,
      estimated: side.estimated[id] === 1,
    };
  }

  static from(builder: TransferGraphBuilder): CompactTransferGraph {
    const n = builder.addresses.length;
    const from = builder.from.view();
    const to = builder.to.view();
    const usd = builder.usd.view();
    const at = builder.at.view();
    const flags = builder.flags.view();
    const firstAt = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
    const lastAt = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);

    // Group raw transfers by sender (counting sort), then merge each sender's transfers per recipient.
    const bySender = groupBy(from, n);
    const pairFrom = new Column(Int32Array, Math.max(16, from.length));
    const pairTo = new Column(Int32Array, Math.max(16, from.length));
    const pairUsd = new Column(Float64Array, Math.max(16, from.length));
    const pairTransfers = new Column(Uint32Array, Math.max(16, from.length));
    const pairFlags = new Column(Uint8Array, Math.max(16, from.length));
    const pairHash = new Map<number, string>();
    const stamp = new Int32Array(n).fill(-1);
    const slotOf = new Int32Array(n);
    for (let sender = 0; sender < n; sender++) {
      for (let k = bySender.offsets[sender]!; k < bySender.offsets[sender + 1]!; k++) {
        const t = bySender.order[k]!;
        const recipient = to[t]!;
        let pair: number;
        if (stamp[recipient] === sender) pair = slotOf[recipient]!;
        else {
          pair = pairFrom.length;
          stamp[recipient] = sender;
          slotOf[recipient] = pair;
          pairFrom.push(sender);
          pairTo.push(recipient);
          pairUsd.push(0);
          pairTransfers.push(0);
          pairFlags.push(0);
        }
        pairUsd.set(pair, pairUsd.at(pair) + usd[t]!);
        pairTransfers.set(pair, pairTransfers.at(pair) + 1);
        pairFlags.set(pair, pairFlags.at(pair) | flags[t]!);
        const hash = builder.hashes.get(t);
        if (hash !== undefined && !pairHash.has(pair)) pairHash.set(pair, hash);
        const time = at[t]!;
        if (time < firstAt[sender]!) firstAt[sender] = time;
        if (time > lastAt[sender]!) lastAt[sender] = time;
        if (time < firstAt[recipient]!) firstAt[recipient] = time;
        if (time > lastAt[recipient]!) lastAt[recipient] = time;
      }
    }
    const pf = pairFrom.view();
    const pt = pairTo.view();
    const pu = pairUsd.view();
    const pc = pairTransfers.view();
    const pflags = pairFlags.view();
    const side = (owner: Int32Array): Side => {
      const grouped = groupBy(owner, n);
      sortGroupsByUsd(grouped, pu, pc);
      const transfers = new Uint32Array(n);
      const usdTotal = new Float64Array(n);
      const unpriced = new Uint32Array(n);
      const estimated = new Uint8Array(n);
      for (let p = 0; p < owner.length; p++) {
        const id = owner[p]!;
        transfers[id] = transfers[id]! + pc[p]!;
        usdTotal[id] = usdTotal[id]! + pu[p]!;
        if (pflags[p]! & 2) estimated[id] = 1;
      }
      // Unpriced transfers are counted per raw transfer (a pair can mix priced and unpriced ones).
      const ends = owner === pf ? from : to;
      for (let t = 0; t < ends.length; t++) if (flags[t]! & 1) unpriced[ends[t]!] = unpriced[ends[t]!]! + 1;
      return { ...grouped, transfers, usd: usdTotal, unpriced, estimated };
    };
    const estimatedPairs = new Uint8Array(pflags.length);
    for (let p = 0; p < pflags.length; p++) estimatedPairs[p] = (pflags[p]! & 2) >> 1;
    const ids = new Map<string, number>(builder.addresses.map((a, i) => [a, i]));
    return new CompactTransferGraph(
      builder.addresses.slice(),
      (address) => ids.get(address),
      pf,
      pt,
      pu,
      pc,
      estimatedPairs,
      pairHash,
      side(pf),
      side(pt),
      firstAt,
      lastAt,
    );
  }
}

/** Counting sort of indices 0..keys.length by key: offsets per key and the indices in key order. */
function groupBy(keys: Int32Array, n: number): { offsets: Int32Array; order: Int32Array } {
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < keys.length; i++) offsets[keys[i]! + 1] = offsets[keys[i]! + 1]! + 1;
  for (let id = 0; id < n; id++) offsets[id + 1] = offsets[id + 1]! + offsets[id]!;
  const cursor = offsets.slice(0, n);
  const order = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    order[cursor[key]!] = i;
    cursor[key] = cursor[key]! + 1;
  }
  return { offsets, order };
}

/** Within each group, most USD first, then most transfers, then lower pair index (deterministic). */
function sortGroupsByUsd(grouped: { offsets: Int32Array; order: Int32Array }, usd: Float64Array, count: Uint32Array): void {
  const { offsets, order } = grouped;
  const byWeight = (a: number, b: number) => usd[b]! - usd[a]! || count[b]! - count[a]! || a - b;
  for (let id = 0; id + 1 < offsets.length; id++) {
    const start = offsets[id]!;
    const end = offsets[id + 1]!;
    if (end - start > 1) order.subarray(start, end).sort(byWeight);
  }
}

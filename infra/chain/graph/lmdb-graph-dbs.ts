import { open, type Database, type RootDatabase } from 'lmdb';
import type { FlowDirection } from '../../../domain/ports/chain-data.port.js';
import type { Network } from '../../../domain/shared/network.js';
import { BoundedMap } from './bounded-map.js';
import { SlotCache } from './slot-cache.js';
import {
  addressBytes,
  addressText,
  idKey,
  idsKey,
  netByte,
  rankedKey,
  emptyColumns,
  rankedRange,
  readRankedInto,
  readRankedKey,
  type RankedColumns,
  sidePairKey,
  unitKey,
  type RankedRow,
} from './graph-keys.js';
import {
  decodeNode,
  decodePair,
  decodeSide,
  emptyNode,
  encodeNode,
  encodePair,
  restFlag,
  type NodeRecord,
  type PairRecord,
  type SideTotals,
} from './graph-records.js';
import type { TransferDataKind } from '../../../domain/ports/chain-data.port.js';

/**
 * The LMDB environment of the graph store and the record-level operations its fold, revert and reads
 * share. Every write runs inside the caller's `transactionSync`. Databases (keys in graph-keys.ts):
 * `ids` address → id, `addrs` id → address, `pairs` (sender, recipient) → edge, `ranked` (owner, side,
 * weight, counterparty, estimated) → nothing (the kept counterparties, heaviest first), `nodes` id → totals, `units`
 * (block, kind) → how it was folded, `seen` positions folded one by one, `journal` revertible transfers, `meta`
 * counters, coverage and sources' states.
 */

export interface CoverageEntry {
  readonly name: string;
  readonly caveat: string | null;
  transfers: number;
  from: number;
  to: number;
  /** What the data is and its version (absent in entries written before verdicts named them). */
  kind?: TransferDataKind;
  version?: string | null;
  /** Chain data: the highest block a transfer was folded from. */
  upToBlock?: number | null;
}

/** Ids and addresses kept in memory, each way, per network: the hubs a search and a fold meet again and again. */
const ID_CACHE = 65_536;
/** Id → address slots per network (direct-mapped: 4 MB of slots, the addresses themselves as they come). */
const ADDRESS_SLOTS = 262_144;
const EMPTY = Buffer.alloc(0);

export class GraphDbs {
  readonly root: RootDatabase;
  readonly ids: Database<Buffer, Buffer>;
  readonly addrs: Database<Buffer, Buffer>;
  readonly pairs: Database<Buffer, Buffer>;
  readonly ranked: Database<Buffer, Buffer>;
  readonly nodes: Database<Buffer, Buffer>;
  readonly seen: Database<Buffer, Buffer>;
  readonly units: Database<Buffer, Buffer>;
  readonly journal: Database<Buffer, Buffer>;
  readonly meta: Database<unknown, string>;
  /** Per network (its byte): address → id, and id → address. */
  private readonly idOf = [0, 1, 2].map(() => new BoundedMap<string, number>(ID_CACHE));
  private readonly addressOf = [0, 1, 2].map(() => new SlotCache<string>(ADDRESS_SLOTS));
  /** The next id per network within the write transaction under way. */
  private readonly nextId = new Map<Network, number>();

  constructor(
    path: string,
    readonly superNodeBound: number,
  ) {
    // No LMDB-side cache of decoded values: records are decoded by hand, the OS caches the pages.
    // noReadAhead (MDB_NORDAHEAD; lmdb's open.js reads it, its typings do not list it): a search reads
    // scattered 4 KB pages, and the kernel's read-ahead would pull in neighbours it never reads.
    const options = { path, maxDbs: 12, mapSize: 2 ** 40, pageSize: 4096, noReadAhead: true };
    this.root = open(options);
    const binary = (name: string) => this.root.openDB<Buffer, Buffer>({ name, keyEncoding: 'binary', encoding: 'binary' });
    this.ids = binary('ids');
    this.addrs = binary('addrs');
    this.pairs = binary('pairs');
    this.ranked = binary('ranked');
    this.nodes = binary('nodes');
    this.seen = binary('seen');
    this.units = binary('units');
    this.journal = binary('journal');
    this.meta = this.root.openDB<unknown, string>({ name: 'meta' });
  }

  /** The address's id, or undefined when it was never folded. */
  lookup(network: Network, address: string): number | undefined {
    const cache = this.idOf[netByte(network)];
    const cached = cache?.get(address);
    if (cached !== undefined) return cached;
    const stored = this.ids.getBinaryFast(idsKey(network, address));
    if (!stored) return undefined;
    const id = Buffer.from(stored.buffer, stored.byteOffset, stored.length).readUInt32BE(0);
    cache?.set(address, id);
    return id;
  }

  /** The address's id, allocated on first sight (inside a write transaction). */
  intern(network: Network, address: string): number {
    const found = this.lookup(network, address);
    if (found !== undefined) return found;
    const id = this.nextId.get(network) ?? (this.meta.get(`next-id:${network}`) as number | undefined) ?? 0;
    this.nextId.set(network, id + 1);
    const value = Buffer.allocUnsafe(4);
    value.writeUInt32BE(id, 0);
    this.ids.putSync(idsKey(network, address), value);
    this.addrs.putSync(idKey(network, id), addressBytes(address));
    this.idOf[netByte(network)]?.set(address, id);
    return id;
  }

  /** After a failed transaction: ids it allocated were not committed, so nothing cached may name them. */
  forgetUncommitted(): void {
    this.nextId.clear();
    for (const cache of [...this.idOf, ...this.addressOf]) cache.clear();
  }

  /** Writes the id counters the transaction advanced (once, not once per new address). */
  saveCounters(): void {
    for (const [network, next] of this.nextId) this.meta.putSync(`next-id:${network}`, next);
    this.nextId.clear();
  }

  address(network: Network, id: number): string {
    const cache = this.addressOf[netByte(network)];
    const cached = cache?.get(id);
    if (cached !== undefined) return cached;
    const stored = this.addrs.getBinaryFast(idKey(network, id));
    if (!stored) throw new Error(`graph store: no address for id ${id} on ${network}`);
    const address = addressText(stored);
    cache?.set(id, address);
    // The search reads this address's own page next when it follows it: its id is known, not read again.
    this.idOf[netByte(network)]?.set(address, id);
    return address;
  }

  node(network: Network, id: number): NodeRecord | null {
    const stored = this.nodes.getBinaryFast(idKey(network, id));
    return stored ? decodeNode(stored) : null;
  }

  /** One direction's totals of the address (what a page needs), without decoding the other. */
  side(network: Network, id: number, direction: FlowDirection): SideTotals | null {
    const stored = this.nodes.getBinaryFast(idKey(network, id));
    return stored ? decodeSide(stored, direction) : null;
  }

  /** The first `limit` kept counterparties of a side, heaviest first, as columns: one range read of keys. */
  rankedColumns(network: Network, owner: number, side: FlowDirection, limit: number): RankedColumns {
    const { start, end } = rankedRange(network, owner, side);
    const columns = emptyColumns(limit);
    // No range read for nothing (a side without kept counterparties): a cursor costs more than the keys.
    if (limit === 0) return columns;
    for (const key of this.ranked.getKeys({ start, end, limit })) readRankedInto(key, columns, columns.size++);
    return columns;
  }

  putNode(network: Network, id: number, node: NodeRecord): void {
    if (node.in.transfers + node.out.transfers === 0) this.nodes.removeSync(idKey(network, id));
    else this.nodes.putSync(idKey(network, id), encodeNode(node));
  }

  pair(network: Network, from: number, to: number, side: FlowDirection = 'out'): PairRecord | null {
    const stored = this.pairs.getBinaryFast(sidePairKey(network, from, side, to));
    return stored ? decodePair(stored) : null;
  }

  putPair(network: Network, from: number, to: number, pair: PairRecord): void {
    const key = sidePairKey(network, from, 'out', to);
    if (pair.transfers === 0) this.pairs.removeSync(key);
    else this.pairs.putSync(key, encodePair(pair));
  }

  /** The lightest kept counterparty of an address on a side. */
  lightest(network: Network, owner: number, side: FlowDirection): RankedRow | null {
    const { start, end } = rankedRange(network, owner, side);
    for (const key of this.ranked.getKeys({ start: end, end: start, reverse: true, limit: 1 })) return readRankedKey(key);
    return null;
  }

  rank(network: Network, owner: number, side: FlowDirection, row: RankedRow): void {
    this.ranked.putSync(rankedKey(network, owner, side, row), EMPTY);
  }

  unrank(network: Network, owner: number, side: FlowDirection, row: RankedRow): void {
    this.ranked.removeSync(rankedKey(network, owner, side, row));
  }

  /** Moves a kept counterparty to the owner's remainder: its ranked row goes, its pair says so. */
  demote(network: Network, owner: number, side: FlowDirection, row: RankedRow): void {
    this.unrank(network, owner, side, row);
    const pair = this.pair(network, owner, row.counterparty, side);
    if (!pair) throw new Error(`graph store: ranked row without its pair (${network} ${owner} ${side} ${row.counterparty})`);
    pair.flags |= restFlag(side);
    this.putPair(network, ...ends(owner, side, row.counterparty), pair);
  }

  /** How a (block, kind) unit was folded (UNIT_* bits), 0 when not at all. */
  unit(network: Network, block: number, kind: 0 | 1): number {
    return this.units.getBinaryFast(unitKey(network, block, kind))?.[0] ?? 0;
  }

  putUnit(network: Network, block: number, kind: 0 | 1, state: number): void {
    this.units.putSync(unitKey(network, block, kind), Buffer.of(state));
  }

  /** False when the position was folded already (one write either way: LMDB refuses to overwrite). */
  markSeen(key: Buffer): boolean {
    return this.seen.putSync(key, EMPTY, { noOverwrite: true }) as unknown as boolean;
  }

  datasetId(network: Network, name: string): number {
    const key = `dataset-id:${network}:${name}`;
    const found = this.meta.get(key) as number | undefined;
    if (found !== undefined) return found;
    const counter = `next-dataset:${network}`;
    const id = (this.meta.get(counter) as number | undefined) ?? 1;
    if (id >= 2 ** 16) throw new Error(`graph store: more than 65,535 data sets on ${network}`);
    this.meta.putSync(counter, id + 1);
    this.meta.putSync(key, id);
    return id;
  }

  coverage(network: Network, dataset: number): CoverageEntry | null {
    return (this.meta.get(`coverage:${network}:${dataset}`) as CoverageEntry | undefined) ?? null;
  }

  putCoverage(network: Network, dataset: number, entry: CoverageEntry): void {
    this.meta.putSync(`coverage:${network}:${dataset}`, entry);
  }

  coverages(network: Network): CoverageEntry[] {
    const prefix = `coverage:${network}:`;
    return [...this.meta.getRange({ start: prefix, end: `${prefix}\uffff` })].map(({ value }) => value as CoverageEntry);
  }

  newNodeMap(): NodeMap {
    return new NodeMap(this);
  }
}

/** The pair's (sender, recipient) from one owner's side. */
export const ends = (owner: number, side: FlowDirection, counterparty: number): [number, number] =>
  side === 'out' ? [owner, counterparty] : [counterparty, owner];

/** The node records a transaction touches, read once and written once at its end. */
export class NodeMap {
  private readonly nodes = new Map<number, NodeRecord>();

  constructor(private readonly dbs: GraphDbs) {}

  get(network: Network, id: number): NodeRecord {
    let node = this.nodes.get(id);
    if (!node) this.nodes.set(id, (node = this.dbs.node(network, id) ?? emptyNode()));
    return node;
  }

  /** Writes the records in id order (key order: consecutive writes share pages). */
  flush(network: Network): void {
    const ordered = [...this.nodes].sort(([a], [b]) => a - b);
    for (const [id, node] of ordered) this.dbs.putNode(network, id, node);
    this.nodes.clear();
  }
}

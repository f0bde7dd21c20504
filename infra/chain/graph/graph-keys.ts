import type { FlowDirection } from '../../../domain/ports/chain-data.port.js';
import { SCREEN_NETWORKS, type Network } from '../../../domain/shared/network.js';

/**
 * Binary keys of the LMDB graph store, big endian so that LMDB's byte order is the order a reader wants:
 * an address's counterparties heaviest first (USD, then transfers, then lower id), journal entries by
 * block. Addresses are interned to 32-bit ids per network (ids, addrs): an edge key is 9 bytes, not 85.
 */

export const netByte = (network: Network): number => SCREEN_NETWORKS.indexOf(network);
const sideByte = (side: FlowDirection): number => (side === 'out' ? 1 : 0);
/** Inverted so that the heaviest sorts first; USD micros are safe integers. */
const MAX_USD = Number.MAX_SAFE_INTEGER;
const MAX_U32 = 0xffffffff;

const EVM = /^0x[0-9a-f]{40}$/;

/** An address as bytes: EVM hex as its 20 bytes behind a tag byte, anything else as UTF-8 behind another. */
export function addressBytes(address: string): Buffer {
  if (EVM.test(address)) {
    const bytes = Buffer.allocUnsafe(21);
    bytes[0] = 1;
    bytes.write(address.slice(2), 1, 'hex');
    return bytes;
  }
  const text = Buffer.from(address, 'utf8');
  const bytes = Buffer.allocUnsafe(1 + text.length);
  bytes[0] = 0;
  text.copy(bytes, 1);
  return bytes;
}

export function addressText(bytes: Uint8Array): string {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return data[0] === 1 ? `0x${data.toString('hex', 1)}` : data.toString('utf8', 1);
}

export function idsKey(network: Network, address: string): Buffer {
  const bytes = addressBytes(address);
  const key = Buffer.allocUnsafe(1 + bytes.length);
  key[0] = netByte(network);
  bytes.copy(key, 1);
  return key;
}

export function idKey(network: Network, id: number): Buffer {
  const key = Buffer.allocUnsafe(5);
  key[0] = netByte(network);
  key.writeUInt32BE(id, 1);
  return key;
}

export function pairKey(network: Network, from: number, to: number): Buffer {
  const key = Buffer.allocUnsafe(9);
  key[0] = netByte(network);
  key.writeUInt32BE(from, 1);
  key.writeUInt32BE(to, 5);
  return key;
}

/** The pair seen from `owner`'s side: owner → counterparty when outgoing, counterparty → owner when incoming. */
export const sidePairKey = (network: Network, owner: number, side: FlowDirection, counterparty: number): Buffer =>
  side === 'out' ? pairKey(network, owner, counterparty) : pairKey(network, counterparty, owner);

export interface RankedRow {
  readonly counterparty: number;
  readonly usd: number;
  readonly transfers: number;
  /** Part of the USD rests on an assumed asset (in the key, so a page reads keys only). */
  readonly estimated: boolean;
}

export function rankedKey(network: Network, owner: number, side: FlowDirection, row: RankedRow): Buffer {
  const key = Buffer.allocUnsafe(23);
  key[0] = netByte(network);
  key.writeUInt32BE(owner, 1);
  key[5] = sideByte(side);
  const inverted = MAX_USD - Math.min(MAX_USD, Math.max(0, Math.round(row.usd)));
  key.writeUInt32BE(Math.floor(inverted / 2 ** 32), 6);
  key.writeUInt32BE(inverted % 2 ** 32, 10);
  key.writeUInt32BE(MAX_U32 - Math.min(MAX_U32, row.transfers), 14);
  key.writeUInt32BE(row.counterparty, 18);
  key[22] = row.estimated ? 1 : 0;
  return key;
}

/** A big-endian u32 at `at` (without a Buffer view per key: a page reads a thousand keys). */
const u32 = (key: Uint8Array, at: number): number =>
  (key[at] ?? 0) * 0x1000000 + (((key[at + 1] ?? 0) << 16) | ((key[at + 2] ?? 0) << 8) | (key[at + 3] ?? 0));

export function readRankedKey(key: Uint8Array): RankedRow {
  const inverted = u32(key, 6) * 2 ** 32 + u32(key, 10);
  return { usd: MAX_USD - inverted, transfers: MAX_U32 - u32(key, 14), counterparty: u32(key, 18), estimated: key[22] === 1 };
}

/** Ranked rows as columns (a page of up to a thousand rows without an object per row). */
export interface RankedColumns {
  size: number;
  readonly counterparty: Uint32Array;
  readonly usd: Float64Array;
  readonly transfers: Uint32Array;
  readonly estimated: Uint8Array;
}

/** The columns share one buffer: a search reads ten thousand pages, and each buffer is an allocation of its own. */
export function emptyColumns(capacity: number): RankedColumns {
  const buffer = new ArrayBuffer(capacity * 17);
  return {
    size: 0,
    usd: new Float64Array(buffer, 0, capacity),
    counterparty: new Uint32Array(buffer, capacity * 8, capacity),
    transfers: new Uint32Array(buffer, capacity * 12, capacity),
    estimated: new Uint8Array(buffer, capacity * 16, capacity),
  };
}

export function readRankedInto(key: Uint8Array, columns: RankedColumns, row: number): void {
  columns.usd[row] = MAX_USD - (u32(key, 6) * 2 ** 32 + u32(key, 10));
  columns.transfers[row] = MAX_U32 - u32(key, 14);
  columns.counterparty[row] = u32(key, 18);
  columns.estimated[row] = key[22] === 1 ? 1 : 0;
}

/** The range of one address's ranked counterparties in one direction: [start, end). */
export function rankedRange(network: Network, owner: number, side: FlowDirection): { start: Buffer; end: Buffer } {
  const start = Buffer.allocUnsafe(6);
  start[0] = netByte(network);
  start.writeUInt32BE(owner, 1);
  start[5] = sideByte(side);
  const end = Buffer.from(start);
  end[5] = sideByte(side) + 1;
  return { start, end };
}

/** True when `a` ranks before `b`: more USD, then more transfers, then the lower id. */
export const ranksBefore = (a: RankedRow, b: RankedRow): boolean =>
  a.usd !== b.usd ? a.usd > b.usd : a.transfers !== b.transfers ? a.transfers > b.transfers : a.counterparty < b.counterparty;

function writePosition(key: Buffer, at: number, position: number): void {
  key.writeUInt32BE(Math.floor(position / 2 ** 32), at);
  key.writeUInt32BE(position % 2 ** 32, at + 4);
}

export const readPosition = (key: Uint8Array, at: number): number =>
  Buffer.from(key.buffer, key.byteOffset, key.length).readUInt32BE(at) * 2 ** 32 +
  Buffer.from(key.buffer, key.byteOffset, key.length).readUInt32BE(at + 4);

/** A folded transfer: origin 0 is the chain (shared by its sources), another origin a data set's rows. */
export function seenKey(network: Network, origin: number, position: number): Buffer {
  const key = Buffer.allocUnsafe(11);
  key[0] = netByte(network);
  key.writeUInt16BE(origin, 1);
  writePosition(key, 3, position);
  return key;
}

export function journalKey(network: Network, position: number): Buffer {
  const key = Buffer.allocUnsafe(9);
  key[0] = netByte(network);
  writePosition(key, 1, position);
  return key;
}

/** A (block, kind) unit of a network's chain: its native transfers (kind 0) or its token logs (kind 1). */
export function unitKey(network: Network, block: number, kind: 0 | 1): Buffer {
  const key = Buffer.allocUnsafe(6);
  key[0] = netByte(network);
  key.writeUInt32BE(block, 1);
  key[5] = kind;
  return key;
}

export const readUnitBlock = (key: Uint8Array): number => u32(key, 1);

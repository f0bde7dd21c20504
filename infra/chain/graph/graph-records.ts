import type { FlowDirection } from '../../../domain/ports/chain-data.port.js';

/**
 * Fixed-layout binary records of the LMDB graph store (little endian), so that millions of edges cost
 * bytes, not objects: an edge (one sender → recipient pair) and a node (one address's totals per direction).
 */

export const FLAG_ESTIMATED = 1;
/** The pair is not among the sender's kept counterparties (it counts in the sender's remainder). */
export const FLAG_OUT_REST = 2;
/** The pair is not among the recipient's kept counterparties. */
export const FLAG_IN_REST = 4;
export const restFlag = (side: FlowDirection): number => (side === 'out' ? FLAG_OUT_REST : FLAG_IN_REST);

export interface PairRecord {
  usd: number;
  transfers: number;
  unpriced: number;
  flags: number;
  /** The earliest transfer's time; with its origin and position it names the sample transaction. */
  firstAt: number;
  lastAt: number;
  /** The last time over final transfers only: what lastAt falls back to when revertible ones are undone. */
  settledLastAt: number;
  sampleOrigin: number;
  samplePosition: number;
  sampleTx: string | null;
}

/**
 * Layout: usd f64, transfers u32, unpriced u32, firstAt, lastAt, settledLastAt (u32 seconds: chain times
 * are whole seconds), samplePosition f64, sampleOrigin u16, flags u8, hash kind u8, hash bytes.
 */
const PAIR_FIXED = 40;
const NO_TIME = 0xffffffff;
const toSeconds = (ms: number): number => (Number.isFinite(ms) ? Math.floor(ms / 1000) : NO_TIME);
const fromSeconds = (seconds: number, empty: number): number => (seconds === NO_TIME ? empty : seconds * 1000);

export function emptyPair(): PairRecord {
  return {
    usd: 0,
    transfers: 0,
    unpriced: 0,
    flags: 0,
    firstAt: Number.POSITIVE_INFINITY,
    lastAt: Number.NEGATIVE_INFINITY,
    settledLastAt: Number.NEGATIVE_INFINITY,
    sampleOrigin: 0,
    samplePosition: 0,
    sampleTx: null,
  };
}

/** A hash in hex (with or without 0x, 32 bytes) is stored as its bytes; anything else as UTF-8. */
function txBytes(tx: string | null): { kind: number; bytes: Buffer } {
  if (tx === null) return { kind: 0, bytes: Buffer.alloc(0) };
  if (/^0x[0-9a-f]{64}$/.test(tx)) return { kind: 1, bytes: Buffer.from(tx.slice(2), 'hex') };
  if (/^[0-9a-f]{64}$/.test(tx)) return { kind: 2, bytes: Buffer.from(tx, 'hex') };
  return { kind: 3, bytes: Buffer.from(tx, 'utf8') };
}

function txText(kind: number, bytes: Buffer): string | null {
  if (kind === 1) return `0x${bytes.toString('hex')}`;
  if (kind === 2) return bytes.toString('hex');
  if (kind === 3) return bytes.toString('utf8');
  return null;
}

export function encodePair(pair: PairRecord): Buffer {
  const tx = txBytes(pair.sampleTx);
  const out = Buffer.allocUnsafe(PAIR_FIXED + tx.bytes.length);
  out.writeDoubleLE(pair.usd, 0);
  out.writeUInt32LE(pair.transfers, 8);
  out.writeUInt32LE(pair.unpriced, 12);
  out.writeUInt32LE(toSeconds(pair.firstAt), 16);
  out.writeUInt32LE(toSeconds(pair.lastAt), 20);
  out.writeUInt32LE(toSeconds(pair.settledLastAt), 24);
  out.writeDoubleLE(pair.samplePosition, 28);
  out.writeUInt16LE(pair.sampleOrigin, 36);
  out.writeUInt8(pair.flags, 38);
  out.writeUInt8(tx.kind, 39);
  tx.bytes.copy(out, PAIR_FIXED);
  return out;
}

export function decodePair(buffer: Uint8Array): PairRecord {
  const data = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.length);
  return {
    usd: data.readDoubleLE(0),
    transfers: data.readUInt32LE(8),
    unpriced: data.readUInt32LE(12),
    firstAt: fromSeconds(data.readUInt32LE(16), Number.POSITIVE_INFINITY),
    lastAt: fromSeconds(data.readUInt32LE(20), Number.NEGATIVE_INFINITY),
    settledLastAt: fromSeconds(data.readUInt32LE(24), Number.NEGATIVE_INFINITY),
    samplePosition: data.readDoubleLE(28),
    sampleOrigin: data.readUInt16LE(36),
    flags: data.readUInt8(38),
    sampleTx: txText(data.readUInt8(39), Buffer.from(data.subarray(PAIR_FIXED))),
  };
}

export interface SideTotals {
  transfers: number;
  usd: number;
  unpriced: number;
  counterparties: number;
  /** Counterparties kept (ranked); the others are the remainder. */
  kept: number;
  estimated: boolean;
}

export interface NodeRecord {
  in: SideTotals;
  out: SideTotals;
  firstAt: number;
  lastAt: number;
  settledLastAt: number;
}

const SIDE_BYTES = 41;

export const emptySide = (): SideTotals => ({ transfers: 0, usd: 0, unpriced: 0, counterparties: 0, kept: 0, estimated: false });

export function emptyNode(): NodeRecord {
  return {
    in: emptySide(),
    out: emptySide(),
    firstAt: Number.POSITIVE_INFINITY,
    lastAt: Number.NEGATIVE_INFINITY,
    settledLastAt: Number.NEGATIVE_INFINITY,
  };
}

function writeSide(out: Buffer, at: number, side: SideTotals): void {
  out.writeDoubleLE(side.transfers, at);
  out.writeDoubleLE(side.usd, at + 8);
  out.writeDoubleLE(side.unpriced, at + 16);
  out.writeDoubleLE(side.counterparties, at + 24);
  out.writeUInt32LE(side.kept, at + 32);
  out.writeUInt8(side.estimated ? 1 : 0, at + 36);
}

function readSide(data: Buffer, at: number): SideTotals {
  return {
    transfers: data.readDoubleLE(at),
    usd: data.readDoubleLE(at + 8),
    unpriced: data.readDoubleLE(at + 16),
    counterparties: data.readDoubleLE(at + 24),
    kept: data.readUInt32LE(at + 32),
    estimated: data.readUInt8(at + 36) === 1,
  };
}

/** One direction of a stored node record. */
export function decodeSide(buffer: Uint8Array, direction: FlowDirection): SideTotals {
  return readSide(Buffer.from(buffer.buffer, buffer.byteOffset, buffer.length), direction === 'in' ? 0 : SIDE_BYTES);
}

export function encodeNode(node: NodeRecord): Buffer {
  const out = Buffer.alloc(2 * SIDE_BYTES + 24);
  writeSide(out, 0, node.in);
  writeSide(out, SIDE_BYTES, node.out);
  out.writeDoubleLE(node.firstAt, 2 * SIDE_BYTES);
  out.writeDoubleLE(node.lastAt, 2 * SIDE_BYTES + 8);
  out.writeDoubleLE(node.settledLastAt, 2 * SIDE_BYTES + 16);
  return out;
}

export function decodeNode(buffer: Uint8Array): NodeRecord {
  const data = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.length);
  return {
    in: readSide(data, 0),
    out: readSide(data, SIDE_BYTES),
    firstAt: data.readDoubleLE(2 * SIDE_BYTES),
    lastAt: data.readDoubleLE(2 * SIDE_BYTES + 8),
    settledLastAt: data.readDoubleLE(2 * SIDE_BYTES + 16),
  };
}

/** A revertible transfer, kept in the journal until final: what undoing it needs. */
export interface JournalEntry {
  readonly from: number;
  readonly to: number;
  readonly usd: number | null;
  readonly at: number;
  readonly dataset: number;
}

export function encodeJournal(entry: JournalEntry): Buffer {
  const out = Buffer.allocUnsafe(30);
  out.writeUInt32LE(entry.from, 0);
  out.writeUInt32LE(entry.to, 4);
  out.writeDoubleLE(entry.usd ?? -1, 8);
  out.writeDoubleLE(entry.at, 16);
  out.writeUInt16LE(entry.dataset, 24);
  return out;
}

export function decodeJournal(buffer: Uint8Array): JournalEntry {
  const data = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.length);
  const usd = data.readDoubleLE(8);
  return {
    from: data.readUInt32LE(0),
    to: data.readUInt32LE(4),
    usd: usd < 0 ? null : usd,
    at: data.readDoubleLE(16),
    dataset: data.readUInt16LE(24),
  };
}

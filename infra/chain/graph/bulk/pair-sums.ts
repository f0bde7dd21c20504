/**
 * Two encoded pair records (graph-records.ts layout) of one (sender, recipient) as one, on the bytes:
 * the sums, the later last times, the flags of either, and the sample of the earlier (time, origin,
 * position) — what the fold's applyDelta does to a stored pair, without decoding either record.
 */

const USD = 0;
const TRANSFERS = 8;
const UNPRICED = 12;
const FIRST_AT = 16;
const LAST_AT = 20;
const SETTLED_LAST_AT = 24;
const SAMPLE_POSITION = 28;
const SAMPLE_ORIGIN = 36;
const FLAGS = 38;

function earlierSample(a: Buffer, b: Buffer): boolean {
  const at = a.readUInt32LE(FIRST_AT) - b.readUInt32LE(FIRST_AT);
  if (at !== 0) return at < 0;
  const origin = a.readUInt16LE(SAMPLE_ORIGIN) - b.readUInt16LE(SAMPLE_ORIGIN);
  if (origin !== 0) return origin < 0;
  return a.readDoubleLE(SAMPLE_POSITION) < b.readDoubleLE(SAMPLE_POSITION);
}

export function combinePairs(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.from(earlierSample(b, a) ? b : a);
  out.writeDoubleLE(a.readDoubleLE(USD) + b.readDoubleLE(USD), USD);
  out.writeUInt32LE(a.readUInt32LE(TRANSFERS) + b.readUInt32LE(TRANSFERS), TRANSFERS);
  out.writeUInt32LE(a.readUInt32LE(UNPRICED) + b.readUInt32LE(UNPRICED), UNPRICED);
  out.writeUInt32LE(Math.max(a.readUInt32LE(LAST_AT), b.readUInt32LE(LAST_AT)), LAST_AT);
  out.writeUInt32LE(Math.max(a.readUInt32LE(SETTLED_LAST_AT), b.readUInt32LE(SETTLED_LAST_AT)), SETTLED_LAST_AT);
  out[FLAGS] = (a[FLAGS] ?? 0) | (b[FLAGS] ?? 0);
  return out;
}

/** The bytes pairFields reads but the flags: a pair's sums and times (the flags may lie behind them or not). */
export const NODE_FIELDS = SETTLED_LAST_AT;

/** The fields a node's totals and a ranked key need, read from an encoded pair (or its first NODE_FIELDS bytes). */
export const pairFields = (value: Buffer) => ({
  usd: value.readDoubleLE(USD),
  transfers: value.readUInt32LE(TRANSFERS),
  unpriced: value.readUInt32LE(UNPRICED),
  firstAt: value.readUInt32LE(FIRST_AT),
  lastAt: value.readUInt32LE(LAST_AT),
  flags: value[FLAGS] ?? 0,
});

import { crc32 } from 'node:zlib';

/**
 * One frame: magic (u32 BE) | payload length (u32 BE) | CRC32 of length bytes + payload (u32 BE) | payload.
 * The CRC covers the length field too, so a flipped length bit is caught instead of misframing the rest.
 */
export const FRAME_MAGIC = 0x52534631; // "RSF1"
export const FRAME_HEADER_BYTES = 12;

export function encodeFrame(payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  frame.writeUInt32BE(FRAME_MAGIC, 0);
  frame.writeUInt32BE(payload.length, 4);
  frame.writeUInt32BE(crc32(payload, crc32(frame.subarray(4, 8))), 8);
  payload.copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

export type FrameCheck =
  | { readonly kind: 'ok'; readonly length: number }
  /** More bytes are needed to judge: `needed` counts from the frame start. */
  | { readonly kind: 'incomplete'; readonly needed: number }
  | { readonly kind: 'bad' };

/** Judges the frame starting at `at` in `buf` without copying. */
export function checkFrame(buf: Buffer, at: number): FrameCheck {
  const available = buf.length - at;
  if (available < 4) return { kind: 'incomplete', needed: FRAME_HEADER_BYTES };
  if (buf.readUInt32BE(at) !== FRAME_MAGIC) return { kind: 'bad' };
  if (available < FRAME_HEADER_BYTES) return { kind: 'incomplete', needed: FRAME_HEADER_BYTES };
  const length = buf.readUInt32BE(at + 4);
  if (available < FRAME_HEADER_BYTES + length) return { kind: 'incomplete', needed: FRAME_HEADER_BYTES + length };
  const payload = buf.subarray(at + FRAME_HEADER_BYTES, at + FRAME_HEADER_BYTES + length);
  const expected = crc32(payload, crc32(buf.subarray(at + 4, at + 8)));
  return expected === buf.readUInt32BE(at + 8) ? { kind: 'ok', length } : { kind: 'bad' };
}

/** Offset of the first valid frame in `buf` at or after `from`, or -1. Used to tell a torn tail from corruption. */
export function findValidFrame(buf: Buffer, from: number): number {
  const magic = Buffer.allocUnsafe(4);
  magic.writeUInt32BE(FRAME_MAGIC, 0);
  for (let at = buf.indexOf(magic, from); at !== -1; at = buf.indexOf(magic, at + 1)) {
    if (checkFrame(buf, at).kind === 'ok') return at;
  }
  return -1;
}

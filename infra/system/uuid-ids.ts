import { createHash, randomFillSync } from 'node:crypto';
import type { Ids } from '../../domain/ports/ids.port.js';

/** Namespace of the service's deterministic event ids (uuid v5). */
const EVENT_NAMESPACE = Buffer.from('6f1c5b0e9a4d4e3f8c2b7a1d0e9f8c7b', 'hex');

/** Two lowercase hex digits per byte value: ids are formatted by table lookups (every request makes several). */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** The 16 bytes at `at` as 8-4-4-4-12 lowercase hex. */
function format(bytes: Uint8Array, at: number): string {
  let out = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out += '-';
    out += HEX[bytes[at + i] as number];
  }
  return out;
}

// Random bytes are drawn from a pool: one system call per 256 ids instead of one per id.
const POOL_IDS = 256;
const pool = Buffer.alloc(16 * POOL_IDS);
let poolOffset = pool.length;

/** RFC 9562 uuid v7: 48-bit millisecond timestamp, then random bits; ids sort by creation time. */
export function uuidV7(now = Date.now()): string {
  if (poolOffset >= pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += 16;
  // The pool's bytes are used once: the timestamp, version and variant are written over them in place.
  pool.writeUIntBE(now, at, 6);
  pool[at + 6] = ((pool[at + 6] as number) & 0x0f) | 0x70;
  pool[at + 8] = ((pool[at + 8] as number) & 0x3f) | 0x80;
  return format(pool, at);
}

/** RFC 9562 uuid v5 (SHA-1, name-based). */
export function uuidV5(name: string, namespace = EVENT_NAMESPACE): string {
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  return format(hash, 0);
}

export const uuidIds: Ids = {
  newId: () => uuidV7(),
  eventId: (commandId, index) => uuidV5(`${commandId}:${index}`),
};

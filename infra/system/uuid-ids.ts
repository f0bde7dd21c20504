import { present } from '../../domain/shared/present.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Ids } from '../../domain/ports/ids.port.js';

/** Namespace of the service's deterministic event ids (uuid v5). */
const EVENT_NAMESPACE = Buffer.from('6f1c5b0e9a4d4e3f8c2b7a1d0e9f8c7b', 'hex');

function format(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

// Random bytes are drawn from a pool: one system call per 256 ids instead of one per id.
const POOL_IDS = 256;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function random16(): Buffer {
  if (poolOffset >= pool.length) {
    pool = randomBytes(16 * POOL_IDS);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

/** RFC 9562 uuid v7: 48-bit millisecond timestamp, then random bits; ids sort by creation time. */
export function uuidV7(now = Date.now()): string {
  const bytes = random16();
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (present(bytes[6], 'bytes[6]') & 0x0f) | 0x70;
  bytes[8] = (present(bytes[8], 'bytes[8]') & 0x3f) | 0x80;
  return format(bytes);
}

/** RFC 9562 uuid v5 (SHA-1, name-based). */
export function uuidV5(name: string, namespace = EVENT_NAMESPACE): string {
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest().subarray(0, 16);
  hash[6] = (present(hash[6], 'hash[6]') & 0x0f) | 0x50;
  hash[8] = (present(hash[8], 'hash[8]') & 0x3f) | 0x80;
  return format(hash);
}

export const uuidIds: Ids = {
  newId: () => uuidV7(),
  eventId: (commandId, index) => uuidV5(`${commandId}:${index}`),
};

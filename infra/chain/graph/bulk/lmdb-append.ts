import type { Database } from 'lmdb';
import type { Network } from '../../../../domain/shared/network.js';
import { netByte } from '../graph-keys.js';

/**
 * Put options for writing a network's keys in ascending order: LMDB's append (MDB_APPEND: no search,
 * pages filled to the brim instead of split in half) when no key of a later network sorts after them,
 * else ordinary puts (append refuses a key below the database's last one).
 */
export function putOptions(db: Database<Buffer, Buffer>, network: Network): { append?: boolean } {
  const later = db.getKeys({ start: Buffer.of(netByte(network) + 1), limit: 1 });
  for (const _ of later) return {};
  return { append: true };
}

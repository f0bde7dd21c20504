/**
 * Kafka's default partitioner (murmur2 of the key's UTF-8 bytes, sign bit cleared, modulo the partition
 * count), so a key lands on the same partition number in the embedded bus as in Kafka with kafkajs'
 * DefaultPartitioner and the Java client.
 */

import { present } from '../../domain/shared/present.js';
const SEED = 0x9747b28c;
const M = 0x5bd1e995;

export function murmur2(key: string): number {
  const data = Buffer.from(key, 'utf8');
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data.readInt32LE(i);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  switch (length % 4) {
    case 3:
      h ^= present(data[whole + 2], 'length % 4 is 3: three bytes remain') << 16;
    // falls through
    case 2:
      h ^= present(data[whole + 1], 'length % 4 is at least 2') << 8;
    // falls through
    case 1:
      h ^= present(data[whole], 'length % 4 is at least 1');
      h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

export const partitionFor = (key: string, partitions: number): number => (murmur2(key) & 0x7fffffff) % partitions;

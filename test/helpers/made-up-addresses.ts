import { createHash } from 'node:crypto';
import { getAddress } from 'viem';

/**
 * Deterministic, valid, made-up addresses for fixtures: derived from a seed string by SHA-256, so no
 * fixture ever names a real party. EVM addresses come EIP-55 checksummed (as many lists publish them);
 * TRON addresses are base58check of 0x41 and 20 bytes.
 */

const digest = (bytes: Buffer | string): Buffer => createHash('sha256').update(bytes).digest();

export function madeUpEvmAddress(seed: string): string {
  return getAddress(`0x${digest(`evm:${seed}`).subarray(0, 20).toString('hex')}`);
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58Encode(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = BASE58[Number(value % 58n)]! + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

export function madeUpTronAddress(seed: string): string {
  const payload = Buffer.concat([Buffer.from([0x41]), digest(`tron:${seed}`).subarray(0, 20)]);
  const checksum = digest(digest(payload)).subarray(0, 4);
  return base58Encode(Buffer.concat([payload, checksum]));
}

/** A TRON-shaped address whose checksum is wrong: what a typo in a list looks like. */
export function brokenTronAddress(seed: string): string {
  const valid = madeUpTronAddress(seed);
  const last = valid.at(-1) === 'a' ? 'b' : 'a';
  return `${valid.slice(0, -1)}${last}`;
}

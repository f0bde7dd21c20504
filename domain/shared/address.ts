import { isAddress, sha256, type Hex } from 'viem';
import type { Chain, Network } from './network.js';

/**
 * Address formats. EVM hex is compared lowercased; base58 (TRON) keeps its case, since base58 is
 * case-sensitive and a changed case is another (usually invalid) address.
 */

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_INDEX = new Map([...BASE58].map((c, i) => [c, i]));

export function base58Decode(input: string): Uint8Array | null {
  let value = 0n;
  for (const char of input) {
    const digit = BASE58_INDEX.get(char);
    if (digit === undefined) return null;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  for (const char of input) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

function toHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

/** A TRON address: base58check of 0x41 followed by 20 bytes (34 characters starting with T). */
export function isTronAddress(input: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(input)) return false;
  const bytes = base58Decode(input);
  if (!bytes || bytes.length !== 25 || bytes[0] !== 0x41) return false;
  const payload = bytes.subarray(0, 21);
  const checksum = sha256(sha256(toHex(payload)));
  return checksum.slice(2, 10) === Buffer.from(bytes.subarray(21)).toString('hex');
}

export function isEvmAddress(input: string): boolean {
  return isAddress(input, { strict: false });
}

/** The canonical form used as a key everywhere: EVM lowercased, base58 unchanged. */
export function normalizeAddress(input: string): string {
  const trimmed = input.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

/** Whether `address` is well formed for the network (EVM hex for EVM networks, base58check for TRON). */
export function isAddressOf(network: Network | Chain, address: string): boolean {
  return network === 'TRON' ? isTronAddress(address) : isEvmAddress(address);
}

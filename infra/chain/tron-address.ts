import { present } from '../../domain/shared/present.js';
import { createHash } from 'node:crypto';
import { base58Decode } from '../../domain/shared/address.js';

/**
 * TRON addresses in the two forms its HTTP API uses: hex (`41` + 20 bytes, or the bare 20 bytes in
 * logs and ABI words) and base58check (`T…`, what users see and what the service keys on).
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

function base58Encode(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = present(ALPHABET[Number(value % 58n)], 'a remainder of 58 indexes the 58 letters') + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** `41…` (21 bytes) or a bare 20-byte hex (optionally `0x`, or the last 20 bytes of a 32-byte word) → `T…`. */
export function tronHexToBase58(hex: string): string {
  const digits = hex.replace(/^0x/, '').toLowerCase();
  const body = digits.length === 42 && digits.startsWith('41') ? digits : `41${digits.slice(-40).padStart(40, '0')}`;
  const payload = Buffer.from(body, 'hex');
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58Encode(Buffer.concat([payload, checksum]));
}

/** `T…` → `41…` hex, or null when it is not a base58check TRON address. */
export function tronBase58ToHex(address: string): string | null {
  const bytes = base58Decode(address);
  if (!bytes || bytes.length !== 25 || bytes[0] !== 0x41) return null;
  return Buffer.from(bytes.subarray(0, 21)).toString('hex');
}

import { hash } from 'node:crypto';
import { useNativeSha256Hex } from '../../domain/shared/hash.js';

/** node:crypto's one-shot SHA-256 (OpenSSL) of a string's UTF-8 bytes, as lowercase hex. */
export const nodeSha256Hex = (text: string): string => hash('sha256', text, 'hex');

/** The domain hashes with node:crypto from now on (domain/shared/hash.ts says why; it checks the digests agree). */
export function installNativeSha256(): void {
  useNativeSha256Hex(nodeSha256Hex);
}

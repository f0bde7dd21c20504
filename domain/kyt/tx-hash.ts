import type { Chain } from '../shared/network.js';

/**
 * Transaction hashes. EVM chains take `0x` + 64 hex digits; TRON takes its 64 hex digits with or
 * without `0x`. Every hash is kept in one canonical form, `0x` + 64 lowercase hex digits (the form of
 * the webhook payload's `tx_hash`), and TRON's API is called with the bare 64 digits.
 */
const EVM_HASH = /^0x[0-9a-fA-F]{64}$/;
const TRON_HASH = /^(0x)?[0-9a-fA-F]{64}$/;

/** The canonical hash, or null when `input` is not a transaction hash of the chain. */
export function parseTxHash(chain: Chain, input: string): string | null {
  const trimmed = input.trim();
  const pattern = chain === 'TRON' ? TRON_HASH : EVM_HASH;
  if (!pattern.test(trimmed)) return null;
  const digits = trimmed.startsWith('0x') ? trimmed.slice(2) : trimmed;
  return `0x${digits.toLowerCase()}`;
}

/** The 64 hex digits without prefix (TRON's HTTP API form). */
export const bareTxHash = (canonical: string): string => canonical.replace(/^0x/, '');

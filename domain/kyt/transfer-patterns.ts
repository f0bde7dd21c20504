import type { DecodedTransaction } from './decoded-transaction.js';
import type { Anchor } from './composite.js';

/**
 * Behaviour seen in the transaction itself, independent of who the senders are. A finding names the
 * pattern's category and the account behind it.
 *
 * Address poisoning: a token `Transfer` of zero value whose `from` is not the transaction's signer.
 * Moving zero tokens needs no allowance, so anyone can make a victim appear to have paid a lookalike
 * address; the signer is the one to look at.
 */
export interface PatternFinding {
  readonly slug: string;
  readonly anchor: Anchor;
  /** 0..1 of the composite's value (zero-value patterns carry none). */
  readonly share: number;
  readonly usdMicros: number;
  readonly detail: string;
}

export function findPatterns(tx: DecodedTransaction): PatternFinding[] {
  const spoofed = tx.legs.filter((leg) => leg.kind === 'token' && leg.amount === '0' && leg.from !== tx.signer);
  if (spoofed.length === 0) return [];
  return [
    {
      slug: 'address_poisoning',
      anchor: { address: tx.signer, label: null },
      share: 0,
      usdMicros: 0,
      detail: `${spoofed.length} zero-value token transfer(s) moved on behalf of ${[...new Set(spoofed.map((l) => l.from))].join(', ')} by ${tx.signer}`,
    },
  ];
}

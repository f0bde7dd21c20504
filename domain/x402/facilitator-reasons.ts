import type { ErrorCode } from '../shared/errors.js';

/**
 * A facilitator's refusal reason (an open set of strings: the spec's list, the TS facilitator's own, the
 * legacy v1 names) as one of the spec's x402 codes. Unknown reasons are `payment_invalid`.
 */
export function paymentCodeForReason(reason: string | undefined): ErrorCode {
  const r = (reason ?? '').toLowerCase();
  if (/nonce_already_used|duplicate_settlement|used_or_canceled|replay/.test(r)) return 'payment_replayed';
  if (/valid_before|expired/.test(r)) return 'payment_expired';
  if (/underpaid/.test(r)) return 'payment_underpaid';
  return 'payment_invalid';
}

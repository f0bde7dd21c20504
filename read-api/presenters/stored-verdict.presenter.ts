import type { CheckHistoryDoc } from '../../projections/check-history.projection.js';
import type { Presented } from './presented.js';

/**
 * GET /v2/verdicts/{verdict_id}: a verdict the account was given, read back at no cost, with its receipt.
 * `verdict` is what the kind's own route answered (without its billing), or for a light screen the
 * summary its charge kept; `receipt` is null, and `receipt_note` says why, for verdicts kept before
 * receipts were.
 */
export interface StoredVerdictBody {
  readonly verdict_id: string;
  readonly kind: string;
  readonly network: string | null;
  readonly subject: string | null;
  readonly created_at: string | null;
  readonly verdict: Readonly<Record<string, unknown>> | null;
  readonly receipt: string | null;
  readonly receipt_note: string | null;
}

/** What a kind's delivery gave: its body (billing and receipt are taken out of it) and its receipt. */
export interface StoredVerdictFacts {
  readonly body: Readonly<Record<string, unknown>> | null;
  readonly receipt: string | null;
}

export const NO_SCREEN_RECEIPT =
  'This light screen was charged before the service kept receipts with its screens: it has no receipt, and none can be made for it now (a screen is signed when it answers).';
export const NO_SCREEN_SUMMARY = 'This light screen was charged before the service kept its verdict: only its subject and time are known.';
export const NO_TRANSFER_RECEIPT = 'This transfer check was stored before its result named the facts a receipt signs: it has no receipt.';

export function presentStoredVerdict(row: CheckHistoryDoc, facts: StoredVerdictFacts): Presented<StoredVerdictBody> {
  const verdict = facts.body === null ? null : withoutDeliveryFields(facts.body);
  return {
    status: 200,
    body: {
      verdict_id: row.id,
      kind: row.kind ?? 'unknown',
      network: row.network,
      subject: row.subject,
      created_at: row.created_at,
      verdict,
      receipt: facts.receipt,
      receipt_note: facts.receipt !== null ? null : noteFor(row.kind, verdict),
    },
  };
}

function noteFor(kind: string | null, verdict: Readonly<Record<string, unknown>> | null): string {
  if (kind === 'screen') return verdict === null ? `${NO_SCREEN_SUMMARY} ${NO_SCREEN_RECEIPT}` : NO_SCREEN_RECEIPT;
  return NO_TRANSFER_RECEIPT;
}

/** The billing of the call that delivered it and its receipt are the envelope's, not the verdict's. */
function withoutDeliveryFields(body: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const { billing: _billing, receipt: _receipt, elapsed_ms: _elapsed, ...verdict } = body;
  return verdict;
}

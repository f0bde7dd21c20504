import { z } from 'zod';
import { transferVerdictOfV1, type TransferResultV1 } from '../kyt/transfer-check-completed.upcast.js';
import { chargedBillingOfEnvelope } from '../ledger/charged-billing.upcast.js';
import type { DomainEvent } from '../shared/decider.js';
import { idempotencyEventSchemas, type IdempotencyEvent } from './idempotency.events.js';

/**
 * Schema version 1 of a key's stored result, written until outcomes were stored: the answer the first call
 * gave, as its code and body. Data directories written then still hold it.
 */
export const responseStoredV1Schema = z.object({ callId: z.string(), status: z.number().int(), body: z.unknown(), at: z.string() });
export type ResponseStoredV1 = z.infer<typeof responseStoredV1Schema>;

/** Version 1 → version 2: the recorded answer is kept verbatim, so its replay is what the client saw then. */
export function upcastResponseStored(v1: ResponseStoredV1): Extract<IdempotencyEvent, { type: 'IdempotentOutcomeStored' }> {
  return {
    type: 'IdempotentOutcomeStored',
    data: { callId: v1.callId, result: { kind: 'recordedAnswer', code: v1.status, body: v1.body }, at: v1.at },
  };
}

/** Validates a stored event of the idempotency stream, upcasting version 1; unknown types are null. */
export function parseIdempotencyEvent(event: DomainEvent): IdempotencyEvent | null {
  switch (event.type) {
    case 'IdempotentResponseStored':
      return upcastResponseStored(responseStoredV1Schema.parse(event.data));
    case 'IdempotencyKeyClaimed':
      return { type: event.type, data: idempotencyEventSchemas.IdempotencyKeyClaimed.parse(event.data) };
    case 'IdempotentOutcomeStored':
      return { type: event.type, data: idempotencyEventSchemas.IdempotentOutcomeStored.parse(event.data) };
    case 'IdempotencyClaimReleased':
      return { type: event.type, data: idempotencyEventSchemas.IdempotencyClaimReleased.parse(event.data) };
    default:
      return null;
  }
}

/** An outcome (or a bulk entry of one) with its version-1 billing object read as the charge; anything else as it is. */
function withChargedBilling(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || !('billing' in value)) return value;
  const billing = chargedBillingOfEnvelope(value.billing);
  return billing === null ? value : { ...value, billing };
}

/**
 * A transfer check's delivery stored before transfer verdicts were domain facts carried the response body as
 * `result`; the delivery now carries the verdict (TransferCheckCompleted's own upcast, the same exact reading).
 */
function withTransferVerdict(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || !('result' in value)) return value;
  const { result, ...rest } = value as { result: TransferResultV1 };
  return { ...rest, verdict: transferVerdictOfV1(result) };
}

/**
 * IdempotentOutcomeStored version 1 → 2. Version 1 outcomes (a screen's, a transfer check's, a monitor's,
 * each entry of a bulk monitor request) carried the response's `billing` object; version 2 carries the
 * charge as a domain fact (domain/ledger/charged-billing.ts). The envelope is read back exactly
 * (charged-billing.upcast.ts), so a replay answers the bytes the first call did. Recorded answers (older
 * still) are verbatim bodies: untouched. A transfer check's delivery also gets its verdict (withTransferVerdict).
 */
export function outcomeStoredV1toV2(data: unknown): unknown {
  const stored = data as { result: { kind: string; outcome?: unknown } };
  if (stored.result.kind !== 'outcome') return data;
  let outcome = withTransferVerdict(withChargedBilling(stored.result.outcome));
  if (outcome !== null && typeof outcome === 'object' && 'entries' in outcome && Array.isArray(outcome.entries)) {
    outcome = { ...outcome, entries: outcome.entries.map(withChargedBilling) };
  }
  return { ...stored, result: { ...stored.result, outcome } };
}

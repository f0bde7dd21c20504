import { z } from 'zod';
import { changeReasonSchema, type ChangeReason } from '../intel/change-reason.js';

/**
 * A change reason in the words of the webhooks (`service.address.risk_changed`, a retroactive
 * `tx.policy.alert.triggered`) and of the API's monitors, verdicts and alerts: the payload is the
 * integration message, recorded as sent in the WebhookEventRaised the fan-out delivers verbatim, so its
 * words are part of the contract and stay snake case (docs/ARCHITECTURE.md, "Verdicts as domain facts").
 */
export const changeReasonWordsSchema = z.object({
  source: z.string().min(1),
  change: changeReasonSchema.shape.change,
  version: z.string().nullable(),
  changed_at: z.string(),
});
export type ChangeReasonWords = z.infer<typeof changeReasonWordsSchema>;

/** The domain fact in the webhook's words, keys in the order they were always sent. */
export const changeReasonWords = ({ source, change, version, changedAt }: ChangeReason): ChangeReasonWords => ({
  source,
  change,
  version,
  changed_at: changedAt,
});

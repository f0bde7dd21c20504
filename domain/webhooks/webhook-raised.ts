import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';
import { parseWebhookPayload, WEBHOOK_EVENT_TYPES, type WebhookEventType, type WebhookPayload } from './webhook-event-types.js';

/**
 * The contract between the pipelines that have something to tell customers and the webhook fan-out.
 *
 * An emitter (full check, explore, KYT) adds ONE extra event of type `WebhookEventRaised` to the events
 * its decider returns, in the same append as the fact it reports (e.g. beside CheckCompleted), so the
 * notification exists exactly when the fact does. Build it with `webhookEventRaised(...)`, which
 * validates the payload against the spec's schema for that event type. The fan-out processor reads the
 * topics of the stream families in WEBHOOK_SOURCE_FAMILIES and delivers the event to every matching
 * subscription of the audience:
 * - `{ subgroup_id }`: the subscriptions owned by that subgroup (transfer alerts: the policy owner);
 * - `{ user_id }`: the subscriptions of every subgroup the user belongs to (address checks, explore jobs
 *   of a V2 user). Anonymous work (x402) has no audience and raises nothing.
 * For `tx.policy.alert.triggered`, put EVERY alert of the check in the payload (any level): each
 * subscription receives only the alerts at or above its own `alert_min_level`, or nothing.
 * `occurred_at` defaults to the event's own time (its metadata).
 */
export const WEBHOOK_EVENT_RAISED = 'WebhookEventRaised';

/** Stream families whose topics the fan-out reads; an emitter in another family adds its family here. */
export const WEBHOOK_SOURCE_FAMILIES = ['check', 'explore', 'transfer', 'monitor'] as const;

export const webhookAudienceSchema = z.union([
  z.strictObject({ subgroup_id: z.string().min(1) }),
  z.strictObject({ user_id: z.string().min(1) }),
]);
export type WebhookAudience = z.infer<typeof webhookAudienceSchema>;

export const webhookEventRaisedSchema = z.object({
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  audience: webhookAudienceSchema,
  payload: z.record(z.string(), z.unknown()),
  occurred_at: z.string().optional(),
});
export type WebhookEventRaisedData = z.infer<typeof webhookEventRaisedSchema>;
export type WebhookEventRaised = DomainEvent<typeof WEBHOOK_EVENT_RAISED, WebhookEventRaisedData>;

/** The event an emitter appends; throws (a ZodError) when the payload does not match the spec. */
export function webhookEventRaised<T extends WebhookEventType>(input: {
  eventType: T;
  audience: WebhookAudience;
  payload: WebhookPayload<T>;
  occurredAt?: string;
}): WebhookEventRaised {
  return {
    type: WEBHOOK_EVENT_RAISED,
    data: {
      event_type: input.eventType,
      audience: webhookAudienceSchema.parse(input.audience),
      payload: parseWebhookPayload(input.eventType, input.payload),
      ...(input.occurredAt ? { occurred_at: input.occurredAt } : {}),
    },
  };
}

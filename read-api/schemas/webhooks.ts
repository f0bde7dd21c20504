import { z } from 'zod';
import { DELIVERY_STATUSES } from '../../domain/webhooks/webhook-delivery.events.js';
import { ALERT_LEVELS, WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/webhook-event-types.js';
import { isoTimestamp } from './common.js';

/** Bodies of /v1/webhooks (projections/webhook-subscriptions.projection.ts, webhook-deliveries.projection.ts). */

export const subscriptionSchema = z.strictObject({
  id: z.string(),
  subgroup_id: z.string(),
  organization_id: z.string(),
  url: z.string(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  alert_min_level: z.enum(ALERT_LEVELS),
  description: z.string().nullable(),
  created_by: z.string(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  secret_rotated_at: isoTimestamp.nullable(),
});
export type SubscriptionBody = z.infer<typeof subscriptionSchema>;

/** The secret is shown once: in the answer that created or rotated it. */
export const subscriptionWithSecretSchema = subscriptionSchema.extend({ secret: z.string() });
export const rotatedSubscriptionSchema = subscriptionWithSecretSchema.extend({ previous_secret_valid_until: isoTimestamp.nullable() });

export const subscriptionListSchema = z.strictObject({ data: z.array(subscriptionSchema) });

export const deliverySchema = z.strictObject({
  delivery_id: z.string(),
  subscription_id: z.string(),
  subgroup_id: z.string(),
  event_type: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int().min(0),
  synthetic: z.boolean(),
  occurred_at: isoTimestamp,
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  next_attempt_at: isoTimestamp.nullable(),
  last_http_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
});

export const attemptSchema = z.strictObject({
  delivery_id: z.string(),
  subscription_id: z.string(),
  event_type: z.string(),
  attempt: z.number().int().min(1),
  status: z.enum(['delivered', 'failed', 'gave_up']),
  http_status: z.number().int().nullable(),
  error: z.string().nullable(),
  payload_preview: z.string(),
  duration_ms: z.number().min(0),
  attempted_at: isoTimestamp,
  next_attempt_at: isoTimestamp.nullable(),
});

export const deliveryListSchema = z.strictObject({ data: z.array(deliverySchema) });
export const attemptListSchema = z.strictObject({ data: z.array(attemptSchema) });
export const deliveryDetailSchema = deliverySchema.extend({ attempts: z.array(attemptSchema) });

export const testEventSentSchema = z.strictObject({
  delivery_id: z.string(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.literal('pending'),
  synthetic: z.literal(true),
});

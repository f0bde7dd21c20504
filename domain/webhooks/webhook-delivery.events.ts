import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `delivery-{deliveryId}`: one event sent to one subscription, and every attempt to deliver it.
 * The delivery id is the envelope's `delivery_id` and the `webhook-id`: stable across retries.
 */
export const deliveryStreams = streamFamily('delivery');
export const deliveryStream = deliveryStreams.stream;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'gave_up'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const webhookDeliveryEventSchemas = {
  WebhookDeliveryScheduled: z.object({
    deliveryId: z.string(),
    subscriptionId: z.string(),
    subgroupId: z.string(),
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    occurredAt: z.string(),
    payload: z.record(z.string(), z.unknown()),
    synthetic: z.boolean(),
    /** The WebhookEventRaised event this delivery fans out (null for a test delivery). */
    sourceEventId: z.string().nullable(),
    at: z.string(),
  }),
  WebhookDeliveryAttempted: z.object({
    deliveryId: z.string(),
    subscriptionId: z.string(),
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    attempt: z.number().int().min(1),
    /** The delivery's status after this attempt. */
    status: z.enum(['delivered', 'failed', 'gave_up']),
    httpStatus: z.number().int().nullable(),
    /** Why the attempt failed (null when delivered). */
    error: z.string().nullable(),
    /** The first 200 characters of the body sent. */
    payloadPreview: z.string(),
    durationMs: z.number().int().min(0),
    attemptedAt: z.string(),
    nextAttemptAt: z.string().nullable(),
  }),
  /** The subscription was deleted while the delivery waited: no further attempt. */
  WebhookDeliveryAbandoned: z.object({ deliveryId: z.string(), subscriptionId: z.string(), reason: z.string(), at: z.string() }),
} as const;

type Schemas = typeof webhookDeliveryEventSchemas;
export type WebhookDeliveryEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

import { z } from 'zod';
import { ALERT_LEVELS, WEBHOOK_EVENT_TYPES } from './webhook-event-types.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `webhook-{subscriptionId}`: one customer endpoint. The signing secret travels in the events
 * (the delivery processor signs with it); read models never copy it, so no read returns it.
 */
export const webhookStreams = streamFamily('webhook');
export const webhookStream = webhookStreams.stream;

const eventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1);
const level = z.enum(ALERT_LEVELS);

export const webhookSubscriptionEventSchemas = {
  WebhookSubscriptionCreated: z.object({
    subscriptionId: z.string(),
    subgroupId: z.string(),
    organizationId: z.string(),
    createdBy: z.string(),
    url: z.string(),
    eventTypes,
    alertMinLevel: level,
    description: z.string().nullable(),
    secret: z.string(),
    at: z.string(),
  }),
  WebhookSubscriptionUpdated: z.object({
    subscriptionId: z.string(),
    url: z.string().optional(),
    eventTypes: eventTypes.optional(),
    alertMinLevel: level.optional(),
    description: z.string().nullable().optional(),
    updatedBy: z.string(),
    at: z.string(),
  }),
  WebhookSecretRotated: z.object({
    subscriptionId: z.string(),
    secret: z.string(),
    /** Until when the replaced secret also signs (zero-downtime rotation), or null. */
    previousValidUntil: z.string().nullable(),
    rotatedBy: z.string(),
    at: z.string(),
  }),
  WebhookSubscriptionDeleted: z.object({ subscriptionId: z.string(), deletedBy: z.string(), at: z.string() }),
} as const;

type Schemas = typeof webhookSubscriptionEventSchemas;
export type WebhookSubscriptionEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

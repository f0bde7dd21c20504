import { z } from 'zod';
import { ALERT_LEVELS, WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/webhook-event-types.js';
import { MAX_WEBHOOK_URL_LENGTH } from '../../domain/webhooks/webhook-target.js';
import { anyCaseEnum } from '../schemas/common.js';

/** Request shapes of /v1/webhooks (the dashboard's /api/webhooks takes the same bodies). */
const url = z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH);
const eventTypes = z.array(anyCaseEnum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length);
const level = anyCaseEnum(ALERT_LEVELS);
const description = z.string().max(200).nullable();
const id = z.string().min(1).max(100);

export const createWebhookBody = z.strictObject({
  url,
  event_types: eventTypes,
  subgroup_id: id.optional(),
  alert_min_level: level.optional(),
  description: description.optional(),
});

export const updateWebhookBody = z
  .strictObject({
    url: url.optional(),
    event_types: eventTypes.optional(),
    alert_min_level: level.optional(),
    description: description.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'change at least one of url, event_types, alert_min_level, description' });

export const rotateSecretBody = z.strictObject({ previous_secret_valid_hours: z.number().int().min(0).max(72).optional() }).nullish();

export const testEventBody = z.strictObject({ event_type: anyCaseEnum(WEBHOOK_EVENT_TYPES).optional() }).nullish();

export const webhookParams = z.strictObject({ id });
export const deliveryParams = z.strictObject({ id, delivery_id: id });

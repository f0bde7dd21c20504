import type { z } from 'zod';
import { createSubscription, rotateSecret, updateSubscription } from '../../commands/webhook-subscriptions.commands.js';
import type { WebhookActor } from '../../domain/webhooks/webhook-access.js';
import type { AppServices } from '../services.js';
import type { createWebhookBody, rotateSecretBody, updateWebhookBody } from './webhook-schemas.js';
import { managedSubscription } from './webhook-views.js';

/**
 * The subscription writes /v1/webhooks and the dashboard share: wire body → command, then the answer once
 * the read models show the write (a read right after it sees it).
 */
export function webhookActions(services: AppServices) {
  const { commands, subscriptions } = services.webhooks;
  return {
    async create(actor: WebhookActor, body: z.infer<typeof createWebhookBody>) {
      const created = await createSubscription(commands, actor, {
        url: body.url,
        eventTypes: body.event_types,
        ...(body.subgroup_id !== undefined ? { subgroupId: body.subgroup_id } : {}),
        ...(body.alert_min_level !== undefined ? { alertMinLevel: body.alert_min_level } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
      });
      await services.whenProjected(created.position);
      return { ...(await managedSubscription(subscriptions, actor, created.subscriptionId)), secret: created.secret };
    },
    async update(actor: WebhookActor, id: string, body: z.infer<typeof updateWebhookBody>) {
      const { url, event_types: eventTypes, alert_min_level: alertMinLevel, description } = body;
      const written = await updateSubscription(commands, actor, id, {
        ...(url !== undefined ? { url } : {}),
        ...(eventTypes !== undefined ? { eventTypes } : {}),
        ...(alertMinLevel !== undefined ? { alertMinLevel } : {}),
        ...(description !== undefined ? { description } : {}),
      });
      await services.whenProjected(written.position);
      return managedSubscription(subscriptions, actor, id);
    },
    async rotate(actor: WebhookActor, id: string, body: z.infer<typeof rotateSecretBody>) {
      const hours = body?.previous_secret_valid_hours;
      const rotated = await rotateSecret(commands, actor, id, hours === undefined ? {} : { previousSecretValidHours: hours });
      await services.whenProjected(rotated.position);
      return {
        ...(await managedSubscription(subscriptions, actor, id)),
        secret: rotated.secret,
        previous_secret_valid_until: rotated.previousValidUntil,
      };
    },
  };
}

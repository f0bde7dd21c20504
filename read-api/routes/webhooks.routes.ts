import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import {
  createSubscription,
  deleteSubscription,
  rotateSecret,
  sendTestEvent,
  updateSubscription,
} from '../../commands/webhook-subscriptions.commands.js';
import { fail } from '../../domain/shared/errors.js';
import { bearerAuth, callerOf } from '../auth.js';
import type { AppServices } from '../services.js';
import { createWebhookBody, deliveryParams, rotateSecretBody, testEventBody, updateWebhookBody, webhookParams } from './webhook-schemas.js';
import { managedSubscription, visibleSubscriptions } from './webhook-views.js';

/**
 * /v1/webhooks: webhook subscriptions managed with an API key, scoped to the subgroups of the key's
 * user. Writes wait until the read models show them, so a read right after a write sees it.
 */
export const webhookRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));
  const { commands, subscriptions, deliveries } = services.webhooks;
  const actorOf = (request: Parameters<typeof callerOf>[0]) => loadWebhookActor(commands, callerOf(request).userId, 'api_key');
  const tags = ['webhooks'];

  app.post('/v1/webhooks', { schema: { summary: 'Create a subscription (the secret is shown in this answer only)', tags, body: createWebhookBody } }, async (request, reply) => {
    const actor = await actorOf(request);
    const body = request.body;
    const created = await createSubscription(commands, actor, {
      url: body.url,
      eventTypes: body.event_types,
      ...(body.subgroup_id !== undefined ? { subgroupId: body.subgroup_id } : {}),
      ...(body.alert_min_level !== undefined ? { alertMinLevel: body.alert_min_level } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
    });
    await services.whenProjected(created.position);
    return reply.status(201).send({ ...(await managedSubscription(subscriptions, actor, created.subscriptionId)), secret: created.secret });
  });

  app.get('/v1/webhooks', { schema: { summary: 'Subscriptions of your subgroups', tags } }, async (request) => ({
    data: await visibleSubscriptions(subscriptions, await actorOf(request)),
  }));

  app.get('/v1/webhooks/:id', { schema: { summary: 'One subscription (never its secret)', tags, params: webhookParams } }, async (request) =>
    managedSubscription(subscriptions, await actorOf(request), request.params.id),
  );

  app.patch('/v1/webhooks/:id', { schema: { summary: 'Change url, event_types, alert_min_level or description', tags, params: webhookParams, body: updateWebhookBody } }, async (request) => {
    const actor = await actorOf(request);
    const { url, event_types: eventTypes, alert_min_level: alertMinLevel, description } = request.body;
    const written = await updateSubscription(commands, actor, request.params.id, {
      ...(url !== undefined ? { url } : {}),
      ...(eventTypes !== undefined ? { eventTypes } : {}),
      ...(alertMinLevel !== undefined ? { alertMinLevel } : {}),
      ...(description !== undefined ? { description } : {}),
    });
    await services.whenProjected(written.position);
    return managedSubscription(subscriptions, actor, request.params.id);
  });

  app.delete('/v1/webhooks/:id', { schema: { summary: 'Delete a subscription; its pending retries stop', tags, params: webhookParams } }, async (request, reply) => {
    const written = await deleteSubscription(commands, await actorOf(request), request.params.id);
    await services.whenProjected(written.position);
    return reply.status(204).send();
  });

  app.post(
    '/v1/webhooks/:id/rotate-secret',
    { schema: { summary: 'A new secret, shown in this answer only; the old one keeps signing for a while (24 h by default)', tags, params: webhookParams, body: rotateSecretBody } },
    async (request) => {
      const actor = await actorOf(request);
      const hours = request.body?.previous_secret_valid_hours;
      const rotated = await rotateSecret(commands, actor, request.params.id, hours === undefined ? {} : { previousSecretValidHours: hours });
      await services.whenProjected(rotated.position);
      return {
        ...(await managedSubscription(subscriptions, actor, request.params.id)),
        secret: rotated.secret,
        previous_secret_valid_until: rotated.previousValidUntil,
      };
    },
  );

  app.post('/v1/webhooks/:id/test', { schema: { summary: 'Send a synthetic event to this subscription', tags, params: webhookParams, body: testEventBody } }, async (request, reply) => {
    const sent = await sendTestEvent(commands, await actorOf(request), request.params.id, request.body?.event_type);
    return reply.status(202).send({ delivery_id: sent.deliveryId, event_type: sent.eventType, status: 'pending', synthetic: true });
  });

  app.get('/v1/webhooks/:id/deliveries', { schema: { summary: 'The last 100 deliveries with their status', tags, params: webhookParams } }, async (request) => {
    const subscription = await managedSubscription(subscriptions, await actorOf(request), request.params.id);
    return { data: await deliveries.recentDeliveries(subscription.id) };
  });

  app.get('/v1/webhooks/:id/attempts', { schema: { summary: 'The delivery history: the last 100 attempts', tags, params: webhookParams } }, async (request) => {
    const subscription = await managedSubscription(subscriptions, await actorOf(request), request.params.id);
    return { data: await deliveries.recentAttempts(subscription.id) };
  });

  app.get('/v1/webhooks/:id/deliveries/:delivery_id', { schema: { summary: 'One delivery and its attempts', tags, params: deliveryParams } }, async (request) => {
    const subscription = await managedSubscription(subscriptions, await actorOf(request), request.params.id);
    const delivery = await deliveries.get(request.params.delivery_id);
    if (!delivery || delivery.subscription_id !== subscription.id) throw fail('not_found', 'no such delivery');
    return { ...delivery, attempts: await deliveries.attemptsOf(delivery.delivery_id) };
  });
};

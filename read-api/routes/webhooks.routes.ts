import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { deleteSubscription, sendTestEvent } from '../../commands/webhook-subscriptions.commands.js';
import { fail } from '../../domain/shared/errors.js';
import { bearerAuth, callerOf } from '../auth.js';
import type { AppServices } from '../services.js';
import { createWebhookBody, deliveryParams, rotateSecretBody, testEventBody, updateWebhookBody, webhookParams } from './webhook-schemas.js';
import { webhookActions } from './webhook-actions.js';
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
  const actions = webhookActions(services);

  app.post('/v1/webhooks', { schema: { summary: 'Create a subscription (the secret is shown in this answer only)', tags, body: createWebhookBody } }, async (request, reply) =>
    reply.status(201).send(await actions.create(await actorOf(request), request.body)),
  );

  app.get('/v1/webhooks', { schema: { summary: 'Subscriptions of your subgroups', tags } }, async (request) => ({
    data: await visibleSubscriptions(subscriptions, await actorOf(request)),
  }));

  app.get('/v1/webhooks/:id', { schema: { summary: 'One subscription (never its secret)', tags, params: webhookParams } }, async (request) =>
    managedSubscription(subscriptions, await actorOf(request), request.params.id),
  );

  app.patch('/v1/webhooks/:id', { schema: { summary: 'Change url, event_types, alert_min_level or description', tags, params: webhookParams, body: updateWebhookBody } }, async (request) =>
    actions.update(await actorOf(request), request.params.id, request.body),
  );

  app.delete('/v1/webhooks/:id', { schema: { summary: 'Delete a subscription; its pending retries stop', tags, params: webhookParams } }, async (request, reply) => {
    const written = await deleteSubscription(commands, await actorOf(request), request.params.id);
    await services.whenProjected(written.position);
    return reply.status(204).send();
  });

  app.post(
    '/v1/webhooks/:id/rotate-secret',
    { schema: { summary: 'A new secret, shown in this answer only; the old one keeps signing for a while (24 h by default)', tags, params: webhookParams, body: rotateSecretBody } },
    async (request) => actions.rotate(await actorOf(request), request.params.id, request.body),
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

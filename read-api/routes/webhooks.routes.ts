import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { deleteSubscription, sendTestEvent } from '../../commands/webhook-subscriptions.commands.js';
import { fail } from '../../domain/shared/errors.js';
import { bearerAuth, callerOf } from '../auth.js';
import type { AppServices } from '../services.js';
import { createWebhookBody, deliveryParams, rotateSecretBody, testEventBody, updateWebhookBody, webhookParams } from './webhook-schemas.js';
import { webhookActions } from './webhook-actions.js';
import { managedSubscription, visibleSubscriptions } from './webhook-views.js';
import { BEARER_ERRORS, BODY_ERRORS, INPUT_ERRORS, noContent, responses } from '../schemas/responses.js';
import {
  attemptListSchema,
  deliveryDetailSchema,
  deliveryListSchema,
  rotatedSubscriptionSchema,
  subscriptionListSchema,
  subscriptionSchema,
  subscriptionWithSecretSchema,
  testEventSentSchema,
} from '../schemas/webhooks.js';

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
  const read = [...BEARER_ERRORS, ...INPUT_ERRORS, 'not_found'] as const;
  const write = [...read, ...BODY_ERRORS] as const;

  app.post(
    '/v1/webhooks',
    {
      schema: {
        summary: 'Create a subscription (the secret is shown in this answer only)',
        tags,
        body: createWebhookBody,
        response: responses({ 201: subscriptionWithSecretSchema }, [
          ...write,
          'bad_request',
          'webhook_target_refused',
          'webhook_requires_subgroup',
        ]),
      },
    },
    async (request, reply) => reply.status(201).send(await actions.create(await actorOf(request), request.body)),
  );

  app.get(
    '/v1/webhooks',
    {
      schema: {
        summary: 'Subscriptions of your subgroups',
        tags,
        response: responses({ 200: subscriptionListSchema }, [...BEARER_ERRORS, 'not_found']),
      },
    },
    async (request) => ({
      data: await visibleSubscriptions(subscriptions, await actorOf(request)),
    }),
  );

  app.get(
    '/v1/webhooks/:id',
    {
      schema: {
        summary: 'One subscription (never its secret)',
        tags,
        params: webhookParams,
        response: responses({ 200: subscriptionSchema }, read),
      },
    },
    async (request) => managedSubscription(subscriptions, await actorOf(request), request.params.id),
  );

  app.patch(
    '/v1/webhooks/:id',
    {
      schema: {
        summary: 'Change url, event_types, alert_min_level or description',
        tags,
        params: webhookParams,
        body: updateWebhookBody,
        response: responses({ 200: subscriptionSchema }, [...write, 'webhook_target_refused']),
      },
    },
    async (request) => actions.update(await actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      schema: {
        summary: 'Delete a subscription; its pending retries stop',
        tags,
        params: webhookParams,
        response: responses({ 204: noContent('Deleted') }, write),
      },
    },
    async (request, reply) => {
      const written = await deleteSubscription(commands, await actorOf(request), request.params.id);
      await services.whenProjected(written.position);
      return reply.status(204).send();
    },
  );

  app.post(
    '/v1/webhooks/:id/rotate-secret',
    {
      schema: {
        summary: 'A new secret, shown in this answer only; the old one keeps signing for a while (24 h by default)',
        tags,
        params: webhookParams,
        body: rotateSecretBody,
        response: responses({ 200: rotatedSubscriptionSchema }, write),
      },
    },
    async (request) => actions.rotate(await actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/v1/webhooks/:id/test',
    {
      schema: {
        summary: 'Send a synthetic event to this subscription',
        tags,
        params: webhookParams,
        body: testEventBody,
        response: responses({ 202: testEventSentSchema }, write),
      },
    },
    async (request, reply) => {
      const sent = await sendTestEvent(commands, await actorOf(request), request.params.id, request.body?.event_type);
      return reply.status(202).send({ delivery_id: sent.deliveryId, event_type: sent.eventType, status: 'pending', synthetic: true });
    },
  );

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      schema: {
        summary: 'The last 100 deliveries with their status',
        tags,
        params: webhookParams,
        response: responses({ 200: deliveryListSchema }, read),
      },
    },
    async (request) => {
      const subscription = await managedSubscription(subscriptions, await actorOf(request), request.params.id);
      return { data: await deliveries.recentDeliveries(subscription.id) };
    },
  );

  app.get(
    '/v1/webhooks/:id/attempts',
    {
      schema: {
        summary: 'The delivery history: the last 100 attempts',
        tags,
        params: webhookParams,
        response: responses({ 200: attemptListSchema }, read),
      },
    },
    async (request) => {
      const subscription = await managedSubscription(subscriptions, await actorOf(request), request.params.id);
      return { data: await deliveries.recentAttempts(subscription.id) };
    },
  );

  app.get(
    '/v1/webhooks/:id/deliveries/:delivery_id',
    {
      schema: {
        summary: 'One delivery and its attempts',
        tags,
        params: deliveryParams,
        response: responses({ 200: deliveryDetailSchema }, read),
      },
    },
    async (request) => {
      const subscription = await managedSubscription(subscriptions, await actorOf(request), request.params.id);
      const delivery = await deliveries.get(request.params.delivery_id);
      if (!delivery || delivery.subscription_id !== subscription.id) throw fail('not_found', 'no such delivery');
      return { ...delivery, attempts: await deliveries.attemptsOf(delivery.delivery_id) };
    },
  );
};

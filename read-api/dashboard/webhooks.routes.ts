import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { deleteSubscription, sendTestEvent } from '../../commands/webhook-subscriptions.commands.js';
import { fail } from '../../domain/shared/errors.js';
import { mayManage, type WebhookActor } from '../../domain/webhooks/webhook-access.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/webhook-event-types.js';
import type { SubgroupDoc } from '../../projections/subgroups.projection.js';
import { createWebhookBody, rotateSecretBody, updateWebhookBody, webhookParams } from '../routes/webhook-schemas.js';
import { webhookActions } from '../routes/webhook-actions.js';
import type { AppServices } from '../services.js';
import { webhooksPage, type HistoryRow, type WebhookView } from './pages/webhooks.page.js';
import { requireUser } from './session-auth.js';

const HISTORY_ROWS = 100;

const pageQuery = z.object({ subgroup: z.string().max(100).optional().catch(undefined) });
const testBody = z.strictObject({ subscription_id: z.string().min(1).max(100), event_type: z.enum(WEBHOOK_EVENT_TYPES).optional() });

/**
 * /webhooks (the page) and /api/webhooks (its actions), on the commands and read models of the
 * webhooks module that also serve /v1/webhooks. The dashboard's actor also counts group admins and
 * platform super-admins; everyone else gets 404.
 */
export function webhookDashboardRoutes(services: AppServices): FastifyPluginAsync {
  const { commands, subscriptions, deliveries } = services.webhooks;
  const actorOf = (request: FastifyRequest) => loadWebhookActor(commands, requireUser(request).userId, 'dashboard');
  const actions = webhookActions(services);

  /** The subgroups the actor manages, by organization and name. */
  async function manageableSubgroups(actor: WebhookActor): Promise<SubgroupDoc[]> {
    const directory = services.dashboard.subgroups;
    const found = actor.superAdmin
      ? await directory.all()
      : [
          ...(await Promise.all(actor.memberships.map((m) => directory.get(m.subgroupId)))),
          ...(await Promise.all(actor.adminOf.map((org) => directory.inOrganization(org)))).flat(),
        ];
    const unique = new Map(found.filter((s): s is SubgroupDoc => s !== null).map((s) => [s.subgroupId, s]));
    return [...unique.values()].sort((a, b) =>
      `${a.organizationName}/${a.subgroupName}`.localeCompare(`${b.organizationName}/${b.subgroupName}`),
    );
  }

  async function historyOf(subscriptionId: string): Promise<HistoryRow[]> {
    const [recent, attempts] = await Promise.all([deliveries.recentDeliveries(subscriptionId), deliveries.recentAttempts(subscriptionId)]);
    const pending: HistoryRow[] = recent.filter((d) => d.attempts === 0).map((delivery) => ({ kind: 'pending', delivery }));
    const tried: HistoryRow[] = attempts.map((attempt) => ({ kind: 'attempt', attempt }));
    const at = (row: HistoryRow) => (row.kind === 'pending' ? row.delivery.created_at : row.attempt.attempted_at);
    return [...pending, ...tried].sort((a, b) => at(b).localeCompare(at(a))).slice(0, HISTORY_ROWS);
  }

  return async (app) => {
    app.get('/webhooks', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const actor = await actorOf(request);
      const { subgroup: wanted } = pageQuery.parse(request.query ?? {});
      const subgroups = await manageableSubgroups(actor);
      let selected = subgroups[0] ?? null;
      if (wanted !== undefined) {
        const subgroup = await services.dashboard.subgroups.get(wanted);
        // Someone else's subgroup is indistinguishable from one that does not exist.
        if (!subgroup || !mayManage(actor, subgroup)) throw fail('not_found', 'no such subgroup');
        selected = subgroup;
      }
      const webhooks: WebhookView[] = [];
      if (selected) {
        for (const subscription of await subscriptions.list({ subgroupIds: [selected.subgroupId] })) {
          webhooks.push({ subscription, history: await historyOf(subscription.id) });
        }
      }
      const mayCreate = selected !== null && actor.memberships.some((m) => m.subgroupId === selected.subgroupId);
      return reply.type('text/html; charset=utf-8').send(webhooksPage(user, { subgroups, selected, mayCreate, webhooks }).value);
    });

    app.post('/api/webhooks', { schema: { hide: true, body: createWebhookBody } }, async (request, reply) =>
      reply.status(201).send(await actions.create(await actorOf(request), request.body as z.infer<typeof createWebhookBody>)),
    );

    app.patch('/api/webhooks/:id', { schema: { hide: true, params: webhookParams, body: updateWebhookBody } }, async (request) => {
      const { id } = request.params as z.infer<typeof webhookParams>;
      return actions.update(await actorOf(request), id, request.body as z.infer<typeof updateWebhookBody>);
    });

    app.delete('/api/webhooks/:id', { schema: { hide: true, params: webhookParams } }, async (request) => {
      const { id } = request.params as z.infer<typeof webhookParams>;
      await services.whenProjected((await deleteSubscription(commands, await actorOf(request), id)).position);
      return { id, deleted: true };
    });

    app.post(
      '/api/webhooks/:id/rotate-secret',
      { schema: { hide: true, params: webhookParams, body: rotateSecretBody } },
      async (request) => {
        const { id } = request.params as z.infer<typeof webhookParams>;
        return actions.rotate(await actorOf(request), id, request.body as z.infer<typeof rotateSecretBody>);
      },
    );

    // The spec's dashboard test action: a synthetic event to one subscription, delivered like any other.
    app.post('/api/webhooks/test', { schema: { hide: true, body: testBody } }, async (request, reply) => {
      const body = request.body as z.infer<typeof testBody>;
      const sent = await sendTestEvent(commands, await actorOf(request), body.subscription_id, body.event_type);
      await services.whenProjected(sent.position);
      return reply.status(202).send({ delivery_id: sent.deliveryId, event_type: sent.eventType, status: 'pending', synthetic: true });
    });
  };
}

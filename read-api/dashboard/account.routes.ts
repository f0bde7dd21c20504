import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { issueApiKey, revokeApiKey } from '../../commands/api-keys.commands.js';
import { readBalance } from '../../commands/billing.commands.js';
import { presentBilling } from '../presenters/billing.presenter.js';
import type { AppServices } from '../services.js';
import { apiKeysPage } from './pages/api-keys.page.js';
import { usagePage } from './pages/usage.page.js';
import { requireUser } from './session-auth.js';
import { firstChartDay, totalsPerDay } from './usage-chart.js';
import { dayAfter } from './utc-day.js';

const CHART_DAYS = 30;
const PAGE_SIZE = 25;

const usageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  since: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
});

const keyParams = z.object({ keyId: z.string().min(1).max(100) });

/** Account → API (keys) and Account → Usage, and the key actions under /api/keys. */
export function accountRoutes(services: AppServices): FastifyPluginAsync {
  return async (app) => {
    app.get('/account/api', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const keys = await services.apiKeys.listForUser(user.userId);
      return reply.type('text/html; charset=utf-8').send(apiKeysPage(user, keys).value);
    });

    app.post('/api/keys', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const issued = await issueApiKey(services.commands, user.userId);
      await services.whenProjected(issued.position);
      return reply.status(201).send({ key_id: issued.keyId, api_key: issued.apiKey, prefix: issued.prefix, created_at: issued.createdAt });
    });

    app.delete('/api/keys/:keyId', { schema: { hide: true, params: keyParams } }, async (request) => {
      const user = requireUser(request);
      const { keyId } = request.params as z.infer<typeof keyParams>;
      // Revocation is immediate: answer only once the key read model no longer accepts the key.
      await services.whenProjected(await revokeApiKey(services.commands, user.userId, keyId));
      return { key_id: keyId, revoked: true };
    });

    app.get('/account/usage', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const { page, since, to } = usageQuery.parse(request.query ?? {});
      const now = services.commands.clock.now();
      const [balance, found, days, keys] = await Promise.all([
        readBalance(services.commands, user.userId),
        services.usage.page(user.userId, {
          page,
          pageSize: PAGE_SIZE,
          ...(since ? { since: `${since}T00:00:00.000Z` } : {}),
          ...(to ? { until: dayAfter(to) } : {}),
        }),
        services.dashboard.usageDays.since(user.userId, firstChartDay(now, CHART_DAYS)),
        services.apiKeys.listForUser(user.userId),
      ]);
      const view = {
        planKind: balance.plan.kind,
        billing: presentBilling(balance.billing),
        days: totalsPerDay(days, now, CHART_DAYS),
        rows: found.rows,
        page,
        total: found.total,
        totalPages: Math.max(1, Math.ceil(found.total / PAGE_SIZE)),
        since: since ?? null,
        to: to ?? null,
        keyPrefixes: new Map(keys.map((k) => [k.keyId, k.prefix])),
      };
      return reply.type('text/html; charset=utf-8').send(usagePage(user, view).value);
    });
  };
}

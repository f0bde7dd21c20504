import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { TRANSFER_CHAINS } from '../../../domain/shared/network.js';
import type { AppServices } from '../../services.js';
import { requireUser } from '../session-auth.js';
import { HISTORY_KINDS, HISTORY_LEVELS, historyPage } from './history.page.js';
import { dayAfter } from '../utc-day.js';

const PAGE_SIZE = 25;
const KINDS = Object.keys(HISTORY_KINDS) as [string, ...string[]];

/** A filter the page cannot read is dropped, not an error: the form only offers valid values. */
const historyQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  kind: z.enum(KINDS).optional().catch(undefined),
  network: z.enum(TRANSFER_CHAINS).optional().catch(undefined),
  risk_level: z.enum(HISTORY_LEVELS).optional().catch(undefined),
  since: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
});

export function historyRoutes(services: AppServices): FastifyPluginAsync {
  return async (app) => {
    app.get('/history', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const q = historyQuery.parse(request.query ?? {});
      const found = await services.alerts.history.page(
        user.userId,
        {
          ...(q.kind ? { kind: q.kind } : {}),
          ...(q.network ? { network: q.network } : {}),
          ...(q.risk_level ? { riskLevel: q.risk_level } : {}),
          ...(q.since ? { since: `${q.since}T00:00:00.000Z` } : {}),
          ...(q.to ? { until: dayAfter(q.to) } : {}),
        },
        { page: q.page, pageSize: PAGE_SIZE },
      );
      const filter = {
        ...(q.kind ? { kind: q.kind } : {}),
        ...(q.network ? { network: q.network } : {}),
        ...(q.risk_level ? { risk_level: q.risk_level } : {}),
        ...(q.since ? { since: q.since } : {}),
        ...(q.to ? { to: q.to } : {}),
      };
      const view = {
        rows: found.rows,
        total: found.total,
        page: q.page,
        totalPages: Math.max(1, Math.ceil(found.total / PAGE_SIZE)),
        filter,
      };
      return reply.type('text/html; charset=utf-8').send(historyPage(user, view).value);
    });
  };
}

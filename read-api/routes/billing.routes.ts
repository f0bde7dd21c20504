import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readBalance } from '../../commands/billing.commands.js';
import { balanceSummary } from '../presenters/billing.presenter.js';
import { bearerAuth, callerOf } from '../auth.js';
import type { AppServices } from '../services.js';
import { usageQuery } from './request-schemas.js';
import { balanceSchema, usageSchema } from '../schemas/billing.js';
import { BEARER_ERRORS, INPUT_ERRORS, responses } from '../schemas/responses.js';

/** Free reads of the caller's money and usage. Balances come from the ledger stream itself. */
export const billingRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));

  async function summary(userId: string) {
    const { state } = await readBalance(services.commands, userId);
    return balanceSummary(state, services.commands.clock.now().toISOString());
  }

  app.get(
    '/v2/balance',
    { schema: { summary: 'Remaining spend and quota', tags: ['billing'], response: responses({ 200: balanceSchema }, BEARER_ERRORS) } },
    async (request) => summary(callerOf(request).userId),
  );

  app.get(
    '/v2/me/usage',
    {
      schema: {
        summary: 'One row per recorded call',
        tags: ['billing'],
        querystring: usageQuery,
        response: responses({ 200: usageSchema }, [...BEARER_ERRORS, ...INPUT_ERRORS]),
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { page, page_size: pageSize, since, until } = request.query;
      const sinceIso = since === undefined ? undefined : new Date(since).toISOString();
      const untilIso = until === undefined ? undefined : new Date(until).toISOString();
      const [billing, found] = await Promise.all([
        summary(userId),
        services.usage.page(userId, { page, pageSize, ...(sinceIso ? { since: sinceIso } : {}), ...(untilIso ? { until: untilIso } : {}) }),
      ]);
      return {
        billing,
        rows: found.rows,
        pagination: { page, page_size: pageSize, total: found.total, total_pages: Math.ceil(found.total / pageSize) },
      };
    },
  );
};

import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { deliverTransferCheck, ownedBy } from '../../../commands/kyt/deliver-transfer-check.js';
import { loadTransferCheck } from '../../../commands/kyt/transfer-check.commands.js';
import { fail, hasCode, isServiceError } from '../../../domain/shared/errors.js';
import { present } from '../../../domain/shared/present.js';
import type { AppServices } from '../../services.js';
import { requireUser } from '../session-auth.js';
import { chargedText } from './charged-text.js';
import { transferRouteHops } from './hop-usd.js';
import { readTransferResult, transferRoutes } from './transfer-evidence.js';
import { presentTransferResult } from '../../presenters/transfer.presenter.js';
import { transferFailedPage, transferUnreadablePage, transferVerdictPage } from './transfer-verdict.page.js';
import { DASHBOARD_KEY_ID } from './screen.routes.js';
import { runningPage } from './screen.page.js';

const params = z.object({ id: z.string().max(64) });

/**
 * A transfer check's verdict page for its owner (anyone else: 404), delivered like the API's poll: a
 * check already delivered is shown again at no cost; its alerts link to their cases.
 */
export function transferVerdictRoutes(services: AppServices): FastifyPluginAsync {
  const deps = services.transfers.deps;
  return async (app) => {
    app.get('/checks/transfer/:id', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const { id } = params.parse(request.params);
      const state = await loadTransferCheck(deps, id.toLowerCase());
      if (!ownedBy(state, user.userId)) throw fail('not_found', 'no such transfer check');
      const delivery = await deliverTransferCheck(deps, state, { userId: user.userId, keyId: DASHBOARD_KEY_ID }).catch((error: unknown) => {
        if (hasCode(error, 'tx_not_found') || hasCode(error, 'tx_decode_failed') || hasCode(error, 'backend_unavailable')) return error;
        throw error;
      });
      if (isServiceError(delivery))
        return reply.type('text/html; charset=utf-8').send(transferFailedPage(user, id.toLowerCase(), delivery.message).value);
      if (delivery.kind === 'running')
        return reply
          .type('text/html; charset=utf-8')
          .send(runningPage(user, `/checks/transfer/${encodeURIComponent(id)}`, 'transfer check').value);
      const body = readTransferResult(presentTransferResult(delivery.verdict));
      const { requester, chain } = present(state.request, "an owned check's request");
      if (!body) return reply.type('text/html; charset=utf-8').send(transferUnreadablePage(user, id.toLowerCase()).value);
      const cases = (
        await services.alerts.cases.page(
          [requester.channel === 'v2' ? requester.subgroupId : ''],
          { checkId: body.check_id },
          { page: 1, pageSize: 100 },
        )
      ).rows;
      const routes = transferRoutes(body.composite_result.senders);
      const hops = await transferRouteHops(deps.transfers, chain, routes.shown);
      return reply
        .type('text/html; charset=utf-8')
        .send(transferVerdictPage(user, body, cases, chargedText(delivery.billing), { routes, hops }).value);
    });
  };
}

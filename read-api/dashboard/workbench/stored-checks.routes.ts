import { inspectResultBody } from '../../presenters/inspect.presenter.js';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { deliverInspect } from '../../../commands/inspect/deliver-inspect.js';
import { fail, hasCode } from '../../../domain/shared/errors.js';
import type { AppServices } from '../../services.js';
import { requireUser } from '../session-auth.js';
import { chargedText } from './charged-text.js';
import { inspectFailedPage, inspectVerdictPage } from './inspect-verdict.page.js';
import { runningPage } from './screen.page.js';
import { storedScreenPage } from './stored-screen.page.js';

const params = z.object({ id: z.string().max(64) });

/**
 * The verdict pages of History's light screens (their stored summary) and inspects (delivered like the
 * API's poll: shown again at no cost once charged). Someone else's check is a 404, like a missing one.
 */
export function storedCheckRoutes(services: AppServices): FastifyPluginAsync {
  const send = (reply: FastifyReply, body: { value: string }) => reply.type('text/html; charset=utf-8').send(body.value);
  return async (app) => {
    app.get('/checks/screen/:id', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const { id } = params.parse(request.params);
      const row = await services.alerts.history.get(user.userId, id);
      if (row?.kind !== 'screen') throw fail('not_found', 'no such light screen');
      return send(reply, storedScreenPage(user, row));
    });

    app.get('/checks/inspect/:id', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const { id } = params.parse(request.params);
      const checkId = id.toLowerCase();
      try {
        const delivery = await deliverInspect(services.commands, { userId: user.userId, checkId });
        if (delivery.kind === 'running') return send(reply, runningPage(user, `/checks/inspect/${encodeURIComponent(checkId)}`, 'inspect'));
        // The page shows the V2 result body: one presenter shapes it for the API and the workbench.
        const body = inspectResultBody(delivery);
        // A delivered inspect has its audit; one without has no verdict to show.
        if (!body.audit) return send(reply, inspectFailedPage(user, checkId, 'the inspect has no audit'));
        return send(reply, inspectVerdictPage(user, { ...body, audit: body.audit }, chargedText(delivery.billing)));
      } catch (error) {
        // Every provider failed, or the time cap passed: the inspect has no verdict and nothing is charged.
        if (hasCode(error, 'backend_unavailable')) return send(reply, inspectFailedPage(user, checkId, error.message));
        throw error;
      }
    });
  };
}

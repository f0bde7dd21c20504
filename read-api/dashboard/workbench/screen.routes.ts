import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { deliverAddressCheckResult, submitAddressCheck } from '../../../commands/address-check.commands.js';
import { screenAddress } from '../../../commands/screen-address.js';
import { presentBilling } from '../../presenters/billing.presenter.js';
import { isServiceError } from '../../../domain/shared/errors.js';
import { parseAddressInput } from '../../routes/address-input.js';
import type { AppServices } from '../../services.js';
import { RequestValidationError } from '../../validation.js';
import { requireUser } from '../session-auth.js';
import { chargedText } from './charged-text.js';
import { hopAmounts } from './hop-usd.js';
import { drawnRoutes } from './verdict-sections.js';
import { parseNetwork } from '../../../domain/shared/network.js';
import { fullVerdictPage, lightVerdictPage, runningPage, screenPage, type ScreenForm } from './screen.page.js';
import { presentFullCheck } from '../../presenters/full-check.presenter.js';
import { screenVerdictParts } from '../../presenters/screen-verdict.body.js';

/**
 * Calls made from the dashboard carry this in place of an API key id (usage rows show no key for them);
 * otherwise they run the very commands the API routes run, so they are billed exactly the same.
 */
export const DASHBOARD_KEY_ID = 'dashboard';

const screenForm = z.object({
  csrf: z.string().optional(),
  address: z.string().max(120).default(''),
  network: z.string().max(20).default('ETH'),
  kind: z.enum(['screen', 'full']).default('screen'),
});
const checkParams = z.object({ id: z.string().max(64) });

/** A refusal the form can explain (bad input, no money): shown above the form, with the HTTP status it has on the API. */
function formError(error: unknown): { status: number; message: string } | null {
  if (error instanceof RequestValidationError) return { status: 422, message: error.detail.map((d) => d.msg).join('; ') };
  if (!isServiceError(error)) return null;
  switch (error.code) {
    case 'bad_request':
    case 'unsupported_network':
      return { status: 400, message: error.message };
    case 'insufficient_funds':
    case 'quota_exceeded':
    case 'monthly_cap_exceeded':
      return { status: 402, message: `Not run: ${error.message}. Nothing was charged.` };
    default:
      return null;
  }
}

/** Screen from the dashboard: the form, the light screen's verdict, and the full check's running and verdict pages. */
export function screenDashboardRoutes(services: AppServices): FastifyPluginAsync {
  const deps = services.commands;
  const html = (reply: FastifyReply, status: number, body: { value: string }) =>
    reply.status(status).type('text/html; charset=utf-8').send(body.value);

  return async (app) => {
    app.get('/screen', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      return html(reply, 200, screenPage(user, { address: '', network: 'ETH', kind: 'screen', error: null }));
    });

    app.post('/screen', { schema: { hide: true } }, async (request: FastifyRequest, reply) => {
      const user = requireUser(request);
      const fields = screenForm.parse(request.body ?? {}); // its CSRF field was checked before (dashboard.routes.ts)
      const form: ScreenForm = { address: fields.address, network: fields.network, kind: fields.kind, error: null };
      try {
        const { address, network } = parseAddressInput(fields);
        const caller = { userId: user.userId, keyId: DASHBOARD_KEY_ID };
        if (fields.kind === 'full') {
          const checkId = deps.ids.newId();
          await submitAddressCheck(deps, { ...caller, checkId, address, network, budget: services.pipeline.checkBudget });
          return reply.redirect(`/checks/address/${checkId}`, 303);
        }
        const { verdict, billing } = await screenAddress(deps, { ...caller, callId: deps.ids.newId(), address, network });
        const body = screenVerdictParts(verdict.screen);
        return html(
          reply,
          200,
          lightVerdictPage(user, {
            address,
            network,
            coverage: body.coverage,
            verdict: body.verdict,
            charged: chargedText(billing),
            at: deps.clock.now().toISOString(),
          }),
        );
      } catch (error) {
        const refused = formError(error);
        if (!refused) throw error;
        return html(reply, refused.status, screenPage(user, { ...form, error: refused.message }));
      }
    });

    app.get('/checks/address/:id', { schema: { hide: true } }, async (request, reply) => {
      const user = requireUser(request);
      const { id } = checkParams.parse(request.params);
      const delivery = await deliverAddressCheckResult(deps, { checkId: id, userId: user.userId, keyId: DASHBOARD_KEY_ID });
      if (delivery.kind === 'running') {
        return html(reply, 200, runningPage(user, `/checks/address/${encodeURIComponent(id)}`));
      }
      const body = { ...presentFullCheck(delivery.verdict), billing: presentBilling(delivery.billing) };
      const network = parseNetwork(body.network);
      const hops = network
        ? await Promise.all(
            drawnRoutes(body).shown.map(({ evidence, path }) =>
              hopAmounts(
                services.transfers.deps.transfers,
                network,
                { addresses: path.addresses, direction: evidence.direction },
                services.pipeline.checkBudget.perNodeLimit,
              ),
            ),
          )
        : [];
      return html(reply, 200, fullVerdictPage(user, body, chargedText(delivery.billing), hops));
    });
  };
}

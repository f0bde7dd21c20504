import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deliverInspect, inspectResultUrl } from '../../commands/inspect/deliver-inspect.js';
import { startInspect } from '../../commands/inspect/start-inspect.js';
import { selectProviders } from '../../domain/inspect/provider-selection.js';
import { fail } from '../../domain/shared/errors.js';
import { bearerAuth, callerOf } from '../auth.js';
import { presentInspectDelivery } from '../presenters/inspect.presenter.js';
import type { AppServices } from '../services.js';
import { parseAddressInput } from './address-input.js';
import { idempotencyHeader } from './request-schemas.js';
import { addressField, networkField } from '../schemas/common.js';
import { inspectResultSchema, inspectRunningSchema } from '../schemas/inspect.js';
import { ADDRESS_ERRORS, BEARER_ERRORS, BODY_ERRORS, CHARGE_ERRORS, INPUT_ERRORS, responses } from '../schemas/responses.js';

const inspectBody = z.strictObject({
  address: addressField,
  network: networkField,
  providers: z.array(z.string().max(64)).max(32).optional(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** First poll delay the 202 suggests; clients back off from it to 10 s (polling is not penalized). */
const RETRY_AFTER_SECONDS = 2;

/**
 * POST /v2/inspect-address (entitled keys only) and GET /v2/inspect/{check_id}/result. The POST starts
 * the inspect (or finds the one its Idempotency-Key started) and waits for it up to the configured
 * wait: 200 with the result (charged then), else 202; past the wall-clock cap, 504 with nothing charged.
 */
export const inspectRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));
  const { commands, inspect } = services;

  /** Waits for the inspect to finish until `until` (epoch ms), then delivers what there is. */
  async function deliverBy(userId: string, checkId: string, until: number) {
    for (;;) {
      const waiter = inspect.completions.next(checkId, until - commands.clock.now().getTime());
      try {
        const response = presentInspectDelivery(await deliverInspect(commands, { userId, checkId }));
        if (response.status !== 202 || commands.clock.now().getTime() >= until || !(await waiter.finished)) return response;
      } finally {
        waiter.cancel();
      }
    }
  }

  app.post(
    '/v2/inspect-address',
    {
      schema: {
        summary: 'Multi-provider inspect of an address: a synthesized audit and each provider’s raw verdict',
        tags: ['inspect'],
        body: inspectBody,
        headers: idempotencyHeader,
        response: responses({ 200: inspectResultSchema, 202: inspectRunningSchema }, [
          ...BEARER_ERRORS,
          ...BODY_ERRORS,
          ...ADDRESS_ERRORS,
          ...CHARGE_ERRORS,
          'consensus_not_entitled',
          'idempotency_conflict',
          'backend_unavailable',
          'gateway_timeout',
        ]),
      },
    },
    async (request, reply) => {
      const started = commands.clock.now().getTime();
      const caller = callerOf(request);
      const account = await services.accounts.get(caller.userId);
      if (!account?.inspectProviders) throw fail('consensus_not_entitled', 'this API key is not enabled for inspect-address');
      const { address, network } = parseAddressInput(request.body);
      const selection = selectProviders({
        requested: request.body.providers,
        entitled: account.inspectProviders,
        saved: (await inspect.keySelections.providersOf(caller.keyId)) ?? account.selectedProviders,
        catalog: inspect.catalog,
        network,
      });
      const { checkId } = await startInspect(commands, {
        ...caller,
        address,
        network,
        requestedProviders: request.body.providers,
        selection,
        idempotencyKey: request.headers['idempotency-key'],
      });
      const capAt = started + inspect.wallClockCapMs;
      const deadline = Math.min(started + inspect.waitMs, capAt);
      const response = await deliverBy(caller.userId, checkId, deadline);
      // Still running at the deadline: past the cap when the cap was the deadline. Not a fresh clock reading,
      // which a timer may beat by a millisecond (a 202 where the cap had been reached).
      if (response.status === 202 && deadline === capAt) {
        throw fail(
          'gateway_timeout',
          'the inspect did not finish within the wall-clock cap; nothing was charged. Retry with the same Idempotency-Key, or poll retry_url',
          {
            check_id: checkId,
            retry_url: inspectResultUrl(checkId),
          },
        );
      }
      if (response.status === 202) reply.header('retry-after', RETRY_AFTER_SECONDS);
      return reply.status(response.status).send(response.body);
    },
  );

  app.get(
    '/v2/inspect/:check_id/result',
    {
      schema: {
        summary: 'Result of an inspect: 200 (charged once, on the first delivery), 202 while running',
        tags: ['inspect'],
        // any string: what is not one of the caller's check ids is 404, never a validation error
        params: z.object({ check_id: z.string() }),
        response: responses({ 200: inspectResultSchema, 202: inspectRunningSchema }, [
          ...BEARER_ERRORS,
          ...INPUT_ERRORS,
          ...CHARGE_ERRORS,
          'not_found',
          'backend_unavailable',
        ]),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const checkId = request.params.check_id.toLowerCase();
      if (!UUID.test(checkId)) throw fail('not_found', 'no such inspect');
      const response = presentInspectDelivery(await deliverInspect(commands, { userId: caller.userId, checkId }));
      if (response.status === 202) reply.header('retry-after', RETRY_AFTER_SECONDS);
      return reply.status(response.status).send(response.body);
    },
  );
};

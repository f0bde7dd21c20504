import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deliverTransferCheck, ownedBy } from '../../commands/kyt/deliver-transfer-check.js';
import { awaitTransferCheck, loadTransferCheck, submitTransferCheck } from '../../commands/kyt/transfer-check.commands.js';
import { fail } from '../../domain/shared/errors.js';
import { bearerAuth, callerOf } from '../auth.js';
import { presentedCall } from '../presenters/presented.js';
import { presentTransferDelivery } from '../presenters/transfer.presenter.js';
import type { AppServices } from '../services.js';
import { idempotencyHeader } from './request-schemas.js';
import { parseTransferInput, transferBody } from './transfer-input.js';
import { transferResultSchema, transferRunningSchema, transferSubmitResultSchema } from '../schemas/transfer.js';
import { BEARER_ERRORS, BODY_ERRORS, CHARGE_ERRORS, INPUT_ERRORS, responses } from '../schemas/responses.js';
import { transferDeliverySchema } from '../../domain/idempotency/keyed-outcomes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /v2/check-transfer and GET /v2/transfer/{check_id}/result. The POST starts the check and waits
 * for it (about 25 s): 200 with the result (charged 0.50 USD or 1 unit), else 202 with the retry URL.
 * The charge id is the check id, so the POST's 200 and every poll together charge once.
 */
export const transferCheckRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));
  const { deps, syncWaitMs } = services.transfers;

  app.post(
    '/v2/check-transfer',
    {
      schema: {
        summary: 'Transfer check (KYT): decode a transaction, weigh its senders’ exposure in USD and apply the standard policy',
        tags: ['transfer'],
        body: transferBody,
        headers: idempotencyHeader,
        response: responses({ 200: transferSubmitResultSchema, 202: transferRunningSchema }, [
          ...BEARER_ERRORS,
          ...BODY_ERRORS,
          ...CHARGE_ERRORS,
          'unsupported_network',
          'idempotency_conflict',
          'kyt_requires_subgroup',
          'tx_not_found',
          'tx_decode_failed',
          'backend_unavailable',
        ]),
      },
    },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const { chain, txHash } = parseTransferInput(request.body);
      const run = async (checkId: string) => {
        await submitTransferCheck(deps, { checkId, chain, txHash, ...caller });
        return deliverTransferCheck(deps, await awaitTransferCheck(deps, checkId, syncWaitMs), caller);
      };
      const key = request.headers['idempotency-key'];
      const response = await presentedCall(
        deps,
        { key, userId: caller.userId, route: 'POST /v2/check-transfer', body: { chain, tx_hash: txHash }, outcome: transferDeliverySchema },
        run,
        presentTransferDelivery,
      );
      const body =
        response.status === 200 ? { ...(response.body as object), elapsed_ms: Math.round(performance.now() - started) } : response.body;
      return reply.status(response.status).send(body);
    },
  );

  app.get(
    '/v2/transfer/:check_id/result',
    {
      schema: {
        summary: 'Result of a transfer check: 200 (charged once, on the first delivery), 202 running, 502 failed (never charged)',
        tags: ['transfer'],
        params: z.object({ check_id: z.string() }),
        response: responses({ 200: transferResultSchema, 202: transferRunningSchema }, [
          ...BEARER_ERRORS,
          ...INPUT_ERRORS,
          ...CHARGE_ERRORS,
          'not_found',
          'tx_not_found',
          'tx_decode_failed',
          'backend_unavailable',
        ]),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (!UUID.test(request.params.check_id)) throw fail('not_found', 'no such transfer check');
      const state = await loadTransferCheck(deps, request.params.check_id.toLowerCase());
      if (!ownedBy(state, caller.userId)) throw fail('not_found', 'no such transfer check');
      const response = presentTransferDelivery(await deliverTransferCheck(deps, state, caller));
      return reply.status(response.status).send(response.body);
    },
  );
};

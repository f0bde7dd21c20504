import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deliverAddressCheckResult, submitAddressCheck } from '../../commands/address-check.commands.js';
import { requireSanctionsList } from '../../domain/intel/sanctions-data.js';
import { fail } from '../../domain/shared/errors.js';
import { bearerAuth, callerOf } from '../auth.js';
import { presentCheckAccepted, presentCheckDelivery } from '../presenters/address-check.presenter.js';
import { presentedCall } from '../presenters/presented.js';
import type { AppServices } from '../services.js';
import { parseAddressInput } from './address-input.js';
import { addressBody, idempotencyHeader } from './request-schemas.js';
import { checkResultSchema, checkRunningSchema, checkSubmittedSchema } from '../schemas/check-address.js';
import { ADDRESS_ERRORS, BEARER_ERRORS, BODY_ERRORS, CHARGE_ERRORS, INPUT_ERRORS, responses } from '../schemas/responses.js';
import { checkAcceptedSchema } from '../../domain/idempotency/keyed-outcomes.js';

/** Seconds a client waits before polling a running check again (the spec: poll every few seconds). */
const POLL_AFTER_SECONDS = 2;
const MAX_ID_LENGTH = 64;

const checkIdParams = z.object({ check_id: z.string() });

/**
 * POST /v2/check-address and GET /v2/check-address/{check_id}/result: the asynchronous four-tier full
 * check. The submit never charges and never waits for the pipeline; the result is charged 1.00 USD or
 * 1 unit on its first 200 only.
 */
export const checkAddressRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));

  app.post(
    '/v2/check-address',
    {
      schema: {
        summary: 'Start a full check (sanctions, consensus, one hop, graph exposure); answers 202 at once',
        tags: ['check-address'],
        body: addressBody,
        headers: idempotencyHeader,
        response: responses({ 202: checkSubmittedSchema }, [
          ...BEARER_ERRORS,
          ...BODY_ERRORS,
          ...ADDRESS_ERRORS,
          ...CHARGE_ERRORS,
          'idempotency_conflict',
          'backend_unavailable',
        ]),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      // An unknown network is a 400 here, before any job exists.
      const { address, network } = parseAddressInput(request.body);
      // Without any sanctions list the check would clear a sanctioned address: 502 before any job or charge.
      requireSanctionsList(services.commands.intel);
      const run = (checkId: string) =>
        submitAddressCheck(services.commands, { ...caller, checkId, address, network, budget: services.pipeline.checkBudget });
      const key = request.headers['idempotency-key'];
      const response = await presentedCall(
        services.commands,
        { key, userId: caller.userId, route: 'POST /v2/check-address', body: { address, network }, outcome: checkAcceptedSchema },
        run,
        presentCheckAccepted,
      );
      return reply.status(response.status).send(response.body);
    },
  );

  app.get(
    '/v2/check-address/:check_id/result',
    {
      schema: {
        summary: 'The full check result: 202 running, 200 verdict (charged once), 502 failed',
        tags: ['check-address'],
        params: checkIdParams,
        response: responses({ 200: checkResultSchema, 202: checkRunningSchema }, [
          ...BEARER_ERRORS,
          ...INPUT_ERRORS,
          ...CHARGE_ERRORS,
          'not_found',
          'check_failed',
        ]),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const checkId = request.params.check_id;
      if (checkId.length === 0 || checkId.length > MAX_ID_LENGTH) throw fail('not_found', 'no such check');
      const response = presentCheckDelivery(await deliverAddressCheckResult(services.commands, { checkId, ...caller }));
      if (response.status === 202) reply.header('retry-after', String(POLL_AFTER_SECONDS));
      return reply.status(response.status).send(response.body);
    },
  );
};

import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deliverExploreResult, submitExplore } from '../../commands/explore.commands.js';
import { fail } from '../../domain/shared/errors.js';
import { bearerAuth, callerOf } from '../auth.js';
import { presentExploreAccepted, presentExploreDelivery } from '../presenters/explore.presenter.js';
import { presentedCall } from '../presenters/presented.js';
import type { AppServices } from '../services.js';
import { parseAddressInput } from './address-input.js';
import { idempotencyHeader } from './request-schemas.js';
import { addressField, networkField } from '../schemas/common.js';
import { exploreResultSchema, exploreRunningSchema, exploreSubmittedSchema } from '../schemas/explore.js';
import { ADDRESS_ERRORS, BEARER_ERRORS, BODY_ERRORS, CHARGE_ERRORS, INPUT_ERRORS, responses } from '../schemas/responses.js';
import { anyCaseEnum } from '../schemas/common.js';
import { exploreAcceptedSchema } from '../../domain/idempotency/keyed-outcomes.js';

const POLL_AFTER_SECONDS = 2;
const jobIdParams = z.object({ job_id: z.string() });

export const exploreBody = z.strictObject({
  address: addressField,
  network: networkField,
  /** in: where the funds came from; out: where they went; both. */
  direction: anyCaseEnum(['in', 'out', 'both']).default('in'),
  max_hops: z.number().int().min(1).max(20).optional(),
  max_nodes: z.number().int().min(1).optional(),
});

/**
 * POST /v2/explore and GET /v2/explore/{job_id}/result: an asynchronous graph exposure job on the V2
 * channel (the x402 channel serves POST /explore). Charged like the full check, once on the first 200.
 * Its outcome raises service.bfs.completed / service.bfs.failed for the key's user.
 */
export const exploreRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', bearerAuth(services.apiKeys));

  app.post(
    '/v2/explore',
    {
      schema: {
        summary: 'Start a graph exposure job; answers 202 at once',
        tags: ['explore'],
        body: exploreBody,
        headers: idempotencyHeader,
        response: responses({ 202: exploreSubmittedSchema }, [
          ...BEARER_ERRORS,
          ...BODY_ERRORS,
          ...ADDRESS_ERRORS,
          ...CHARGE_ERRORS,
          'idempotency_conflict',
        ]),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { address, network } = parseAddressInput(request.body);
      const max = services.pipeline.exploreMaxBudget;
      const body = request.body;
      const budget = {
        ...max,
        maxHops: Math.min(body.max_hops ?? max.maxHops, max.maxHops),
        maxNodes: Math.min(body.max_nodes ?? max.maxNodes, max.maxNodes),
      };
      const run = (jobId: string) =>
        submitExplore(services.commands, { ...caller, jobId, address, network, direction: body.direction, budget });
      const normalized = { address, network, direction: body.direction, max_hops: budget.maxHops, max_nodes: budget.maxNodes };
      const key = request.headers['idempotency-key'];
      const response = await presentedCall(
        services.commands,
        { key, userId: caller.userId, route: 'POST /v2/explore', body: normalized, outcome: exploreAcceptedSchema },
        run,
        presentExploreAccepted,
      );
      return reply.status(response.status).send(response.body);
    },
  );

  app.get(
    '/v2/explore/:job_id/result',
    {
      schema: {
        summary: 'The explore report: 202 running, 200 report (charged once), 502 failed',
        tags: ['explore'],
        params: jobIdParams,
        response: responses({ 200: exploreResultSchema, 202: exploreRunningSchema }, [
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
      const jobId = request.params.job_id;
      if (jobId.length === 0 || jobId.length > 64) throw fail('not_found', 'no such explore job');
      const response = presentExploreDelivery(
        await deliverExploreResult(services.commands, { jobId, owner: { channel: 'v2', ownerId: caller.userId }, keyId: caller.keyId }),
      );
      if (response.status === 202) reply.header('retry-after', String(POLL_AFTER_SECONDS));
      return reply.status(response.status).send(response.body);
    },
  );
};
